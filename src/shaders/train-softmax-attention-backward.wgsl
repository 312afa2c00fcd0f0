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
// Thread mapping: one invocation per block of 8 consecutive query rows (`rows`, `attn_block8`,
// workgroups of 16) or 4 consecutive keys (`cols`, `attn_block`, workgroups of 64) of one (b, h),
// no workgroup memory, no barriers. Every product is a register tile: dP = dO·Vᵀ (8 rows × 8 keys,
// over c), dQ = dS·K (8 rows × 8 columns, over j) — 16 loads per 64 FMAs —, dV = Pᵀ·dO and
// dK = dSᵀ·Q (4 keys × 4 columns, over i) — 8 loads per 16 FMAs —, where one row per invocation
// summing in place paid 2–3 storage accesses per FMA (see the forward shader for why that is what
// costs on SwiftShader). Rows and keys past L read
// row L − 1 (clamped) and are never written. Sums run in the same order as before the blocking
// (c for dP, j for D and dQ, i for dV and dK), one fma chain per output.
// Dispatch: `rows` ⌈B·H·⌈L/8⌉ / 16⌉ workgroups of 16, `cols` ⌈B·H·⌈L/4⌉ / 64⌉ of 64.

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
    var d00 = vec4<f32>(0.0);
    var d01 = vec4<f32>(0.0);
    var d10 = vec4<f32>(0.0);
    var d11 = vec4<f32>(0.0);
    var d20 = vec4<f32>(0.0);
    var d21 = vec4<f32>(0.0);
    var d30 = vec4<f32>(0.0);
    var d31 = vec4<f32>(0.0);
    var d40 = vec4<f32>(0.0);
    var d41 = vec4<f32>(0.0);
    var d50 = vec4<f32>(0.0);
    var d51 = vec4<f32>(0.0);
    var d60 = vec4<f32>(0.0);
    var d61 = vec4<f32>(0.0);
    var d70 = vec4<f32>(0.0);
    var d71 = vec4<f32>(0.0);
    for (var c = 0u; c < dh; c++) {
      let v0 = vec4<f32>(V[va.x + c], V[va.y + c], V[va.z + c], V[va.w + c]);
      let v1 = vec4<f32>(V[vb.x + c], V[vb.y + c], V[vb.z + c], V[vb.w + c]);
      let x0 = vec4<f32>(dO[oa.x + c], dO[oa.y + c], dO[oa.z + c], dO[oa.w + c]);
      let x1 = vec4<f32>(dO[ob.x + c], dO[ob.y + c], dO[ob.z + c], dO[ob.w + c]);
      d00 = fma(vec4<f32>(x0.x), v0, d00);
      d01 = fma(vec4<f32>(x0.x), v1, d01);
      d10 = fma(vec4<f32>(x0.y), v0, d10);
      d11 = fma(vec4<f32>(x0.y), v1, d11);
      d20 = fma(vec4<f32>(x0.z), v0, d20);
      d21 = fma(vec4<f32>(x0.z), v1, d21);
      d30 = fma(vec4<f32>(x0.w), v0, d30);
      d31 = fma(vec4<f32>(x0.w), v1, d31);
      d40 = fma(vec4<f32>(x1.x), v0, d40);
      d41 = fma(vec4<f32>(x1.x), v1, d41);
      d50 = fma(vec4<f32>(x1.y), v0, d50);
      d51 = fma(vec4<f32>(x1.y), v1, d51);
      d60 = fma(vec4<f32>(x1.z), v0, d60);
      d61 = fma(vec4<f32>(x1.z), v1, d61);
      d70 = fma(vec4<f32>(x1.w), v0, d70);
      d71 = fma(vec4<f32>(x1.w), v1, d71);
    }
    let ds = array<vec4<f32>, 16>(d00, d01, d10, d11, d20, d21, d30, d31, d40, d41, d50, d51, d60, d61, d70, d71);
    for (var r = 0u; r < 8u; r++) {
      if (rvs[r] >= L) { continue; }
      for (var x = 0u; x < 8u; x++) {
        let j = j0 + x;
        if (j < jends[r]) {
          let d = ds[2u * r + x / 4u][x % 4u];
          dS[prow[r] + j] = d;
          D[r] = fma(Pm[prow[r] + j], d, D[r]);
        }
      }
    }
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
    let as8 = array<vec4<f32>, 16>(a00, a01, a10, a11, a20, a21, a30, a31, a40, a41, a50, a51, a60, a61, a70, a71);
    for (var r = 0u; r < 8u; r++) {
      if (rvs[r] >= L) { continue; }
      let qo = head_at(U.off_dq, U.ld_dq, w, rvs[r]);
      for (var x = 0u; x < min(8u, dh - c0); x++) { dQ[qo + c0 + x] = as8[2u * r + x / 4u][x % 4u] * U.scale; }
    }
  }
}

