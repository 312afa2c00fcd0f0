// The trainer's small matrix products: each invocation a 4 × 4 block of outputs held in registers,
// no workgroup memory and no barriers (dispatcher src/gpu/train/linear.ts `encodeMatmulT`; CPU twin
// src/core/train/linear.ts).
//
//   C[i, j] = Σ_k op(A)[i, k] · op(B)[k, j]  (+ C[i, j] when accumulate)
//             (+ bias[j] when flags bit 2, + R[i, j] when flags bit 3: the linear layer's bias and
//             a residual, y = r + x·W + b, in the same pass)
//   flags bit 4: one extra output row i = m holds the bias gradient db[j] = Σ_k op(B)[k, j]
//             (+ db[j] when accumulate), written to DB — the weight gradient xᵀ·dy and db in one pass
//             (main: op(A)'s row m reads as ones; main8: the first block row also sums its op(B)
//             columns, so the extra row costs no block row of its own: 32 × 32 weight gradients
//             ~10% faster than with a 5th block row of ones)
//   op(A)[i, k] = trans_a ? a[k·m + i] : a[i·k + k'],  op(B)[k, j] = trans_b ? b[j·K + k] : b[k·n + j]
//
// Why beside matmul.wgsl's 64 × 64 tiles: the trainer's products are thin (D ≤ 256 columns, and the
// weight gradients xᵀ·dy have a long k = B·L): a tiled grid of one or a few workgroups then walks
// k serially with two barriers per 16-step, which on SwiftShader (a CPU) costs more than the FMAs;
// here every block is independent. The dispatcher takes the tiled kernel for wide products.
// Why 4 × 4 blocks: on SwiftShader every storage load is a per-lane gather with a bounds check and
// costs more than an FMA; one output per invocation paid 2 loads per FMA, a 4 × 4 block pays 8 loads
// per 16 FMAs (2048×32×32: ~28 → ~6 ms a product in a training step). Reading the operands as vec4
// (m, n, k multiples of 4) measured slower still on SwiftShader, so the loads stay f32.
// Entry `main8` (below): 8 × 8 blocks, 16 loads per 64 FMAs, when there are enough blocks to
// fill the workgroups (2048×32×32: ~5 → ~3 ms); a long-k product with few blocks (the weight
// gradients xᵀ·dy, k = B·L) splits k into slices of main8 and sums them in `reduce`. Sums run in k order in f32, one fma chain per output.
// main8's block (Block8 and its k step block8_fma: train-block8.wgsl) and the rows' store
// (block8_store, put8: train-matmul-store8.wgsl) are snippets the dispatcher prepends
// (train-matmul-sum3.wgsl shares them).
// main8's epilogue (store_row8): the block's bias loaded once (8 loads, was one per output) and
// each row written straight-line from its two vec4 (the per-output loop indexed a register array
// dynamically, which SwiftShader spills to memory): forward and dx products ~30–40% faster.
//
// Thread mapping: invocation e = (wg.y·nx + wg.x)·16 + lid.x owns the block of rows 4·(e / nb) …
// and columns 4·(e mod nb) …, nb = ⌈n / 4⌉ (block columns fastest). Rows and columns past the edge
// read the last valid row / column (clamped indices, no branch in the k loop) and are not written.
// Dispatch: ⌈⌈(m + [bias-gradient row]) / 4⌉·⌈n / 4⌉ / 16⌉ workgroups of 16 folded into (nx, ny)
// (16 invocations, so even a 32 × 32 weight gradient spreads over 4 workgroups: SwiftShader runs a
// workgroup on one thread).

