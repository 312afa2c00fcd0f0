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
// Thread mapping: one invocation per block of 4 consecutive rows (`rows`: queries i0 … i0+3) or
// keys (`cols`: j0 … j0+3) of one (b, h) (train-attention-rows.wgsl `attn_block`), no workgroup
// memory, no barriers. Every product is a 4 × 4 register tile: dP = dO·Vᵀ (4 rows × 4 keys, over c),
// dQ = dS·K (4 rows × 4 columns, over j), dV = Pᵀ·dO and dK = dSᵀ·Q (4 keys × 4 columns, over i):
// 8 loads per 16 FMAs, where one row per invocation summing in place paid 2–3 storage accesses per
// FMA (see the forward shader for why that is what costs on SwiftShader). Rows and keys past L read
// row L − 1 (clamped) and are never written. Sums run in the same order as before the blocking
// (c for dP, j for D and dQ, i for dV and dK), one fma chain per output.
// Dispatch: ⌈B·H·⌈L/4⌉ / 64⌉ workgroups of 64 per entry.

@group(0) @binding(4) var<storage, read> Pm: array<f32>;
@group(0) @binding(5) var<storage, read> dO: array<f32>;
@group(0) @binding(6) var<storage, read_write> dS: array<f32>;
@group(0) @binding(7) var<storage, read_write> dQ: array<f32>;
@group(0) @binding(8) var<storage, read_write> dK: array<f32>;
@group(0) @binding(9) var<storage, read_write> dV: array<f32>;

@compute @workgroup_size(64)
fn rows(@builtin(global_invocation_id) gid: vec3<u32>) {
  let w = attn_block(gid);
  if (attn_block_out(w)) { return; }
  let L = U.L;
  let dh = U.dh;
  let rv = vec4<u32>(w.t) + vec4<u32>(0u, 1u, 2u, 3u);
  let rc = min(rv, vec4<u32>(L - 1u));
  var jend = vec4<u32>(L);
  if (U.causal == 1u) { jend = min(rv + vec4<u32>(1u), vec4<u32>(L)); }
  let jmax = max(max(jend.x, jend.y), max(jend.z, jend.w));
  let live = rv < vec4<u32>(L);
  let prow = vec4<u32>(w.bh * L * L) + rc * L;
  let o0 = head_at(U.off_o, U.ld_o, w, rc.x);
  let o1 = head_at(U.off_o, U.ld_o, w, rc.y);
  let o2 = head_at(U.off_o, U.ld_o, w, rc.z);
  let o3 = head_at(U.off_o, U.ld_o, w, rc.w);
  // dP = dO_i·v_j into dS, 4 keys at a time; D_i = Σ_j P_ij dP_ij in j order
  var D = vec4<f32>(0.0);
  for (var j0 = 0u; j0 < jmax; j0 += 4u) {
    let jv = vec4<u32>(j0) + vec4<u32>(0u, 1u, 2u, 3u);
    let jc = min(jv, vec4<u32>(L - 1u));
    let v0 = head_at(U.off_v, U.ld_v, w, jc.x);
    let v1 = head_at(U.off_v, U.ld_v, w, jc.y);
    let v2 = head_at(U.off_v, U.ld_v, w, jc.z);
    let v3 = head_at(U.off_v, U.ld_v, w, jc.w);
    var d0 = vec4<f32>(0.0);
    var d1 = vec4<f32>(0.0);
    var d2 = vec4<f32>(0.0);
    var d3 = vec4<f32>(0.0);
    for (var c = 0u; c < dh; c++) {
      let vv = vec4<f32>(V[v0 + c], V[v1 + c], V[v2 + c], V[v3 + c]);
      d0 = fma(vec4<f32>(dO[o0 + c]), vv, d0);
      d1 = fma(vec4<f32>(dO[o1 + c]), vv, d1);
      d2 = fma(vec4<f32>(dO[o2 + c]), vv, d2);
      d3 = fma(vec4<f32>(dO[o3 + c]), vv, d3);
    }
    let ds = array<vec4<f32>, 4>(d0, d1, d2, d3);
    for (var r = 0u; r < 4u; r++) {
      if (!live[r]) { continue; }
      for (var x = 0u; x < 4u; x++) {
        let j = jv[x];
        if (j < jend[r]) {
          dS[prow[r] + j] = ds[r][x];
          D[r] = fma(Pm[prow[r] + j], ds[r][x], D[r]);
        }
      }
    }
  }
  // dS = P (dP − D), zeros past each row's end
  for (var r = 0u; r < 4u; r++) {
    if (!live[r]) { continue; }
    let pr = prow[r];
    for (var j = 0u; j < L; j++) {
      var x = 0.0;
      if (j < jend[r]) { x = Pm[pr + j] * (dS[pr + j] - D[r]); }
      dS[pr + j] = x;
    }
  }
  // dQ = dS·K / √dh, 4 rows × 4 columns at a time over the keys
  for (var c0 = 0u; c0 < dh; c0 += 4u) {
    let cv = min(vec4<u32>(c0) + vec4<u32>(0u, 1u, 2u, 3u), vec4<u32>(dh - 1u));
    var a0 = vec4<f32>(0.0);
    var a1 = vec4<f32>(0.0);
    var a2 = vec4<f32>(0.0);
    var a3 = vec4<f32>(0.0);
    for (var j = 0u; j < jmax; j++) {
      let kb = head_at(U.off_k, U.ld_k, w, j);
      let kv = vec4<f32>(K[kb + cv.x], K[kb + cv.y], K[kb + cv.z], K[kb + cv.w]);
      a0 = fma(vec4<f32>(dS[prow.x + j]), kv, a0);
      a1 = fma(vec4<f32>(dS[prow.y + j]), kv, a1);
      a2 = fma(vec4<f32>(dS[prow.z + j]), kv, a2);
      a3 = fma(vec4<f32>(dS[prow.w + j]), kv, a3);
    }
    let as4 = array<vec4<f32>, 4>(a0, a1, a2, a3);
    for (var r = 0u; r < 4u; r++) {
      if (!live[r]) { continue; }
      let qo = head_at(U.off_dq, U.ld_dq, w, rv[r]);
      for (var x = 0u; x < min(4u, dh - c0); x++) { dQ[qo + c0 + x] = as4[r][x] * U.scale; }
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
