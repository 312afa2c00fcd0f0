// The optimizer step on the flat parameter buffer: global gradient norm, clipping and AdamW
// (dispatcher src/gpu/train/adamw.ts; CPU twins src/core/train/clip.ts and adamw.ts).
//
//   partial:  part[w] = Σ_{e in chunk w} g_e²                  (chunks of 4096 elements)
//   norm:     ‖g‖ = √(Σ_w part[w]) → stats[3];  scale = clip > 0 ∧ ‖g‖ > clip ? clip / ‖g‖ : 1 → stats[4]
//   adamw:    g = scale·G_e;  m = β₁m + (1−β₁)g;  v = β₂v + (1−β₂)g²;
//             p −= lr·( (m / bc₁) / (√(v / bc₂) + ε) + decay_e·wd·p ),  bc₁ = 1 − β₁ᵗ, bc₂ = 1 − β₂ᵗ (from the host)
//
// The padding between tensors (they start at 256-byte boundaries) holds zeros in G, m, v and p and
// stays zero. Thread mapping: partial one workgroup of 16 per chunk, each invocation 256 strided
// elements then a fixed-order tree reduction (16 f32 of workgroup memory); norm one workgroup of
// 16 summing the partials in order; adamw one invocation per element. Deterministic, no atomics.
// Dispatch: partial ⌈n / 4096⌉ workgroups (folded into (nx, ny)); norm 1; adamw ⌈n / 64⌉ folded.

struct Params {
  n: u32, nx: u32, parts: u32, _p: u32,
  lr: f32, beta1: f32, beta2: f32, eps: f32,
  wd: f32, bc1: f32, bc2: f32, clip: f32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> G: array<f32>;
@group(0) @binding(2) var<storage, read_write> PART: array<f32>;

const CHUNK: u32 = 4096u;
/// Invocations of `partial` and `norm`: 16, so the tree takes 4 barriers, not 8 — on SwiftShader
/// a barrier switches every one of the workgroup's SIMD groups (256 invocations: 64 of them) and
/// the two passes took ~3 ms a step for ~13k gradients, ~0.3 ms with 16.
const RW: u32 = 16u;
var<workgroup> red: array<f32, 16>;

fn tree(t: u32) {
  for (var s = RW / 2u; s > 0u; s >>= 1u) {
    workgroupBarrier();
    if (t < s) { red[t] += red[t + s]; }
  }
  workgroupBarrier();
}

@compute @workgroup_size(16)
fn partial(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let w = wg.y * P.nx + wg.x;
  if (w >= P.parts) { return; }
  let t = lid.x;
  var s = 0.0;
  for (var i = 0u; i < CHUNK / RW; i++) {
    let e = w * CHUNK + i * RW + t;
    if (e < P.n) {
      let g = G[e];
      s += g * g;
    }
  }
  red[t] = s;
  tree(t);
  if (t == 0u) { PART[w] = red[0]; }
}

// norm: PART read, STATS written at binding 3 (G unused).
@group(0) @binding(3) var<storage, read_write> STATS: array<f32>;

@compute @workgroup_size(16)
fn norm(@builtin(local_invocation_id) lid: vec3<u32>) {
  let t = lid.x;
  _ = G[0];
  var s = 0.0;
  for (var i = t; i < P.parts; i += RW) { s += PART[i]; }
  red[t] = s;
  tree(t);
  if (t == 0u) {
    let nrm = sqrt(red[0]);
    STATS[3] = nrm;
    STATS[4] = select(1.0, P.clip / nrm, P.clip > 0.0 && nrm > P.clip);
  }
}

// adamw: G = gradients; bindings 4–7 the parameters, m, v and the 0/1 decay mask; STATS[4] the scale.
@group(0) @binding(4) var<storage, read_write> PRM: array<f32>;
@group(0) @binding(5) var<storage, read_write> M1: array<f32>;
@group(0) @binding(6) var<storage, read_write> M2: array<f32>;
@group(0) @binding(7) var<storage, read> DECAY: array<f32>;

@compute @workgroup_size(64)
fn adamw(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let e = (wg.y * P.nx + wg.x) * 64u + lid.x;
  _ = PART[0];
  if (e >= P.n) { return; }
  let g = STATS[4] * G[e];
  let m = P.beta1 * M1[e] + (1.0 - P.beta1) * g;
  let v = P.beta2 * M2[e] + (1.0 - P.beta2) * g * g;
  M1[e] = m;
  M2[e] = v;
  let p = PRM[e];
  PRM[e] = p - P.lr * ((m / P.bc1) / (sqrt(v / P.bc2) + P.eps) + DECAY[e] * P.wd * p);
}
