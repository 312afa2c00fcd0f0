/**
 * Dispatchers of the dense attention statistics (cost O(n²(d + m')), memory O(n)):
 * src/shaders/attention-row-stats.wgsl (row normalizers, per-row statistics, full rows) and
 * src/shaders/attention-matrix-view.wgsl (block-mean heatmaps), both with the shared tile code
 * src/shaders/attention-tile.wgsl prepended. CPU twins: core/exact-attention.ts
 * (exactRowNormalizers, exactAttentionRow), core/linear-attention.ts (linearAttentionRow),
 * core/matrix-view.ts (matrixView, writeRowStats).
 *
 * Inputs are vec4-padded rows (see pack-vec4.ts): Q, K (n × ⌈d/4⌉ vec4) and φ(Q), φ(K)
 * (n × ⌈m'/4⌉ vec4). `encodeRowNormalizers` must run first; its buffer feeds the others.
 */
import reduceCode from '../shaders/attention-row-reduce.wgsl?raw';
import tileCode from '../shaders/attention-tile.wgsl?raw';
import statsCode from '../shaders/attention-row-stats.wgsl?raw';
import viewCode from '../shaders/attention-matrix-view.wgsl?raw';
import { shaderSource } from './shader-source';
import { viewGeometry } from '../core/matrix-view';
import type { KernelContext } from './kernel-context';
import { dispatchGrid } from './pipelines';

const STATS_SOURCE = shaderSource(tileCode, reduceCode, statsCode);
const VIEW_SOURCE = shaderSource(tileCode, viewCode);

export interface DenseProblem {
  n: number;
  d: number;
  /** feature dimension m' */
  mp: number;
  causal: boolean;
  q4: GPUBuffer;
  k4: GPUBuffer;
  qf4: GPUBuffer;
  kf4: GPUBuffer;
}

const WG = 64;
const BR = 32;
/**
 * Keys per thread: 8 in the statistics kernels (4 row + 8 key loads per 32 dot products of a column),
 * 4 in the matrix view, whose workgroup memory holds a whole (A, Â) tile.
 */
const STATS_RN = 8;
const VIEW_RN = 4;
/** keys per tile of the statistics kernels: RN · WG / (BR / 4) */
const STATS_BC = (STATS_RN * WG) / (BR / 4);

/**
 * Override constants: tile shapes only (widths are uniforms), so one pipeline serves every d and m'.
 * The micro-tile reads storage directly (attention-tile.wgsl); the view kernel's workgroup memory is
 * its (A, Â) tile and row partials, 4·(2·BR·BC + 4·BR) = 8.7 KB at BC = 32, within the default 16 KiB.
 */
function constants(rn: number): Record<string, number> {
  return { WG, BR, RN: rn };
}

function params(
  p: DenseProblem,
  gridX: number,
  extra: { rowCount?: number; cells?: number; block?: number; gc?: number; raw?: 0 | 1 | 2 } = {},
): Uint8Array {
  const buf = new ArrayBuffer(48);
  const u = new Uint32Array(buf);
  u[0] = p.n;
  u[1] = p.causal ? 1 : 0;
  u[2] = gridX;
  u[3] = extra.rowCount ?? 0;
  new Float32Array(buf)[4] = 1 / Math.sqrt(p.d);
  u[5] = extra.cells ?? 0;
  u[6] = extra.block ?? 0;
  u[7] = extra.gc ?? 0;
  u[8] = Math.ceil(p.d / 4);
  u[9] = Math.ceil(p.mp / 4);
  u[10] = extra.raw ?? 0;
  u[11] = p.d;
  return new Uint8Array(buf);
}

function bind(
  ctx: KernelContext,
  pipeline: GPUComputePipeline,
  entries: Record<number, GPUBuffer>,
  label: string,
): GPUBindGroup {
  return ctx.device.createBindGroup({
    label,
    layout: pipeline.getBindGroupLayout(0),
    entries: Object.entries(entries).map(([b, buffer]) => ({ binding: Number(b), resource: { buffer } })),
  });
}

function run(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  label: string,
  pipeline: GPUComputePipeline,
  entries: Record<number, GPUBuffer>,
  grid: [number, number],
): void {
  const pass = encoder.beginComputePass(ctx.timer.pass(label));
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bind(ctx, pipeline, entries, label));
  pass.dispatchWorkgroups(grid[0], grid[1]);
  pass.end();
}

function statsPipeline(
  ctx: KernelContext,
  entry: string,
  shape: Record<string, number> = constants(STATS_RN),
): GPUComputePipeline {
  return ctx.pipelines.pipeline('attention-row-stats', STATS_SOURCE, entry, shape);
}

/**
 * The row normalizers' tile: 8 rows per thread (RR), so BR = 64 rows per workgroup with the same TG
 * (8 threads per row) and the same keys per thread as the other statistics kernels: each lane visits
 * the keys it did with 4 rows per thread, in the same order (the same bits), with a third fewer
 * storage reads per product (attention-row-stats.wgsl dots8).
 */
