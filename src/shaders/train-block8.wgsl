// The 8-column register blocks of the trainer's kernels, as values: Block8 (8 × 8) in the thin
// products (train-matmul.wgsl `main8`, train-matmul-sum3.wgsl; prepended by src/gpu/train/linear.ts,
// before train-matmul-store8.wgsl) and the softmax attention's dot-product tiles
// (train-softmax-attention-{forward,backward}.wgsl; prepended by src/gpu/train/softmax-attention.ts)
// and the linear attention's states (train-linear-attention-state.wgsl); Block4x8 (4 × 8) in the
// linear attention's output and gradient tiles (train-linear-attention-{forward,backward}.wgsl;
// these three prepended by src/gpu/train/linear-attention.ts).
// It declares nothing the including module must supply.
//
// One invocation owns a block of 8 rows × 8 columns and sums it over an inner index k:
//   c[r][q] += x[r] · y[q]   with x = the rows' factor at k (x0: r = 0…3, x1: r = 4…7) and
//                            y = the columns' factor at k (y0: q = 0…3, y1: q = 4…7)
// Block8's member c{r}{h} holds row r, columns 4h … 4h + 3 (Block4x8 likewise, rows 0…3, x = x0).
// The block is a struct of named
// members passed by value, never an array indexed at run time: SwiftShader keeps such values in
// registers (after inlining) but spills a register array written by a dynamic index to memory.

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


struct Block4x8 {
  c00: vec4<f32>, c01: vec4<f32>, c10: vec4<f32>, c11: vec4<f32>,
  c20: vec4<f32>, c21: vec4<f32>, c30: vec4<f32>, c31: vec4<f32>,
}

/// One k step of a 4 × 8 block: c plus x · (y0, y1)ᵀ (x: the 4 rows' factor), one fma per output.
fn block4x8_fma(c: Block4x8, x: vec4<f32>, y0: vec4<f32>, y1: vec4<f32>) -> Block4x8 {
  return Block4x8(
    fma(vec4<f32>(x.x), y0, c.c00), fma(vec4<f32>(x.x), y1, c.c01),
    fma(vec4<f32>(x.y), y0, c.c10), fma(vec4<f32>(x.y), y1, c.c11),
    fma(vec4<f32>(x.z), y0, c.c20), fma(vec4<f32>(x.z), y1, c.c21),
    fma(vec4<f32>(x.w), y0, c.c30), fma(vec4<f32>(x.w), y1, c.c31),
  );
}
