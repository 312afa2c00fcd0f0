/**
 * Dispatcher of the fast Performer path for the exp-of-projection maps (positive, hyperbolic, exp;
 * either stabilizer): favor-projection.ts projects each side once (src/shaders/favor-projection.wgsl:
 * one GEMM, maxima in its epilogue) and src/shaders/performer-exp-gemm.wgsl applies exp as it loads
 * tiles of those projections — φ(K)ᵀ[V | 1] as a split-K GEMM over key chunks, φ(Q)[S | z] as a
 * GEMM over feature tiles, and for causal attention the chunk's quadratic part fused with its output.
 * Head dimensions past 64 run in column tiles of 64 output columns (⌈d/64⌉ workgroups per row or
 * feature tile). Other maps (trig, relu, elu1, double-softmax and any map added to the generic
 * switch of feature-map-common.wgsl) keep the generic on-the-fly path (performer-bidirectional.ts /
 * performer-causal.ts), which the dispatchers there choose between.
 * CPU twin: src/core/linear-attention.ts linearAttentionOutput with src/core/feature-maps.ts.
 * Projections past min(binding limit, 128 MiB) are held one row block at a time (favor-projection.ts):
 * each GEMM's block is projected just before it.
 *
 * Passes: 'favor.project' (projection, key max; favor-projection.ts), 'performer.kv' (key chunk
 * GEMM + reduce, or for causal 'causal.scan': chunk states + exclusive prefix), 'performer.out' /
 * 'causal.out'. Every sum has a fixed order and the chunking depends only on the shape and the
 * device's binding limit, so reruns give identical bits.
 */
import gemmCode from '../shaders/performer-exp-gemm.wgsl?raw';
import { FEATURE_MAP_SPECS } from '../core/feature-map-specs';
import { featureDim } from '../core/feature-maps';
import { FEATURE_MAPS, type FeatureMapKind } from '../core/types';
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
import {
  blockAlignedChunk,
  blockStarts,
  encodeFavorProjection,
  encodeProjectBlock,
  projectionBlock,
  type FavorProjection,
} from './favor-projection';
import { encodeVec4Rows } from './pack-vec4';

/**
 * The maps of the fast path (FeatureMapSpec.fastPath): φ = ratio·(exp(±ω·x − ‖x‖²/2·[norm] − shift) + ε).
 * performer-exp-gemm.wgsl knows these maps' formulas; a map marked fastPath must be one of them.
 */
export const EXP_MAPS: readonly FeatureMapKind[] = FEATURE_MAPS.filter((k) => FEATURE_MAP_SPECS[k].fastPath);
/** Output columns per workgroup of the GEMMs: wider heads run ⌈d / 64⌉ column tiles. */
export const EXP_COLUMN_TILE = 64;

/** Whether a problem runs on the fast path (map, one 64-row projection block within the binding limit). */
export function usesExpPath(p: Pick<FavorProblem, 'n' | 'd' | 'm' | 'featureMap'>, maxBinding: number): boolean {
  if (!EXP_MAPS.includes(p.featureMap)) return false;
  return projectionBlock(p.n, uColumns(p.featureMap, p.m, p.d), maxBinding) >= Math.min(64, p.n);
}

const GEMM = 'performer-exp-gemm';
const GEMM_SOURCE = favorSource(gemmCode);

/** vec4 columns per invocation of the GEMMs: ⌈⌈d/4⌉/4⌉ within one column tile of 64 (at most 4). */
export function expColumns(d: number): number {
  return Math.min(EXP_COLUMN_TILE / 16, Math.ceil(Math.ceil(d / 4) / 4));
}

/** Column tiles of the GEMMs' outputs: ⌈d / 64⌉. */
export function expColumnTiles(d: number): number {
  return Math.ceil(d / EXP_COLUMN_TILE);
}

export function gemmPipeline(ctx: KernelContext, d: number, entry: string): GPUComputePipeline {
  return ctx.pipelines.pipeline(GEMM, GEMM_SOURCE, entry, { CV: expColumns(d) });
}

export interface ExpArgs extends FavorProblem {
  v: GPUBuffer;
  projection?: FavorProjection;
  role: string;
  /** rows per projection block (tests force small blocks); default projectionBlock */
  block?: number;
  /** `projection.u` holds φ itself (materializedProjection): the GEMMs read it as is */
  direct?: boolean;
}

function vec4V(ctx: KernelContext, encoder: GPUCommandEncoder, a: ExpArgs): GPUBuffer {
  return encodeVec4Rows(ctx, encoder, a.v, a.n, a.d, 'exp.v4');
}