// slices, kc: main8 split along k (slices > 1): slice s sums k in [s·kc, (s+1)·kc) into PART,
// entry `reduce` adds the slices in order and applies the epilogue
struct Params { m: u32, n: u32, k: u32, flags: u32, accumulate: u32, nx: u32, slices: u32, kc: u32 }

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> A: array<f32>;
@group(0) @binding(2) var<storage, read> B: array<f32>;
@group(0) @binding(3) var<storage, read_write> C: array<f32>;
@group(0) @binding(4) var<storage, read> BIAS: array<f32>;
@group(0) @binding(5) var<storage, read> R: array<f32>;
@group(0) @binding(6) var<storage, read_write> DB: array<f32>;
@group(0) @binding(7) var<storage, read_write> PART: array<f32>;

const WG: u32 = 16u;

/// Output (i, j) = the block's sum v: row m is the bias gradient DB[j] (+ DB[j]); else C[i, j] =
/// v (+ bias[j]) (+ R[i, j]) (+ C[i, j]).
fn store_out(i: u32, j: u32, sum: f32) {
  var v = sum;
  if (i == P.m) {
    if (P.accumulate == 1u) { v += DB[j]; }
    DB[j] = v;
    return;
  }
  let o = i * P.n + j;
  if ((P.flags & 4u) != 0u) { v += BIAS[j]; }
  if ((P.flags & 8u) != 0u) { v += R[o]; }
  if (P.accumulate == 1u) { v += C[o]; }
  C[o] = v;
}

/// Bias (flags bit 2) of the 8 columns j0 … j0+7, as two vec4 (0 where off): loaded once per
/// block, not once per output.
fn bias8(j0: u32) -> array<vec4<f32>, 2> {
  if ((P.flags & 4u) == 0u || j0 + 8u > P.n) { return array<vec4<f32>, 2>(vec4<f32>(0.0), vec4<f32>(0.0)); }
  return array<vec4<f32>, 2>(
    vec4<f32>(BIAS[j0], BIAS[j0 + 1u], BIAS[j0 + 2u], BIAS[j0 + 3u]),
    vec4<f32>(BIAS[j0 + 4u], BIAS[j0 + 5u], BIAS[j0 + 6u], BIAS[j0 + 7u]),
  );
}

/// Row i's outputs j0 … min(j0 + 8, n) − 1 (lo, hi) one by one through store_out: the ragged last
/// block column, and row m (the bias gradient).
fn store_outs8(i: u32, j0: u32, lo: vec4<f32>, hi: vec4<f32>) {
  let vs = array<vec4<f32>, 2>(lo, hi);
  for (var q = 0u; q < 8u; q++) {
    if (j0 + q >= P.n) { break; }
    store_out(i, j0 + q, vs[q / 4u][q % 4u]);
  }
}

/// Row i < m's 8 outputs j0 … j0+7 (lo, hi) of C through store_out's epilogue, in its order (sum,
/// + bias, + R, + C): straight-line (put8) when all 8 columns exist, else store_outs8. Nothing for
/// rows i ≥ m. The row epilogue of block8_store (train-matmul-store8.wgsl).
fn store_row8(i: u32, j0: u32, lo: vec4<f32>, hi: vec4<f32>, bias: array<vec4<f32>, 2>) {
  if (i >= P.m) { return; }
  if (j0 + 8u > P.n) {
    store_outs8(i, j0, lo, hi);
    return;
  }
  let o = i * P.n + j0;
  var a = lo;
  var b = hi;
  if ((P.flags & 4u) != 0u) {
    a += bias[0];
    b += bias[1];
  }
  if ((P.flags & 8u) != 0u) {
    a += vec4<f32>(R[o], R[o + 1u], R[o + 2u], R[o + 3u]);
    b += vec4<f32>(R[o + 4u], R[o + 5u], R[o + 6u], R[o + 7u]);
  }
  put8(o, a, b);
}

