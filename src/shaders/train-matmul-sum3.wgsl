// Three thin products summed in one pass (dispatcher src/gpu/train/linear.ts `encodeMatmulSum3`;
// CPU twin: the sum of three src/core/train/linear.ts `linearBackward` dx):
//
//   C[i, j] = Σ_{t<3} Σ_k A_t[i, k] · W_t[j, k]   (+ C[i, j] when accumulate)
//
// A_t m×k row-major (three bindings); W_t n×k row-major, read transposed, at element offset t·bs
// of B (the three weights of a layer's q, k, v projections lie at a fixed stride in the flat
// parameter buffer). The trainer's dx = dq·Wqᵀ + dk·Wkᵀ + dv·Wvᵀ: one fma chain per output over
// the 3k terms in (t, k) order, where three accumulating passes each paid the epilogue (a load and
// a store per output, ~25% of a k = 32 product on SwiftShader) and a dispatch.
//
// Thread mapping: as train-matmul.wgsl `main8` — invocation e = (wg.y·nx + wg.x)·16 + lid.x owns
// the 8 × 8 block of rows 8·(e / nb) … and columns 8·(e mod nb) …, nb = ⌈n / 8⌉; rows and columns
// past the edge read the last valid one (clamped) and are not written.
// Dispatch: ⌈⌈m / 8⌉·⌈n / 8⌉ / 16⌉ workgroups of 16 folded into (nx, ny).

struct Params { m: u32, n: u32, k: u32, accumulate: u32, nx: u32, bs: u32, _p0: u32, _p1: u32 }

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> A0: array<f32>;
@group(0) @binding(2) var<storage, read> A1: array<f32>;
@group(0) @binding(3) var<storage, read> A2: array<f32>;
@group(0) @binding(4) var<storage, read> B: array<f32>;
@group(0) @binding(5) var<storage, read_write> C: array<f32>;

/// Row i's 8 outputs (lo, hi) into C from element i·n + j0 (+ C when accumulate), straight-line
/// when all 8 columns exist; nothing for i ≥ m.
fn put_row(i: u32, j0: u32, lo: vec4<f32>, hi: vec4<f32>) {
  if (i >= P.m) { return; }
  let o = i * P.n + j0;
  if (j0 + 8u > P.n) {
    let vs = array<vec4<f32>, 2>(lo, hi);
    for (var q = 0u; q < P.n - j0; q++) {
      var v = vs[q / 4u][q % 4u];
      if (P.accumulate == 1u) { v += C[o + q]; }
      C[o + q] = v;
    }
    return;
  }
  var a = lo;
  var b = hi;
  if (P.accumulate == 1u) {
    a += vec4<f32>(C[o], C[o + 1u], C[o + 2u], C[o + 3u]);
    b += vec4<f32>(C[o + 4u], C[o + 5u], C[o + 6u], C[o + 7u]);
  }
  C[o] = a.x;
  C[o + 1u] = a.y;
  C[o + 2u] = a.z;
  C[o + 3u] = a.w;
  C[o + 4u] = b.x;
  C[o + 5u] = b.y;
  C[o + 6u] = b.z;
  C[o + 7u] = b.w;
}