@compute @workgroup_size(64)
fn cols(@builtin(global_invocation_id) gid: vec3<u32>) {
  let w = attn_block(gid);
  if (attn_block_out(w)) { return; }
  let L = U.L;
  let dh = U.dh;
  let kv4 = vec4<u32>(w.t) + vec4<u32>(0u, 1u, 2u, 3u);
  let kc = min(kv4, vec4<u32>(L - 1u));
  let live = kv4 < vec4<u32>(L);
  // queries i ≥ the block's first key when causal (P and dS are 0 above the diagonal)
  var istart = 0u;
  if (U.causal == 1u) { istart = w.t; }
  // column j of P and dS: e = bh·L² + i·L + j
  let pc = vec4<u32>(w.bh * L * L) + kc;
  for (var c0 = 0u; c0 < dh; c0 += 4u) {
    let cv = min(vec4<u32>(c0) + vec4<u32>(0u, 1u, 2u, 3u), vec4<u32>(dh - 1u));
    var v0 = vec4<f32>(0.0); // dV of key j0 + 0 over columns c0 …
    var v1 = vec4<f32>(0.0);
    var v2 = vec4<f32>(0.0);
    var v3 = vec4<f32>(0.0);
    var k0 = vec4<f32>(0.0); // dK likewise
    var k1 = vec4<f32>(0.0);
    var k2 = vec4<f32>(0.0);
    var k3 = vec4<f32>(0.0);
    for (var i = istart; i < L; i++) {
      let e = i * L;
      let ob = head_at(U.off_o, U.ld_o, w, i);
      let qb = head_at(U.off_q, U.ld_q, w, i);
      let dov = vec4<f32>(dO[ob + cv.x], dO[ob + cv.y], dO[ob + cv.z], dO[ob + cv.w]);
      let qv = vec4<f32>(Q[qb + cv.x], Q[qb + cv.y], Q[qb + cv.z], Q[qb + cv.w]);
      v0 = fma(vec4<f32>(Pm[pc.x + e]), dov, v0);
      v1 = fma(vec4<f32>(Pm[pc.y + e]), dov, v1);
      v2 = fma(vec4<f32>(Pm[pc.z + e]), dov, v2);
      v3 = fma(vec4<f32>(Pm[pc.w + e]), dov, v3);
      k0 = fma(vec4<f32>(dS[pc.x + e]), qv, k0);
      k1 = fma(vec4<f32>(dS[pc.y + e]), qv, k1);
      k2 = fma(vec4<f32>(dS[pc.z + e]), qv, k2);
      k3 = fma(vec4<f32>(dS[pc.w + e]), qv, k3);
    }
    let vs = array<vec4<f32>, 4>(v0, v1, v2, v3);
    let ks = array<vec4<f32>, 4>(k0, k1, k2, k3);
    for (var q = 0u; q < 4u; q++) {
      if (!live[q]) { continue; }
      let vo = head_at(U.off_dv, U.ld_dv, w, kv4[q]);
      let ko = head_at(U.off_dk, U.ld_dk, w, kv4[q]);
      for (var x = 0u; x < min(4u, dh - c0); x++) {
        dV[vo + c0 + x] = vs[q][x];
        dK[ko + c0 + x] = ks[q][x] * U.scale;
      }
    }
  }
}
