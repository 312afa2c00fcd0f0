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
// Thread mapping: one invocation per output element (dtok: per token v and 16 consecutive
// columns, so the compare with every token is paid once per 16 outputs). Dispatch: ⌈count / 64⌉
// workgroups of 64 folded into (nx, ny), count = B·L·D (forward), L·D (dpos); dtok ⌈V·⌈D/16⌉ / 16⌉
// workgroups of 16 (V = 64, D = 32: 8 workgroups, so both cores of a small machine get some).

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

@compute @workgroup_size(16)
fn dtok(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  // one invocation per (v, 16 consecutive d): the token compare is paid once per 16 outputs;
  // columns past D read the group's last one (clamped) and are not written
  let e = (wg.y * P.nx + wg.x) * 16u + lid.x;
  let nd = (P.dim + 15u) / 16u;
  if (e >= P.vocab * nd) { return; }
  let v = i32(e / nd);
  let d0 = (e % nd) * 16u;
  let last = min(16u, P.dim - d0) - 1u;
  let c0 = min(vec4<u32>(0u, 1u, 2u, 3u), vec4<u32>(last));
  let c1 = min(vec4<u32>(4u, 5u, 6u, 7u), vec4<u32>(last));
  let c2 = min(vec4<u32>(8u, 9u, 10u, 11u), vec4<u32>(last));
  let c3 = min(vec4<u32>(12u, 13u, 14u, 15u), vec4<u32>(last));
  var s0 = vec4<f32>(0.0);
  var s1 = vec4<f32>(0.0);
  var s2 = vec4<f32>(0.0);
  var s3 = vec4<f32>(0.0);
  for (var r = 0u; r < P.batch * P.seq; r++) {
    if (TOK[r] == v) {
      let o = r * P.dim + d0;
      s0 += vec4<f32>(A[o + c0.x], A[o + c0.y], A[o + c0.z], A[o + c0.w]);
      s1 += vec4<f32>(A[o + c1.x], A[o + c1.y], A[o + c1.z], A[o + c1.w]);
      s2 += vec4<f32>(A[o + c2.x], A[o + c2.y], A[o + c2.z], A[o + c2.w]);
      s3 += vec4<f32>(A[o + c3.x], A[o + c3.y], A[o + c3.z], A[o + c3.w]);
    }
  }
  let ss = array<vec4<f32>, 4>(s0, s1, s2, s3);
  for (var q = 0u; q <= last; q++) {
    let o = u32(v) * P.dim + d0 + q;
    var x = ss[q / 4u][q % 4u];
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
