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
// Thread mapping: one workgroup of 64 invocations per (b, h, i) row. q_i is staged in workgroup
// memory; invocation t computes the scores j = t, t + 64, … into the row buffer `srow` (L ≤ 1024,
// 4 KiB), the row max and the sum are tree reductions over the 64 partials, then every invocation
// writes its entries of P and invocation c (c = t, t + 64, … < dh) sums out_i[c] over j.
//
// Dispatch: B·H·L workgroups of @workgroup_size(64), split over (x, y) with x = gx (row id =
// wg.x + wg.y·gx).

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

var<workgroup> srow: array<f32, 1024>;
var<workgroup> qs: array<f32, 256>;
var<workgroup> red: array<f32, 64>;

fn reduce_max(t: u32, v: f32) -> f32 {
  red[t] = v;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s = s / 2u) {
    if (t < s) { red[t] = max(red[t], red[t + s]); }
    workgroupBarrier();
  }
  let r = red[0];
  workgroupBarrier();
  return r;
}

fn reduce_sum(t: u32, v: f32) -> f32 {
  red[t] = v;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s = s / 2u) {
    if (t < s) { red[t] = red[t] + red[t + s]; }
    workgroupBarrier();
  }
  let r = red[0];
  workgroupBarrier();
  return r;
}

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let L = U.L;
  let dh = U.dh;
  let r = wg.x + wg.y * U.gx;
  if (r >= U.B * U.H * L) { return; }
  let i = r % L;
  let bh = r / L;
  let h = bh % U.H;
  let b = bh / U.H;
  let hc = h * dh;
  for (var c = t; c < dh; c += WG) { qs[c] = Q[U.off_q + (b * L + i) * U.ld_q + hc + c]; }
  workgroupBarrier();

  var jend = L;
  if (U.causal == 1u) { jend = i + 1u; }
  var mx = -3.0e38;
  for (var j = t; j < jend; j += WG) {
    let kb = U.off_k + (b * L + j) * U.ld_k + hc;
    var d = 0.0;
    for (var c = 0u; c < dh; c++) { d = fma(qs[c], K[kb + c], d); }
    d = d * U.scale;
    srow[j] = d;
    mx = max(mx, d);
  }
  let m = reduce_max(t, mx);
  var sum = 0.0;
  for (var j = t; j < jend; j += WG) {
    let e = exp(srow[j] - m);
    srow[j] = e;
    sum += e;
  }
  let inv = 1.0 / reduce_sum(t, sum);
  let prow = r * L;
  for (var j = t; j < L; j += WG) {
    var p = 0.0;
    if (j < jend) {
      p = srow[j] * inv;
      srow[j] = p;
    }
    Pm[prow + j] = p;
  }
  workgroupBarrier();

  for (var c = t; c < dh; c += WG) {
    var acc = 0.0;
    let vb = U.off_v + b * L * U.ld_v + hc + c;
    for (var j = 0u; j < jend; j++) { acc = fma(srow[j], V[vb + j * U.ld_v], acc); }
    O[U.off_o + (b * L + i) * U.ld_o + hc + c] = acc;
  }
}
