// The core of Hedgehog's attention distillation (the transfer experiment's fit; CPU twin:
// src/core/train/hedgehog-distill.ts `distillHead`; dispatcher: src/gpu/train/hedgehog-distill.ts).
// Prepended: train-attention-rows.wgsl (row id r = (b·H + h)·L + t, t fastest).
//
// Per sequence b, head h, query row i, with the student's Hedgehog features φq, φk
// ((B·L)×(H·F), F = 2m, head h in columns h·F …: φ[((b·L + t)·H + h)·F + f], the layout of
// train-feature-maps.wgsl) and the teacher's softmax attention P (B·H·L·L, P[(r·L) + j]):
//   s_ij = φq_i·φk_j,  den_i = Σ_j s_ij,  mass_i = Σ_j P_ij     (j < n_i: n_i = i + 1 causal, else L)
//   KL_i = Σ_j [P_ij > 0] P_ij (log P_ij − log(s_ij / den_i))     (unscaled, into KL[off_kl + r])
//   g_ij = (mass_i / den_i − P_ij / s_ij) / N                      (∂(Σ KL / N)/∂s_ij; N = U.norm)
//   dφq_i = Σ_j g_ij φk_j,  dφk_j = Σ_{i: j < n_i} g_ij φq_i
// (φ > 0: Hedgehog's features are softmaxes, so s_ij > 0.)
//
// Thread mapping: entry `rows` one invocation per (b, h, i): s_ij into its own row of the scratch
// G (B·H·L·L; entries j ≥ n_i are not written and never read), then den, mass, KL_i, and g_ij over
// s_ij in place, then dφq_i summed over j in increasing order. Entry `cols` one invocation per
// (b, h, j): dφk_j summed over i in increasing order from G. No atomics, no workgroup memory, no
// barriers: every sum has one fixed order (the twin's), so a run is deterministic.
//
// Dispatch: both entries ⌈B·H·L / 64⌉ workgroups of @workgroup_size(64), split over (x, y) with
// x = gx (train-attention-rows.wgsl), one after the other in one encoder.

struct Params {
  B: u32, L: u32, H: u32, dh: u32, // dh: unused (train-attention-rows.wgsl's head_at reads it)
  F: u32, causal: u32, gx: u32, off_kl: u32,
  norm: f32, _p0: u32, _p1: u32, _p2: u32,
}

@group(0) @binding(0) var<uniform> U: Params;
@group(0) @binding(1) var<storage, read> PhiQ: array<f32>;
@group(0) @binding(2) var<storage, read> PhiK: array<f32>;
@group(0) @binding(3) var<storage, read> Pm: array<f32>;
@group(0) @binding(4) var<storage, read_write> G: array<f32>;
@group(0) @binding(5) var<storage, read_write> KL: array<f32>;
@group(0) @binding(6) var<storage, read_write> dPhiQ: array<f32>;
@group(0) @binding(7) var<storage, read_write> dPhiK: array<f32>;

/// Element 0 of position t's features of w's head in φ.
fn phi_at(w: AttnRow, t: u32) -> u32 { return ((w.b * U.L + t) * U.H + w.h) * U.F; }

fn keys(i: u32) -> u32 {
  if (U.causal == 1u) { return i + 1u; }
  return U.L;
}

@compute @workgroup_size(64)
fn rows(@builtin(global_invocation_id) gid: vec3<u32>) {
  let w = attn_row(gid);
  if (attn_row_out(w)) { return; }
  let F = U.F;
  let i = w.t;
  let n = keys(i);
  let qb = phi_at(w, i);
  let prow = w.r * U.L;
  var den = 0.0;
  var mass = 0.0;
  for (var j = 0u; j < n; j++) {
    let kb = phi_at(w, j);
    var dot = 0.0;
    for (var f = 0u; f < F; f++) { dot = fma(PhiQ[qb + f], PhiK[kb + f], dot); }
    G[prow + j] = dot;
    den += dot;
    mass += Pm[prow + j];
  }
  var kl = 0.0;
  let md = mass / den;
  for (var j = 0u; j < n; j++) {
    let pij = Pm[prow + j];
    let sij = G[prow + j];
    if (pij > 0.0) { kl += pij * (log(pij) - log(sij / den)); }
    G[prow + j] = (md - pij / sij) / U.norm;
  }
  KL[U.off_kl + w.r] = kl;
  for (var f = 0u; f < F; f++) { dPhiQ[qb + f] = 0.0; }
  for (var j = 0u; j < n; j++) {
    let g = G[prow + j];
    let kb = phi_at(w, j);
    for (var f = 0u; f < F; f++) { dPhiQ[qb + f] = fma(g, PhiK[kb + f], dPhiQ[qb + f]); }
  }
}

@compute @workgroup_size(64)
fn cols(@builtin(global_invocation_id) gid: vec3<u32>) {
  let w = attn_row(gid);
  if (attn_row_out(w)) { return; }
  let F = U.F;
  let L = U.L;
  let j = w.t;
  let kb = phi_at(w, j);
  let base = w.bh * L;
  for (var f = 0u; f < F; f++) { dPhiK[kb + f] = 0.0; }
  var i0 = 0u;
  if (U.causal == 1u) { i0 = j; }
  for (var i = i0; i < L; i++) {
    let g = G[(base + i) * L + j];
    let qb = phi_at(w, i);
    for (var f = 0u; f < F; f++) { dPhiK[kb + f] = fma(g, PhiQ[qb + f], dPhiK[kb + f]); }
  }
}
