// Linear attention backward of the trainer (CPU twin: src/core/train/linear-attention-train.ts
// `linearAttentionBackward`; dispatcher src/gpu/train/linear-attention.ts; layouts and modes in
// train-linear-attention-common.wgsl).
//
// With g_i = [dOut_i / den_i, −dOut_i·out_i / den_i] (entry `gext` of the state shader) and
// v̄_j = [v_j, 1], the gradient of a_ij = φq_i·φk_j is da_ij = g_i·v̄_j, so
//   dφq_i = Σ_j da_ij φk_j = S_iᵀ-part [S | z] g_i + dense part       (entry `rows`)
//   dφk_j = Σ_i da_ij φq_i = R_j v̄_j + dense part,                    (entry `cols`)
//   dv_j  = Σ_i a_ij g_i[:dh] = (φk_jᵀ R_j)[:dh] + dense part
// where S is the forward state (mode 0: whole sequence; mode 1: exclusive prefix of j's chunk) and
// R = Σ_i φq_i g_iᵀ over i ≥ the end of j's chunk (mode 1: the exclusive suffix — the reverse
// prefix scan) or all i (mode 0); the dense parts cover the rest of the chunk (mode 1) or the
// window (mode 2, no state). No L×L matrix.
//
// Thread mapping: one workgroup of 64 invocations per (b, h, row). `rows`: g_i staged in `gs`,
// invocation t computes da_ij for j = lo + t, … into `wa`, then invocation f (f = t, t + 64, … < F)
// writes dφq_i[f]. `cols`: v̄_j staged in `gs`, a_ij and da_ij for the dense i into `wa`, `wd`,
// then invocations over f write dφk_j and over c < dh write dv_j.
// Dispatch: B·H·L workgroups of @workgroup_size(64) per entry, split over (x, y) with x = gx.

@group(0) @binding(3) var<storage, read> St: array<f32>;
@group(0) @binding(7) var<storage, read> G: array<f32>;
@group(0) @binding(8) var<storage, read> PhiQ: array<f32>;
@group(0) @binding(9) var<storage, read> PhiK: array<f32>;
@group(0) @binding(10) var<storage, read> V: array<f32>;
@group(0) @binding(13) var<storage, read_write> dPhiQ: array<f32>;
@group(0) @binding(14) var<storage, read_write> dPhiK: array<f32>;
@group(0) @binding(15) var<storage, read_write> dV: array<f32>;

var<workgroup> wa: array<f32, 1024>;
var<workgroup> wd: array<f32, 1024>;
var<workgroup> gs: array<f32, 257>;

@compute @workgroup_size(64)
fn rows(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) t: u32) {
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
  let gb = (row * U.H + h) * nc;
  for (var c = t; c < nc; c += WG) { gs[c] = G[gb + c]; }
  workgroupBarrier();
  let rg = row_range(i);
  for (var j = rg.x + t; j < rg.y; j += WG) {
    let vb = U.off_v + (b * L + j) * U.ld_v + h * dh;
    var d = gs[dh];
    for (var c = 0u; c < dh; c++) { d = fma(gs[c], V[vb + c], d); }
    wa[j - rg.x] = d;
  }
  workgroupBarrier();
  let qb = (row * U.H + h) * F;
  for (var f = t; f < F; f += WG) {
    var acc = 0.0;
    if (U.mode != 2u) {
      let sb = ((bh * U.nS + state_of(i)) * F + f) * nc;
      for (var c = 0u; c < nc; c++) { acc = fma(St[sb + c], gs[c], acc); }
    }
    for (var j = rg.x; j < rg.y; j++) { acc = fma(wa[j - rg.x], PhiK[((b * L + j) * U.H + h) * F + f], acc); }
    dPhiQ[qb + f] = acc;
  }
}

@compute @workgroup_size(64)
fn cols(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) t: u32) {
  let L = U.L;
  let F = U.F;
  let dh = U.dh;
  let nc = U.nc;
  let r = wg.x + wg.y * U.gx;
  if (r >= U.B * U.H * L) { return; }
  let j = r % L;
  let bh = r / L;
  let h = bh % U.H;
  let b = bh / U.H;
  let row = b * L + j;
  for (var c = t; c < nc; c += WG) {
    var v = 1.0;
    if (c < dh) { v = V[U.off_v + row * U.ld_v + h * dh + c]; }
    gs[c] = v;
  }
  workgroupBarrier();
  let kb = (row * U.H + h) * F;
  let rg = col_range(j);
  for (var i = rg.x + t; i < rg.y; i += WG) {
    let qb = ((b * L + i) * U.H + h) * F;
    var a = 0.0;
    for (var f = 0u; f < F; f++) { a = fma(PhiQ[qb + f], PhiK[kb + f], a); }
    let gb = ((b * L + i) * U.H + h) * nc;
    var d = 0.0;
    for (var c = 0u; c < nc; c++) { d = fma(G[gb + c], gs[c], d); }
    wa[i - rg.x] = a;
    wd[i - rg.x] = d;
  }
  workgroupBarrier();
  let sb = (bh * U.nS + state_of(j)) * F * nc;
  for (var f = t; f < F; f += WG) {
    var acc = 0.0;
    if (U.mode != 2u) {
      for (var c = 0u; c < nc; c++) { acc = fma(St[sb + f * nc + c], gs[c], acc); }
    }
    for (var i = rg.x; i < rg.y; i++) { acc = fma(wd[i - rg.x], PhiQ[((b * L + i) * U.H + h) * F + f], acc); }
    dPhiK[kb + f] = acc;
  }
  for (var c = t; c < dh; c += WG) {
    var acc = 0.0;
    if (U.mode != 2u) {
      for (var f = 0u; f < F; f++) { acc = fma(PhiK[kb + f], St[sb + f * nc + c], acc); }
    }
    for (var i = rg.x; i < rg.y; i++) { acc = fma(wa[i - rg.x], G[((b * L + i) * U.H + h) * nc + c], acc); }
    dV[U.off_dv + row * U.ld_dv + h * dh + c] = acc;
  }
}
