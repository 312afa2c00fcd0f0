/**
 * Dispatcher of bidirectional Performer attention (src/shaders/performer-bidirectional.wgsl):
 * out = D^{-1} φ(Q) (φ(K)ᵀ V), D = diag(φ(Q) φ(K)ᵀ 1), without materializing φ(Q) or φ(K).
 * CPU twin: src/core/linear-attention.ts linearAttentionOutput(qf, kf, v, false).
 *
 * The exp-of-projection maps (positive, hyperbolic, exp) take the fast GEMM path of
 * performer-exp.ts (passes 'favor.project', 'performer.kv', 'performer.out'); the rest runs here.
 * Passes of this generic path (all in the caller's encoder):
 *   'favor.stats'      stabilizers (skipped when the caller passes `stats`)
 *   'performer.kv'     kv_partials: per key chunk and feature tile, Σ_j φ(k_j) v_jᵀ and Σ_j φ(k_j)
 *                      (φ(k_j) on the fly), then kv_reduce: the chunk partials summed in chunk order
 *   'performer.out'    bidir_out: φ(q_i) on the fly against the m'×(d+1) state, normalized
 * The key chunking depends only on (n, m', d) and the device's buffer limit, and every sum has a
 * fixed order, so repeated runs give identical bits.
 */
import tile from '../shaders/linear-attention-tile.wgsl?raw';
import code from '../shaders/performer-bidirectional.wgsl?raw';
import { EngineError } from '../core/errors';
import { featureDim } from '../core/feature-maps';
import type { KernelContext } from './kernel-context';
import { maxBindingOf, type FavorProjection } from './favor-projection';
import {
  encodeExpBidirectional,
  fitsMaterialized,
  materializedProjection,
  usesExpPath,
  type MaterializedFeatures,
} from './performer-exp';
import {
  checkBinding,
  encodeDispatch,
  encodeFavorStats,
  favorParams,
  favorSource,
  uColumns,
  type FavorProblem,
  type FavorStats,
} from './favor-features';

export interface PerformerArgs extends FavorProblem {
  /** n×d row-major f32 */
  v: GPUBuffer;
  /** statistics from `encodeFavorStats` of the same problem, encoded earlier; computed here if absent */
  stats?: FavorStats;
  /** output buffer role (default 'bidir.out' / 'causal.out') */
  role?: string;
  /** projections from `encodeFavorProjection` of the same problem (fast path; computed here if absent) */
  projection?: FavorProjection;
  /** true forces the generic on-the-fly path even for the exp maps (tests compare both) */
  generic?: boolean;
  /**
   * φ(Q), φ(K) already formed from `stats` (encodeFavorFeatures: the dense statistics need them anyway):
   * a map off the exp path then runs the GEMMs of performer-exp.ts on them (takesMaterializedPath)
   */
  features?: MaterializedFeatures;
  /** fast path: rows per projection block, forced (tests; default projectionBlock of favor-projection.ts) */
  block?: number;
}

/** Whether these arguments run on the fast exp-of-projection path (performer-exp.ts). */
export function takesExpPath(ctx: KernelContext, args: PerformerArgs): boolean {
  return !args.generic && usesExpPath(args, maxBindingOf(ctx));
}

/**
 * Whether these arguments run the GEMMs on materialized features: a map off the exp path whose φ(Q),
 * φ(K) were formed anyway and fit one buffer. On SwiftShader the on-the-fly tiles' barriers cost more
 * than the work at small m' (elu1 at the defaults: kv 11.8 + out 6.0 ms against the GEMMs' ~1 + 1).
 */
export function takesMaterializedPath(ctx: KernelContext, args: PerformerArgs): boolean {
  return (
    !args.generic &&
    !!args.features &&
    !!args.stats &&
    !takesExpPath(ctx, args) &&
    fitsMaterialized(args, maxBindingOf(ctx))
  );
}

/** Tile shapes of the Performer kernels for head dimension d (≤ 256). */
export interface PerformerTiles {
  /** output columns per workgroup (64 or 128): heads wider run in ⌈d / DT⌉ column tiles */
  DT: number;
  /** features per state tile = query rows per output tile = 4096 / DT */
  TILE: number;
  /** key rows per sub-tile */
  TJ: number;
  /** features per step of the output kernels */
  FQ: number;
  /** column tiles ⌈d / DT⌉: the workgroups of kv_partials, bidir_out and causal_out per tile */
  T: number;
}

