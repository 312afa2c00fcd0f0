// Layer norm over the columns of each row, forward and backward (dispatcher
// src/gpu/train/layer-norm.ts; CPU twin src/core/train/layer-norm.ts), eps = 1e-5.
//
//   forward:  μ = mean_j x_j,  σ² = mean_j (x_j − μ)²,  rstd = 1/√(σ² + eps),
//             x̂_j = (x_j − μ)·rstd,  y_j = g_j x̂_j + b_j            (μ and rstd kept for the backward)
//   backward: ĝ_j = dy_j g_j,  dx_j = rstd·(ĝ_j − mean(ĝ) − x̂_j·mean(ĝ ⊙ x̂))   (+ dx when accumulate)
//   params:   dg_j = Σ_rows dy_j x̂_j,  db_j = Σ_rows dy_j                      (+= when accumulate)
//
// Thread mapping: forward / backward one invocation per row, its columns in order; params one
// invocation per column, the rows in order (no atomics, no workgroup memory, bit-reproducible).
// Dispatch: forward / backward ⌈rows / 64⌉ workgroups of 64, params ⌈cols / 8⌉ of 8, folded into (nx, ny).

struct Params { rows: u32, cols: u32, nx: u32, accumulate: u32 }

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> X: array<f32>;
@group(0) @binding(2) var<storage, read> G: array<f32>;
// forward: B = bias, OUT = y, MEAN, RSTD written; backward: B = dy, OUT = dx, MEAN, RSTD read
@group(0) @binding(3) var<storage, read> B: array<f32>;
@group(0) @binding(4) var<storage, read_write> OUT: array<f32>;
@group(0) @binding(5) var<storage, read_write> MEAN: array<f32>;
@group(0) @binding(6) var<storage, read_write> RSTD: array<f32>;

const EPS: f32 = 1e-5;

// forward / backward: one invocation per row, the columns walked serially (cols ≤ 256): no
// workgroup memory and no barriers, which on SwiftShader cost more than the row's arithmetic.
@compute @workgroup_size(64)
fn forward(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let r = (wg.y * P.nx + wg.x) * 64u + lid.x;
  if (r >= P.rows) { return; }
  let base = r * P.cols;
  var s = 0.0;
  for (var j = 0u; j < P.cols; j++) { s += X[base + j]; }
  let mu = s / f32(P.cols);
  var q = 0.0;
  for (var j = 0u; j < P.cols; j++) {
    let d = X[base + j] - mu;
    q += d * d;
  }
  let rstd = 1.0 / sqrt(q / f32(P.cols) + EPS);
  for (var j = 0u; j < P.cols; j++) {
    OUT[base + j] = G[j] * ((X[base + j] - mu) * rstd) + B[j];
  }
  MEAN[r] = mu;
  RSTD[r] = rstd;
}

@compute @workgroup_size(64)
fn backward(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let r = (wg.y * P.nx + wg.x) * 64u + lid.x;
  if (r >= P.rows) { return; }
  let base = r * P.cols;
  let mu = MEAN[r];
  let rstd = RSTD[r];
  var s0 = 0.0;
  var s1 = 0.0;
  for (var j = 0u; j < P.cols; j++) {
    let gh = B[base + j] * G[j];
    s0 += gh;
    s1 += gh * (X[base + j] - mu) * rstd;
  }
  let m0 = s0 / f32(P.cols);
  let m1 = s1 / f32(P.cols);
  for (var j = 0u; j < P.cols; j++) {
    let xh = (X[base + j] - mu) * rstd;
    var dx = rstd * (B[base + j] * G[j] - m0 - xh * m1);
    if (P.accumulate == 1u) { dx += OUT[base + j]; }
    OUT[base + j] = dx;
  }
}

// params: G unused (bound), B = dy, OUT = dgain, MEAN / RSTD read; the bias gradient goes to
// binding 7 (a separate entry point layout).
@group(0) @binding(7) var<storage, read_write> DBIAS: array<f32>;

// params: workgroups of 8 (one invocation per column walks every row; with 64 a D = 32 layer ran
// in one workgroup, on one thread of SwiftShader)
@compute @workgroup_size(8)
fn params(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let j = (wg.y * P.nx + wg.x) * 8u + lid.x;
  _ = G[0];
  if (j >= P.cols) { return; }
  var sg = 0.0;
  var sb = 0.0;
  for (var r = 0u; r < P.rows; r++) {
    let dy = B[r * P.cols + j];
    sg += dy * (X[r * P.cols + j] - MEAN[r]) * RSTD[r];
    sb += dy;
  }
  if (P.accumulate == 1u) {
    sg += OUT[j];
    sb += DBIAS[j];
  }
  OUT[j] = sg;
  DBIAS[j] = sb;
}