@compute @workgroup_size(16)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let e = (wg.y * P.nx + wg.x) * WG + lid.x;
  let has_db = (P.flags & 16u) != 0u;
  let rows_out = P.m + select(0u, 1u, has_db);
  let nb = (P.n + 3u) / 4u;
  let mb = (rows_out + 3u) / 4u;
  if (e >= mb * nb) { return; }
  let i0 = (e / nb) * 4u;
  let j0 = (e % nb) * 4u;
  let ta = (P.flags & 1u) != 0u;
  let tb = (P.flags & 2u) != 0u;
  // the block's rows and columns, clamped into range for the loads
  let iv = vec4<u32>(i0) + vec4<u32>(0u, 1u, 2u, 3u);
  let jv = vec4<u32>(j0) + vec4<u32>(0u, 1u, 2u, 3u);
  let ic = min(iv, vec4<u32>(P.m - 1u));
  let jc = min(jv, vec4<u32>(P.n - 1u));
  // op(A)'s row m (the bias-gradient row) is ones: a factor 0 on the load, 1 added
  let is_one = (iv == vec4<u32>(P.m)) & vec4<bool>(has_db);
  let ones = select(vec4<f32>(0.0), vec4<f32>(1.0), is_one);
  let keep = select(vec4<f32>(1.0), vec4<f32>(0.0), is_one);
  // element index of op(A)[i, 0] and op(B)[0, j], and the step along k
  let a0 = select(ic * P.k, ic, ta);
  let sa = select(1u, P.m, ta);
  let b0 = select(jc, jc * P.k, tb);
  let sb = select(P.n, 1u, tb);
  var c0 = vec4<f32>(0.0); // row i0 + 0, columns j0 …
  var c1 = vec4<f32>(0.0);
  var c2 = vec4<f32>(0.0);
  var c3 = vec4<f32>(0.0);
  for (var kk = 0u; kk < P.k; kk++) {
    let ao = kk * sa;
    let bo = kk * sb;
    let a = vec4<f32>(A[a0.x + ao], A[a0.y + ao], A[a0.z + ao], A[a0.w + ao]) * keep + ones;
    let b = vec4<f32>(B[b0.x + bo], B[b0.y + bo], B[b0.z + bo], B[b0.w + bo]);
    c0 = fma(vec4<f32>(a.x), b, c0);
    c1 = fma(vec4<f32>(a.y), b, c1);
    c2 = fma(vec4<f32>(a.z), b, c2);
    c3 = fma(vec4<f32>(a.w), b, c3);
  }
  var cs = array<vec4<f32>, 4>(c0, c1, c2, c3);
  for (var r = 0u; r < 4u; r++) {
    let i = iv[r];
    if (i >= rows_out) { break; }
    for (var q = 0u; q < 4u; q++) {
      let j = jv[q];
      if (j >= P.n) { break; }
      store_out(i, j, cs[r][q]);
    }
  }
}