/**
 * Two tile shapes: 64 output columns per workgroup for d ≤ 64, 128 beyond, heads wider than 128 in
 * ⌈d/128⌉ column tiles that each recompute their φ tiles. Each entry point compiles at most two
 * pipelines (seconds apiece on SwiftShader; a third class for d > 128 used to, with 16-row tiles
 * that ran slower than two column tiles of 128). Column tiles of 64 for d ≤ 128 would save the
 * second class but recompute the projection (d FMAs per feature) for each tile: 1.7× slower at
 * d = 128 (interleaved A/B on SwiftShader).
 */
export function performerTiles(d: number): PerformerTiles {
  if (d > 256) throw new EngineError('exceeds-limit', `the Performer kernels support d ≤ 256 (got ${d})`);
  const DT = d <= 64 ? 64 : 128;
  return { DT, TILE: 4096 / DT, TJ: 16, FQ: 16, T: Math.ceil(d / DT) };
}

const MODULE = 'performer-bidirectional';
const SOURCE = performerSource(code);
/** Chunk partials of the bidirectional reduction stay under this many bytes. */
const PARTIALS_BUDGET = 64 * 2 ** 20;
/** Aim for at least this many workgroups in the key pass. */
const TARGET_GROUPS = 256;

/**
 * The WGSL source of a Performer kernel: feature-map-common.wgsl, then the register-block tile
 * helpers shared with the causal kernel (linear-attention-tile.wgsl), then `kernel`.
 */
export function performerSource(kernel: string): string {
  return favorSource(tile, kernel);
}

/** Entry points that read no tile constant (DT, TILE, TJ, FQ): one pipeline serves both classes of d. */
const TILE_FREE: ReadonlySet<string> = new Set(['kv_reduce', 'causal_prefix', 'causal_gram']);

/** The override constants of a Performer entry point for head dimension d (throws 'exceeds-limit' past 256). */
export function performerConstants(d: number, entry: string): Record<string, number> {
  const t = performerTiles(d);
  const c = TILE_FREE.has(entry) ? performerTiles(1) : t;
  return { DT: c.DT, TILE: c.TILE, TJ: c.TJ, FQ: c.FQ };
}

/** Pipelines are specialised on the tile shape (2 classes of d) only; the feature map is a uniform. */
export function performerPipeline(ctx: KernelContext, d: number, entry: string): GPUComputePipeline {
  return ctx.pipelines.pipeline(MODULE, SOURCE, entry, performerConstants(d, entry));
}

/** Keys per chunk of the bidirectional key pass: enough chunks for parallelism, partials within budget. */
export function bidirectionalChunk(
  n: number,
  d: number,
  mp: number,
  ftiles: number,
  maxBinding: number,
): { chunk: number; chunks: number } {
  const entryBytes = mp * (d + 1) * 4;
  const maxChunks = Math.max(1, Math.floor(Math.min(PARTIALS_BUDGET, maxBinding) / entryBytes));
  const wanted = Math.max(1, Math.ceil(TARGET_GROUPS / ftiles));
  const chunks = Math.max(1, Math.min(wanted, maxChunks, Math.ceil(n / 64)));
  const chunk = Math.ceil(n / chunks / 64) * 64;
  return { chunk, chunks: Math.ceil(n / chunk) };
}

/** The FmParams uniform of the key/value chunk pass and of the bidirectional reduce (one buffer). */
export function keyValueUniform(ctx: KernelContext, args: FavorProblem, chunk: number, role: string): GPUBuffer {
  return ctx.alloc.uniform(role, new Uint32Array(favorParams(args, { chunk, nchunks: Math.ceil(args.n / chunk) })));
}

/**
 * Encodes the per-chunk key/value states part[p] = (Σ_{j∈p} φ(k_j) v_jᵀ, Σ_{j∈p} φ(k_j)), each
 * m'·(d+1) floats, for chunks of `chunk` keys (a multiple of 64), into `part` (≥ chunks·m'·(d+1)·4
 * bytes). Shared with the causal scan. Records into an open compute pass. `uniform` holds
 * favorParams(args, { chunk, nchunks }) (`keyValueUniform`); the bidirectional reduce reads the same one.
 */
