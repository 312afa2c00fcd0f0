// Token + position embedding, forward and backward (dispatcher src/gpu/train/embedding.ts; CPU twin
// src/core/train/embedding.ts).
//
//   forward:   h[r, d] = E[tok[r], d] + P[r mod L, d]              (r = b·L + t; B·L rows of width D)
//   dtok:      dE[v, d] = Σ_{r : tok[r] = v} dh[r, d]   (+ dE when accumulate: a tied output head adds its part)
//   dpos:      dP[t, d] = Σ_b dh[b·L + t, d]            (+ dP when accumulate)
//
// The token gradient is a gather: one invocation per (v, d) adds the rows whose token is v in
// ascending order, read from the batch's token index IDX (src/gpu/train/embedding.ts `tokenIndex`,
// built on the host with the batch: the rows grouped by token) — no float atomics (WGSL has none),
// bit-reproducible, B·L·D loads in all. (Scanning all B·L tokens per (v, d) cost V·D·B·L compares:
// ~10 ms of a default MQAR step on SwiftShader.) Tokens outside [0, V) read row 0 in the forward
// and count nowhere in the backward.
// Thread mapping: one invocation per output element (d fastest). Dispatch: ⌈count / 64⌉ workgroups
// of 64 folded into (nx, ny), count = ⌈B·L·D / 8⌉ (forward: 8 consecutive elements each), V·D
// (dtok), L·D (dpos).

struct Params { batch: u32, seq: u32, dim: u32, vocab: u32, nx: u32, accumulate: u32, _p0: u32, _p1: u32 }

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> TOK: array<i32>;
// forward: A = E (V×D), Bm = P (Lmax×D), OUT = h; dtok / dpos: A = dh, OUT = dE / dP (Bm unused)
@group(0) @binding(2) var<storage, read> A: array<f32>;
@group(0) @binding(3) var<storage, read> Bm: array<f32>;
@group(0) @binding(4) var<storage, read_write> OUT: array<f32>;
const PER: u32 = 8u;

// dtok: the token index (tokenIndex)
@group(0) @binding(5) var<storage, read> IDX: array<i32>;

@compute @workgroup_size(64)
fn forward(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  // PER consecutive elements per invocation (SwiftShader's cost per workgroup outweighed one each)
  let n = P.batch * P.seq * P.dim;
  let e0 = ((wg.y * P.nx + wg.x) * 64u + lid.x) * PER;
  for (var e = e0; e < min(n, e0 + PER); e++) {
    let r = e / P.dim;
    let d = e % P.dim;
    var v = TOK[r];
    if (v < 0 || u32(v) >= P.vocab) { v = 0; }
    OUT[e] = A[u32(v) * P.dim + d] + Bm[(r % P.seq) * P.dim + d];
  }
}

@compute @workgroup_size(64)
fn dtok(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let e = (wg.y * P.nx + wg.x) * 64u + lid.x;
  if (e >= P.vocab * P.dim) { return; }
  let v = e / P.dim;
  let d = e % P.dim;
  // the rows whose token is v, ascending (IDX = [Vi, start_0 … start_Vi, rows…])
  let vi = u32(IDX[0]);
  var s = 0.0;
  if (v < vi) {
    let q1 = u32(IDX[2u + v]);
    for (var q = u32(IDX[1u + v]); q < q1; q++) { s += A[u32(IDX[2u + vi + q]) * P.dim + d]; }
  }
  if (P.accumulate == 1u) { s += OUT[e]; }
  OUT[e] = s;
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