/** The FmParams uniform of one row block's GEMM dispatches (a0 = u0, a1 = block rows). */
function blockUniform(
  ctx: KernelContext,
  a: ExpArgs,
  role: string,
  u0: number,
  block: number,
  chunk: number,
): GPUBuffer {
  const extra = { chunk, nchunks: Math.ceil(a.n / chunk), a0: u0, a1: Math.min(block, a.n), phiDirect: a.direct };
  return ctx.alloc.uniform(`${role}.${u0 / Math.min(block, a.n)}`, new Uint32Array(favorParams(a, extra)));
}

/**
 * Key/value chunk states part[p] = Σ_{j∈p} φ(k_j)[v_j | 1] (m'·(d+1) floats each, chunks of
 * `chunk` keys, `chunk` dividing the projection block) into `part`, block by block: project the
 * block's keys (and, for `sides` 'both', queries) into U, then the block's chunk GEMM ('kvPass').
 */
function encodeChunkStates(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  a: ExpArgs,
  proj: FavorProjection,
  v4: GPUBuffer,
  chunk: number,
  part: GPUBuffer,
  kvPass: string,
): void {
  const mp = featureDim(a.featureMap, a.m, a.d);
  const { block } = proj;
  for (const u0 of blockStarts(a.n, block)) {
    encodeProjectBlock(ctx, encoder, a, proj, u0, 'key');
    const uni = blockUniform(ctx, a, `${a.role}.u.kv`, u0, block, chunk);
    const inputs = { 0: uni, 4: proj.stats.qStats, 5: proj.stats.kStats, 6: proj.u, 7: proj.hn, 8: v4, 9: part };
    const chunks = Math.ceil(Math.min(block, a.n - u0) / chunk);
    const pass = encoder.beginComputePass(ctx.timer.pass(kvPass));
    const groups = chunks * Math.ceil(mp / 64) * expColumnTiles(a.d);
    encodeDispatch(ctx, pass, gemmPipeline(ctx, a.d, 'kv_gemm'), inputs, groups);
    pass.end();
  }
}

/** Bidirectional output (n×d, then n row normalizers). `chunk`: the key split (bidirectionalChunk). */
export function encodeExpBidirectional(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  a: ExpArgs,
  chunk: number,
  reducePipeline: GPUComputePipeline,
): GPUBuffer {
  const { n, d } = a;
  const mp = featureDim(a.featureMap, a.m, d);
  const E = mp * (d + 1);
  const proj = a.projection ?? encodeFavorProjection(ctx, encoder, a, a.block);
  const c = blockAlignedChunk(chunk, proj.block, n);
  const chunks = Math.ceil(n / c);
  const v4 = vec4V(ctx, encoder, a);
  const part = ctx.alloc.storage('bidir.partials', chunks * E * 4);
  const state = ctx.alloc.storage('bidir.state', E * 4);
  const out = ctx.alloc.storage(a.role, (n * d + n) * 4);
  encodeChunkStates(ctx, encoder, a, proj, v4, c, part, 'performer.kv');
  const ur = ctx.alloc.uniform(
    `${a.role}.u.reduce`,
    new Uint32Array(favorParams(a, { chunk: c, nchunks: chunks, phiDirect: a.direct })),
  );
  const kv = encoder.beginComputePass(ctx.timer.pass('performer.kv'));
  encodeDispatch(ctx, kv, reducePipeline, { 0: ur, 8: part, 9: state }, Math.ceil(E / 256));
  kv.end();
  encodeRowTileOutput(
    ctx,
    encoder,
    a,
    proj,
    { entry: 'out_gemm', pass: 'performer.out', sides: 'query', chunk: c },
    {
      10: state,
      11: out,
    },
  );
  return out;
}

/**
 * The output GEMM over 64-row tiles × column tiles ('out_gemm' or 'causal_fused'), block by block:
 * project the block's rows of `sides` into U (when U holds one block), then dispatch its tiles.
 */
