/**
 * The trainer's linear layer y = x·W + b and its backward (dx = dy·Wᵀ, dW = xᵀ·dy, db = Σ_rows dy),
 * on src/shaders/matmul.wgsl (with its transpose flags), src/shaders/train-matmul.wgsl and
 * train-matmul-sum3.wgsl (thin products; both prepended with train-block8.wgsl and
 * train-matmul-store8.wgsl, their shared 8 × 8 output block and its row store) and
 * src/shaders/train-linear.wgsl (bias broadcast, column sums). CPU twin: src/core/train/linear.ts.
 * Shapes: x rows×inDim, W inDim×outDim, y rows×outDim, all dense row-major.
 */
import matmulCode from '../../shaders/matmul.wgsl?raw';
import code from '../../shaders/train-linear.wgsl?raw';
import block8Code from '../../shaders/train-block8.wgsl?raw';
import store8Code from '../../shaders/train-matmul-store8.wgsl?raw';
import smallShader from '../../shaders/train-matmul.wgsl?raw';
import sum3Shader from '../../shaders/train-matmul-sum3.wgsl?raw';
import { MATMUL_TILE } from '../matmul';
import type { KernelContext } from '../kernel-context';
import { dummyRw, dummyView, encodePass, gridX, packParams, type BufView } from './common';

/** The thin products' modules: the shared 8 × 8 block and row-store snippets, then the kernel. */
const smallCode = [block8Code, store8Code, smallShader].join('\n');
const sum3Code = [block8Code, store8Code, sum3Shader].join('\n');

export interface MatmulTArgs {
  /** C (m×n) = op(A)·op(B) (+ C): op(A) is m×k, op(B) k×n */
  a: BufView;
  b: BufView;
  c: BufView;
  m: number;
  n: number;
  k: number;
  /** A stored k×m (read transposed) */
  transA?: boolean;
  /** B stored n×k (read transposed) */
  transB?: boolean;
  accumulate?: boolean;
  role?: string;
  /** force a kernel (tests); default: tiled for wide products, else a 4 × 4 block of outputs per invocation */
  kernel?: 'tiled' | 'small';
  /** small kernel only: + bias[j], + residual[i, j] in the same pass */
  bias?: BufView | null;
  residual?: BufView | null;
  /** small kernel only: db[j] (+)= Σ_k op(B)[k, j] in the same pass (the bias gradient beside dW = xᵀ·dy) */
  db?: BufView | null;
}

/**
 * The tiled kernel (matmul.wgsl, 64 × 64 tiles) pays off once both output dimensions fill tiles;
 * thinner products (the trainer's at D ≤ 128, and every weight gradient with its long k) run on
 * train-matmul.wgsl, one invocation per output, no barriers.
 */
export function matmulKernel(m: number, n: number, k: number): 'tiled' | 'small' {
  return m >= 128 && n >= 128 && k <= 16 * Math.max(m, n) ? 'tiled' : 'small';
}

/** Blocks below which the small kernel takes 4 × 4 blocks (more invocations) rather than 8 × 8. */
export const MATMUL_8X8_MIN_BLOCKS = 64;

/**
 * A long-k product with few 8 × 8 blocks runs in k slices of at least SLICE_K, up to about
 * SLICE_BLOCKS blocks × slices in all: 64 (4 slices of a 32 × 32 weight gradient, 2 of 64 × 32)
 * measured ~2× faster on SwiftShader than 256 (16 resp. 8 slices), and 32 (main's 4 × 4 blocks,
 * unsliced, for 64 × 32) slower.
 */
const SLICE_K = 128;
const SLICE_BLOCKS = 64;

