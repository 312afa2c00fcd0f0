/**
 * Dispatcher of the fast Performer path for the exp-of-projection maps (positive, hyperbolic, exp;
 * either stabilizer): src/shaders/favor-projection.wgsl projects each side once (one GEMM, maxima
 * in its epilogue) and src/shaders/performer-exp-gemm.wgsl applies exp as it loads tiles of those
 * projections — φ(K)ᵀ[V | 1] as a split-K GEMM over key chunks, φ(Q)[S | z] as a GEMM over
 * feature tiles, and for causal attention the chunk's quadratic part fused with its output.
 * Other maps (trig, relu, elu1, double-softmax and any map added to the generic switch of
 * feature-map-common.wgsl) and head dimensions d > 64 keep the generic on-the-fly path
 * (performer-bidirectional.ts / performer-causal.ts), which the dispatchers there choose between.
 * CPU twin: src/core/linear-attention.ts linearAttentionOutput with src/core/feature-maps.ts.
 *
 * Passes: 'favor.project' (projection, key max), 'performer.kv' (key chunk GEMM + reduce, or for
 * causal 'causal.scan': chunk states + exclusive prefix), 'performer.out' / 'causal.out'.
 * Every sum has a fixed order and the chunking depends only on the shape and the device's binding
 * limit, so reruns give identical bits.
 */
import projectionCode from '../shaders/favor-projection.wgsl?raw';
import gemmCode from '../shaders/performer-exp-gemm.wgsl?raw';
import { featureDim } from '../core/feature-maps';
import type { FeatureMapKind } from '../core/types';
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

/** The maps of the fast path: φ = ratio·(exp(±ω·x − ‖x‖²/2·[norm] − shift) + ε). */
export const EXP_MAPS: readonly FeatureMapKind[] = ['positive', 'hyperbolic', 'exp'];
/** Largest head dimension of the fast path (each invocation holds 4 × d output columns). */
export const EXP_MAX_D = 64;
/** The projections U of both sides stay under this many bytes (else the generic path runs). */
export const PROJECTION_BUDGET = 128 * 2 ** 20;

/** Bytes of the projections U_Q, U_K (2·n·nu floats). */
export function projectionBytes(n: number, nu: number): number {
  return 2 * n * nu * 4;
}

/** Whether a problem runs on the fast path (map, head dimension, projection within the binding limit). */
export function usesExpPath(p: Pick<FavorProblem, 'n' | 'd' | 'm' | 'featureMap'>, maxBinding: number): boolean {
  if (!EXP_MAPS.includes(p.featureMap) || p.d > EXP_MAX_D) return false;
  return projectionBytes(p.n, uColumns(p.featureMap, p.m, p.d)) <= Math.min(maxBinding, PROJECTION_BUDGET);
}

export function maxBindingOf(ctx: KernelContext): number {
  return Math.min(ctx.limits.maxStorageBufferBindingSize, ctx.limits.maxBufferSize);
}

/** The projections of one problem: U (U_Q then U_K, row-major n × nu each), hn, and the stabilizer stats. */
export interface FavorProjection {
  u: GPUBuffer;
  hn: GPUBuffer;
  /** same format as favor-features.ts's (query row maxima, key global max): reusable by the dense statistics */
  stats: FavorStats;
}

const PROJECTION = 'favor-projection';
const GEMM = 'performer-exp-gemm';

/** vec4 columns per invocation of the GEMMs: ⌈⌈d/4⌉/4⌉. */
export function expColumns(d: number): number {
  return Math.ceil(Math.ceil(d / 4) / 4);
}

export function gemmPipeline(ctx: KernelContext, d: number, entry: string): GPUComputePipeline {
  return ctx.pipelines.pipeline(GEMM, favorSource(gemmCode), entry, { CV: expColumns(d) });
}

/** Encodes U = XWᵀ of both sides, hn and the maxima in one pass ('favor.project'). */
export function encodeFavorProjection(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  p: FavorProblem,
): FavorProjection {
  const { n, d, m } = p;
  const nu = uColumns(p.featureMap, m, d);
  checkBinding(ctx, 'the projections XWᵀ of Q and K', projectionBytes(n, nu));
  const a = ctx.alloc;
  const q4 = encodeVec4Rows(ctx, encoder, p.q, n, d, 'proj.q4');
  const k4 = encodeVec4Rows(ctx, encoder, p.k, n, d, 'proj.k4');
  const w4 = encodeVec4Rows(ctx, encoder, p.w, nu, d, 'proj.w4');
  const u = a.storage('proj.u', projectionBytes(n, nu));
  const hn = a.storage('proj.hn', 2 * n * 4);
  const qStats = a.storage('favor.qstats', n * 8);
  const kStats = a.storage('favor.kstats', 16);
  const tiles = Math.ceil(n / 32);
  const kpart = a.storage('proj.kpart', tiles * 4);
  const uni = a.uniform('proj.u.params', new Uint32Array(favorParams(p)));
  const pipe = (entry: string) => ctx.pipelines.pipeline(PROJECTION, favorSource(projectionCode), entry);
  const pass = encoder.beginComputePass(ctx.timer.pass('favor.project'));
  encodeDispatch(
    ctx,
    pass,
    pipe('project'),
    { 0: uni, 13: q4, 14: k4, 15: w4, 16: u, 17: hn, 18: qStats, 19: kpart },
    2 * tiles,
  );
  encodeDispatch(ctx, pass, pipe('key_max'), { 0: uni, 20: kStats, 21: kpart }, 1);
  pass.end();
  return { u, hn, stats: { qStats, kStats } };
}

