// Pads the rows of a row-major matrix to a whole number of vec4s, so kernels can load rows as
// aligned vec4f (the attention kernels read Q, K, V and the feature matrices this way).
//
//   dst[i, c4] = (src[i, 4c4], src[i, 4c4 + 1], src[i, 4c4 + 2], src[i, 4c4 + 3]),  entries with
//   column ≥ cols read as 0;   i < rows, c4 < ⌈cols / 4⌉.
//
// Bindings: 0 params (uniform), 1 src (rows×cols f32), 2 dst (rows×⌈cols/4⌉ vec4f).
// Dispatch: one invocation per destination vec4, ⌈rows·⌈cols/4⌉ / 256⌉ workgroups over (x, y).

struct Params {
  rows: u32,
  cols: u32,
  gridX: u32, // workgroups along x
  _pad: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> src: array<f32>;
@group(0) @binding(2) var<storage, read_write> dst: array<vec4f>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) t: u32) {
  let c4n = (p.cols + 3u) / 4u;
  let idx = (wid.x + wid.y * p.gridX) * 256u + t;
  if (idx >= p.rows * c4n) { return; }
  let i = idx / c4n;
  let c = (idx - i * c4n) * 4u;
  var x = vec4f(0.0);
  let base = i * p.cols;
  if (c < p.cols) { x.x = src[base + c]; }
  if (c + 1u < p.cols) { x.y = src[base + c + 1u]; }
  if (c + 2u < p.cols) { x.z = src[base + c + 2u]; }
  if (c + 3u < p.cols) { x.w = src[base + c + 3u]; }
  dst[idx] = x;
}