const NORM_RR = 8;
const NORM_BR = 64;
const NORM_SHAPE = { WG, BR: NORM_BR, RN: STATS_RN, RR: NORM_RR };
/** threads per row of the normalizers (TG in attention-tile.wgsl): WG / (BR / RR) */
const NORM_TG = WG / (NORM_BR / NORM_RR);

function inputs(p: DenseProblem): Record<number, GPUBuffer> {
  return { 1: p.q4, 2: p.k4, 3: p.qf4, 4: p.kf4 };
}

/**
 * Per row (M_i, S_i, D_i, 0): exact row max and Σ exp, linear-attention denominator (n vec4f, role
 * 'stats.norms'; the threads' partials in 'stats.norms.part', combined by a second dispatch). With
 * `raw` (n² vec2f, `rawBytes`), also the raw (s_ij, g_ij) it computes on the way, for
 * `encodeMatrixView`'s one-cell-per-entry case. `keepScores`: raw and the partials
 * (`normPartials`) hold this job's scores already (src/gpu/exact-reuse.ts); only g and D are formed.
 */
export function encodeRowNormalizers(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  p: DenseProblem,
  raw?: GPUBuffer,
  keepScores = false,
): GPUBuffer {
  if (keepScores && !raw) throw new Error('encodeRowNormalizers: kept scores live in the raw buffer');
  const norms = ctx.alloc.storage('stats.norms', p.n * 16);
  const grid = dispatchGrid(Math.ceil(p.n / NORM_BR), ctx.limits.maxComputeWorkgroupsPerDimension);
  const u = ctx.alloc.uniform('stats.u.norms', params(p, grid[0], { raw: raw ? (keepScores ? 2 : 1) : 0 }));
  // the kernel declares the raw binding either way; without raw it gets a stand-in it never writes
  // each thread's partials, then one thread per row combines them (no barrier in either kernel)
  const part = normPartials(ctx, p.n);
  const io = { 0: u, ...inputs(p), 6: raw ?? ctx.alloc.storage('stats.raw.none', 16), 10: part };
  run(ctx, encoder, 'row-normalizers', statsPipeline(ctx, 'normalizers', NORM_SHAPE), io, grid);
  const rowsGrid = dispatchGrid(Math.ceil(p.n / WG), ctx.limits.maxComputeWorkgroupsPerDimension);
  const combine = statsPipeline(ctx, 'normPartCombine', NORM_SHAPE);
  run(ctx, encoder, 'row-normalizers', combine, { 0: u, 5: norms, 10: part }, rowsGrid);
  return norms;
}

/** The normalizers' per-thread partials of n rows (role 'stats.norms.part'; the allocator's buffer). */
export function normPartials(ctx: KernelContext, n: number): GPUBuffer {
  return ctx.alloc.storage('stats.norms.part', normPartialBytes(n));
}

/** Bytes of the normalizers' per-thread partials (TG vec4f per row) of `encodeRowNormalizers`. */
export function normPartialBytes(n: number): number {
  return n * NORM_TG * 16;
}

/** Bytes of the raw (s_ij, g_ij) buffer of `encodeRowNormalizers`. */
export function rawBytes(n: number): number {
  return n * n * 8;
}

/**
 * Up to this size the live job keeps the raw products (n ≤ 2048): the exact output, the row
 * statistics and the view then read them instead of each forming all n² products again (three
 * O(n²(d + m')) passes become O(n²) ones). Past it, memory grows as n², recomputing does not.
 */
export const RAW_BUDGET = 32 * 2 ** 20;

/** Whether a dense job of n rows keeps the raw products on a device with this binding limit. */
export function keepsRaw(n: number, maxBinding: number): boolean {
  return rawBytes(n) <= Math.min(RAW_BUDGET, maxBinding);
}

/**
 * Row statistics, 5 planes of n floats: exactEntropy, approxEntropy, sqErr, exactSq, kl (role
 * 'stats.rowstats'). With `raw` (the products `encodeRowNormalizers(…, raw)` kept): one pass over the
 * stored entries (entry rowStatsFromRaw) instead of forming every product again.
 */
export function encodeRowStats(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  p: DenseProblem,
  norms: GPUBuffer,
  raw?: GPUBuffer,
): GPUBuffer {
  const out = ctx.alloc.storage('stats.rowstats', 5 * p.n * 4);
  const grid = dispatchGrid(Math.ceil(p.n / (raw ? WG : BR)), ctx.limits.maxComputeWorkgroupsPerDimension);
  const u = ctx.alloc.uniform('stats.u.rowstats', params(p, grid[0]));
  const [entry, io] = raw
    ? ['rowStatsFromRaw', { 0: u, 5: norms, 6: out, 8: raw }]
    : ['rowStats', { 0: u, ...inputs(p), 5: norms, 6: out }];
  run(ctx, encoder, 'row-stats', statsPipeline(ctx, entry), io, grid);
  return out;
}

