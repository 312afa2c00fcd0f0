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
// Thread mapping: one invocation per (b, h, i) row, no workgroup memory and no barriers: the
// scores go straight into the row of P (the invocation's own), which then holds exp and finally
// the probabilities, and out_i[c] sums over that row. (On SwiftShader one-row-per-workgroup
// kernels with tree reductions ran 6–10× slower: its cost is per workgroup and per barrier.)
//
// Dispatch: one invocation per row (train-attention-rows.wgsl).

@group(0) @binding(4) var<storage, read_write> O: array<f32>;
@group(0) @binding(5) var<storage, read_write> Pm: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let w = attn_row(gid);
  if (attn_row_out(w)) { return; }
  let L = U.L;
  let dh = U.dh;
  let i = w.t;
  let jend = key_end(i);
  let qb = head_at(U.off_q, U.ld_q, w, i);
  let prow = w.r * L;
  var mx = -3.0e38;
  for (var j = 0u; j < jend; j++) {
    let kb = head_at(U.off_k, U.ld_k, w, j);
    var d = 0.0;
    for (var c = 0u; c < dh; c++) { d = fma(Q[qb + c], K[kb + c], d); }
    d = d * U.scale;
    Pm[prow + j] = d;
    mx = max(mx, d);
  }
  var sum = 0.0;
  for (var j = 0u; j < jend; j++) {
    let e = exp(Pm[prow + j] - mx);
    Pm[prow + j] = e;
    sum += e;
  }
  let inv = 1.0 / sum;
  for (var j = 0u; j < L; j++) {
    var p = 0.0;
    if (j < jend) { p = Pm[prow + j] * inv; }
    Pm[prow + j] = p;
  }
  // out_i accumulates in place, key by key: rows of V are read contiguously (not by columns)
  let ob = head_at(U.off_o, U.ld_o, w, i);
  for (var c = 0u; c < dh; c++) { O[ob + c] = 0.0; }
  for (var j = 0u; j < jend; j++) {
    let p = Pm[prow + j];
    let vb = head_at(U.off_v, U.ld_v, w, j);
    for (var c = 0u; c < dh; c++) { O[ob + c] = fma(p, V[vb + c], O[ob + c]); }
  }
}
