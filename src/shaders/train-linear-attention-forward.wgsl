// Linear attention forward of the trainer (CPU twin: src/core/train/linear-attention-train.ts
// `linearAttentionForward`; dispatcher src/gpu/train/linear-attention.ts; layouts and modes in
// train-linear-attention-common.wgsl).
//
//   out_i = Σ_j a_ij v_j / den_i,  den_i = Σ_j a_ij + δ,  a_ij = φq_i·φk_j,  δ = 1e-6
//   j over all (mode 0: = φq_i [S | z] with the state of entry `state`), j ≤ i (mode 1:
//   φq_i·(exclusive prefix state of i's chunk) + the chunk's rows j ≤ i densely), or the window
//   (mode 2: densely). No L×L matrix: the dense part spans at most a chunk (16–64 rows, laChunk) or the window.
//
// Thread mapping: one invocation per (b, h, i); the numerator accumulates in out_i itself (the
// invocation's own entries), divided by den at the end. No workgroup memory, no barriers (on
// SwiftShader the cost is per workgroup and per barrier).
// Dispatch: one invocation per row (train-attention-rows.wgsl).

@group(0) @binding(3) var<storage, read> St: array<f32>;
@group(0) @binding(8) var<storage, read> PhiQ: array<f32>;
@group(0) @binding(9) var<storage, read> PhiK: array<f32>;
@group(0) @binding(10) var<storage, read> V: array<f32>;
@group(0) @binding(11) var<storage, read_write> Out: array<f32>;
@group(0) @binding(12) var<storage, read_write> DenOut: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let w = attn_row(gid);
  if (attn_row_out(w)) { return; }
  let F = U.F;
  let dh = U.dh;
  let nc = U.nc;
  let i = w.t;
  let qb = phi_at(w, i);
  let ob = head_at(U.off_o, U.ld_o, w, i);
  var den = 0.0;
  if (U.mode != 2u) {
    let sb = state_at(w, i);
    for (var c = 0u; c < dh; c++) {
      var acc = 0.0;
      for (var f = 0u; f < F; f++) { acc = fma(PhiQ[qb + f], St[sb + f * nc + c], acc); }
      Out[ob + c] = acc;
    }
    for (var f = 0u; f < F; f++) { den = fma(PhiQ[qb + f], St[sb + f * nc + dh], den); }
  } else {
    for (var c = 0u; c < dh; c++) { Out[ob + c] = 0.0; }
  }
  let rg = row_range(i);
  for (var j = rg.x; j < rg.y; j++) {
    let kb = phi_at(w, j);
    var a = 0.0;
    for (var f = 0u; f < F; f++) { a = fma(PhiQ[qb + f], PhiK[kb + f], a); }
    den += a;
    let vb = head_at(U.off_v, U.ld_v, w, j);
    for (var c = 0u; c < dh; c++) { Out[ob + c] = fma(a, V[vb + c], Out[ob + c]); }
  }
  den += DELTA;
  let inv = 1.0 / den;
  for (var c = 0u; c < dh; c++) { Out[ob + c] = Out[ob + c] * inv; }
  DenOut[(w.b * U.L + i) * U.H + w.h] = den;
}

// entry `amap`: the attention matrix linear attention actually uses, for the panel's maps:
//   Â[((b·H + h)·L + i)·L + j] = φq_i·φk_j / den_i on the allowed (i, j) (causal j ≤ i; window
//   |i − j| < window), 0 elsewhere (twin: src/core/train/attention-layer.ts `attentionMatrices`).
// One invocation per entry; ⌈B·H·L·L / 64⌉ workgroups of @workgroup_size(64), split over (x, y).
@group(0) @binding(16) var<storage, read_write> Amap: array<f32>;

@compute @workgroup_size(64)
fn amap(@builtin(global_invocation_id) gid: vec3<u32>) {
  let L = U.L;
  let F = U.F;
  let id = flat_id(gid);
  if (id >= U.B * U.H * L * L) { return; }
  let j = id % L;
  let i = (id / L) % L;
  let bh = id / (L * L);
  let h = bh % U.H;
  let b = bh / U.H;
  var ok = true;
  if (U.causal == 1u && j > i) { ok = false; }
  if (U.window > 0u && max(i, j) - min(i, j) >= U.window) { ok = false; }
  var a = 0.0;
  if (ok) {
    let qb = ((b * L + i) * U.H + h) * F;
    let kb = ((b * L + j) * U.H + h) * F;
    for (var f = 0u; f < F; f++) { a = fma(PhiQ[qb + f], PhiK[kb + f], a); }
    a = a / DenOut[(b * L + i) * U.H + h];
  }
  Amap[id] = a;
}
