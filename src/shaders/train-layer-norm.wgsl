// Layer norm over the columns of each row, forward and backward (dispatcher
// src/gpu/train/layer-norm.ts; CPU twin src/core/train/layer-norm.ts), eps = 1e-5.
//
//   forward:  μ = mean_j x_j,  σ² = mean_j (x_j − μ)²,  rstd = 1/√(σ² + eps),
//             x̂_j = (x_j − μ)·rstd,  y_j = g_j x̂_j + b_j            (μ and rstd kept for the backward)
//   backward: ĝ_j = dy_j g_j,  dx_j = rstd·(ĝ_j − mean(ĝ) − x̂_j·mean(ĝ ⊙ x̂))   (+ dx when accumulate)
//   params:   dg_j = Σ_rows dy_j x̂_j,  db_j = Σ_rows dy_j                      (+= when accumulate)
//
// Thread mapping: forward / backward one invocation per 4 rows, their columns in order; params one
// invocation per 4 columns, the rows in order (no atomics, no workgroup memory, bit-reproducible).
// Dispatch: forward / backward ⌈⌈rows / 4⌉ / 64⌉ workgroups of 64, params ⌈⌈cols / 4⌉ / 4⌉ of 4, folded into (nx, ny).

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

// forward / backward: one invocation per block of 4 rows 4·e … (rows past the end read the last
// row, clamped, and write nothing), the columns walked serially (cols ≤ 256) with each row's
// sums in column order: no workgroup memory and no barriers, which on SwiftShader cost more than
// the rows' arithmetic, and G[j], B[j] loaded once for the 4 rows (18 resp. 26 storage accesses
// per column and 4 rows, were 24 resp. 32 with one row per invocation).

struct Rows4 {
  /// element 0 of each (clamped) row
  base: vec4<u32>,
  /// the rows (clamped) and which of them exist
  rc: vec4<u32>,
  live: vec4<bool>,
}

fn rows4(wg: vec3<u32>, lid: vec3<u32>) -> Rows4 {
  let r0 = ((wg.y * P.nx + wg.x) * 64u + lid.x) * 4u;
  let rv = vec4<u32>(r0) + vec4<u32>(0u, 1u, 2u, 3u);
  let rc = min(rv, vec4<u32>(P.rows - 1u));
  return Rows4(rc * P.cols, rc, rv < vec4<u32>(P.rows));
}

fn x4(b: vec4<u32>, j: u32) -> vec4<f32> { return vec4<f32>(X[b.x + j], X[b.y + j], X[b.z + j], X[b.w + j]); }
fn dy4(b: vec4<u32>, j: u32) -> vec4<f32> { return vec4<f32>(B[b.x + j], B[b.y + j], B[b.z + j], B[b.w + j]); }

/// OUT[b + j] = v for the rows that exist.
fn put4(live: vec4<bool>, b: vec4<u32>, j: u32, v: vec4<f32>) {
  if (live.x) { OUT[b.x + j] = v.x; }
  if (live.y) { OUT[b.y + j] = v.y; }
  if (live.z) { OUT[b.z + j] = v.z; }
  if (live.w) { OUT[b.w + j] = v.w; }
}

@compute @workgroup_size(64)
fn forward(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let w = rows4(wg, lid);
  if (!w.live.x) { return; }
  let base = w.base;
  var s = vec4<f32>(0.0);
  for (var j = 0u; j < P.cols; j++) { s += x4(base, j); }
  let mu = s / f32(P.cols);
  var q = vec4<f32>(0.0);
  for (var j = 0u; j < P.cols; j++) {
    let d = x4(base, j) - mu;
    q += d * d;
  }
  let rstd = vec4<f32>(1.0) / sqrt(q / f32(P.cols) + vec4<f32>(EPS));
  for (var j = 0u; j < P.cols; j++) {
    put4(w.live, base, j, vec4<f32>(G[j]) * ((x4(base, j) - mu) * rstd) + vec4<f32>(B[j]));
  }
  if (w.live.x) { MEAN[w.rc.x] = mu.x; RSTD[w.rc.x] = rstd.x; }
  if (w.live.y) { MEAN[w.rc.y] = mu.y; RSTD[w.rc.y] = rstd.y; }
  if (w.live.z) { MEAN[w.rc.z] = mu.z; RSTD[w.rc.z] = rstd.z; }
  if (w.live.w) { MEAN[w.rc.w] = mu.w; RSTD[w.rc.w] = rstd.w; }
}

