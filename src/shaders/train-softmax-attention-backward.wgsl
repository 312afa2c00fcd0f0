// Softmax attention backward of the trainer (CPU twin: src/core/train/softmax-attention.ts
// `softmaxAttentionBackward`; dispatcher: src/gpu/train/softmax-attention.ts).
//
// With P from the forward pass (P[((b·H + h)·L + i)·L + j]) and dO = ∂loss/∂out, per (b, h):
//   dP_ij = dO_i·v_j,   D_i = Σ_j P_ij dP_ij,   dS_ij = P_ij (dP_ij − D_i)
//   dQ_i = Σ_j dS_ij k_j / √dh            (entry `rows`, one invocation per query row i)
//   dK_j = Σ_i dS_ij q_i / √dh,  dV_j = Σ_i P_ij dO_i   (entry `cols`, one invocation per key j)
// Causal: only j ≤ i (P and dS are zero above the diagonal; `cols` reads i ≥ j only). dS goes
// through a scratch buffer of P's shape, written by `rows` (each invocation its own row: first
// dP, then dS) and read by `cols` (two passes in order: WebGPU orders the passes of one encoder).
// Views and uniform: train-softmax-attention-common.wgsl (its view `o` is dOut here).
//
// Thread mapping: one invocation per block of 8 consecutive query rows (`rows`) or keys (`cols`)
// of one (b, h) (`attn_block8`, workgroups of 16), no workgroup memory, no barriers. Every product
// is an 8 × 8 register tile, 16 loads per 64 FMAs: dP = dO·Vᵀ (8 rows × 8 keys, over c),
// dQ = dS·K (8 rows × 8 columns, over j), dV = Pᵀ·dO and dK = dSᵀ·Q (8 keys × 8 columns, over i,
// one after the other; dP, dV and dK a Block8 summed by block8_fma, train-block8.wgsl, prepended
// by the dispatcher; dQ written out, as the forward's out tile), where one row per invocation
// summing in place paid 2–3 storage accesses per FMA (see the forward shader for why that is what
// costs on SwiftShader). Rows and keys past L read
// row L − 1 (clamped) and are never written. Sums run in the same order as before the blocking
// (c for dP, j for D and dQ, i for dV and dK), one fma chain per output.
// Dispatch: ⌈B·H·⌈L/8⌉ / 16⌉ workgroups of 16 per entry.

@group(0) @binding(4) var<storage, read> Pm: array<f32>;
@group(0) @binding(5) var<storage, read> dO: array<f32>;
@group(0) @binding(6) var<storage, read_write> dS: array<f32>;
@group(0) @binding(7) var<storage, read_write> dQ: array<f32>;
@group(0) @binding(8) var<storage, read_write> dK: array<f32>;
@group(0) @binding(9) var<storage, read_write> dV: array<f32>;