/**
 * Full rows A_{r,·} and Â_{r,·} for the requested rows: 2·R planes of n floats, exact rows first
 * (role 'stats.fullrows').
 */
export function encodeFullRows(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  p: DenseProblem,
  norms: GPUBuffer,
  rows: readonly number[],
): GPUBuffer {
  const R = rows.length;
  const out = ctx.alloc.storage('stats.fullrows', 2 * R * p.n * 4);
  const list = ctx.alloc.upload('stats.rowlist', new Uint32Array(rows));
  const grid: [number, number] = [Math.ceil(p.n / STATS_BC), Math.ceil(R / BR)];
  const u = ctx.alloc.uniform('stats.u.fullrows', params(p, grid[0], { rowCount: R }));
  run(
    ctx,
    encoder,
    'attention-rows',
    statsPipeline(ctx, 'fullRows'),
    { 0: u, ...inputs(p), 5: norms, 6: out, 7: list },
    grid,
  );
  return out;
}

export interface ViewPlan {
  cells: number;
  block: number;
  /** cells per side of one workgroup's cell group */
  gc: number;
}

export function viewPlan(n: number, maxCells: number): ViewPlan {
  const { cells, block } = viewGeometry(n, maxCells);
  return { cells, block, gc: block <= BR ? Math.floor(BR / block) : 1 };
}

/** Cells per invocation of the view's fromRaw with one cell per entry (RAW_CELLS in the WGSL). */
const RAW_VIEW_CELLS = 16;

/** Block means of A, Â, |A − Â|: 3 planes of cells² floats (role 'stats.view'). */
export function encodeMatrixView(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  p: DenseProblem,
  norms: GPUBuffer,
  maxCells: number,
  raw?: GPUBuffer,
): { buffer: GPUBuffer; plan: ViewPlan } {
  const plan = viewPlan(p.n, maxCells);
  const out = ctx.alloc.storage('stats.view', 3 * plan.cells * plan.cells * 4);
  if (raw) {
    // the normalizers' (s, g) at hand: each cell sums its stored entries, nothing recomputed
    const perThread = plan.block === 1 ? RAW_VIEW_CELLS : 1;
    const grid = dispatchGrid(
      Math.ceil((plan.cells * plan.cells) / (WG * perThread)),
      ctx.limits.maxComputeWorkgroupsPerDimension,
    );
    const u = ctx.alloc.uniform('stats.u.view', params(p, grid[0], plan));
    const pipeline = ctx.pipelines.pipeline('attention-matrix-view', VIEW_SOURCE, 'fromRaw', constants(VIEW_RN));
    run(ctx, encoder, 'matrix-view', pipeline, { 0: u, 5: norms, 6: out, 7: raw }, grid);
    return { buffer: out, plan };
  }
  const groups = Math.ceil(plan.cells / plan.gc);
  const u = ctx.alloc.uniform('stats.u.view', params(p, groups, plan));
  const pipeline = ctx.pipelines.pipeline('attention-matrix-view', VIEW_SOURCE, 'main', constants(VIEW_RN));
  // one entry per cell: a workgroup per row band over every key tile (fewer, longer workgroups)
  const grid: [number, number] = [plan.block === 1 ? 1 : groups, groups];
  run(ctx, encoder, 'matrix-view', pipeline, { 0: u, ...inputs(p), 5: norms, 6: out }, grid);
  return { buffer: out, plan };
}

/** The exact output's buffer (role 'exact.out', n×d f32; the allocator's, as the fused kernel's). */
export function exactOutput(ctx: KernelContext, n: number, d: number): GPUBuffer {
  return ctx.alloc.storage('exact.out', n * d * 4);
}

/**
 * The exact output softmax(QKᵀ/√d)V (n×d f32, role 'exact.out', as the fused kernel writes it) from
 * the raw scores of `encodeRowNormalizers(…, raw)` and its normalizers: the scores are not computed
 * a second time (pass 'exact-attention', entry exactFromRaw).
 */
export function encodeExactFromRaw(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  p: DenseProblem,
  norms: GPUBuffer,
  raw: GPUBuffer,
  v4: GPUBuffer,
): GPUBuffer {
  const out = exactOutput(ctx, p.n, p.d);
  const groups = Math.ceil(Math.ceil(p.d / 4) / 4);
  const grid = dispatchGrid(Math.ceil((p.n * groups) / WG), ctx.limits.maxComputeWorkgroupsPerDimension);
  const u = ctx.alloc.uniform('stats.u.exact', params(p, grid[0], { rowCount: groups }));
  run(
    ctx,
    encoder,
    'exact-attention',
    statsPipeline(ctx, 'exactFromRaw'),
    { 0: u, 5: norms, 6: out, 8: raw, 9: v4 },
    grid,
  );
  return out;
}
