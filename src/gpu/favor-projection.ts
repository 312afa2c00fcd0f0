/**
 * The projections of the fast Performer path (the exp-of-projection maps: positive, hyperbolic,
 * exp): the dispatcher of src/shaders/favor-projection.wgsl, which computes U = XWᵀ of each side
 * once (one GEMM, the stabilizer maxima in its epilogue) for performer-exp-gemm.wgsl to apply exp to
 * as it loads tiles (performer-exp.ts), and which the dense statistics reuse.
 * CPU twin: src/core/feature-maps.ts (the u and maxima inside queryFeatures / keyFeatures).
 * Projections past min(binding limit, 128 MiB) (n = 2^20 at m = 64) are held one row block at a
 * time: the keys' hn and maxima first for all rows, then each GEMM's block is projected just before
 * it (encodeProjectBlock; blockStarts, blockAlignedChunk: the blocks and the chunks within them).
 *
 * Pass: 'favor.project' (projection, key max). The blocks depend only on the shape and the device's
 * binding limit, so reruns give identical bits.
 */
import projectionCode from '../shaders/favor-projection.wgsl?raw';
import type { KernelContext } from './kernel-context';
import {
  checkBinding,
  encodeDispatch,
  favorParams,
  favorSource,
  uColumns,
  type FavorProblem,
  type FavorStats,
} from './favor-dispatch';
import { encodeVec4Rows } from './pack-vec4';

/** The projections U of both sides (one row block of them when 2·n·nu floats do not fit) stay under this many bytes. */
export const PROJECTION_BUDGET = 128 * 2 ** 20;
/** Row blocks are multiples of this (every chunk size of the fast path divides it). */
const BLOCK_ALIGN = 4096;

/** Bytes of the projections U_Q, U_K of `rows` rows each (2·rows·nu floats). */
export function projectionBytes(rows: number, nu: number): number {
  return 2 * rows * nu * 4;
}

/**
 * Rows per projection block: n when both sides' projections fit min(maxBinding, PROJECTION_BUDGET),
 * else the largest multiple of 4096 (of 64 when fewer fit) that does; `force` (a multiple of 64) overrides (tests).
 * Blocked, the projection is recomputed per block (favor-projection.wgsl's row-block mode) and
 * never held for all n rows: n = 2^20 at m = 64 runs with 128 MiB bindings.
 */
export function projectionBlock(n: number, nu: number, maxBinding: number, force?: number): number {
  if (force !== undefined) {
    if (force % 64 !== 0 || force < 64)
      throw new RangeError(`projection block ${force} is not a positive multiple of 64`);
    return Math.min(force, Math.ceil(n / 64) * 64);
  }
  const limit = Math.min(maxBinding, PROJECTION_BUDGET);
  if (projectionBytes(n, nu) <= limit) return n;
  const rows = Math.floor(limit / projectionBytes(1, nu));
  return rows >= BLOCK_ALIGN ? Math.floor(rows / BLOCK_ALIGN) * BLOCK_ALIGN : Math.floor(rows / 64) * 64;
}

export function maxBindingOf(ctx: KernelContext): number {
  return Math.min(ctx.limits.maxStorageBufferBindingSize, ctx.limits.maxBufferSize);
}

/**
 * The projections of one problem: U (U_Q then U_K, row-major `block` × nu each), hn, and the
 * stabilizer stats. When block < n, U is a workspace for one row block at a time (the consumers
 * project each block into it) and hn, stats cover all n rows.
 */
export interface FavorProjection {
  u: GPUBuffer;
  hn: GPUBuffer;
  /** same format as favor-features.ts's (query row maxima, key global max): reusable by the dense statistics */
  stats: FavorStats;
  /** rows per block of U (n: U holds every row) */
  block: number;
}

const PROJECTION = 'favor-projection';
const PROJECTION_SOURCE = favorSource(projectionCode);

interface ProjectionInputs {
  q4: GPUBuffer;
  k4: GPUBuffer;
  w4: GPUBuffer;
  /** per query row, the 8 threads' partial maxima (row_max combines them into the query stats) */
  qpart: GPUBuffer;
  /** per key row group, the 8 threads' partial maxima, then row 0's own 8 (key_max reads them) */
  kpart: GPUBuffer;
}

/** Threads per row group of the projection kernel (PJ_T), each leaving one partial maximum per row. */
const PARTIALS = 8;
const projectionInputs = new WeakMap<FavorProjection, ProjectionInputs>();
/** Projection passes recorded per encoder (each gets its own uniform buffer). */
const projectionCalls = new WeakMap<GPUCommandEncoder, number>();

/**
 * Records one 'favor.project' pass: rows u0 .. u0 + block − 1 of the sides first .. first + sides − 1
 * into U (block 0: every row, hn and maxima only).
 */
