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
// The 8 × 8 block (Block8, block8_fma: train-block8.wgsl) and its row store (block8_store, put8:
// train-matmul-store8.wgsl) are snippets the dispatcher prepends (as to train-matmul.wgsl); this
// file supplies the row epilogue store_row8.
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

/// Row i's 8 outputs (lo, hi) into C from element i·n + j0 (+ C when accumulate): straight-line
/// (put8) when all 8 columns exist, else output by output; nothing for i ≥ m. The row epilogue of
/// block8_store (train-matmul-store8.wgsl); this product has no bias (_bias: zeros, unused).
fn store_row8(i: u32, j0: u32, lo: vec4<f32>, hi: vec4<f32>, _bias: array<vec4<f32>, 2>) {
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
  put8(o, lo, hi);
}

/// A_t (x0_4, x1_4, x2_4) and B at four element indices (one gather each).
fn x0_4(o: vec4<u32>) -> vec4<f32> { return vec4<f32>(A0[o.x], A0[o.y], A0[o.z], A0[o.w]); }
fn x1_4(o: vec4<u32>) -> vec4<f32> { return vec4<f32>(A1[o.x], A1[o.y], A1[o.z], A1[o.w]); }
fn x2_4(o: vec4<u32>) -> vec4<f32> { return vec4<f32>(A2[o.x], A2[o.y], A2[o.z], A2[o.w]); }
fn w4(o: vec4<u32>) -> vec4<f32> { return vec4<f32>(B[o.x], B[o.y], B[o.z], B[o.w]); }

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
  // binding cannot be chosen by index; product t reads W at element offset t·bs of B
  let a0 = min(vec4<u32>(i0) + vec4<u32>(0u, 1u, 2u, 3u), ml) * P.k;
  let a1 = min(vec4<u32>(i0) + vec4<u32>(4u, 5u, 6u, 7u), ml) * P.k;
  let b0 = min(vec4<u32>(j0) + vec4<u32>(0u, 1u, 2u, 3u), nl) * P.k;
  let b1 = min(vec4<u32>(j0) + vec4<u32>(4u, 5u, 6u, 7u), nl) * P.k;
  var c = Block8();
  for (var kk = 0u; kk < P.k; kk++) {
    c = block8_fma(c, x0_4(a0 + kk), x0_4(a1 + kk), w4(b0 + kk), w4(b1 + kk));
  }
  for (var kk = 0u; kk < P.k; kk++) {
    let k = P.bs + kk;
    c = block8_fma(c, x1_4(a0 + kk), x1_4(a1 + kk), w4(b0 + k), w4(b1 + k));
  }
  for (var kk = 0u; kk < P.k; kk++) {
    let k = 2u * P.bs + kk;
    c = block8_fma(c, x2_4(a0 + kk), x2_4(a1 + kk), w4(b0 + k), w4(b1 + k));
  }
  block8_store(c, i0, j0, array<vec4<f32>, 2>());
}
