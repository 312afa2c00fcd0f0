// wgsl-helpers.wgsl — small helpers shared by the kernels, prepended once by the source assembly
// (src/gpu/shader-source.ts) instead of pasted into each file.

/// Linear workgroup index wid = id.x + id.y·num_workgroups.x (the dispatchers split large 1-D grids
/// over x and y: src/gpu/pipelines.ts dispatchGrid).
fn wg_linear(id: vec3<u32>, nwg: vec3<u32>) -> u32 {
  return id.x + id.y * nwg.x;
}

/// (a0·b, a1·b, a2·b, a3·b): four rows against one vec4 (the micro-tile GEMMs' inner step).
fn dot4(a0: vec4f, a1: vec4f, a2: vec4f, a3: vec4f, b: vec4f) -> vec4f {
  return vec4f(dot(a0, b), dot(a1, b), dot(a2, b), dot(a3, b));
}