@compute @workgroup_size(64)
fn backward(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let w = rows4(wg, lid);
  if (!w.live.x) { return; }
  let base = w.base;
  let rc = w.rc;
  let mu = vec4<f32>(MEAN[rc.x], MEAN[rc.y], MEAN[rc.z], MEAN[rc.w]);
  let rstd = vec4<f32>(RSTD[rc.x], RSTD[rc.y], RSTD[rc.z], RSTD[rc.w]);
  var s0 = vec4<f32>(0.0);
  var s1 = vec4<f32>(0.0);
  for (var j = 0u; j < P.cols; j++) {
    let gh = dy4(base, j) * vec4<f32>(G[j]);
    s0 += gh;
    s1 += gh * (x4(base, j) - mu) * rstd;
  }
  let m0 = s0 / f32(P.cols);
  let m1 = s1 / f32(P.cols);
  for (var j = 0u; j < P.cols; j++) {
    let xh = (x4(base, j) - mu) * rstd;
    var dx = rstd * (dy4(base, j) * vec4<f32>(G[j]) - m0 - xh * m1);
    if (P.accumulate == 1u) {
      dx += vec4<f32>(OUT[base.x + j], OUT[base.y + j], OUT[base.z + j], OUT[base.w + j]);
    }
    put4(w.live, base, j, dx);
  }
}

// params: G unused (bound), B = dy, OUT = dgain, MEAN / RSTD read; the bias gradient goes to
// binding 7 (a separate entry point layout).
@group(0) @binding(7) var<storage, read_write> DBIAS: array<f32>;

// params: one invocation per 4 columns 4·e … (columns past the end read the last one, clamped,
// and write nothing) walking every row, MEAN[r] and RSTD[r] loaded once for the 4 (2.5 loads per
// entry, were 4); workgroups of 4, so a D = 32 layer's 8 walks spread over 2 workgroups
// (SwiftShader runs a workgroup on one thread)
@compute @workgroup_size(4)
fn params(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let j0 = ((wg.y * P.nx + wg.x) * 4u + lid.x) * 4u;
  _ = G[0];
  if (j0 >= P.cols) { return; }
  let jv = vec4<u32>(j0) + vec4<u32>(0u, 1u, 2u, 3u);
  let jc = min(jv, vec4<u32>(P.cols - 1u));
  var sg = vec4<f32>(0.0);
  var sb = vec4<f32>(0.0);
  for (var r = 0u; r < P.rows; r++) {
    let o = vec4<u32>(r * P.cols) + jc;
    let dy = vec4<f32>(B[o.x], B[o.y], B[o.z], B[o.w]);
    let x = vec4<f32>(X[o.x], X[o.y], X[o.z], X[o.w]);
    sg += dy * (x - vec4<f32>(MEAN[r])) * vec4<f32>(RSTD[r]);
    sb += dy;
  }
  let live = jv < vec4<u32>(P.cols);
  if (live.x) { put_params(jv.x, sg.x, sb.x); }
  if (live.y) { put_params(jv.y, sg.y, sb.y); }
  if (live.z) { put_params(jv.z, sg.z, sb.z); }
  if (live.w) { put_params(jv.w, sg.w, sb.w); }
}

/// Column j's dgain and dbias (+ their old values when accumulate).
fn put_params(j: u32, g: f32, b: f32) {
  var sg = g;
  var sb = b;
  if (P.accumulate == 1u) {
    sg += OUT[j];
    sb += DBIAS[j];
  }
  OUT[j] = sg;
  DBIAS[j] = sb;
}
