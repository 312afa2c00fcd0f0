// The short causal convolution before attention, forward and backward (dispatcher
// src/gpu/train/short-conv.ts; CPU twin src/core/train/short-conv.ts). Per channel d, within each
// sequence (positions before its start are zero):
//
//   shift (taps = 1): u_t = h_t + w ⊙ h_{t−1}                      (w: D)
//   conv3 (taps = 3): u_t = h_t + Σ_{s=0..2} c_s ⊙ h_{t−s}          (c: 3×D, row s multiplies h_{t−s})
//   With a uniform tap offset o (shift: o = 1, conv3: o = 0) both read u_t = h_t + Σ_{s<taps} w_s ⊙ h_{t−s−o}.
//   backward dx: dh_t = du_t + Σ_s w_s ⊙ du_{t+s+o}   (t+s+o < L)   (+ dh when accumulate)
//   backward dw: dw_s[d] = Σ_{b,t} du_t[d] · h_{t−s−o}[d]          (+ dw when accumulate)
//
// Thread mapping: forward / dx one invocation per channel d and PER = 8 consecutive positions of
// one sequence (d fastest); dw one invocation per (s, d), the rows summed in order (no atomics).
// Dispatch: ⌈count / 64⌉ workgroups of 64 folded into (nx, ny), count = B·⌈L / 8⌉·D; dw
// ⌈taps·D / 8⌉ workgroups of 8.

struct Params { batch: u32, seq: u32, dim: u32, taps: u32, off: u32, nx: u32, accumulate: u32, _p: u32 }

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> X: array<f32>;
@group(0) @binding(2) var<storage, read> W: array<f32>;
// forward: DY unused; dx / dw: DY = du
@group(0) @binding(3) var<storage, read> DY: array<f32>;
@group(0) @binding(4) var<storage, read_write> OUT: array<f32>;

/// Positions per invocation of `forward` and `dx`: one channel d of PER consecutive positions of
/// one sequence, walked with the taps' inputs kept in registers (per output 1 load of X / du and
/// the store; one element per invocation, or 8 consecutive elements of a row, reloaded the taps'
/// W and inputs for every output: 7 loads per output at conv3).
const PER: u32 = 8u;

/// This invocation's sequence b, first position t0, end t1 (≤ L) and channel d; b ≥ batch: none.
fn span(wg: vec3<u32>, lid: vec3<u32>) -> vec4<u32> {
  let id = (wg.y * P.nx + wg.x) * 64u + lid.x;
  let d = id % P.dim;
  let blk = id / P.dim;
  let nb = (P.seq + PER - 1u) / PER;
  let t0 = (blk % nb) * PER;
  return vec4<u32>(blk / nb, t0, min(P.seq, t0 + PER), d);
}

/// W[s, d] (s < taps), 0 past the taps.
fn taps3(d: u32) -> vec3<f32> {
  var w = vec3<f32>(W[d], 0.0, 0.0);
  if (P.taps > 1u) { w.y = W[P.dim + d]; }
  if (P.taps > 2u) { w.z = W[2u * P.dim + d]; }
  return w;
}

@compute @workgroup_size(64)
fn forward(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  _ = DY[0];
  let sp = span(wg, lid);
  if (sp.x >= P.batch) { return; }
  let d = sp.w;
  let w = taps3(d);
  let row0 = sp.x * P.seq;
  // h_{t−1}, h_{t−2} (0 before the sequence start; not read there anyway)
  var p1 = 0.0;
  var p2 = 0.0;
  if (sp.y >= 1u) { p1 = X[(row0 + sp.y - 1u) * P.dim + d]; }
  if (sp.y >= 2u) { p2 = X[(row0 + sp.y - 2u) * P.dim + d]; }
  for (var t = sp.y; t < sp.z; t++) {
    let e = (row0 + t) * P.dim + d;
    let x = X[e];
    // tap s reads h_{t−s−off} (off 0 or 1, s + off ≤ 2), in s order; constant lanes only (a
    // dynamically indexed vector is spilled on SwiftShader)
    let z = P.off == 0u;
    var u = x;
    if (P.off <= t) { u += w.x * select(p1, x, z); }
    if (P.taps > 1u && 1u + P.off <= t) { u += w.y * select(p2, p1, z); }
    if (P.taps > 2u && 2u + P.off <= t) { u += w.z * p2; }
    OUT[e] = u;
    p2 = p1;
    p1 = x;
  }
}

@compute @workgroup_size(64)
fn dx(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  _ = X[0];
  let sp = span(wg, lid);
  if (sp.x >= P.batch) { return; }
  let d = sp.w;
  let w = taps3(d);
  let row0 = sp.x * P.seq;
  // du_{t+1}, du_{t+2}, walking t down from the block's end (0 past the sequence; not read there)
  var n1 = 0.0;
  var n2 = 0.0;
  if (sp.z < P.seq) { n1 = DY[(row0 + sp.z) * P.dim + d]; }
  if (sp.z + 1u < P.seq) { n2 = DY[(row0 + sp.z + 1u) * P.dim + d]; }
  for (var t = sp.z; t > sp.y; t--) {
    let e = (row0 + t - 1u) * P.dim + d;
    let du = DY[e];
    // tap s reads du_{t'+s+off}, t' = t − 1, in s order
    let z = P.off == 0u;
    var g = du;
    if (t - 1u + P.off < P.seq) { g += w.x * select(n1, du, z); }
    if (P.taps > 1u && t + P.off < P.seq) { g += w.y * select(n2, n1, z); }
    if (P.taps > 2u && t + 1u + P.off < P.seq) { g += w.z * n2; }
    if (P.accumulate == 1u) { g += OUT[e]; }
    OUT[e] = g;
    n2 = n1;
    n1 = du;
  }
}

// dw: workgroups of 8 (taps·D long walks over the rows; 64 put a D = 32 layer's on one thread)
@compute @workgroup_size(8)
fn dw(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let e = (wg.y * P.nx + wg.x) * 8u + lid.x;
  _ = W[0];
  if (e >= P.taps * P.dim) { return; }
  let s = e / P.dim;
  let d = e % P.dim;
  let back = s + P.off;
  var acc = 0.0;
  for (var b = 0u; b < P.batch; b++) {
    for (var t = back; t < P.seq; t++) {
      let r = b * P.seq + t;
      acc += DY[r * P.dim + d] * X[(r - back) * P.dim + d];
    }
  }
  if (P.accumulate == 1u) { acc += OUT[e]; }
  OUT[e] = acc;
}