export interface ExpArgs extends FavorProblem {
  v: GPUBuffer;
  projection?: FavorProjection;
  role: string;
}

function vec4V(ctx: KernelContext, encoder: GPUCommandEncoder, a: ExpArgs): GPUBuffer {
  return encodeVec4Rows(ctx, encoder, a.v, a.n, a.d, 'exp.v4');
}

/**
 * Key/value chunk states part[p] = Σ_{j∈p} φ(k_j)[v_j | 1] (m'·(d+1) floats each, chunks of
 * `chunk` keys) into `part`, recorded into an open pass; `uniform` = favorParams(args, { chunk, nchunks }).
 */
function encodeChunkStates(
  ctx: KernelContext,
  pass: GPUComputePassEncoder,
  a: ExpArgs,
  proj: FavorProjection,
  v4: GPUBuffer,
  chunks: number,
  part: GPUBuffer,
  uniform: GPUBuffer,
): void {
  const mp = featureDim(a.featureMap, a.m, a.d);
  const inputs = { 0: uniform, 4: proj.stats.qStats, 5: proj.stats.kStats, 6: proj.u, 7: proj.hn, 8: v4 };
  encodeDispatch(ctx, pass, gemmPipeline(ctx, a.d, 'kv_gemm'), { ...inputs, 9: part }, chunks * Math.ceil(mp / 64));
}

/** Bidirectional output (n×d, then n row normalizers). `chunk`, `chunks`: the key split (bidirectionalChunk). */
export function encodeExpBidirectional(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  a: ExpArgs,
  chunk: number,
  chunks: number,
  reducePipeline: GPUComputePipeline,
): GPUBuffer {
  const { n, d } = a;
  const mp = featureDim(a.featureMap, a.m, d);
  const E = mp * (d + 1);
  const proj = a.projection ?? encodeFavorProjection(ctx, encoder, a);
  const v4 = vec4V(ctx, encoder, a);
  const part = ctx.alloc.storage('bidir.partials', chunks * E * 4);
  const state = ctx.alloc.storage('bidir.state', E * 4);
  const out = ctx.alloc.storage(a.role, (n * d + n) * 4);
  // the chunk GEMM and the reduce read identical FmParams: one uniform buffer
  const ukv = ctx.alloc.uniform(`${a.role}.u.kv`, new Uint32Array(favorParams(a, { chunk, nchunks: chunks })));
  const kv = encoder.beginComputePass(ctx.timer.pass('performer.kv'));
  encodeChunkStates(ctx, kv, a, proj, v4, chunks, part, ukv);
  encodeDispatch(ctx, kv, reducePipeline, { 0: ukv, 8: part, 9: state }, Math.ceil(E / 256));
  kv.end();
  const uo = ctx.alloc.uniform(`${a.role}.u.out`, new Uint32Array(favorParams(a)));
  const po = encoder.beginComputePass(ctx.timer.pass('performer.out'));
  encodeDispatch(
    ctx,
    po,
    gemmPipeline(ctx, d, 'out_gemm'),
    { 0: uo, 4: proj.stats.qStats, 5: proj.stats.kStats, 6: proj.u, 7: proj.hn, 10: state, 11: out },
    Math.ceil(n / 64),
  );
  po.end();
  return out;
}

/** Smallest chunk (multiple of 64, or `force`) whose nchunks·m'·(d+1) state workspace fits. */
export function fusedCausalChunk(
  n: number,
  d: number,
  mp: number,
  maxBinding: number,
  budget: number,
  force?: number,
): number | null {
  if (force !== undefined) return force;
  const E = mp * (d + 1) * 4;
  for (let chunk = 64; chunk <= 65536; chunk *= 2)
    if (Math.ceil(n / chunk) * E <= Math.min(maxBinding, budget)) return chunk;
  return null;
}

/** Causal output (n×d, then n row normalizers), chunks of `chunk` rows (a multiple of 64). */
export function encodeExpCausal(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  a: ExpArgs,
  chunk: number,
  prefixPipeline: GPUComputePipeline,
): GPUBuffer {
  const { n, d } = a;
  const mp = featureDim(a.featureMap, a.m, d);
  const E = mp * (d + 1);
  const nchunks = Math.ceil(n / chunk);
  const proj = a.projection ?? encodeFavorProjection(ctx, encoder, a);
  const v4 = vec4V(ctx, encoder, a);
  const work = ctx.alloc.storage('causal.work', nchunks * E * 4);
  const out = ctx.alloc.storage(a.role, (n * d + n) * 4);
  const u = ctx.alloc.uniform(`${a.role}.u`, new Uint32Array(favorParams(a, { chunk, nchunks })));
  const scan = encoder.beginComputePass(ctx.timer.pass('causal.scan'));
  encodeChunkStates(ctx, scan, a, proj, v4, nchunks, work, u);
  encodeDispatch(ctx, scan, prefixPipeline, { 0: u, 12: work }, Math.ceil(E / 256));
  scan.end();
  const po = encoder.beginComputePass(ctx.timer.pass('causal.out'));
  encodeDispatch(
    ctx,
    po,
    gemmPipeline(ctx, d, 'causal_fused'),
    { 0: u, 4: proj.stats.qStats, 5: proj.stats.kStats, 6: proj.u, 7: proj.hn, 8: v4, 10: work, 11: out },
    Math.ceil(n / 64),
  );
  po.end();
  return out;
}
