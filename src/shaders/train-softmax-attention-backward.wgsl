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
// Views as in the forward pass.
//
// Thread mapping: one invocation per row (`rows`) or key (`cols`), no workgroup memory, no
// barriers (see the forward shader for why).
// Dispatch: ⌈B·H·L / 64⌉ workgroups of @workgroup_size(64) per entry, split over (x, y), x = gx.

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

@compute @workgroup_size(64)
fn rows(@builtin(global_invocation_id) gid: vec3<u32>) {
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
  let prow = r * L;
  let ob = U.off_do + (b * L + i) * U.ld_do + hc;
  var D = 0.0;
  for (var j = 0u; j < jend; j++) {
    let vb = U.off_v + (b * L + j) * U.ld_v + hc;
    var d = 0.0;
    for (var c = 0u; c < dh; c++) { d = fma(dO[ob + c], V[vb + c], d); }
    dS[prow + j] = d;
    D = fma(Pm[prow + j], d, D);
  }
  for (var j = 0u; j < L; j++) {
    var ds = 0.0;
    if (j < jend) { ds = Pm[prow + j] * (dS[prow + j] - D); }
    dS[prow + j] = ds;
  }
  // dQ_i accumulates in place, key by key (rows of K read contiguously), scaled at the end
  let qo = U.off_dq + (b * L + i) * U.ld_dq + hc;
  for (var c = 0u; c < dh; c++) { dQ[qo + c] = 0.0; }
  for (var j = 0u; j < jend; j++) {
    let ds = dS[prow + j];
    let kb = U.off_k + (b * L + j) * U.ld_k + hc;
    for (var c = 0u; c < dh; c++) { dQ[qo + c] = fma(ds, K[kb + c], dQ[qo + c]); }
  }
  for (var c = 0u; c < dh; c++) { dQ[qo + c] = dQ[qo + c] * U.scale; }
}

@compute @workgroup_size(64)
fn cols(@builtin(global_invocation_id) gid: vec3<u32>) {
  let L = U.L;
  let dh = U.dh;
  let r = gid.x + gid.y * U.gx * WG;
  if (r >= U.B * U.H * L) { return; }
  let j = r % L;
  let bh = r / L;
  let h = bh % U.H;
  let b = bh / U.H;
  let hc = h * dh;
  var istart = 0u;
  if (U.causal == 1u) { istart = j; }
  // dV_j, dK_j accumulate in place, query by query: column j of P and dS is read once, rows of
  // dO and Q contiguously
  let pc = bh * L * L + j;
  let vo = U.off_dv + (b * L + j) * U.ld_dv + hc;
  let ko = U.off_dk + (b * L + j) * U.ld_dk + hc;
  for (var c = 0u; c < dh; c++) {
    dV[vo + c] = 0.0;
    dK[ko + c] = 0.0;
  }
  for (var i = istart; i < L; i++) {
    let e = pc + i * L;
    let p = Pm[e];
    let ds = dS[e];
    let ob = U.off_do + (b * L + i) * U.ld_do + hc;
    let qb = U.off_q + (b * L + i) * U.ld_q + hc;
    for (var c = 0u; c < dh; c++) {
      dV[vo + c] = fma(p, dO[ob + c], dV[vo + c]);
      dK[ko + c] = fma(ds, Q[qb + c], dK[ko + c]);
    }
  }
  for (var c = 0u; c < dh; c++) { dK[ko + c] = dK[ko + c] * U.scale; }
}
