/**
 * Dispatcher of causal Performer attention by a parallel chunked scan
 * (src/shaders/performer-causal.wgsl; chunk states from performer-bidirectional.wgsl kv_partials):
 *   out_i = [φ(q_i)ᵀ S_{<p} + Σ_{pC ≤ j ≤ i} (φ(q_i)·φ(k_j)) v_j] / [φ(q_i)·z_{<p} + Σ_{pC ≤ j ≤ i} φ(q_i)·φ(k_j)]
 * for row i in chunk p (chunks of C rows), S_{<p}, z_{<p} the exclusive prefix of the chunk states.
 * CPU twin: src/core/linear-attention.ts linearAttentionOutput(qf, kf, v, true).
 *
 * The exp-of-projection maps take the fused path of performer-exp.ts ('favor.project',
 * 'causal.scan', 'causal.out' with the chunk's quadratic part fused; workspace: the chunk states).
 * Generic passes: 'favor.stats' (unless `stats` is passed), 'causal.scan' (chunk states + exclusive prefix
 * over chunks, parallel over the m'·(d+1) entries), 'causal.gram' (per-chunk masked φ(Q)φ(K)ᵀ),
 * 'causal.out'. Workspace ('causal.work'): nchunks·m'·(d+1) state floats + nchunks·C² G floats.
 */
import code from '../shaders/performer-causal.wgsl?raw';
import { EngineError } from '../core/errors';
import { featureDim } from '../core/feature-maps';
import type { KernelContext } from './kernel-context';
import { encodeDispatch, encodeFavorStats, favorParams } from './favor-features';
import {
  encodeKeyValueChunks,
  performerConstants,
  performerSource,
  performerTiles,
  takesExpPath,
  takesMaterializedPath,
  type PerformerArgs,
} from './performer-bidirectional';
import { encodeExpCausal, fusedCausalChunk, materializedProjection } from './performer-exp';

/** The causal workspace stays under this many bytes (and under the device's binding limit). */
export const CAUSAL_BUDGET = 512 * 2 ** 20;
const CHUNKS = [64, 128, 256, 512, 1024, 2048, 4096];

export interface CausalPlan {
  /** rows per chunk C (a multiple of 64) */
  chunk: number;
  nchunks: number;
  /** floats per chunk state, m'·(d+1) */
  stateFloats: number;
  /** float offset of the G blocks in the workspace */
  gOffset: number;
  /** workspace bytes */
  bytes: number;
}

/**
 * The smallest chunk C ∈ {64, 128, …, 4096} whose workspace (n/C states of m'·(d+1) floats plus
 * n/C blocks of C² floats) fits min(maxBinding, CAUSAL_BUDGET); `forceChunk` overrides (tests).
 */
export function causalPlan(n: number, d: number, mp: number, maxBinding: number, forceChunk?: number): CausalPlan {
  const stateFloats = mp * (d + 1);
  const limit = Math.min(maxBinding, CAUSAL_BUDGET);
  const sizes = forceChunk !== undefined ? [forceChunk] : CHUNKS;
  for (const chunk of sizes) {
    if (chunk % 64 !== 0 || chunk < 64) throw new RangeError(`causal chunk ${chunk} is not a positive multiple of 64`);
    const nchunks = Math.ceil(n / chunk);
    const gOffset = nchunks * stateFloats;
    const bytes = (gOffset + nchunks * chunk * chunk) * 4;
    if (bytes <= limit || forceChunk !== undefined) return { chunk, nchunks, stateFloats, gOffset, bytes };
  }
  throw new EngineError(
    'exceeds-limit',
    `causal Performer attention with n = ${n}, m' = ${mp}, d = ${d} needs more than ${(limit / 2 ** 20).toFixed(0)} MiB of workspace`,
    {
      n,
      mp,
      d,
    },
  );
}

/**
 * Chunking of the fused causal path (performer-exp.ts): no G blocks in memory, so the workspace is
 * the nchunks chunk states only and the smallest chunk (64) usually fits.
 */
