/**
 * Dispatcher of the feature maps (src/shaders/favor-features.wgsl, with the shared snippet
 * src/shaders/feature-map-common.wgsl prepended): the stabilizer statistics (query row maxima, the
 * key global max, double-softmax row / column softmax sums) and the materialized feature matrices
 * φ(Q), φ(K) (n × m', row-major). CPU twin: src/core/feature-maps.ts (queryFeatures, keyFeatures).
 *
 * The statistics are reductions in a fixed order (maxima are exact; the double-softmax column sums
 * are per-chunk partial sums combined in chunk order), so every run gives the same bits. The same
 * statistics buffers feed the fused Performer kernels, which compute φ on the fly with the same
 * snippet code: on-the-fly features equal the materialized ones bit for bit.
 *
 * The pieces every feature-using dispatcher shares live in favor-dispatch.ts.
 */
import code from '../shaders/favor-features.wgsl?raw';
import { EngineError } from '../core/errors';
import { FEATURE_MAP_SPECS, unreachable } from '../core/feature-map-specs';
import { featureDim, usesProjection } from '../core/feature-maps';
import type { KernelContext } from './kernel-context';
import {
  causalKeys,
  checkBinding,
  encodeDispatch,
  favorParams,
  favorSource,
  uColumns,
  type FavorProblem,
  type FavorStats,
} from './favor-dispatch';

// The kit moved to favor-dispatch.ts; re-exported so existing imports keep working.
export {
  FEATURE_MAP_CODE,
  bindAt,
  checkBinding,
  encodeDispatch,
  favorParams,
  favorSource,
  featureRatio,
  uColumns,
  type FavorProblem,
  type FavorStats,
  type FmExtra,
} from './favor-dispatch';

export interface FavorFeatures {
  /** φ(Q): n × m' row-major f32 */
  qf: GPUBuffer;
  /** φ(K): n × m' row-major f32 */
  kf: GPUBuffer;
  /** feature dimension m' */
  mp: number;
  stats: FavorStats;
}

/** Rows per chunk of the double-softmax column partial sums. */
const DS_CHUNK = 256;
/** Invocations per workgroup of row_stats and features (one per row / per row and 4 u columns). */
const FF_WG = 64;
const MODULE = 'favor-features';
const SOURCE = favorSource(code);

/** One pipeline per entry point serves every feature map (the map is a uniform). */
function pipe(ctx: KernelContext, entry: string): GPUComputePipeline {
  return ctx.pipelines.pipeline(MODULE, SOURCE, entry);
}

function checkProblem(ctx: KernelContext, p: FavorProblem): void {
  const { n, d, m } = p;
  for (const [name, v] of [
    ['n', n],
    ['d', d],
  ] as const) {
    if (!Number.isInteger(v) || v < 1) throw new EngineError('invalid-size', `${name} = ${v}`);
  }
  if (usesProjection(p.featureMap) && (!Number.isInteger(m) || m < 1))
    throw new EngineError('invalid-size', `m = ${m}`);
  if (FEATURE_MAP_SPECS[p.featureMap].context === 'oprf-a' && !Number.isFinite(p.mapParam))
    throw new EngineError('invalid-size', 'the oprf map needs its parameter A (featureMapParam of Q, K)');
  if (d > 256) throw new EngineError('exceeds-limit', `the Performer kernels support d ≤ 256 (got ${d})`);
  checkBinding(ctx, 'Q', n * d * 4);
}

/**
 * Encodes the stabilizer statistics of φ for this problem into one compute pass ('favor.stats'),
 * by the map's FeatureMapSpec.stats (an exhaustive switch). Maps without statistics get small
 * placeholder buffers and no pass. The causal variants (FmParams.causal_keys, favor-dispatch.ts
 * causalKeys): double softmax reduces its column maxima to one scalar max (aux 1); a 'max' map
 * under ε takes key 0's max.
 */