// entry `main8`: the same with an 8 × 8 block per invocation (16 loads per 64 FMAs), for products
// with enough blocks to fill the workgroups (the dispatcher's choice): invocation e owns rows
// 8·(e / nb8) … and columns 8·(e mod nb8) …, nb8 = ⌈n / 8⌉.
@compute @workgroup_size(16)
fn main8(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let eg = (wg.y * P.nx + wg.x) * WG + lid.x;
  let has_db = (P.flags & 16u) != 0u;
  let rows_out = P.m + select(0u, 1u, has_db);
  let nb = (P.n + 7u) / 8u;
  // blocks of C's m rows only: the bias-gradient row m is summed by the first block row (db0, db1)
  let mb = (P.m + 7u) / 8u;
  let sl = max(1u, P.slices);
  if (eg >= mb * nb * sl) { return; }
  let e = eg % (mb * nb);
  let slice = eg / (mb * nb);
  var k0 = 0u;
  var k1 = P.k;
  if (sl > 1u) {
    k0 = slice * P.kc;
    k1 = min(P.k, k0 + P.kc);
  }
  let i0 = (e / nb) * 8u;
  let j0 = (e % nb) * 8u;
  let ta = (P.flags & 1u) != 0u;
  let tb = (P.flags & 2u) != 0u;
  let iv0 = vec4<u32>(i0) + vec4<u32>(0u, 1u, 2u, 3u);
  let iv1 = iv0 + vec4<u32>(4u);
  let jv0 = vec4<u32>(j0) + vec4<u32>(0u, 1u, 2u, 3u);
  let jv1 = jv0 + vec4<u32>(4u);
  let mlast = vec4<u32>(P.m - 1u);
  let nlast = vec4<u32>(P.n - 1u);
  let sa = select(1u, P.m, ta);
  let sb = select(P.n, 1u, tb);
  let a0 = select(min(iv0, mlast) * P.k, min(iv0, mlast), ta);
  let a1 = select(min(iv1, mlast) * P.k, min(iv1, mlast), ta);
  let b0 = select(min(jv0, nlast), min(jv0, nlast) * P.k, tb);
  let b1 = select(min(jv1, nlast), min(jv1, nlast) * P.k, tb);
  var c = Block8();
  var db0 = vec4<f32>(0.0); // Σ_k op(B)[k, j0 …]: the bias-gradient row (first block row only)
  var db1 = vec4<f32>(0.0);
  for (var kk = k0; kk < k1; kk++) {
    let ao = kk * sa;
    let bo = kk * sb;
    let x0 = vec4<f32>(A[a0.x + ao], A[a0.y + ao], A[a0.z + ao], A[a0.w + ao]);
    let x1 = vec4<f32>(A[a1.x + ao], A[a1.y + ao], A[a1.z + ao], A[a1.w + ao]);
    let y0 = vec4<f32>(B[b0.x + bo], B[b0.y + bo], B[b0.z + bo], B[b0.w + bo]);
    let y1 = vec4<f32>(B[b1.x + bo], B[b1.y + bo], B[b1.z + bo], B[b1.w + bo]);
    db0 += y0;
    db1 += y1;
    c = block8_fma(c, x0, x1, y0, y1);
  }
  let db_row = has_db && i0 == 0u;
  if (sl == 1u) {
    if (db_row) { store_outs8(P.m, j0, db0, db1); }
    block8_store(c, i0, j0, bias8(j0));
    return;
  }
  if (db_row) {
    let dbs = array<vec4<f32>, 2>(db0, db1);
    for (var q = 0u; q < min(8u, P.n - j0); q++) { PART[(slice * rows_out + P.m) * P.n + j0 + q] = dbs[q / 4u][q % 4u]; }
  }
  let cs = array<vec4<f32>, 16>(
    c.c00, c.c01, c.c10, c.c11, c.c20, c.c21, c.c30, c.c31, c.c40, c.c41, c.c50, c.c51, c.c60, c.c61, c.c70, c.c71,
  );
  for (var r = 0u; r < 8u; r++) {
    let i = i0 + r;
    if (i >= P.m) { break; }
    for (var q = 0u; q < 8u; q++) {
      let j = j0 + q;
      if (j >= P.n) { break; }
      PART[(slice * rows_out + i) * P.n + j] = cs[2u * r + q / 4u][q % 4u];
    }
  }
}

// entry `reduce` (after main8 with slices > 1): one invocation per output (i, j) of the
// (m + [bias-gradient row]) × n result, the slices' partial sums added in slice order.
// Dispatch: ⌈(m + [row]) · n / 16⌉ workgroups of 16 folded into (nx, ny).
@compute @workgroup_size(16)
fn reduce(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let e = (wg.y * P.nx + wg.x) * WG + lid.x;
  let rows_out = P.m + select(0u, 1u, (P.flags & 16u) != 0u);
  if (e >= rows_out * P.n) { return; }
  var v = 0.0;
  for (var sl = 0u; sl < P.slices; sl++) { v += PART[sl * rows_out * P.n + e]; }
  store_out(e / P.n, e % P.n, v);
}
