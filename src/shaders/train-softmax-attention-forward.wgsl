// Softmax attention forward of the trainer (CPU twin: src/core/train/softmax-attention.ts
// `softmaxAttentionForward`; dispatcher: src/gpu/train/softmax-attention.ts).
//
// Per sequence b, head h (columns h·dh … of Q, K, V), query i:
//   s_ij = q_i·k_j / √dh             (j ≤ i when causal; masked entries are P = 0)
//   P_ij = exp(s_ij − max_j s_ij) / Σ_j exp(s_ij − max_j s_ij)
//   out_i = Σ_j P_ij v_j
// P is kept for the backward pass: P[((b·H + h)·L + i)·L + j] (B·H·L·L, zeros above the diagonal
// when causal). Q, K, V, out are strided views: X[row, c] = x[off + row·ld + c], row = b·L + t.
//
// Thread mapping: one invocation per (b, h, i) row, no workgroup memory and no barriers: the
// scores go straight into the row of P (the invocation's own), which then holds exp and finally
// the probabilities, and out_i[c] sums over that row. (On SwiftShader one-row-per-workgroup
// kernels with tree reductions ran 6–10× slower: its cost is per workgroup and per barrier.)
//
// Dispatch: ⌈B·H·L / 64⌉ workgroups of @workgroup_size(64), split over (x, y) with x = gx
// (row id = gid.x + gid.y·gx·64).

struct Params {
  B: u32, L: u32, H: u32, dh: u32,
  causal: u32, gx: u32, scale: f32, _p0: u32,
  off_q: u32, ld_q: u32, off_k: u32, ld_k: u32,
  off_v: u32, ld_v: u32, off_o: u32, ld_o: u32,
}

@group(0) @binding(0) var<uniform> U: Params;
@group(0) @binding(1) var<storage, read> Q: array<f32>;
@group(0) @binding(2) var<storage, read> K: array<f32>;
@group(0) @binding(3) var<storage, read> V: array<f32>;
@group(0) @binding(4) var<storage, read_write> O: array<f32>;
@group(0) @binding(5) var<storage, read_write> Pm: array<f32>;

const WG: u32 = 64u;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let L = U.L;
  let dh = U.dh;
  let r = gid.x + gid.y * U.gx * WG;
  if (r >= U.B * U.H * L) { return; }
  let i = r % L;
  let bh = r / L;
  let h = bh % U.H;
  let b = bh / U.H;
  let hc = h * dh;
  var jend = L;
  if (U.causal == 1u) { jend = i + 1u; }
  let qb = U.off_q + (b * L + i) * U.ld_q + hc;
  let prow = r * L;
  var mx = -3.0e38;
  for (var j = 0u; j < jend; j++) {
    let kb = U.off_k + (b * L + j) * U.ld_k + hc;
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
  let ob = U.off_o + (b * L + i) * U.ld_o + hc;
  for (var c = 0u; c < dh; c++) { O[ob + c] = 0.0; }
  for (var j = 0u; j < jend; j++) {
    let p = Pm[prow + j];
    let vb = U.off_v + (b * L + j) * U.ld_v + hc;
    for (var c = 0u; c < dh; c++) { O[ob + c] = fma(p, V[vb + c], O[ob + c]); }
  }
}
