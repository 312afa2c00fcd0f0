/**
 * Dispatcher of the fast Performer path for the exp-of-projection maps (positive, hyperbolic, exp;
 * either stabilizer): src/shaders/favor-projection.wgsl projects each side once (one GEMM, maxima
 * in its epilogue) and src/shaders/performer-exp-gemm.wgsl applies exp as it loads tiles of those
 * projections — φ(K)ᵀ[V | 1] as a split-K GEMM over key chunks, φ(Q)[S | z] as a GEMM over
 * feature tiles, and for causal attention the chunk's quadratic part fused with its output.
 * Head dimensions past 64 run in column tiles of 64 output columns (⌈d/64⌉ workgroups per row or
 * feature tile). Other maps (trig, relu, elu1, double-softmax and any map added to the generic
 * switch of feature-map-common.wgsl) keep the generic on-the-fly path (performer-bidirectional.ts /
 * performer-causal.ts), which the dispatchers there choose between.
 * CPU twin: src/core/linear-attention.ts linearAttentionOutput with src/core/feature-maps.ts.
 * Projections past min(binding limit, 128 MiB) (n = 2^20 at m = 64) are held one row block at a
 * time: the keys' hn and maxima first for all rows, then each GEMM's block is projected just before it.
 *
 * Passes: 'favor.project' (projection, key max), 'performer.kv' (key chunk GEMM + reduce, or for
 * causal 'causal.scan': chunk states + exclusive prefix), 'performer.out' / 'causal.out'.
 * Every sum has a fixed order and the chunking depends only on the shape and the device's binding
 * limit, so reruns give identical bits.
 */
import projectionCode from '../shaders/favor-projection.wgsl?raw';
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
import { encodeVec4Rows } from './pack-vec4';

/**
 * The maps of the fast path (FeatureMapSpec.fastPath): φ = ratio·(exp(±ω·x − ‖x‖²/2·[norm] − shift) + ε).
 * performer-exp-gemm.wgsl knows these maps' formulas; a map marked fastPath must be one of them.
 */
export const EXP_MAPS: readonly FeatureMapKind[] = FEATURE_MAPS.filter((k) => FEATURE_MAP_SPECS[k].fastPath);
/** Output columns per workgroup of the GEMMs: wider heads run ⌈d / 64⌉ column tiles. */
export const EXP_COLUMN_TILE = 64;
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

/** Whether a problem runs on the fast path (map, one 64-row projection block within the binding limit). */
export function usesExpPath(p: Pick<FavorProblem, 'n' | 'd' | 'm' | 'featureMap'>, maxBinding: number): boolean {
  if (!EXP_MAPS.includes(p.featureMap)) return false;
  return projectionBlock(p.n, uColumns(p.featureMap, p.m, p.d), maxBinding) >= Math.min(64, p.n);
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
const GEMM = 'performer-exp-gemm';

/** vec4 columns per invocation of the GEMMs: ⌈⌈d/4⌉/4⌉ within one column tile of 64 (at most 4). */
export function expColumns(d: number): number {
  return Math.min(EXP_COLUMN_TILE / 16, Math.ceil(Math.ceil(d / 4) / 4));
}

/** Column tiles of the GEMMs' outputs: ⌈d / 64⌉. */
export function expColumnTiles(d: number): number {
  return Math.ceil(d / EXP_COLUMN_TILE);
}

export function gemmPipeline(ctx: KernelContext, d: number, entry: string): GPUComputePipeline {
  return ctx.pipelines.pipeline(GEMM, favorSource(gemmCode), entry, { CV: expColumns(d) });
}

interface ProjectionInputs {
  q4: GPUBuffer;
  k4: GPUBuffer;
  w4: GPUBuffer;
  kpart: GPUBuffer;
}
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
  const pipe = ctx.pipelines.pipeline(PROJECTION, favorSource(projectionCode), 'project');
  const pass = encoder.beginComputePass(ctx.timer.pass('favor.project'));
  const io = {
    0: uni,
    13: inp.q4,
    14: inp.k4,
    15: inp.w4,
    16: proj.u,
    17: proj.hn,
    18: proj.stats.qStats,
    19: inp.kpart,
  };
  encodeDispatch(ctx, pass, pipe, io, rows.sides * Math.ceil(span / 32));
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
  const kpart = a.storage('proj.kpart', Math.ceil(n / 32) * 4);
  const proj: FavorProjection = { u, hn, stats: { qStats, kStats }, block };
  projectionInputs.set(proj, { q4, k4, w4, kpart });
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
  const pipe = ctx.pipelines.pipeline(PROJECTION, favorSource(projectionCode), 'key_max');
  const pass = encoder.beginComputePass(ctx.timer.pass('favor.project'));
  encodeDispatch(ctx, pass, pipe, { 0: uni, 20: kStats, 21: kpart }, 1);
  pass.end();
  return proj;
}

/** Projects row block u0 .. u0 + block − 1 of the given sides into U (a no-op when U holds every row). */
function encodeProjectBlock(
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
function blockStarts(n: number, block: number): number[] {
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

export interface ExpArgs extends FavorProblem {
  v: GPUBuffer;
  projection?: FavorProjection;
  role: string;
  /** rows per projection block (tests force small blocks); default projectionBlock */
  block?: number;
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
  const extra = { chunk, nchunks: Math.ceil(a.n / chunk), a0: u0, a1: Math.min(block, a.n) };
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
  const ur = ctx.alloc.uniform(`${a.role}.u.reduce`, new Uint32Array(favorParams(a, { chunk: c, nchunks: chunks })));
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
  const u = ctx.alloc.uniform(`${a.role}.u`, new Uint32Array(favorParams(a, { chunk, nchunks })));
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
