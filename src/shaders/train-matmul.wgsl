// The trainer's small matrix products: one invocation per output, no workgroup memory and no
// barriers (dispatcher src/gpu/train/linear.ts `encodeMatmulT`; CPU twin src/core/train/linear.ts).
//
//   C[i, j] = Σ_k op(A)[i, k] · op(B)[k, j]  (+ C[i, j] when accumulate)
//             (+ bias[j] when flags bit 2, + R[i, j] when flags bit 3: the linear layer's bias and
//             a residual, y = r + x·W + b, in the same pass)
//   flags bit 4: one extra output row i = m holds the bias gradient db[j] = Σ_k op(B)[k, j]
//             (+ db[j] when accumulate), written to DB — the weight gradient xᵀ·dy and db in one pass
//   op(A)[i, k] = trans_a ? a[k·m + i] : a[i·k + k'],  op(B)[k, j] = trans_b ? b[j·K + k] : b[k·n + j]
//
// Why beside matmul.wgsl's 64 × 64 tiles: the trainer's products are thin (D ≤ 256 columns, and the
// weight gradients xᵀ·dy have a long k = B·L): a tiled grid of one or a few workgroups then walks
// k serially with two barriers per 16-step, which on SwiftShader (a CPU) costs more than the FMAs;
// here every output is independent. The dispatcher takes the tiled kernel for wide products.
// Sums run in k order in f32 (four partial sums over k ≡ 0, 1, 2, 3 mod 4, added at the end).
//
// Thread mapping: invocation e = (wg.y·nx + wg.x)·64 + lid.x computes C[e / n, e mod n] (j fastest,
// so neighbouring invocations read neighbouring B entries and write neighbouring C entries).
// Dispatch: ⌈(m + [bias-gradient row])·n / 64⌉ workgroups of 64 folded into (nx, ny).

struct Params { m: u32, n: u32, k: u32, flags: u32, accumulate: u32, nx: u32, _p0: u32, _p1: u32 }

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> A: array<f32>;
@group(0) @binding(2) var<storage, read> B: array<f32>;
@group(0) @binding(3) var<storage, read_write> C: array<f32>;
@group(0) @binding(4) var<storage, read> BIAS: array<f32>;
@group(0) @binding(5) var<storage, read> R: array<f32>;
@group(0) @binding(6) var<storage, read_write> DB: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let e = (wg.y * P.nx + wg.x) * 64u + lid.x;
  let rows_out = P.m + select(0u, 1u, (P.flags & 16u) != 0u);
  if (e >= rows_out * P.n) { return; }
  let i = e / P.n;
  let j = e % P.n;
  let ta = (P.flags & 1u) != 0u;
  let tb = (P.flags & 2u) != 0u;
  if (i == P.m) {
    // the bias-gradient row: op(A)'s row of ones
    let c0 = select(j, j * P.k, tb);
    let sc = select(P.n, 1u, tb);
    var t0 = 0.0;
    var t1 = 0.0;
    var t2 = 0.0;
    var t3 = 0.0;
    var q = 0u;
    for (; q + 4u <= P.k; q += 4u) {
      t0 += B[c0 + q * sc];
      t1 += B[c0 + (q + 1u) * sc];
      t2 += B[c0 + (q + 2u) * sc];
      t3 += B[c0 + (q + 3u) * sc];
    }
    for (; q < P.k; q++) { t0 += B[c0 + q * sc]; }
    var d = (t0 + t1) + (t2 + t3);
    if (P.accumulate == 1u) { d += DB[j]; }
    DB[j] = d;
    return;
  }
  // element strides of op(A)'s row i and op(B)'s column j along k
  let a0 = select(i * P.k, i, ta);
  let sa = select(1u, P.m, ta);
  let b0 = select(j, j * P.k, tb);
  let sb = select(P.n, 1u, tb);
  var s0 = 0.0;
  var s1 = 0.0;
  var s2 = 0.0;
  var s3 = 0.0;
  var kk = 0u;
  for (; kk + 4u <= P.k; kk += 4u) {
    s0 = fma(A[a0 + kk * sa], B[b0 + kk * sb], s0);
    s1 = fma(A[a0 + (kk + 1u) * sa], B[b0 + (kk + 1u) * sb], s1);
    s2 = fma(A[a0 + (kk + 2u) * sa], B[b0 + (kk + 2u) * sb], s2);
    s3 = fma(A[a0 + (kk + 3u) * sa], B[b0 + (kk + 3u) * sb], s3);
  }
  for (; kk < P.k; kk++) { s0 = fma(A[a0 + kk * sa], B[b0 + kk * sb], s0); }
  var v = (s0 + s1) + (s2 + s3);
  if ((P.flags & 4u) != 0u) { v += BIAS[j]; }
  if ((P.flags & 8u) != 0u) { v += R[e]; }
  if (P.accumulate == 1u) { v += C[e]; }
  C[e] = v;
}