@compute @workgroup_size(16)
fn rows(@builtin(global_invocation_id) gid: vec3<u32>) {
  let w = attn_block8(gid);
  if (attn_block8_out(w)) { return; }
  let L = U.L;
  let dh = U.dh;
  let step = vec4<u32>(0u, 1u, 2u, 3u);
  let last = vec4<u32>(L - 1u);
  let b8 = rows8(w);
  let jmax = b8.jmax;
  let prow = b8.prow;
  let rvs = b8.rv;
  let jends = b8.jend;
  let oa = heads4(U.off_o, U.ld_o, w, b8.rc0);
  let ob = heads4(U.off_o, U.ld_o, w, b8.rc1);
  // dP = dO_i·v_j into dS, 8 keys at a time; D_i = Σ_j P_ij dP_ij in j order
  var D = array<f32, 8>(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
  for (var j0 = 0u; j0 < jmax; j0 += 8u) {
    let jc0 = min(vec4<u32>(j0) + step, last);
    let jc1 = min(vec4<u32>(j0 + 4u) + step, last);
    let va = heads4(U.off_v, U.ld_v, w, jc0);
    let vb = heads4(U.off_v, U.ld_v, w, jc1);
    var dpt = Block8();
    for (var c = 0u; c < dh; c++) {
      let v0 = vec4<f32>(V[va.x + c], V[va.y + c], V[va.z + c], V[va.w + c]);
      let v1 = vec4<f32>(V[vb.x + c], V[vb.y + c], V[vb.z + c], V[vb.w + c]);
      let x0 = vec4<f32>(dO[oa.x + c], dO[oa.y + c], dO[oa.z + c], dO[oa.w + c]);
      let x1 = vec4<f32>(dO[ob.x + c], dO[ob.y + c], dO[ob.z + c], dO[ob.w + c]);
      dpt = block8_fma(dpt, x0, x1, v0, v1);
    }
    D[0] = dp_row(rvs[0] < L, prow[0] + j0, jends[0] - min(jends[0], j0), dpt.c00, dpt.c01, D[0]);
    D[1] = dp_row(rvs[1] < L, prow[1] + j0, jends[1] - min(jends[1], j0), dpt.c10, dpt.c11, D[1]);
    D[2] = dp_row(rvs[2] < L, prow[2] + j0, jends[2] - min(jends[2], j0), dpt.c20, dpt.c21, D[2]);
    D[3] = dp_row(rvs[3] < L, prow[3] + j0, jends[3] - min(jends[3], j0), dpt.c30, dpt.c31, D[3]);
    D[4] = dp_row(rvs[4] < L, prow[4] + j0, jends[4] - min(jends[4], j0), dpt.c40, dpt.c41, D[4]);
    D[5] = dp_row(rvs[5] < L, prow[5] + j0, jends[5] - min(jends[5], j0), dpt.c50, dpt.c51, D[5]);
    D[6] = dp_row(rvs[6] < L, prow[6] + j0, jends[6] - min(jends[6], j0), dpt.c60, dpt.c61, D[6]);
    D[7] = dp_row(rvs[7] < L, prow[7] + j0, jends[7] - min(jends[7], j0), dpt.c70, dpt.c71, D[7]);
  }
  // dS = P (dP − D), zeros past each row's end
  for (var r = 0u; r < 8u; r++) {
    if (rvs[r] >= L) { continue; }
    let pr = prow[r];
    for (var j = 0u; j < L; j++) {
      var x = 0.0;
      if (j < jends[r]) { x = Pm[pr + j] * (dS[pr + j] - D[r]); }
      dS[pr + j] = x;
    }
  }
  // dQ = dS·K / √dh, 8 rows × 8 columns at a time over the keys
  let dl = vec4<u32>(dh - 1u);
  for (var c0 = 0u; c0 < dh; c0 += 8u) {
    let cv0 = min(vec4<u32>(c0) + step, dl);
    let cv1 = min(vec4<u32>(c0 + 4u) + step, dl);
    var a00 = vec4<f32>(0.0);
    var a01 = vec4<f32>(0.0);
    var a10 = vec4<f32>(0.0);
    var a11 = vec4<f32>(0.0);
    var a20 = vec4<f32>(0.0);
    var a21 = vec4<f32>(0.0);
    var a30 = vec4<f32>(0.0);
    var a31 = vec4<f32>(0.0);
    var a40 = vec4<f32>(0.0);
    var a41 = vec4<f32>(0.0);
    var a50 = vec4<f32>(0.0);
    var a51 = vec4<f32>(0.0);
    var a60 = vec4<f32>(0.0);
    var a61 = vec4<f32>(0.0);
    var a70 = vec4<f32>(0.0);
    var a71 = vec4<f32>(0.0);
    for (var j = 0u; j < jmax; j++) {
      let kb = head_at(U.off_k, U.ld_k, w, j);
      let k0 = vec4<f32>(K[kb + cv0.x], K[kb + cv0.y], K[kb + cv0.z], K[kb + cv0.w]);
      let k1 = vec4<f32>(K[kb + cv1.x], K[kb + cv1.y], K[kb + cv1.z], K[kb + cv1.w]);
      let g0 = vec4<f32>(dS[prow[0] + j]);
      a00 = fma(g0, k0, a00);
      a01 = fma(g0, k1, a01);
      let g1 = vec4<f32>(dS[prow[1] + j]);
      a10 = fma(g1, k0, a10);
      a11 = fma(g1, k1, a11);
      let g2 = vec4<f32>(dS[prow[2] + j]);
      a20 = fma(g2, k0, a20);
      a21 = fma(g2, k1, a21);
      let g3 = vec4<f32>(dS[prow[3] + j]);
      a30 = fma(g3, k0, a30);
      a31 = fma(g3, k1, a31);
      let g4 = vec4<f32>(dS[prow[4] + j]);
      a40 = fma(g4, k0, a40);
      a41 = fma(g4, k1, a41);
      let g5 = vec4<f32>(dS[prow[5] + j]);
      a50 = fma(g5, k0, a50);
      a51 = fma(g5, k1, a51);
      let g6 = vec4<f32>(dS[prow[6] + j]);
      a60 = fma(g6, k0, a60);
      a61 = fma(g6, k1, a61);
      let g7 = vec4<f32>(dS[prow[7] + j]);
      a70 = fma(g7, k0, a70);
      a71 = fma(g7, k1, a71);
    }
    let nc = min(8u, dh - c0);
    let sc = U.scale;
    dq_row(rvs[0] < L, head_at(U.off_dq, U.ld_dq, w, rvs[0]) + c0, nc, a00 * sc, a01 * sc);
    dq_row(rvs[1] < L, head_at(U.off_dq, U.ld_dq, w, rvs[1]) + c0, nc, a10 * sc, a11 * sc);
    dq_row(rvs[2] < L, head_at(U.off_dq, U.ld_dq, w, rvs[2]) + c0, nc, a20 * sc, a21 * sc);
    dq_row(rvs[3] < L, head_at(U.off_dq, U.ld_dq, w, rvs[3]) + c0, nc, a30 * sc, a31 * sc);
    dq_row(rvs[4] < L, head_at(U.off_dq, U.ld_dq, w, rvs[4]) + c0, nc, a40 * sc, a41 * sc);
    dq_row(rvs[5] < L, head_at(U.off_dq, U.ld_dq, w, rvs[5]) + c0, nc, a50 * sc, a51 * sc);
    dq_row(rvs[6] < L, head_at(U.off_dq, U.ld_dq, w, rvs[6]) + c0, nc, a60 * sc, a61 * sc);
    dq_row(rvs[7] < L, head_at(U.off_dq, U.ld_dq, w, rvs[7]) + c0, nc, a70 * sc, a71 * sc);
  }
}

// The tiles' epilogues, straight-line per row with constant lanes (a per-entry loop indexing the
// register tile dynamically is spilled and read back lane by lane on SwiftShader):

/// One row's dP of keys j0 … j0+7 (lo, hi) into dS from e = its entry of key j0, the first n
/// (keys < the row's end), and D += P·dP over them in key order; returns D.
fn dp_row(valid: bool, e: u32, n: u32, lo: vec4<f32>, hi: vec4<f32>, d: f32) -> f32 {
  if (!valid) { return d; }
  var x = d;
  if (n > 0u) { dS[e] = lo.x; x = fma(Pm[e], lo.x, x); }
  if (n > 1u) { dS[e + 1u] = lo.y; x = fma(Pm[e + 1u], lo.y, x); }
  if (n > 2u) { dS[e + 2u] = lo.z; x = fma(Pm[e + 2u], lo.z, x); }
  if (n > 3u) { dS[e + 3u] = lo.w; x = fma(Pm[e + 3u], lo.w, x); }
  if (n > 4u) { dS[e + 4u] = hi.x; x = fma(Pm[e + 4u], hi.x, x); }
  if (n > 5u) { dS[e + 5u] = hi.y; x = fma(Pm[e + 5u], hi.y, x); }
  if (n > 6u) { dS[e + 6u] = hi.z; x = fma(Pm[e + 6u], hi.z, x); }
  if (n > 7u) { dS[e + 7u] = hi.w; x = fma(Pm[e + 7u], hi.w, x); }
  return x;
}

/// One row's 8 columns (lo, hi) of dQ from element o, the first n (≤ 8).
fn dq_row(valid: bool, o: u32, n: u32, lo: vec4<f32>, hi: vec4<f32>) {
  if (!valid) { return; }
  if (n == 8u) {
    dQ[o] = lo.x;
    dQ[o + 1u] = lo.y;
    dQ[o + 2u] = lo.z;
    dQ[o + 3u] = lo.w;
    dQ[o + 4u] = hi.x;
    dQ[o + 5u] = hi.y;
    dQ[o + 6u] = hi.z;
    dQ[o + 7u] = hi.w;
    return;
  }
  let vs = array<vec4<f32>, 2>(lo, hi);
  for (var x = 0u; x < n; x++) { dQ[o + x] = vs[x / 4u][x % 4u]; }
}

/// The same for a key's 8 columns of dV …
fn dv_row(valid: bool, o: u32, n: u32, lo: vec4<f32>, hi: vec4<f32>) {
  if (!valid) { return; }
  if (n == 8u) {
    dV[o] = lo.x;
    dV[o + 1u] = lo.y;
    dV[o + 2u] = lo.z;
    dV[o + 3u] = lo.w;
    dV[o + 4u] = hi.x;
    dV[o + 5u] = hi.y;
    dV[o + 6u] = hi.z;
    dV[o + 7u] = hi.w;
    return;
  }
  let vs = array<vec4<f32>, 2>(lo, hi);
  for (var x = 0u; x < n; x++) { dV[o + x] = vs[x / 4u][x % 4u]; }
}

/// … and of dK.
fn dk_row(valid: bool, o: u32, n: u32, lo: vec4<f32>, hi: vec4<f32>) {
  if (!valid) { return; }
  if (n == 8u) {
    dK[o] = lo.x;
    dK[o + 1u] = lo.y;
    dK[o + 2u] = lo.z;
    dK[o + 3u] = lo.w;
    dK[o + 4u] = hi.x;
    dK[o + 5u] = hi.y;
    dK[o + 6u] = hi.z;
    dK[o + 7u] = hi.w;
    return;
  }
  let vs = array<vec4<f32>, 2>(lo, hi);
  for (var x = 0u; x < n; x++) { dK[o + x] = vs[x / 4u][x % 4u]; }
}

@compute @workgroup_size(16)
fn cols(@builtin(global_invocation_id) gid: vec3<u32>) {
  let w = attn_block8(gid);
  if (attn_block8_out(w)) { return; }
  let L = U.L;
  let dh = U.dh;
  let step = vec4<u32>(0u, 1u, 2u, 3u);
  let last = vec4<u32>(L - 1u);
  // keys j0 … j0+7 (clamped loads; keys ≥ L not written)
  let kc0 = min(vec4<u32>(w.t) + step, last);
  let kc1 = min(vec4<u32>(w.t + 4u) + step, last);
  let kvs = array<u32, 8>(w.t, w.t + 1u, w.t + 2u, w.t + 3u, w.t + 4u, w.t + 5u, w.t + 6u, w.t + 7u);
  // queries i ≥ the block's first key when causal (P and dS are 0 above the diagonal)
  var istart = 0u;
  if (U.causal == 1u) { istart = w.t; }
  // column j of P and dS: e = bh·L² + i·L + j
  let pc0 = vec4<u32>(w.bh * L * L) + kc0;
  let pc1 = vec4<u32>(w.bh * L * L) + kc1;
  let dl = vec4<u32>(dh - 1u);
  for (var c0 = 0u; c0 < dh; c0 += 8u) {
    let cv0 = min(vec4<u32>(c0) + step, dl);
    let cv1 = min(vec4<u32>(c0 + 4u) + step, dl);
    // dV_j = Σ_i P_ij dO_i (8 keys × 8 columns over i)
    var dvt = Block8();
    for (var i = istart; i < L; i++) {
      let e = i * L;
      let xb = head_at(U.off_o, U.ld_o, w, i);
      let x0 = vec4<f32>(dO[xb + cv0.x], dO[xb + cv0.y], dO[xb + cv0.z], dO[xb + cv0.w]);
      let x1 = vec4<f32>(dO[xb + cv1.x], dO[xb + cv1.y], dO[xb + cv1.z], dO[xb + cv1.w]);
      let m0 = vec4<f32>(Pm[pc0.x + e], Pm[pc0.y + e], Pm[pc0.z + e], Pm[pc0.w + e]);
      let m1 = vec4<f32>(Pm[pc1.x + e], Pm[pc1.y + e], Pm[pc1.z + e], Pm[pc1.w + e]);
      dvt = block8_fma(dvt, m0, m1, x0, x1);
    }
    let nc = min(8u, dh - c0);
    dv_row(kvs[0] < L, head_at(U.off_dv, U.ld_dv, w, kvs[0]) + c0, nc, dvt.c00, dvt.c01);
    dv_row(kvs[1] < L, head_at(U.off_dv, U.ld_dv, w, kvs[1]) + c0, nc, dvt.c10, dvt.c11);
    dv_row(kvs[2] < L, head_at(U.off_dv, U.ld_dv, w, kvs[2]) + c0, nc, dvt.c20, dvt.c21);
    dv_row(kvs[3] < L, head_at(U.off_dv, U.ld_dv, w, kvs[3]) + c0, nc, dvt.c30, dvt.c31);
    dv_row(kvs[4] < L, head_at(U.off_dv, U.ld_dv, w, kvs[4]) + c0, nc, dvt.c40, dvt.c41);
    dv_row(kvs[5] < L, head_at(U.off_dv, U.ld_dv, w, kvs[5]) + c0, nc, dvt.c50, dvt.c51);
    dv_row(kvs[6] < L, head_at(U.off_dv, U.ld_dv, w, kvs[6]) + c0, nc, dvt.c60, dvt.c61);
    dv_row(kvs[7] < L, head_at(U.off_dv, U.ld_dv, w, kvs[7]) + c0, nc, dvt.c70, dvt.c71);
    // dK_j = Σ_i dS_ij q_i / √dh
    var dkt = Block8();
    for (var i = istart; i < L; i++) {
      let e = i * L;
      let xb = head_at(U.off_q, U.ld_q, w, i);
      let x0 = vec4<f32>(Q[xb + cv0.x], Q[xb + cv0.y], Q[xb + cv0.z], Q[xb + cv0.w]);
      let x1 = vec4<f32>(Q[xb + cv1.x], Q[xb + cv1.y], Q[xb + cv1.z], Q[xb + cv1.w]);
      let m0 = vec4<f32>(dS[pc0.x + e], dS[pc0.y + e], dS[pc0.z + e], dS[pc0.w + e]);
      let m1 = vec4<f32>(dS[pc1.x + e], dS[pc1.y + e], dS[pc1.z + e], dS[pc1.w + e]);
      dkt = block8_fma(dkt, m0, m1, x0, x1);
    }
    let sc = U.scale;
    dk_row(kvs[0] < L, head_at(U.off_dk, U.ld_dk, w, kvs[0]) + c0, nc, dkt.c00 * sc, dkt.c01 * sc);
    dk_row(kvs[1] < L, head_at(U.off_dk, U.ld_dk, w, kvs[1]) + c0, nc, dkt.c10 * sc, dkt.c11 * sc);
    dk_row(kvs[2] < L, head_at(U.off_dk, U.ld_dk, w, kvs[2]) + c0, nc, dkt.c20 * sc, dkt.c21 * sc);
    dk_row(kvs[3] < L, head_at(U.off_dk, U.ld_dk, w, kvs[3]) + c0, nc, dkt.c30 * sc, dkt.c31 * sc);
    dk_row(kvs[4] < L, head_at(U.off_dk, U.ld_dk, w, kvs[4]) + c0, nc, dkt.c40 * sc, dkt.c41 * sc);
    dk_row(kvs[5] < L, head_at(U.off_dk, U.ld_dk, w, kvs[5]) + c0, nc, dkt.c50 * sc, dkt.c51 * sc);
    dk_row(kvs[6] < L, head_at(U.off_dk, U.ld_dk, w, kvs[6]) + c0, nc, dkt.c60 * sc, dkt.c61 * sc);
    dk_row(kvs[7] < L, head_at(U.off_dk, U.ld_dk, w, kvs[7]) + c0, nc, dkt.c70 * sc, dkt.c71 * sc);
  }
}