@compute @workgroup_size(16)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let e = (wg.y * P.nx + wg.x) * 16u + lid.x;
  let nb = (P.n + 7u) / 8u;
  if (e >= ((P.m + 7u) / 8u) * nb) { return; }
  let i0 = (e / nb) * 8u;
  let j0 = (e % nb) * 8u;
  let ml = vec4<u32>(P.m - 1u);
  let nl = vec4<u32>(P.n - 1u);
  // element 0 of op(A)'s rows and of W's rows (op(B)'s columns); one loop per product, as a
  // binding cannot be chosen by index
  let a0 = min(vec4<u32>(i0) + vec4<u32>(0u, 1u, 2u, 3u), ml) * P.k;
  let a1 = min(vec4<u32>(i0) + vec4<u32>(4u, 5u, 6u, 7u), ml) * P.k;
  let b0 = min(vec4<u32>(j0) + vec4<u32>(0u, 1u, 2u, 3u), nl) * P.k;
  let b1 = min(vec4<u32>(j0) + vec4<u32>(4u, 5u, 6u, 7u), nl) * P.k;
  var c00 = vec4<f32>(0.0);
  var c01 = vec4<f32>(0.0);
  var c10 = vec4<f32>(0.0);
  var c11 = vec4<f32>(0.0);
  var c20 = vec4<f32>(0.0);
  var c21 = vec4<f32>(0.0);
  var c30 = vec4<f32>(0.0);
  var c31 = vec4<f32>(0.0);
  var c40 = vec4<f32>(0.0);
  var c41 = vec4<f32>(0.0);
  var c50 = vec4<f32>(0.0);
  var c51 = vec4<f32>(0.0);
  var c60 = vec4<f32>(0.0);
  var c61 = vec4<f32>(0.0);
  var c70 = vec4<f32>(0.0);
  var c71 = vec4<f32>(0.0);
  // product 0: A0, W at element offset 0·bs
  for (var kk = 0u; kk < P.k; kk++) {
    let x0 = vec4<f32>(A0[a0.x + kk], A0[a0.y + kk], A0[a0.z + kk], A0[a0.w + kk]);
    let x1 = vec4<f32>(A0[a1.x + kk], A0[a1.y + kk], A0[a1.z + kk], A0[a1.w + kk]);
    let k = 0u * P.bs + kk;
    let y0 = vec4<f32>(B[b0.x + k], B[b0.y + k], B[b0.z + k], B[b0.w + k]);
    let y1 = vec4<f32>(B[b1.x + k], B[b1.y + k], B[b1.z + k], B[b1.w + k]);
    c00 = fma(vec4<f32>(x0.x), y0, c00);
    c01 = fma(vec4<f32>(x0.x), y1, c01);
    c10 = fma(vec4<f32>(x0.y), y0, c10);
    c11 = fma(vec4<f32>(x0.y), y1, c11);
    c20 = fma(vec4<f32>(x0.z), y0, c20);
    c21 = fma(vec4<f32>(x0.z), y1, c21);
    c30 = fma(vec4<f32>(x0.w), y0, c30);
    c31 = fma(vec4<f32>(x0.w), y1, c31);
    c40 = fma(vec4<f32>(x1.x), y0, c40);
    c41 = fma(vec4<f32>(x1.x), y1, c41);
    c50 = fma(vec4<f32>(x1.y), y0, c50);
    c51 = fma(vec4<f32>(x1.y), y1, c51);
    c60 = fma(vec4<f32>(x1.z), y0, c60);
    c61 = fma(vec4<f32>(x1.z), y1, c61);
    c70 = fma(vec4<f32>(x1.w), y0, c70);
    c71 = fma(vec4<f32>(x1.w), y1, c71);
  }
  // product 1: A1, W at element offset 1·bs
  for (var kk = 0u; kk < P.k; kk++) {
    let x0 = vec4<f32>(A1[a0.x + kk], A1[a0.y + kk], A1[a0.z + kk], A1[a0.w + kk]);
    let x1 = vec4<f32>(A1[a1.x + kk], A1[a1.y + kk], A1[a1.z + kk], A1[a1.w + kk]);
    let k = 1u * P.bs + kk;
    let y0 = vec4<f32>(B[b0.x + k], B[b0.y + k], B[b0.z + k], B[b0.w + k]);
    let y1 = vec4<f32>(B[b1.x + k], B[b1.y + k], B[b1.z + k], B[b1.w + k]);
    c00 = fma(vec4<f32>(x0.x), y0, c00);
    c01 = fma(vec4<f32>(x0.x), y1, c01);
    c10 = fma(vec4<f32>(x0.y), y0, c10);
    c11 = fma(vec4<f32>(x0.y), y1, c11);
    c20 = fma(vec4<f32>(x0.z), y0, c20);
    c21 = fma(vec4<f32>(x0.z), y1, c21);
    c30 = fma(vec4<f32>(x0.w), y0, c30);
    c31 = fma(vec4<f32>(x0.w), y1, c31);
    c40 = fma(vec4<f32>(x1.x), y0, c40);
    c41 = fma(vec4<f32>(x1.x), y1, c41);
    c50 = fma(vec4<f32>(x1.y), y0, c50);
    c51 = fma(vec4<f32>(x1.y), y1, c51);
    c60 = fma(vec4<f32>(x1.z), y0, c60);
    c61 = fma(vec4<f32>(x1.z), y1, c61);
    c70 = fma(vec4<f32>(x1.w), y0, c70);
    c71 = fma(vec4<f32>(x1.w), y1, c71);
  }
  // product 2: A2, W at element offset 2·bs
  for (var kk = 0u; kk < P.k; kk++) {
    let x0 = vec4<f32>(A2[a0.x + kk], A2[a0.y + kk], A2[a0.z + kk], A2[a0.w + kk]);
    let x1 = vec4<f32>(A2[a1.x + kk], A2[a1.y + kk], A2[a1.z + kk], A2[a1.w + kk]);
    let k = 2u * P.bs + kk;
    let y0 = vec4<f32>(B[b0.x + k], B[b0.y + k], B[b0.z + k], B[b0.w + k]);
    let y1 = vec4<f32>(B[b1.x + k], B[b1.y + k], B[b1.z + k], B[b1.w + k]);
    c00 = fma(vec4<f32>(x0.x), y0, c00);
    c01 = fma(vec4<f32>(x0.x), y1, c01);
    c10 = fma(vec4<f32>(x0.y), y0, c10);
    c11 = fma(vec4<f32>(x0.y), y1, c11);
    c20 = fma(vec4<f32>(x0.z), y0, c20);
    c21 = fma(vec4<f32>(x0.z), y1, c21);
    c30 = fma(vec4<f32>(x0.w), y0, c30);
    c31 = fma(vec4<f32>(x0.w), y1, c31);
    c40 = fma(vec4<f32>(x1.x), y0, c40);
    c41 = fma(vec4<f32>(x1.x), y1, c41);
    c50 = fma(vec4<f32>(x1.y), y0, c50);
    c51 = fma(vec4<f32>(x1.y), y1, c51);
    c60 = fma(vec4<f32>(x1.z), y0, c60);
    c61 = fma(vec4<f32>(x1.z), y1, c61);
    c70 = fma(vec4<f32>(x1.w), y0, c70);
    c71 = fma(vec4<f32>(x1.w), y1, c71);
  }
  put_row(i0, j0, c00, c01);
  put_row(i0 + 1u, j0, c10, c11);
  put_row(i0 + 2u, j0, c20, c21);
  put_row(i0 + 3u, j0, c30, c31);
  put_row(i0 + 4u, j0, c40, c41);
  put_row(i0 + 5u, j0, c50, c51);
  put_row(i0 + 6u, j0, c60, c61);
  put_row(i0 + 7u, j0, c70, c71);
}