/** C = op(A)·op(B) (+ C) on dense views, one pass. */
export function encodeMatmulT(ctx: KernelContext, encoder: GPUCommandEncoder, g: MatmulTArgs): void {
  if (g.m === 0 || g.n === 0) return;
  const flagsSmall =
    (g.transA ? 1 : 0) | (g.transB ? 2 : 0) | (g.bias ? 4 : 0) | (g.residual ? 8 : 0) | (g.db ? 16 : 0);
  const small = (g.kernel ?? matmulKernel(g.m, g.n, g.k)) === 'small';
  if (!small && (g.bias || g.residual || g.db))
    throw new RangeError('encodeMatmulT: bias / residual need the small kernel (the tiled one takes rows_init first)');
  if (small) {
    // train-matmul.wgsl: an 8 × 8 (main8) or 4 × 4 (main) block of outputs per invocation, 16
    // invocations per workgroup; few blocks and a long k: main8 over k slices, then `reduce`
    // main (4 × 4) computes db as an extra row of ones in op(A); main8 sums it in its first block row
    const rows = g.m + (g.db ? 1 : 0);
    const blocks8 = Math.ceil(g.m / 8) * Math.ceil(g.n / 8);
    const slices =
      blocks8 < MATMUL_8X8_MIN_BLOCKS ? Math.min(Math.floor(g.k / SLICE_K), Math.ceil(SLICE_BLOCKS / blocks8)) : 1;
    const big = blocks8 >= MATMUL_8X8_MIN_BLOCKS || slices > 1;
    const kc = Math.ceil(g.k / Math.max(1, slices));
    const groups = big
      ? Math.ceil((blocks8 * Math.max(1, slices)) / 16)
      : Math.ceil((Math.ceil(rows / 4) * Math.ceil(g.n / 4)) / 16);
    // the slices' partial sums (main8 declares the binding either way; a role per size, so a
    // later product of the same encoder never regrows a buffer an earlier pass is bound to)
    const partBytes = slices > 1 ? slices * rows * g.n * 4 : 256;
    const part = ctx.alloc.storage(`train.matmul.part.${partBytes}`, partBytes);
    const views = [g.a, g.b, g.c, g.bias ?? dummyView(ctx), g.residual ?? dummyView(ctx), g.db ?? dummyRw(ctx)];
    const dims = `${g.m}×${g.n}×${g.k}${g.transA ? ' Aᵀ' : ''}${g.transB ? ' Bᵀ' : ''}`;
    const params = (gs: number) =>
      packParams([g.m, g.n, g.k, flagsSmall, g.accumulate ? 1 : 0, gridX(gs, ctx), slices > 1 ? slices : 0, kc]);
    encodePass(ctx, encoder, {
      shader: 'train-matmul',
      code: smallCode,
      entry: big ? 'main8' : 'main',
      role: g.role ?? 'train.matmul',
      params: params(groups),
      views: big ? [...views, part] : views,
      groups,
      label: `train.matmul.small ${dims}`,
    });
    if (slices > 1) {
      const gr = Math.ceil((rows * g.n) / 16);
      encodePass(ctx, encoder, {
        shader: 'train-matmul',
        code: smallCode,
        entry: 'reduce',
        role: `${g.role ?? 'train.matmul'}.reduce`,
        params: params(gr),
        views: [null, null, g.c, g.bias ?? dummyView(ctx), g.residual ?? dummyView(ctx), g.db ?? dummyRw(ctx), part],
        groups: gr,
        label: `train.matmul.small ${dims} reduce`,
      });
    }
    return;
  }
  const lda = g.transA ? g.m : g.k;
  const ldb = g.transB ? g.k : g.n;
  const flags = (g.transA ? 1 : 0) | (g.transB ? 2 : 0);
  encodePass(ctx, encoder, {
    shader: 'matmul',
    code: matmulCode,
    entry: 'main',
    role: g.role ?? 'train.matmul',
    params: new Uint32Array([g.m, g.n, g.k, lda, ldb, g.n, 0, 0, 0, g.accumulate ? 1 : 0, 0, flags]),
    views: [g.a, g.b, g.c],
    groups: 1,
    grid: [Math.ceil(g.n / MATMUL_TILE), Math.ceil(g.m / MATMUL_TILE)],
    label: `train.matmul ${g.m}×${g.n}×${g.k}`,
  });
}

export interface MatmulSum3Args {
  /** A_t, m×k each */
  a: readonly [BufView, BufView, BufView];
  /** W_t (n×k each, read transposed) at element offsets 0, bs, 2·bs of b */
  b: BufView;
  bs: number;
  c: BufView;
  m: number;
  n: number;
  k: number;
  accumulate?: boolean;
  role?: string;
}

/**
 * C = Σ_{t<3} A_t·W_tᵀ (+ C) in one pass (train-matmul-sum3.wgsl): the input gradient of a layer's
 * three projections, dx = dq·Wqᵀ + dk·Wkᵀ + dv·Wvᵀ, where three accumulating passes each paid
 * a dispatch and a load + store per output.
 */
export function encodeMatmulSum3(ctx: KernelContext, encoder: GPUCommandEncoder, g: MatmulSum3Args): void {
  if (g.m === 0 || g.n === 0) return;
  const groups = Math.ceil((Math.ceil(g.m / 8) * Math.ceil(g.n / 8)) / 16);
  encodePass(ctx, encoder, {
    shader: 'train-matmul-sum3',
    code: sum3Code,
    entry: 'main',
    role: g.role ?? 'train.matmul.sum3',
    params: packParams([g.m, g.n, g.k, g.accumulate ? 1 : 0, gridX(groups, ctx), g.bs, 0, 0]),
    views: [...g.a, g.b, g.c],
    groups,
    label: `train.matmul.sum3 ${g.m}×${g.n}×3·${g.k} Bᵀ`,
  });
}

/** y[i, j] = b[j] (+ r[i, j]): the bias (and residual) a following accumulate-matmul adds onto. */
export function encodeRowsInit(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  a: { y: BufView; rows: number; cols: number; bias: BufView | null; residual: BufView | null; role?: string },
): void {
  const n = a.rows * a.cols;
  const groups = Math.ceil(n / 64);
  encodePass(ctx, encoder, {
    shader: 'train-linear',
    code,
    entry: 'rows_init',
    role: a.role ?? 'train.rows_init',
    params: packParams([a.rows, a.cols, gridX(groups, ctx), a.bias ? 1 : 0, a.residual ? 1 : 0, 0, 0, 0]),
    views: [a.y, a.bias ?? dummyView(ctx), a.residual ?? dummyView(ctx)],
    groups,
  });
}

