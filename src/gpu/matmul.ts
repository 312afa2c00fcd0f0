/**
 * Dispatcher of the tiled matrix product (src/shaders/matmul.wgsl):
 * C = act(A·B) (+ C) on strided row-major views, 64 × 64 output tiles per workgroup.
 * CPU twin: core/matmul.ts `matmulInto`. Used by the speed panel's Transformer layer.
 */
import code from '../shaders/matmul.wgsl?raw';
import { EngineError } from '../core/errors';
import { matmulLayout, type MatmulShape } from '../core/matmul';
import type { KernelContext } from './kernel-context';
import { bindBuffers } from './pipelines';

export const MATMUL_TILE = 64;

export interface MatmulArgs extends MatmulShape {
  a: GPUBuffer;
  b: GPUBuffer;
  /** output (read too when `accumulate`) */
  c: GPUBuffer;
  /** pass label for the timer (default 'matmul') */
  label?: string;
  /** uniform role (default 'matmul.params'; give distinct roles to products encoded into one encoder) */
  role?: string;
}

/** Workgroups of a product: (⌈n / 64⌉, ⌈m / 64⌉). */
export function matmulGrid(m: number, n: number): [number, number] {
  return [Math.ceil(n / MATMUL_TILE), Math.ceil(m / MATMUL_TILE)];
}

/** Encodes C = act(A·B) (+ C) into `encoder` as one compute pass. */
export function encodeMatmul(ctx: KernelContext, encoder: GPUCommandEncoder, args: MatmulArgs): void {
  const L = matmulLayout(args);
  if (L.m === 0 || L.n === 0) return;
  const [gx, gy] = matmulGrid(L.m, L.n);
  const maxDim = ctx.limits.maxComputeWorkgroupsPerDimension;
  if (gx > maxDim || gy > maxDim)
    throw new EngineError(
      'exceeds-limit',
      `matmul ${L.m}×${L.n} needs ${gx}×${gy} workgroups; this GPU allows ${maxDim} per dimension`,
    );
  const u = new Uint32Array([
    L.m,
    L.n,
    L.k,
    L.lda,
    L.ldb,
    L.ldc,
    L.offA,
    L.offB,
    L.offC,
    L.accumulate ? 1 : 0,
    L.relu ? 1 : 0,
    0,
  ]);
  const uniform = ctx.alloc.uniform(args.role ?? 'matmul.params', u);
  const pipeline = ctx.pipelines.pipeline('matmul', code, 'main');
  const pass = encoder.beginComputePass(ctx.timer.pass(args.label ?? 'matmul'));
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindBuffers(ctx.device, pipeline, [uniform, args.a, args.b, args.c], 'matmul'));
  pass.dispatchWorkgroups(gx, gy);
  pass.end();
}
