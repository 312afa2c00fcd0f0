// The bias and reduction halves of the trainer's linear layer y = x·W + b (the product itself is
// src/shaders/matmul.wgsl with its transpose flags; dispatcher src/gpu/train/linear.ts; CPU twin
// src/core/train/linear.ts `linearForward` / `linearBackward`).
//
//   rows_init: y[i, j] = (has_bias ? b[j] : 0) + (has_res ? r[i, j] : 0)   (then y += x·W accumulates;
//              with has_res the residual h = u + O·W_O + b_O is formed in place)
//   col_sum:   db[j] = Σ_i dy[i, j] (+ db[j] when accumulate)               (the bias gradient)
//
// Thread mapping: rows_init one invocation per element of y (index e = i·cols + j); col_sum one
// invocation per column j, summing the rows in order (a fixed order: bit-reproducible, no atomics).
// Dispatch: ⌈count / 64⌉ workgroups of 64 folded into (nx, ny); element index (wg.y·nx + wg.x)·64 + lid.x;
// col_sum ⌈cols / 8⌉ workgroups of 8 (its few long invocations spread over SwiftShader's threads).

struct Params { rows: u32, cols: u32, nx: u32, has_bias: u32, has_res: u32, accumulate: u32, _p0: u32, _p1: u32 }

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> Y: array<f32>;
@group(0) @binding(2) var<storage, read> Bv: array<f32>;
@group(0) @binding(3) var<storage, read> R: array<f32>;

@compute @workgroup_size(64)
fn rows_init(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let e = (wg.y * P.nx + wg.x) * 64u + lid.x;
  if (e >= P.rows * P.cols) { return; }
  var v = 0.0;
  if (P.has_bias == 1u) { v = Bv[e % P.cols]; }
  if (P.has_res == 1u) { v += R[e]; }
  Y[e] = v;
}

// col_sum: Y is db (cols), R is dy (rows × cols); Bv unused but bound (same layout).
@compute @workgroup_size(8)
fn col_sum(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let j = (wg.y * P.nx + wg.x) * 8u + lid.x;
  if (j >= P.cols) { return; }
  var s = 0.0;
  for (var i = 0u; i < P.rows; i++) { s += R[i * P.cols + j]; }
  if (P.accumulate == 1u) { s += Y[j]; }
  _ = Bv[0];
  Y[j] = s;
}
