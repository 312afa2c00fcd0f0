/**
 * Dispatcher of src/shaders/attention-row-list-stats.wgsl (with src/shaders/attention-tile.wgsl
 * prepended): the row normalizers and the per-row statistics of exact vs approximate attention on a
 * list of query rows (cost O(R·n·(d + m')), memory O(R)). CPU twin: core/analysis-backend.ts
 * (rowListStats on core/sweeps.ts exactRowsOf / approxRowsOf).
 *
 * Inputs as in attention-stats.ts (`DenseProblem`: vec4-padded Q, K, φ(Q), φ(K) of all n rows);
 * the norms buffer (n vec4f, only the listed rows written) also feeds attention-stats.ts
 * `encodeFullRows`.
 */
import reduceCode from '../shaders/attention-row-reduce.wgsl?raw';
import tileCode from '../shaders/attention-tile.wgsl?raw';
import code from '../shaders/attention-row-list-stats.wgsl?raw';
import type { DenseProblem } from './attention-stats';
import type { KernelContext } from './kernel-context';
import { bindAt } from './favor-dispatch';
import { dispatchGrid } from './pipelines';
import { shaderSource } from './shader-source';

const WG = 64;
const BR = 32;
const RN = 4;
/** keys per tile: RN · WG / (BR / 4) */
const BC = 32;
/** statistics per listed row: H(A), H(Â), Σ(A − Â)², Σ A², KL */
export const ROW_LIST_STATS = 5;

function constants(ctx: KernelContext): Record<string, number> {
  const bytes = (c4: number) => 4 * (BR + 4 * c4 * (BR + BC) + 5 * 4 * WG);
  return { WG, BR, RN, C4: bytes(8) <= ctx.limits.maxComputeWorkgroupStorageSize ? 8 : 4 };
}

function params(p: DenseProblem, gridX: number, rowCount: number): Uint8Array {
  const buf = new ArrayBuffer(48);
  const u = new Uint32Array(buf);
  u[0] = p.n;
  u[1] = p.causal ? 1 : 0;
  u[2] = gridX;
  u[3] = rowCount;
  new Float32Array(buf)[4] = 1 / Math.sqrt(p.d);
  u[8] = Math.ceil(p.d / 4);
  u[9] = Math.ceil(p.mp / 4);
  return new Uint8Array(buf);
}

function pipeline(ctx: KernelContext, entry: string): GPUComputePipeline {
  return ctx.pipelines.pipeline(
    'attention-row-list-stats',
    shaderSource(tileCode, reduceCode, code),
    entry,
    constants(ctx),
  );
}

function encode(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  entry: string,
  label: string,
  buffers: Record<number, GPUBuffer>,
  grid: [number, number],
): void {
  const pl = pipeline(ctx, entry);
  const pass = encoder.beginComputePass(ctx.timer.pass(label));
  pass.setPipeline(pl);
  pass.setBindGroup(0, bindAt(ctx.device, pl, buffers, label));
  pass.dispatchWorkgroups(grid[0], grid[1]);
  pass.end();
}

/**
 * Encodes the normalizers of the listed rows (norms) and their statistics into `out` at float
 * offset `base` (ROW_LIST_STATS planes of R floats: H(A), H(Â), Σ(A − Â)², Σ A², KL). `rowList`
 * holds the R row ids (u32). Returns the norms buffer (role 'rowlist.norms').
 */
export function encodeRowListStats(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  p: DenseProblem,
  rowList: GPUBuffer,
  rowCount: number,
  out: GPUBuffer,
  base: number,
): GPUBuffer {
  const norms = ctx.alloc.storage('rowlist.norms', p.n * 16);
  const grid = dispatchGrid(Math.ceil(rowCount / BR), ctx.limits.maxComputeWorkgroupsPerDimension);
  const u = ctx.alloc.uniform('rowlist.u', params(p, grid[0], rowCount));
  const b = ctx.alloc.uniform('rowlist.base', new Uint32Array([base, 0, 0, 0]));
  const inputs = { 0: u, 1: p.q4, 2: p.k4, 3: p.qf4, 4: p.kf4, 5: norms, 7: rowList };
  encode(ctx, encoder, 'listNormalizers', 'row-list-normalizers', inputs, grid);
  encode(ctx, encoder, 'listStats', 'row-list-stats', { ...inputs, 6: out, 8: b }, grid);
  return norms;
}