/** db[j] (+)= Σ_i dy[i, j]. */
export function encodeColSum(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  a: { dy: BufView; rows: number; cols: number; db: BufView; accumulate: boolean; role?: string },
): void {
  // workgroups of 8 (train-linear.wgsl col_sum)
  const groups = Math.ceil(a.cols / 8);
  encodePass(ctx, encoder, {
    shader: 'train-linear',
    code,
    entry: 'col_sum',
    role: a.role ?? 'train.col_sum',
    params: packParams([a.rows, a.cols, gridX(groups, ctx), 0, 0, a.accumulate ? 1 : 0, 0, 0]),
    views: [a.db, a.dy, a.dy],
    groups,
  });
}

export interface LinearForwardArgs {
  x: BufView;
  w: BufView;
  b: BufView | null;
  y: BufView;
  rows: number;
  inDim: number;
  outDim: number;
  /** y = r + x·W + b (a residual branch written in place of a separate add) */
  residual?: BufView | null;
  /** W stored outDim×inDim (the tied output head E): y = x·Wᵀ + b */
  wTransposed?: boolean;
  role?: string;
}

/** y = (r +) x·W + b: one pass on the small kernel; the bias/residual broadcast then the accumulating tiled product otherwise. */
export function encodeLinearForward(ctx: KernelContext, encoder: GPUCommandEncoder, a: LinearForwardArgs): void {
  const role = a.role ?? 'train.linear';
  const mm = {
    a: a.x,
    b: a.w,
    c: a.y,
    m: a.rows,
    n: a.outDim,
    k: a.inDim,
    transB: a.wTransposed ?? false,
    role: `${role}.mm`,
  };
  if (matmulKernel(a.rows, a.outDim, a.inDim) === 'small') {
    // one pass: the product with the bias and the residual added in its epilogue
    encodeMatmulT(ctx, encoder, { ...mm, kernel: 'small', bias: a.b, residual: a.residual ?? null });
    return;
  }
  encodeRowsInit(ctx, encoder, {
    y: a.y,
    rows: a.rows,
    cols: a.outDim,
    bias: a.b,
    residual: a.residual ?? null,
    role: `${role}.init`,
  });
  encodeMatmulT(ctx, encoder, { ...mm, accumulate: true });
}

export interface LinearBackwardArgs {
  x: BufView;
  w: BufView;
  dy: BufView;
  rows: number;
  inDim: number;
  outDim: number;
  /** dx = dy·Wᵀ (+ dx when accumulateDx); null: not needed (the first layer's input) */
  dx: BufView | null;
  accumulateDx: boolean;
  /** dW (+)= xᵀ·dy, db (+)= Σ dy (accumulate: the trainer zeroes gradients once per step) */
  dw: BufView;
  db: BufView | null;
  accumulateParams: boolean;
  /** the weight is stored transposed (outDim×inDim, e.g. the tied output head E): y = x·Wᵀ */
  wTransposed?: boolean;
  role?: string;
}

export function encodeLinearBackward(ctx: KernelContext, encoder: GPUCommandEncoder, a: LinearBackwardArgs): void {
  const role = a.role ?? 'train.linear.bwd';
  let done = false; // db already written by the dW pass
  if (a.wTransposed) {
    // W stored outDim×inDim: dWᵀ = dyᵀ·x (outDim×inDim), dx = dy·W_stored
    encodeMatmulT(ctx, encoder, {
      a: a.dy,
      b: a.x,
      c: a.dw,
      m: a.outDim,
      n: a.inDim,
      k: a.rows,
      transA: true,
      accumulate: a.accumulateParams,
      role: `${role}.dw`,
    });
  } else {
    // dW = xᵀ·dy; on the small kernel db rides along as one extra output row
    const fuse = a.db !== null && matmulKernel(a.inDim, a.outDim, a.rows) === 'small';
    encodeMatmulT(ctx, encoder, {
      a: a.x,
      b: a.dy,
      c: a.dw,
      m: a.inDim,
      n: a.outDim,
      k: a.rows,
      transA: true,
      accumulate: a.accumulateParams,
      role: `${role}.dw`,
      ...(fuse ? { kernel: 'small' as const, db: a.db } : {}),
    });
    if (fuse) done = true;
  }
  if (a.db && !done)
    encodeColSum(ctx, encoder, {
      dy: a.dy,
      rows: a.rows,
      cols: a.outDim,
      db: a.db,
      accumulate: a.accumulateParams,
      role: `${role}.db`,
    });
  if (a.dx)
    encodeMatmulT(ctx, encoder, {
      a: a.dy,
      b: a.w,
      c: a.dx,
      m: a.rows,
      n: a.inDim,
      k: a.outDim,
      transB: !a.wTransposed,
      accumulate: a.accumulateDx,
      role: `${role}.dx`,
    });
}
