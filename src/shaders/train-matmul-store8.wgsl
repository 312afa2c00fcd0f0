// The row store of the trainer's thin products' 8 × 8 blocks (Block8, train-block8.wgsl), shared
// by train-matmul.wgsl (`main8`) and train-matmul-sum3.wgsl: src/gpu/train/linear.ts prepends
// train-block8.wgsl, then this file, to each. The including module declares the uniform P (with
// m, n, accumulate), the output C: array<f32> (read_write) and the row epilogue
// `store_row8(i, j0, lo, hi, bias)` that block8_store calls.

/// The block's 8 rows through the including module's epilogue store_row8(i, j0, lo, hi, bias),
/// row by row, straight-line (bias: the 8 columns' bias as two vec4, or zeros).
fn block8_store(c: Block8, i0: u32, j0: u32, bias: array<vec4<f32>, 2>) {
  store_row8(i0, j0, c.c00, c.c01, bias);
  store_row8(i0 + 1u, j0, c.c10, c.c11, bias);
  store_row8(i0 + 2u, j0, c.c20, c.c21, bias);
  store_row8(i0 + 3u, j0, c.c30, c.c31, bias);
  store_row8(i0 + 4u, j0, c.c40, c.c41, bias);
  store_row8(i0 + 5u, j0, c.c50, c.c51, bias);
  store_row8(i0 + 6u, j0, c.c60, c.c61, bias);
  store_row8(i0 + 7u, j0, c.c70, c.c71, bias);
}

/// C[o … o+7] = (lo, hi) (+ C[o … o+7] when accumulate): one row's 8 outputs, all in range, as
/// 8 loads and 8 scalar stores in a straight line.
fn put8(o: u32, lo: vec4<f32>, hi: vec4<f32>) {
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
