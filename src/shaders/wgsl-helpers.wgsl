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

/// (sin u, cos u) to ~1 ulp on any GPU: the builtins' accuracy is only specified on [−π, π] and
/// is coarse on some implementations (≈ 1e-4 on SwiftShader), which the trig map would amplify.
/// Cody–Waite reduction u = j·π/2 + s (π/2 split in three parts; exact products for |j| < 2^12),
/// |s| ≤ π/4, then the Cephes single-precision minimax polynomials and the quadrant of j.
fn sin_cos(u: f32) -> vec2<f32> {
  let j = round(u * 0.63661977236758134);
  let s = ((u - j * 1.5703125) - j * 4.837512969970703125e-4) - j * 7.54978995489188216e-8;
  let z = s * s;
  let sn = ((-1.9515295891e-4 * z + 8.3321608736e-3) * z - 1.6666654611e-1) * z * s + s;
  let cs = ((2.443315711809948e-5 * z - 1.388731625493765e-3) * z + 4.166664568298827e-2) * z * z - 0.5 * z + 1.0;
  let q = i32(j) & 3;
  switch (q) {
    case 0: { return vec2<f32>(sn, cs); }
    case 1: { return vec2<f32>(cs, -sn); }
    case 2: { return vec2<f32>(-sn, -cs); }
    default: { return vec2<f32>(-cs, sn); }
  }
}