function encodeRowTileOutput(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  a: ExpArgs,
  proj: FavorProjection,
  what: { entry: string; pass: string; sides: 'query' | 'both'; chunk: number },
  buffers: Record<number, GPUBuffer>,
): void {
  for (const u0 of blockStarts(a.n, proj.block)) {
    encodeProjectBlock(ctx, encoder, a, proj, u0, what.sides);
    const uo = blockUniform(ctx, a, `${a.role}.u.out`, u0, proj.block, what.chunk);
    const pass = encoder.beginComputePass(ctx.timer.pass(what.pass));
    const inputs = { 0: uo, 4: proj.stats.qStats, 5: proj.stats.kStats, 6: proj.u, 7: proj.hn, ...buffers };
    const groups = Math.ceil(Math.min(proj.block, a.n - u0) / 64) * expColumnTiles(a.d);
    encodeDispatch(ctx, pass, gemmPipeline(ctx, a.d, what.entry), inputs, groups);
    pass.end();
  }
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

/** Causal output (n×d, then n row normalizers), chunks of `chunk` rows (a multiple of 64 dividing the projection block). */
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
  const proj = a.projection ?? encodeFavorProjection(ctx, encoder, a, a.block);
  if (proj.block < n && proj.block % chunk !== 0)
    throw new RangeError(`causal chunk ${chunk} does not divide the projection block ${proj.block}`);
  const v4 = vec4V(ctx, encoder, a);
  const work = ctx.alloc.storage('causal.work', nchunks * E * 4);
  const out = ctx.alloc.storage(a.role, (n * d + n) * 4);
  encodeChunkStates(ctx, encoder, a, proj, v4, chunk, work, 'causal.scan');
  const u = ctx.alloc.uniform(`${a.role}.u`, new Uint32Array(favorParams(a, { chunk, nchunks, phiDirect: a.direct })));
  const scan = encoder.beginComputePass(ctx.timer.pass('causal.scan'));
  encodeDispatch(ctx, scan, prefixPipeline, { 0: u, 12: work }, Math.ceil(E / 256));
  scan.end();
  const fused = { entry: 'causal_fused', pass: 'causal.out', sides: 'both', chunk } as const;
  encodeRowTileOutput(ctx, encoder, a, proj, fused, { 8: v4, 10: work, 11: out });
  return out;
}

/**
 * φ(Q) and φ(K) as vec4 rows (n × ⌈m'/4⌉ vec4 each; roles 'exp.qf4', 'exp.kf4') from the projections
 * of `encodeFavorProjection` ('favor.features', entry phi_rows: one exp per entry, as the GEMMs form
 * φ), for the dense statistics; null when U holds one row block only (the caller then takes the
 * generic favor-features path).
 */
export function encodeExpFeatures(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  p: FavorProblem,
  proj: FavorProjection,
): { qf4: GPUBuffer; kf4: GPUBuffer; mp: number } | null {
  if (proj.block < p.n) return null;
  const mp = featureDim(p.featureMap, p.m, p.d);
  const m4 = Math.ceil(mp / 4);
  checkBinding(ctx, 'the feature matrix φ(Q)', p.n * m4 * 16);
  const pipe = gemmPipeline(ctx, p.d, 'phi_rows');
  const pass = encoder.beginComputePass(ctx.timer.pass('favor.features'));
  const out: GPUBuffer[] = [];
  for (const [side, role] of [
    [0, 'exp.qf4'],
    [1, 'exp.kf4'],
  ] as const) {
    const buf = ctx.alloc.storage(role, p.n * m4 * 16);
    const uni = ctx.alloc.uniform(`${role}.u`, new Uint32Array(favorParams(p, { chunk: side, a0: 0, a1: p.n })));
    const io = { 0: uni, 4: proj.stats.qStats, 5: proj.stats.kStats, 6: proj.u, 7: proj.hn, 12: buf };
    encodeDispatch(ctx, pass, pipe, io, Math.ceil((p.n * m4) / 64));
    out.push(buf);
  }
  pass.end();
  return { qf4: out[0]!, kf4: out[1]!, mp };
}

/** φ(Q) and φ(K) already formed (n×m' f32 rows each, encodeFavorFeatures) for the GEMMs to read as they are. */
export interface MaterializedFeatures {
  qf: GPUBuffer;
  kf: GPUBuffer;
}

/** Whether φ(Q) and φ(K) of this problem fit one U buffer (2·n·m' floats) for the direct GEMMs. */
export function fitsMaterialized(p: Pick<FavorProblem, 'n' | 'd' | 'm' | 'featureMap'>, maxBinding: number): boolean {
  return 2 * p.n * featureDim(p.featureMap, p.m, p.d) * 4 <= maxBinding;
}

/**
 * The GEMMs' inputs for materialized features: U = [φ(Q); φ(K)] (one block of n rows, nu = m'), read
 * with phi_direct (ExpArgs.direct), so φ is used as formed, bit for bit. phi_direct reads no hn: U
 * itself fills that binding.
 */
export function materializedProjection(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  p: FavorProblem,
  features: MaterializedFeatures,
  stats: FavorStats,
): FavorProjection {
  const side = p.n * featureDim(p.featureMap, p.m, p.d) * 4;
  const u = ctx.alloc.storage('direct.u', 2 * side);
  encoder.copyBufferToBuffer(features.qf, 0, u, 0, side);
  encoder.copyBufferToBuffer(features.kf, 0, u, side, side);
  return { u, hn: u, stats, block: p.n };
}
