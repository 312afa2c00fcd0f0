// Linear attention forward of the trainer (CPU twin: src/core/train/linear-attention-train.ts
// `linearAttentionForward`; dispatcher src/gpu/train/linear-attention.ts; layouts and modes in
// train-linear-attention-common.wgsl).
//
//   out_i = Σ_j a_ij v_j / den_i,  den_i = Σ_j a_ij + δ,  a_ij = φq_i·φk_j,  δ = 1e-6
//   j over all (mode 0: = φq_i [S | z] with the state of entry `state`), j ≤ i (mode 1:
//   φq_i·(exclusive prefix state of i's chunk) + the chunk's rows j ≤ i densely), or the window
//   (mode 2: densely). No L×L matrix: the dense part spans at most a chunk (64) or the window.
//
// Thread mapping: one workgroup of 64 invocations per (b, h, i): invocation t computes a_ij for
// j = lo + t, lo + t + 64, … into `ws` (≤ L ≤ 1024 entries), then invocation c (c = t, t + 64, …
// ≤ dh) sums column c of [N | den − δ], staged in `cs`, and writes out_i[c] = N_c / den.
// Dispatch: B·H·L workgroups of @workgroup_size(64), split over (x, y) with x = gx.

@group(0) @binding(3) var<storage, read> St: array<f32>;
@group(0) @binding(8) var<storage, read> PhiQ: array<f32>;
@group(0) @binding(9) var<storage, read> PhiK: array<f32>;
@group(0) @binding(10) var<storage, read> V: array<f32>;
@group(0) @binding(11) var<storage, read_write> Out: array<f32>;
@group(0) @binding(12) var<storage, read_write> DenOut: array<f32>;

var<workgroup> ws: array<f32, 1024>;
var<workgroup> cs: array<f32, 257>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let L = U.L;
  let F = U.F;
  let dh = U.dh;
  let nc = U.nc;
  let r = wg.x + wg.y * U.gx;
  if (r >= U.B * U.H * L) { return; }
  let i = r % L;
  let bh = r / L;
  let h = bh % U.H;
  let b = bh / U.H;
  let row = b * L + i;
  let qb = (row * U.H + h) * F;
  let rg = row_range(i);
  for (var j = rg.x + t; j < rg.y; j += WG) {
    let kb = ((b * L + j) * U.H + h) * F;
    var w = 0.0;
    for (var f = 0u; f < F; f++) { w = fma(PhiQ[qb + f], PhiK[kb + f], w); }
    ws[j - rg.x] = w;
  }
  workgroupBarrier();
  for (var c = t; c < nc; c += WG) {
    var acc = 0.0;
    if (U.mode != 2u) {
      let sb = (bh * U.nS + state_of(i)) * F * nc + c;
      for (var f = 0u; f < F; f++) { acc = fma(PhiQ[qb + f], St[sb + f * nc], acc); }
    }
    if (c < dh) {
      let vb = U.off_v + b * L * U.ld_v + h * dh + c;
      for (var j = rg.x; j < rg.y; j++) { acc = fma(ws[j - rg.x], V[vb + j * U.ld_v], acc); }
    } else {
      for (var j = rg.x; j < rg.y; j++) { acc += ws[j - rg.x]; }
    }
    cs[c] = acc;
  }
  workgroupBarrier();
  let den = cs[dh] + DELTA;
  for (var c = t; c < dh; c += WG) { Out[U.off_o + row * U.ld_o + h * dh + c] = cs[c] / den; }
  if (t == 0u) { DenOut[row * U.H + h] = den; }
}