export function encodeKeyValueChunks(
  ctx: KernelContext,
  pass: GPUComputePassEncoder,
  args: PerformerArgs & { stats: FavorStats },
  chunk: number,
  part: GPUBuffer,
  uniform: GPUBuffer,
): void {
  const { n, d, m, featureMap: kind } = args;
  if (chunk % 64 !== 0) throw new RangeError(`key chunk ${chunk} is not a multiple of 64`);
  const t = performerTiles(d);
  const mp = featureDim(kind, m, d);
  const nu = uColumns(kind, m, d);
  const ftiles = Math.ceil(nu / (t.TILE / (mp / nu)));
  const chunks = Math.ceil(n / chunk);
  encodeDispatch(
    ctx,
    pass,
    performerPipeline(ctx, d, 'kv_partials'),
    { 0: uniform, 1: args.q, 2: args.k, 3: args.w, 4: args.stats.qStats, 5: args.stats.kStats, 6: args.v, 7: part },
    chunks * ftiles * t.T,
  );
}

/**
 * Bidirectional Performer output (n×d, then the n row normalizers: n·d + n floats; role `args.role ?? 'bidir.out'`). Workspace: the chunk
 * partials ('bidir.partials', ≤ 64 MiB) and the m'×(d+1) state ('bidir.state').
 */
export function encodePerformerBidirectional(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  args: PerformerArgs,
): GPUBuffer {
  const { n, d, m, featureMap: kind } = args;
  const direct = takesMaterializedPath(ctx, args);
  if (direct || takesExpPath(ctx, args)) {
    const mp = featureDim(kind, m, d);
    checkBinding(ctx, 'the key/value state', mp * (d + 1) * 4);
    const { chunk } = bidirectionalChunk(n, d, mp, Math.ceil(mp / 64), maxBindingOf(ctx));
    const reduce = performerPipeline(ctx, d, 'kv_reduce');
    // materialized: the GEMMs read φ itself from U; exp path: the projections (formed there if absent)
    const projection = direct
      ? materializedProjection(ctx, encoder, args, args.features!, args.stats!)
      : args.projection;
    const a = { ...args, projection, direct, role: args.role ?? 'bidir.out' };
    return encodeExpBidirectional(ctx, encoder, a, chunk, reduce);
  }
  const stats = args.stats ?? encodeFavorStats(ctx, encoder, args);
  const t = performerTiles(d);
  const mp = featureDim(kind, m, d);
  const nu = uColumns(kind, m, d);
  const E = mp * (d + 1);
  checkBinding(ctx, 'the key/value state', E * 4);
  const ftiles = Math.ceil(nu / (t.TILE / (mp / nu)));
  const maxBinding = Math.min(ctx.limits.maxStorageBufferBindingSize, ctx.limits.maxBufferSize);
  const { chunk, chunks } = bidirectionalChunk(n, d, mp, ftiles, maxBinding);

  const role = args.role ?? 'bidir.out';
  const part = ctx.alloc.storage('bidir.partials', chunks * E * 4);
  const state = ctx.alloc.storage('bidir.state', E * 4);
  // n×d output, then the n row normalizers (lt_store_block; webgpu-backend.ts counts the zero ones)
  const out = ctx.alloc.storage(role, (n * d + n) * 4);
  const full = { ...args, stats };

  const kv = encoder.beginComputePass(ctx.timer.pass('performer.kv'));
  // kv_partials and kv_reduce read identical FmParams (chunk, nchunks): one uniform buffer
  const ukv = keyValueUniform(ctx, args, chunk, `${role}.u.kv`);
  encodeKeyValueChunks(ctx, kv, full, chunk, part, ukv);
  encodeDispatch(ctx, kv, performerPipeline(ctx, d, 'kv_reduce'), { 0: ukv, 8: part, 9: state }, Math.ceil(E / 256));
  kv.end();

  const uo = ctx.alloc.uniform(`${role}.u.out`, new Uint32Array(favorParams(args)));
  const po = encoder.beginComputePass(ctx.timer.pass('performer.out'));
  encodeDispatch(
    ctx,
    po,
    performerPipeline(ctx, d, 'bidir_out'),
    { 0: uo, 1: args.q, 2: args.k, 3: args.w, 4: stats.qStats, 5: stats.kStats, 10: state, 11: out },
    Math.ceil(n / t.TILE) * t.T,
  );
  po.end();
  return out;
}
