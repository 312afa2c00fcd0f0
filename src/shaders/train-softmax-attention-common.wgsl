// Shared declarations of the trainer's softmax attention kernels (prepended, after
// train-attention-rows.wgsl, to train-softmax-attention-{forward,backward}.wgsl by
// src/gpu/train/softmax-attention.ts). One uniform layout for both passes: Q, K, V and the
// view `o` — the output in the forward pass, dOut in the backward —, then dQ, dK, dV (backward only).
// Views: X[row, c] = x[off + row·ld + c], row = b·L + t, head h in columns h·dh ….

struct Params {
  B: u32, L: u32, H: u32, dh: u32,
  causal: u32, gx: u32, scale: f32, _p0: u32,
  off_q: u32, ld_q: u32, off_k: u32, ld_k: u32,
  off_v: u32, ld_v: u32, off_o: u32, ld_o: u32,
  off_dq: u32, ld_dq: u32, off_dk: u32, ld_dk: u32,
  off_dv: u32, ld_dv: u32, _p1: u32, _p2: u32,
}

@group(0) @binding(0) var<uniform> U: Params;
@group(0) @binding(1) var<storage, read> Q: array<f32>;
@group(0) @binding(2) var<storage, read> K: array<f32>;
@group(0) @binding(3) var<storage, read> V: array<f32>;

/// End of query row i's keys: j < key_end(i) (j ≤ i when causal).
fn key_end(i: u32) -> u32 {
  if (U.causal == 1u) { return i + 1u; }
  return U.L;
}
