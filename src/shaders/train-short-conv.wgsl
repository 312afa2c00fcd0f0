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
// Thread mapping: forward / dx one invocation per PER = 8 consecutive elements of the (B·L)×D
// output; dw one invocation per (s, d), the rows summed in order (no atomics). Dispatch:
// ⌈count / 64⌉ workgroups of 64 folded into (nx, ny), count = ⌈B·L·D / 8⌉; dw ⌈taps·D / 8⌉
// workgroups of 8.

struct Params { batch: u32, seq: u32, dim: u32, taps: u32, off: u32, nx: u32, accumulate: u32, _p: u32 }

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> X: array<f32>;
@group(0) @binding(2) var<storage, read> W: array<f32>;
// forward: DY unused; dx / dw: DY = du
@group(0) @binding(3) var<storage, read> DY: array<f32>;
@group(0) @binding(4) var<storage, read_write> OUT: array<f32>;

/// Elements per invocation of `forward` and `dx` (consecutive): SwiftShader's cost per workgroup
/// outweighed these 3-load elements at one per invocation.
const PER: u32 = 8u;

/// The elements [x, y) of this invocation (forward, dx).
fn elems(wg: vec3<u32>, lid: vec3<u32>) -> vec2<u32> {
  let e0 = ((wg.y * P.nx + wg.x) * 64u + lid.x) * PER;
  return vec2<u32>(e0, min(P.batch * P.seq * P.dim, e0 + PER));
}

@compute @workgroup_size(64)
fn forward(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  _ = DY[0];
  let span = elems(wg, lid);
  for (var e = span.x; e < span.y; e++) {
    let r = e / P.dim;
    let d = e % P.dim;
    let t = r % P.seq;
    var u = X[e];
    for (var s = 0u; s < P.taps; s++) {
      let back = s + P.off;
      if (back <= t) { u += W[s * P.dim + d] * X[(r - back) * P.dim + d]; }
    }
    OUT[e] = u;
  }
}

@compute @workgroup_size(64)
fn dx(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  _ = X[0];
  let span = elems(wg, lid);
  for (var e = span.x; e < span.y; e++) {
    let r = e / P.dim;
    let d = e % P.dim;
    let t = r % P.seq;
    var g = DY[e];
    for (var s = 0u; s < P.taps; s++) {
      let fwd = s + P.off;
      if (t + fwd < P.seq) { g += W[s * P.dim + d] * DY[(r + fwd) * P.dim + d]; }
    }
    if (P.accumulate == 1u) { g += OUT[e]; }
    OUT[e] = g;
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
