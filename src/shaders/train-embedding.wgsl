// Token + position embedding, forward and backward (dispatcher src/gpu/train/embedding.ts; CPU twin
// src/core/train/embedding.ts).
//
//   forward:   h[r, d] = E[tok[r], d] + P[r mod L, d]              (r = b·L + t; B·L rows of width D)
//   dtok:      dE[v, d] = Σ_{r : tok[r] = v} dh[r, d]   (+ dE when accumulate: a tied output head adds its part)
//   dpos:      dP[t, d] = Σ_b dh[b·L + t, d]            (+ dP when accumulate)
//
// The token gradient is a gather: one invocation per (v, d) walks all B·L rows in order and adds
// the rows whose token is v — no float atomics (WGSL has none), bit-reproducible. Cost V·D·B·L
// compares, small at the trainer's sizes (V ≤ 512). Tokens outside [0, V) read row 0 in the forward
// and count nowhere in the backward.
// Thread mapping: one invocation per output element (dtok: per token v and 4 consecutive columns,
// d fastest, so the invocations of a SIMD group share v and its compares). Dispatch: ⌈count / 64⌉
// workgroups of 64 folded into (nx, ny), count = B·L·D (forward), V·⌈D/4⌉ (dtok), L·D (dpos).

struct Params { batch: u32, seq: u32, dim: u32, vocab: u32, nx: u32, accumulate: u32, _p0: u32, _p1: u32 }

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> TOK: array<i32>;
// forward: A = E (V×D), Bm = P (Lmax×D), OUT = h; dtok / dpos: A = dh, OUT = dE / dP (Bm unused)
@group(0) @binding(2) var<storage, read> A: array<f32>;
@group(0) @binding(3) var<storage, read> Bm: array<f32>;
@group(0) @binding(4) var<storage, read_write> OUT: array<f32>;

@compute @workgroup_size(64)
fn forward(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let e = (wg.y * P.nx + wg.x) * 64u + lid.x;
  if (e >= P.batch * P.seq * P.dim) { return; }
  let r = e / P.dim;
  let d = e % P.dim;
  var v = TOK[r];
  if (v < 0 || u32(v) >= P.vocab) { v = 0; }
  OUT[e] = A[u32(v) * P.dim + d] + Bm[(r % P.seq) * P.dim + d];
}

@compute @workgroup_size(64)
fn dtok(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  // one invocation per (v, 4 consecutive d): the token compare is paid once per 4 outputs
  let e = (wg.y * P.nx + wg.x) * 64u + lid.x;
  let nd4 = (P.dim + 3u) / 4u;
  if (e >= P.vocab * nd4) { return; }
  let v = i32(e / nd4);
  let d0 = (e % nd4) * 4u;
  let w = min(4u, P.dim - d0);
  var s = vec4<f32>(0.0);
  for (var r = 0u; r < P.batch * P.seq; r++) {
    if (TOK[r] == v) {
      let o = r * P.dim + d0;
      s.x += A[o];
      if (w > 1u) { s.y += A[o + 1u]; }
      if (w > 2u) { s.z += A[o + 2u]; }
      if (w > 3u) { s.w += A[o + 3u]; }
    }
  }
  for (var q = 0u; q < w; q++) {
    let o = u32(v) * P.dim + d0 + q;
    var x = s[q];
    if (P.accumulate == 1u) { x += OUT[o]; }
    OUT[o] = x;
  }
}

@compute @workgroup_size(64)
fn dpos(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let e = (wg.y * P.nx + wg.x) * 64u + lid.x;
  _ = TOK[0];
  if (e >= P.seq * P.dim) { return; }
  let t = e / P.dim;
  let d = e % P.dim;
  var s = 0.0;
  for (var b = 0u; b < P.batch; b++) { s += A[(b * P.seq + t) * P.dim + d]; }
  if (P.accumulate == 1u) { s += OUT[e]; }
  OUT[e] = s;
}
