// "Dummy attention" (the speed baseline of Choromanski & Colwell's blog post): reads Q, K and V and returns V, so its time is
// the memory traffic an attention layer cannot avoid.
//
//   out[e] = v[e] + z · (q[e] + k[e]),   z = params.zero (a uniform the host sets to 0)
//
// z is a runtime value, so the compiler cannot drop the loads of Q and K; with z = 0 the result is
// V exactly (for any finite inputs whose sum q + k does not overflow f32).
//
// Bindings: 0 params (uniform: count = n·d, gridX, zero), 1 Q, 2 K, 3 V (f32), 4 out (f32).
// Dispatch: ⌈n·d / 256⌉ workgroups of 256 over (x, y), one invocation per element.

struct Params {
  count: u32,
  gridX: u32,
  zero: f32,
  _pad: u32,
}

@group(0) @binding(0) var<uniform> p: Params;
@group(0) @binding(1) var<storage, read> q: array<f32>;
@group(0) @binding(2) var<storage, read> k: array<f32>;
@group(0) @binding(3) var<storage, read> v: array<f32>;
@group(0) @binding(4) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wid: vec3u, @builtin(local_invocation_index) t: u32) {
  let e = (wid.x + wid.y * p.gridX) * 256u + t;
  if (e >= p.count) { return; }
  out[e] = v[e] + p.zero * (q[e] + k[e]);
}