export function fusedCausalPlan(n: number, d: number, mp: number, maxBinding: number, forceChunk?: number): CausalPlan {
  const chunk = fusedCausalChunk(n, d, mp, maxBinding, CAUSAL_BUDGET, forceChunk);
  if (chunk === null || chunk % 64 !== 0) {
    if (chunk !== null) throw new RangeError(`causal chunk ${chunk} is not a positive multiple of 64`);
    throw new EngineError(
      'exceeds-limit',
      `causal Performer attention with n = ${n}, m' = ${mp}, d = ${d} needs more than ${(Math.min(maxBinding, CAUSAL_BUDGET) / 2 ** 20).toFixed(0)} MiB of chunk states`,
      { n, mp, d },
    );
  }
  const nchunks = Math.ceil(n / chunk);
  const stateFloats = mp * (d + 1);
  return { chunk, nchunks, stateFloats, gOffset: nchunks * stateFloats, bytes: nchunks * stateFloats * 4 };
}

const MODULE = 'performer-causal';
const SOURCE = performerSource(code);

function pipe(ctx: KernelContext, args: PerformerArgs, entry: string): GPUComputePipeline {
  return ctx.pipelines.pipeline(MODULE, SOURCE, entry, performerConstants(args.d, entry));
}

/** Causal Performer output (n×d, then the n row normalizers: n·d + n floats; role `args.role ?? 'causal.out'`). `chunk` forces C (tests). */
export function encodePerformerCausal(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  args: PerformerArgs & { chunk?: number },
): GPUBuffer {
  const { n, d, m, featureMap: kind } = args;
  const mp = featureDim(kind, m, d);
  const maxBinding = Math.min(ctx.limits.maxStorageBufferBindingSize, ctx.limits.maxBufferSize);
  const direct = takesMaterializedPath(ctx, args);
  if (direct || takesExpPath(ctx, args)) {
    const chunk = fusedCausalPlan(n, d, mp, maxBinding, args.chunk).chunk;
    const projection = direct
      ? materializedProjection(ctx, encoder, args, args.features!, args.stats!)
      : args.projection;
    const a = { ...args, projection, direct, role: args.role ?? 'causal.out' };
    return encodeExpCausal(ctx, encoder, a, chunk, pipe(ctx, args, 'causal_prefix'));
  }
  const stats = args.stats ?? encodeFavorStats(ctx, encoder, args);
  const t = performerTiles(d);
  const plan = causalPlan(n, d, mp, maxBinding, args.chunk);
  const { chunk, nchunks, stateFloats: E, gOffset } = plan;

  const role = args.role ?? 'causal.out';
  const work = ctx.alloc.storage('causal.work', plan.bytes);
  // n×d output, then the n row normalizers (lt_store_block; webgpu-backend.ts counts the zero ones)
  const out = ctx.alloc.storage(role, (n * d + n) * 4);
  const u = ctx.alloc.uniform(`${role}.u`, new Uint32Array(favorParams(args, { chunk, nchunks, a0: gOffset })));
  const inputs = { 1: args.q, 2: args.k, 3: args.w, 4: stats.qStats, 5: stats.kStats };

  const scan = encoder.beginComputePass(ctx.timer.pass('causal.scan'));
  // kv_partials reads only (chunk, nchunks) of this uniform: the same buffer serves every causal pass
  encodeKeyValueChunks(ctx, scan, { ...args, stats }, chunk, work, u);
  encodeDispatch(ctx, scan, pipe(ctx, args, 'causal_prefix'), { 0: u, 12: work }, Math.ceil(E / 256));
  scan.end();

  const T = chunk / 64;
  const gram = encoder.beginComputePass(ctx.timer.pass('causal.gram'));
  encodeDispatch(
    ctx,
    gram,
    pipe(ctx, args, 'causal_gram'),
    { 0: u, ...inputs, 12: work },
    nchunks * ((T * (T + 1)) / 2),
  );
  gram.end();

  const po = encoder.beginComputePass(ctx.timer.pass('causal.out'));
  encodeDispatch(
    ctx,
    po,
    pipe(ctx, args, 'causal_out'),
    { 0: u, ...inputs, 6: args.v, 10: work, 11: out },
    Math.ceil(n / t.TILE) * t.T,
  );
  po.end();
  return out;
}
