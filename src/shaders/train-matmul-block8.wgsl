// The 8 × 8 output block of the trainer's thin products, shared by train-matmul.wgsl (`main8`) and
// train-matmul-sum3.wgsl: src/gpu/train/linear.ts prepends this file to each. The including
// module declares the uniform P (with m, n, accumulate), the output C: array<f32> (read_write)
// and the row epilogue `store_row8(i, j0, lo, hi, bias)` that block8_store calls.
//
// One invocation owns the block of rows i0 … i0+7 and columns j0 … j0+7 and sums it over k:
//   c[r][q] += x[r] · y[q]   with x = op(A)[i0 + r, k] (x0: r = 0…3, x1: r = 4…7) and
//                            y = op(B)[k, j0 + q] (y0: q = 0…3, y1: q = 4…7)
// Block8's member c{r}{h} holds row i0 + r, columns j0 + 4h … j0 + 4h + 3. The block is a struct of
// named members passed by value, never an array indexed at run time: SwiftShader keeps such values
// in registers (after inlining) but spills a register array written by a dynamic index to memory.

struct Block8 {
  c00: vec4<f32>, c01: vec4<f32>, c10: vec4<f32>, c11: vec4<f32>,
  c20: vec4<f32>, c21: vec4<f32>, c30: vec4<f32>, c31: vec4<f32>,
  c40: vec4<f32>, c41: vec4<f32>, c50: vec4<f32>, c51: vec4<f32>,
  c60: vec4<f32>, c61: vec4<f32>, c70: vec4<f32>, c71: vec4<f32>,
}

/// One k step: the block c plus the outer product (x0, x1) · (y0, y1)ᵀ, one fma per output, so
/// each output's sum runs in k order as one fma chain.
fn block8_fma(c: Block8, x0: vec4<f32>, x1: vec4<f32>, y0: vec4<f32>, y1: vec4<f32>) -> Block8 {
  return Block8(
    fma(vec4<f32>(x0.x), y0, c.c00), fma(vec4<f32>(x0.x), y1, c.c01),
    fma(vec4<f32>(x0.y), y0, c.c10), fma(vec4<f32>(x0.y), y1, c.c11),
    fma(vec4<f32>(x0.z), y0, c.c20), fma(vec4<f32>(x0.z), y1, c.c21),
    fma(vec4<f32>(x0.w), y0, c.c30), fma(vec4<f32>(x0.w), y1, c.c31),
    fma(vec4<f32>(x1.x), y0, c.c40), fma(vec4<f32>(x1.x), y1, c.c41),
    fma(vec4<f32>(x1.y), y0, c.c50), fma(vec4<f32>(x1.y), y1, c.c51),
    fma(vec4<f32>(x1.z), y0, c.c60), fma(vec4<f32>(x1.z), y1, c.c61),
    fma(vec4<f32>(x1.w), y0, c.c70), fma(vec4<f32>(x1.w), y1, c.c71),
  );
}

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
