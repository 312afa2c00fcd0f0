// Softmax attention forward of the trainer (CPU twin: src/core/train/softmax-attention.ts
// `softmaxAttentionForward`; dispatcher: src/gpu/train/softmax-attention.ts).
//
// Per sequence b, head h (columns h·dh … of Q, K, V), query i:
//   s_ij = q_i·k_j / √dh             (j ≤ i when causal; masked entries are P = 0)
//   P_ij = exp(s_ij − max_j s_ij) / Σ_j exp(s_ij − max_j s_ij)
//   out_i = Σ_j P_ij v_j
// P is kept for the backward pass: P[((b·H + h)·L + i)·L + j] (B·H·L·L, zeros above the diagonal
// when causal). Q, K, V, out are strided views (uniform and views: train-softmax-attention-common.wgsl).
//
// Thread mapping: one invocation per block of 4 consecutive query rows i0 … i0+3 of one (b, h)
// (train-attention-rows.wgsl `attn_block`), no workgroup memory and no barriers. The scores are
// 4 × 4 register tiles (4 rows × 4 keys: per c, 4 + 4 loads for 16 FMAs) written into the
// block's own rows of P, which then hold exp and finally the probabilities; out is 4 × 4 tiles
// (4 rows × 4 columns) summed over the keys in registers. Why: on SwiftShader every storage access
// is a per-lane gather with a bounds check and costs more than the FMAs — one row per invocation,
// summing into out in place, paid 2–3 accesses per FMA; and one-row-per-workgroup kernels with
// tree reductions ran 6–10× slower still (its cost is per workgroup and per barrier).
// Rows and keys past L read row L − 1 (clamped) and are never written. Sums run in j resp. c
// order, one fma chain per output, as before the blocking.
//
// Dispatch: ⌈B·H·⌈L/4⌉ / 64⌉ workgroups of 64 (train-attention-rows.wgsl, attn_block_out).

@group(0) @binding(4) var<storage, read_write> O: array<f32>;
@group(0) @binding(5) var<storage, read_write> Pm: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let w = attn_block(gid);
  if (attn_block_out(w)) { return; }
  let L = U.L;
  let dh = U.dh;
  let t0 = w.t;
  let rv = vec4<u32>(t0) + vec4<u32>(0u, 1u, 2u, 3u);
  let rc = min(rv, vec4<u32>(L - 1u));
  // each row's key end (j < jend), and the block's
  var jend = vec4<u32>(L);
  if (U.causal == 1u) { jend = min(rv + vec4<u32>(1u), vec4<u32>(L)); }
  let jmax = max(max(jend.x, jend.y), max(jend.z, jend.w));
  let q0 = head_at(U.off_q, U.ld_q, w, rc.x);
  let q1 = head_at(U.off_q, U.ld_q, w, rc.y);
  let q2 = head_at(U.off_q, U.ld_q, w, rc.z);
  let q3 = head_at(U.off_q, U.ld_q, w, rc.w);
  let pb = w.bh * L * L;
  let prow = vec4<u32>(pb) + rc * L;
  let live = rv < vec4<u32>(L);
  // scores, 4 keys at a time: s_r = (s_{r, j0}, …, s_{r, j0+3})
  var mx = vec4<f32>(-3.0e38);
  for (var j0 = 0u; j0 < jmax; j0 += 4u) {
    let jv = vec4<u32>(j0) + vec4<u32>(0u, 1u, 2u, 3u);
    let jc = min(jv, vec4<u32>(L - 1u));
    let k0 = head_at(U.off_k, U.ld_k, w, jc.x);
    let k1 = head_at(U.off_k, U.ld_k, w, jc.y);
    let k2 = head_at(U.off_k, U.ld_k, w, jc.z);
    let k3 = head_at(U.off_k, U.ld_k, w, jc.w);
    var s0 = vec4<f32>(0.0);
    var s1 = vec4<f32>(0.0);
    var s2 = vec4<f32>(0.0);
    var s3 = vec4<f32>(0.0);
    for (var c = 0u; c < dh; c++) {
      let kv = vec4<f32>(K[k0 + c], K[k1 + c], K[k2 + c], K[k3 + c]);
      s0 = fma(vec4<f32>(Q[q0 + c]), kv, s0);
      s1 = fma(vec4<f32>(Q[q1 + c]), kv, s1);
      s2 = fma(vec4<f32>(Q[q2 + c]), kv, s2);
      s3 = fma(vec4<f32>(Q[q3 + c]), kv, s3);
    }
    var ss = array<vec4<f32>, 4>(s0 * U.scale, s1 * U.scale, s2 * U.scale, s3 * U.scale);
    for (var r = 0u; r < 4u; r++) {
      if (!live[r]) { continue; }
      for (var x = 0u; x < 4u; x++) {
        if (jv[x] < jend[r]) {
          Pm[prow[r] + jv[x]] = ss[r][x];
          mx[r] = max(mx[r], ss[r][x]);
        }
      }
    }
  }
  // exp, the row sums, then the probabilities (zeros past each row's end)
  for (var r = 0u; r < 4u; r++) {
    if (!live[r]) { continue; }
    let pr = prow[r];
    var sum = 0.0;
    for (var j = 0u; j < jend[r]; j++) {
      let e = exp(Pm[pr + j] - mx[r]);
      Pm[pr + j] = e;
      sum += e;
    }
    let inv = 1.0 / sum;
    for (var j = 0u; j < L; j++) {
      var p = 0.0;
      if (j < jend[r]) { p = Pm[pr + j] * inv; }
      Pm[pr + j] = p;
    }
  }
  // out: 4 rows × 4 columns at a time, summed over the keys (P is 0 past each row's end)
  for (var c0 = 0u; c0 < dh; c0 += 4u) {
    let cv = min(vec4<u32>(c0) + vec4<u32>(0u, 1u, 2u, 3u), vec4<u32>(dh - 1u));
    var o0 = vec4<f32>(0.0);
    var o1 = vec4<f32>(0.0);
    var o2 = vec4<f32>(0.0);
    var o3 = vec4<f32>(0.0);
    for (var j = 0u; j < jmax; j++) {
      let vb = head_at(U.off_v, U.ld_v, w, j);
      let vv = vec4<f32>(V[vb + cv.x], V[vb + cv.y], V[vb + cv.z], V[vb + cv.w]);
      o0 = fma(vec4<f32>(Pm[prow.x + j]), vv, o0);
      o1 = fma(vec4<f32>(Pm[prow.y + j]), vv, o1);
      o2 = fma(vec4<f32>(Pm[prow.z + j]), vv, o2);
      o3 = fma(vec4<f32>(Pm[prow.w + j]), vv, o3);
    }
    let os = array<vec4<f32>, 4>(o0, o1, o2, o3);
    for (var r = 0u; r < 4u; r++) {
      if (!live[r]) { continue; }
      let ob = head_at(U.off_o, U.ld_o, w, rv[r]);
      for (var x = 0u; x < min(4u, dh - c0); x++) { O[ob + c0 + x] = os[r][x]; }
    }
  }
}
