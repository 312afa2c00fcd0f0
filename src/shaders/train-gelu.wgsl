// GELU, tanh approximation, and its derivative (dispatcher src/gpu/train/elementwise.ts; CPU twin
// src/core/train/gelu.ts).
//
//   forward:  y = ½x(1 + tanh(u)),  u = √(2/π)(x + 0.044715x³)
//   backward: dx = dy·(½(1 + tanh u) + ½x(1 − tanh²u)·√(2/π)(1 + 3·0.044715x²))  (+ dx when accumulate)
//   add:      y = a + b (+ y when accumulate)  — the residual add
//
// tanh is formed from exp of a clamped argument (|u| ≤ 15: tanh(15) = 1 in f32), since a large |u|
// makes WGSL's tanh NaN on some drivers.
// Thread mapping: one invocation per element. Dispatch: ⌈n / 64⌉ workgroups of 64 folded into (nx, ny).

struct Params { n: u32, nx: u32, accumulate: u32, _p: u32 }

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> X: array<f32>;
@group(0) @binding(2) var<storage, read> DY: array<f32>;
@group(0) @binding(3) var<storage, read_write> Y: array<f32>;

const K0: f32 = 0.7978845608028654; // √(2/π)
const K1: f32 = 0.044715;

fn tanh_c(u: f32) -> f32 {
  let c = clamp(u, -15.0, 15.0);
  let e = exp(2.0 * c);
  return (e - 1.0) / (e + 1.0);
}

@compute @workgroup_size(64)
fn forward(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let e = (wg.y * P.nx + wg.x) * 64u + lid.x;
  if (e >= P.n) { return; }
  let x = X[e];
  let t = tanh_c(K0 * (x + K1 * x * x * x));
  var y = 0.5 * x * (1.0 + t);
  if (P.accumulate == 1u) { y += Y[e]; }
  _ = DY[0];
  Y[e] = y;
}

@compute @workgroup_size(64)
fn backward(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let e = (wg.y * P.nx + wg.x) * 64u + lid.x;
  if (e >= P.n) { return; }
  let x = X[e];
  let t = tanh_c(K0 * (x + K1 * x * x * x));
  let d = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * K0 * (1.0 + 3.0 * K1 * x * x);
  var g = DY[e] * d;
  if (P.accumulate == 1u) { g += Y[e]; }
  Y[e] = g;
}

// add: X = a, DY = b
@compute @workgroup_size(64)
fn add(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let e = (wg.y * P.nx + wg.x) * 64u + lid.x;
  if (e >= P.n) { return; }
  var y = X[e] + DY[e];
  if (P.accumulate == 1u) { y += Y[e]; }
  Y[e] = y;
}
