// Softmax attention backward of the trainer (CPU twin: src/core/train/softmax-attention.ts
// `softmaxAttentionBackward`; dispatcher: src/gpu/train/softmax-attention.ts).
//
// With P from the forward pass (P[((b·H + h)·L + i)·L + j]) and dO = ∂loss/∂out, per (b, h):
//   dP_ij = dO_i·v_j,   D_i = Σ_j P_ij dP_ij,   dS_ij = P_ij (dP_ij − D_i)
//   dQ_i = Σ_j dS_ij k_j / √dh            (entry `rows`, one workgroup per query row i)
//   dK_j = Σ_i dS_ij q_i / √dh,  dV_j = Σ_i P_ij dO_i   (entry `cols`, one workgroup per key j)
// Causal: only j ≤ i (P and dS are zero above the diagonal; `cols` reads i ≥ j only). dS goes
// through a scratch buffer of P's shape, written by `rows` and read by `cols` (two passes in
// order: WebGPU orders passes of one encoder). Views as in the forward pass.
//
// Thread mapping: 64 invocations per workgroup. `rows`: dO_i staged in workgroup memory,
// invocation t computes dP_ij for j = t, t + 64, … into `srow` (L ≤ 1024), D_i by a tree
// reduction, then dS, then invocation c (c = t, t + 64, … < dh) sums dQ_i[c] over j.
// `cols`: column j of P and of dS staged into `pcol`/`dcol` (8 KiB), then invocation c sums
// dV_j[c] and dK_j[c] over i.
//
// Dispatch: B·H·L workgroups of @workgroup_size(64) per entry, split over (x, y) with x = gx.

struct Params {
  B: u32, L: u32, H: u32, dh: u32,
  causal: u32, gx: u32, scale: f32, _p0: u32,
  off_q: u32, ld_q: u32, off_k: u32, ld_k: u32,
  off_v: u32, ld_v: u32, off_do: u32, ld_do: u32,
  off_dq: u32, ld_dq: u32, off_dk: u32, ld_dk: u32,
  off_dv: u32, ld_dv: u32, _p1: u32, _p2: u32,
}

@group(0) @binding(0) var<uniform> U: Params;
@group(0) @binding(1) var<storage, read> Q: array<f32>;
@group(0) @binding(2) var<storage, read> K: array<f32>;
@group(0) @binding(3) var<storage, read> V: array<f32>;
@group(0) @binding(4) var<storage, read> Pm: array<f32>;
@group(0) @binding(5) var<storage, read> dO: array<f32>;
@group(0) @binding(6) var<storage, read_write> dS: array<f32>;
@group(0) @binding(7) var<storage, read_write> dQ: array<f32>;
@group(0) @binding(8) var<storage, read_write> dK: array<f32>;
@group(0) @binding(9) var<storage, read_write> dV: array<f32>;

const WG: u32 = 64u;

var<workgroup> srow: array<f32, 1024>;
var<workgroup> pcol: array<f32, 1024>;
var<workgroup> dcol: array<f32, 1024>;
var<workgroup> vs: array<f32, 256>;
var<workgroup> red: array<f32, 64>;

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
fn rows(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let L = U.L;
  let dh = U.dh;
  let r = wg.x + wg.y * U.gx;
  if (r >= U.B * U.H * L) { return; }
  let i = r % L;
  let bh = r / L;
  let h = bh % U.H;
  let b = bh / U.H;
  let hc = h * dh;
  for (var c = t; c < dh; c += WG) { vs[c] = dO[U.off_do + (b * L + i) * U.ld_do + hc + c]; }
  workgroupBarrier();

  var jend = L;
  if (U.causal == 1u) { jend = i + 1u; }
  let prow = r * L;
  var part = 0.0;
  for (var j = t; j < jend; j += WG) {
    let vb = U.off_v + (b * L + j) * U.ld_v + hc;
    var d = 0.0;
    for (var c = 0u; c < dh; c++) { d = fma(vs[c], V[vb + c], d); }
    srow[j] = d;
    part = fma(Pm[prow + j], d, part);
  }
  let D = reduce_sum(t, part);
  for (var j = t; j < L; j += WG) {
    var ds = 0.0;
    if (j < jend) {
      ds = Pm[prow + j] * (srow[j] - D);
      srow[j] = ds;
    }
    dS[prow + j] = ds;
  }
  workgroupBarrier();

  for (var c = t; c < dh; c += WG) {
    var acc = 0.0;
    let kb = U.off_k + b * L * U.ld_k + hc + c;
    for (var j = 0u; j < jend; j++) { acc = fma(srow[j], K[kb + j * U.ld_k], acc); }
    dQ[U.off_dq + (b * L + i) * U.ld_dq + hc + c] = acc * U.scale;
  }
}

@compute @workgroup_size(64)
fn cols(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let L = U.L;
  let dh = U.dh;
  let r = wg.x + wg.y * U.gx;
  if (r >= U.B * U.H * L) { return; }
  let j = r % L;
  let bh = r / L;
  let h = bh % U.H;
  let b = bh / U.H;
  let hc = h * dh;
  var istart = 0u;
  if (U.causal == 1u) { istart = j; }
  for (var i = istart + t; i < L; i += WG) {
    let e = (bh * L + i) * L + j;
    pcol[i] = Pm[e];
    dcol[i] = dS[e];
  }
  workgroupBarrier();

  for (var c = t; c < dh; c += WG) {
    var av = 0.0;
    var ak = 0.0;
    let ob = U.off_do + b * L * U.ld_do + hc + c;
    let qb = U.off_q + b * L * U.ld_q + hc + c;
    for (var i = istart; i < L; i++) {
      av = fma(pcol[i], dO[ob + i * U.ld_do], av);
      ak = fma(dcol[i], Q[qb + i * U.ld_q], ak);
    }
    dV[U.off_dv + (b * L + j) * U.ld_dv + hc + c] = av;
    dK[U.off_dk + (b * L + j) * U.ld_dk + hc + c] = ak * U.scale;
  }
}