function encodeProjectRows(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  p: FavorProblem,
  proj: FavorProjection,
  rows: { u0: number; block: number; first: number; sides: number },
): void {
  const inp = projectionInputs.get(proj)!;
  const span = rows.block === 0 ? p.n - rows.u0 : Math.min(rows.block, p.n - rows.u0);
  const extra = { a0: rows.u0, a1: rows.block, chunk: rows.first, nchunks: rows.sides };
  // one uniform per recorded pass: uniforms are written at queue time, before the encoder runs
  const call = projectionCalls.get(encoder) ?? 0;
  projectionCalls.set(encoder, call + 1);
  const uni = ctx.alloc.uniform(`proj.u.params.${call}`, new Uint32Array(favorParams(p, extra)));
  const pipe = ctx.pipelines.pipeline(PROJECTION, PROJECTION_SOURCE, 'project');
  const pass = encoder.beginComputePass(ctx.timer.pass('favor.project'));
  const io = {
    0: uni,
    13: inp.q4,
    14: inp.k4,
    15: inp.w4,
    16: proj.u,
    17: proj.hn,
    18: inp.qpart,
    19: inp.kpart,
  };
  encodeDispatch(ctx, pass, pipe, io, rows.sides * Math.ceil(span / 32));
  if (rows.first === 0) {
    // the query rows' maxima from the threads' partials (the keys' global max: key_max)
    const combine = ctx.pipelines.pipeline(PROJECTION, PROJECTION_SOURCE, 'row_max');
    encodeDispatch(ctx, pass, combine, { 0: uni, 22: inp.qpart, 23: proj.stats.qStats }, Math.ceil(span / 64));
  }
  pass.end();
}

/**
 * Encodes U = XWᵀ of both sides, hn and the maxima ('favor.project'). When 2·n·nu floats exceed the
 * binding limit (or `forceBlock` is given), U is a one-block workspace and this pass computes the
 * keys' hn and maxima only; the consumers then project block by block (`encodeProjectBlock`), and
 * a query block's projection writes that block's query maxima and hn. The stats are complete once
 * the Performer output is encoded.
 */
export function encodeFavorProjection(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  p: FavorProblem,
  forceBlock?: number,
): FavorProjection {
  const { n, d, m } = p;
  const nu = uColumns(p.featureMap, m, d);
  const block = projectionBlock(n, nu, maxBindingOf(ctx), forceBlock);
  checkBinding(ctx, 'the projections XWᵀ of Q and K (one row block)', projectionBytes(block, nu));
  const a = ctx.alloc;
  const q4 = encodeVec4Rows(ctx, encoder, p.q, n, d, 'proj.q4');
  const k4 = encodeVec4Rows(ctx, encoder, p.k, n, d, 'proj.k4');
  const w4 = encodeVec4Rows(ctx, encoder, p.w, nu, d, 'proj.w4');
  const u = a.storage('proj.u', projectionBytes(block, nu));
  const hn = a.storage('proj.hn', 2 * n * 4);
  const qStats = a.storage('favor.qstats', n * 8);
  const kStats = a.storage('favor.kstats', 16);
  const qpart = a.storage('proj.qpart', n * PARTIALS * 4);
  const kpart = a.storage('proj.kpart', (Math.ceil(n / 4) + 1) * PARTIALS * 4);
  const proj: FavorProjection = { u, hn, stats: { qStats, kStats }, block };
  projectionInputs.set(proj, { q4, k4, w4, qpart, kpart });
  // Unblocked: both sides into U. Blocked: the keys' maxima only (the global key max must be known
  // before any key feature is formed); each query block's projection writes its own maxima and hn
  // just before the output GEMM reads them, so the queries are projected once, not twice.
  const blocked = block < n;
  encodeProjectRows(ctx, encoder, p, proj, {
    u0: 0,
    block: blocked ? 0 : n,
    first: blocked ? 1 : 0,
    sides: blocked ? 1 : 2,
  });
  const uni = a.uniform('proj.u.kmax', new Uint32Array(favorParams(p)));
  const pipe = ctx.pipelines.pipeline(PROJECTION, PROJECTION_SOURCE, 'key_max');
  const pass = encoder.beginComputePass(ctx.timer.pass('favor.project'));
  encodeDispatch(ctx, pass, pipe, { 0: uni, 20: kStats, 21: kpart }, 1);
  pass.end();
  return proj;
}

/** Projects row block u0 .. u0 + block − 1 of the given sides into U (a no-op when U holds every row). */
export function encodeProjectBlock(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  p: FavorProblem,
  proj: FavorProjection,
  u0: number,
  sides: 'query' | 'key' | 'both',
): void {
  if (proj.block >= p.n) return;
  const first = sides === 'key' ? 1 : 0;
  encodeProjectRows(ctx, encoder, p, proj, { u0, block: proj.block, first, sides: sides === 'both' ? 2 : 1 });
}

/** The first rows of the projection blocks of n rows (one block, 0, when U holds every row). */
export function blockStarts(n: number, block: number): number[] {
  const out: number[] = [];
  for (let u0 = 0; u0 < n; u0 += Math.min(block, n)) out.push(u0);
  return out;
}

/** Largest multiple of 64 ≤ chunk that divides the block (chunks never cross a projection block). */
export function blockAlignedChunk(chunk: number, block: number, n: number): number {
  if (block >= n) return chunk;
  let c = Math.min(chunk, block);
  while (block % c !== 0) c -= 64;
  return c;
}