export function encodeFavorStats(ctx: KernelContext, encoder: GPUCommandEncoder, p: FavorProblem): FavorStats {
  checkProblem(ctx, p);
  const { n, d } = p;
  const a = ctx.alloc;
  const stats = FEATURE_MAP_SPECS[p.featureMap].stats;
  switch (stats) {
    case 'none':
      return { qStats: a.storage('favor.qstats', 16), kStats: a.storage('favor.kstats', 16) };
    case 'row-softmax':
      return encodeHedgehogStats(ctx, encoder, p);
    case 'softmax': {
      const qStats = a.storage('favor.qstats', n * 8);
      const pass = encoder.beginComputePass(ctx.timer.pass('favor.stats'));
      const base = { 1: p.q, 2: p.k };
      const colStats = a.storage('favor.kstats', d * 8);
      const chunks = Math.ceil(n / DS_CHUNK);
      const scratch = a.storage('favor.kscratch', chunks * d * 8);
      const u = a.uniform(
        'favor.u.dsstats',
        new Uint32Array(favorParams(p, { chunk: DS_CHUNK, nchunks: chunks, a1: d })),
      );
      encodeDispatch(ctx, pass, pipe(ctx, 'ds_row_stats'), { 0: u, ...base, 6: qStats }, Math.ceil(n / 256));
      encodeDispatch(
        ctx,
        pass,
        pipe(ctx, 'ds_col_partials'),
        { 0: u, ...base, 6: scratch },
        Math.ceil((chunks * d) / 256),
      );
      encodeDispatch(ctx, pass, pipe(ctx, 'ds_col_combine'), { 0: u, 6: colStats, 7: scratch }, Math.ceil(d / 256));
      let kStats = colStats;
      if (causalKeys(p)) {
        // causal: one scalar max over the d column maxima, (M, 1)
        kStats = a.storage('favor.kstats.causal', 16);
        encodeDispatch(ctx, pass, pipe(ctx, 'global_max'), { 0: u, 6: kStats, 7: colStats }, 1);
      }
      pass.end();
      return { qStats, kStats };
    }
    case 'max': {
      const qStats = a.storage('favor.qstats', n * 8);
      const pass = encoder.beginComputePass(ctx.timer.pass('favor.stats'));
      const base = { 1: p.q, 2: p.k };
      const kStats = a.storage('favor.kstats', 16);
      const scratch = a.storage('favor.kscratch', n * 8);
      const keyRows = causalKeys(p) ? 1 : n; // causal under ε: key 0's max
      const uq = a.uniform('favor.u.qstats', new Uint32Array(favorParams(p, { a0: 0 })));
      const uk = a.uniform('favor.u.kstats', new Uint32Array(favorParams(p, { a0: 1, a1: keyRows })));
      const rows = pipe(ctx, 'row_stats');
      const groups = Math.ceil(n / FF_WG);
      encodeDispatch(ctx, pass, rows, { 0: uq, ...base, 3: p.w, 6: qStats }, groups);
      encodeDispatch(ctx, pass, rows, { 0: uk, ...base, 3: p.w, 6: scratch }, groups);
      encodeDispatch(ctx, pass, pipe(ctx, 'global_max'), { 0: uk, 6: kStats, 7: scratch }, 1);
      pass.end();
      return { qStats, kStats };
    }
    default:
      return unreachable(stats);
  }
}

/**
 * Hedgehog statistics: per row of Q and of K, two (max, Σ exp) pairs — softmax(+u) and softmax(−u)
 * over the m projections (hh_row_stats, a per-thread loop; n × 2 vec2 per side).
 */
function encodeHedgehogStats(ctx: KernelContext, encoder: GPUCommandEncoder, p: FavorProblem): FavorStats {
  const a = ctx.alloc;
  const qStats = a.storage('favor.qstats', p.n * 16);
  const kStats = a.storage('favor.kstats', p.n * 16);
  const pass = encoder.beginComputePass(ctx.timer.pass('favor.stats'));
  const base = { 1: p.q, 2: p.k, 3: p.w };
  const pipeline = pipe(ctx, 'hh_row_stats');
  const groups = Math.ceil(p.n / 256);
  encodeDispatch(
    ctx,
    pass,
    pipeline,
    { 0: a.uniform('favor.u.hh.q', new Uint32Array(favorParams(p, { a0: 0 }))), ...base, 6: qStats },
    groups,
  );
  encodeDispatch(
    ctx,
    pass,
    pipeline,
    { 0: a.uniform('favor.u.hh.k', new Uint32Array(favorParams(p, { a0: 1 }))), ...base, 6: kStats },
    groups,
  );
  pass.end();
  return { qStats, kStats };
}

/**
 * Encodes φ(Q) and φ(K) as n × m' row-major buffers (roles 'favor.qf', 'favor.kf') in one pass
 * ('favor.features'), after the statistics (encoded here unless `stats` from an earlier
 * `encodeFavorStats` of the same problem is passed). Memory: 2·n·m'·4 bytes.
 */
export function encodeFavorFeatures(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  p: FavorProblem,
  stats?: FavorStats,
): FavorFeatures {
  const st = stats ?? encodeFavorStats(ctx, encoder, p);
  const { n, d, m, featureMap: kind } = p;
  const mp = featureDim(kind, m, d);
  checkBinding(ctx, 'the feature matrix φ(Q)', n * mp * 4);
  const qf = ctx.alloc.storage('favor.qf', n * mp * 4);
  const kf = ctx.alloc.storage('favor.kf', n * mp * 4);
  const nu = uColumns(kind, m, d);
  // one invocation per row and group of 4 u columns
  const groups = Math.ceil((n * Math.ceil(nu / 4)) / FF_WG);
  const uq = ctx.alloc.uniform('favor.u.feat.q', new Uint32Array(favorParams(p, { a0: 0 })));
  const uk = ctx.alloc.uniform('favor.u.feat.k', new Uint32Array(favorParams(p, { a0: 1 })));
  const pipeline = pipe(ctx, 'features');
  const pass = encoder.beginComputePass(ctx.timer.pass('favor.features'));
  const base = { 1: p.q, 2: p.k, 3: p.w, 4: st.qStats, 5: st.kStats };
  encodeDispatch(ctx, pass, pipeline, { 0: uq, ...base, 8: qf }, groups);
  encodeDispatch(ctx, pass, pipeline, { 0: uk, ...base, 8: kf }, groups);
  pass.end();
  return { qf, kf, mp, stats: st };
}
