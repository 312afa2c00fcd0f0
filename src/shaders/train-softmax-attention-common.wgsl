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

/// An 8-row block's rows (attn_block8; rows ≥ L compute on row L − 1 and are not written).
struct Rows8 {
  /// rows t … t+7 (unclamped) and each one's key end (j < jend)
  rv: array<u32, 8>,
  jend: array<u32, 8>,
  /// first entry of each (clamped) row in the B·H·L·L matrices P, dS
  prow: array<u32, 8>,
  /// the block's key end
  jmax: u32,
  rc0: vec4<u32>,
  rc1: vec4<u32>,
}

fn rows8(w: AttnRow) -> Rows8 {
  let L = U.L;
  let last = vec4<u32>(L - 1u);
  let rv0 = vec4<u32>(w.t) + vec4<u32>(0u, 1u, 2u, 3u);
  let rv1 = rv0 + vec4<u32>(4u);
  let rc0 = min(rv0, last);
  let rc1 = min(rv1, last);
  var jend0 = vec4<u32>(L);
  var jend1 = vec4<u32>(L);
  if (U.causal == 1u) {
    jend0 = min(rv0 + vec4<u32>(1u), vec4<u32>(L));
    jend1 = min(rv1 + vec4<u32>(1u), vec4<u32>(L));
  }
  let jm = max(jend0, jend1);
  let pb = w.bh * L * L;
  return Rows8(
    array<u32, 8>(rv0.x, rv0.y, rv0.z, rv0.w, rv1.x, rv1.y, rv1.z, rv1.w),
    array<u32, 8>(jend0.x, jend0.y, jend0.z, jend0.w, jend1.x, jend1.y, jend1.z, jend1.w),
    array<u32, 8>(pb + rc0.x * L, pb + rc0.y * L, pb + rc0.z * L, pb + rc0.w * L,
                  pb + rc1.x * L, pb + rc1.y * L, pb + rc1.z * L, pb + rc1.w * L),
    max(max(jm.x, jm.y), max(jm.z, jm.w)),
    rc0,
    rc1,
  );
}

/// Element 0 of head h in the 4 rows t of a strided view (off, ld).
fn heads4(off: u32, ld: u32, w: AttnRow, t: vec4<u32>) -> vec4<u32> {
  return vec4<u32>(head_at(off, ld, w, t.x), head_at(off, ld, w, t.y), head_at(off, ld, w, t.z), head_at(off, ld, w, t.w));
}
