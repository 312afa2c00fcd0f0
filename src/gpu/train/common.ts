/**
 * Shared plumbing of the training kernels' dispatchers (src/gpu/train/*.ts, shaders
 * src/shaders/train-*.wgsl): buffer views, the packed uniform, one compute pass per call.
 *
 * Why hand-written WGSL and not an autograd library: the graph of the tiny transformer is fixed
 * (about ten kernels, each with a hand-derived backward), the kernels must share the explainer's
 * feature-map math, and every kernel needs a CPU twin in src/core/train for the kernel-vs-twin and
 * finite-difference tests — @jax-js/jax 0.1.x is young and large and brings no twins, tfjs is
 * unmaintained.
 *
 * Tensors are bound as views: a whole buffer, or a range of one (the trainer keeps all parameters,
 * gradients and Adam moments in flat buffers whose tensors start at 256-byte boundaries, the
 * default minStorageBufferOffsetAlignment, so a tensor binds in place).
 */
import { EngineError } from '../../core/errors';
import type { KernelContext } from '../kernel-context';
import { dispatchGrid } from '../pipelines';

/** A tensor on the GPU: a whole buffer, or `size` bytes of it from `offset` (256-byte aligned). */
export type BufView = GPUBuffer | { buffer: GPUBuffer; offset: number; size: number };

/** Uniform block of `u` u32 fields followed by `f` f32 fields, padded to 16 bytes. */
export function packParams(u: readonly number[], f: readonly number[] = []): Uint32Array {
  const n = Math.max(4, Math.ceil((u.length + f.length) / 4) * 4);
  const out = new Uint32Array(n);
  out.set(u.map((x) => x >>> 0));
  new Float32Array(out.buffer, u.length * 4, f.length).set(f);
  return out;
}

export interface PassCall {
  /** shader label (pipeline-cache key) and its source */
  shader: string;
  code: string;
  entry: string;
  /** uniform role (the allocator's key; distinct per call within one encoder) */
  role: string;
  params: Uint32Array;
  /**
   * storage views at bindings 1, 2, … (binding 0 is the uniform); null leaves a binding out (an entry
   * point that does not use it: 'auto' layouts hold only the bindings an entry point uses)
   */
  views: readonly (BufView | null)[];
  /** workgroups; a 1-D count over the limit is folded into (x, y) (kernels read wg.y·nx + wg.x) */
  groups: number;
  /** an explicit 2-D grid instead of `groups` */
  grid?: [number, number];
  /** timer label (default: shader:entry) */
  label?: string;
}

function resource(v: BufView): GPUBufferBinding {
  return 'offset' in v ? v : { buffer: v };
}

/** Encodes one compute pass: uniform at binding 0, the views after it, a 1-D grid of workgroups. */
export function encodePass(ctx: KernelContext, encoder: GPUCommandEncoder, c: PassCall): void {
  const maxDim = ctx.limits.maxComputeWorkgroupsPerDimension;
  const [gx, gy] = c.grid ?? dispatchGrid(c.groups, maxDim);
  if (gx <= 0 || gy <= 0 || c.groups <= 0) return;
  if (gy > maxDim || gx > maxDim)
    throw new EngineError('exceeds-limit', `${c.shader}: ${c.groups} workgroups exceed this GPU's limit`);
  const uniform = ctx.alloc.uniform(c.role, c.params);
  const pipeline = ctx.pipelines.pipeline(c.shader, c.code, c.entry);
  const bind = ctx.device.createBindGroup({
    label: `${c.shader}:${c.entry}`,
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: { buffer: uniform } },
      ...c.views.flatMap((v, i) => (v ? [{ binding: i + 1, resource: resource(v) }] : [])),
    ],
  });
  const pass = encoder.beginComputePass(ctx.timer.pass(c.label ?? `${c.shader}:${c.entry}`));
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bind);
  pass.dispatchWorkgroups(gx, gy);
  pass.end();
}

/** Workgroups along x of the folded grid (the kernels' `nx`, passed in their uniform). */
export function gridX(groups: number, ctx: KernelContext): number {
  return dispatchGrid(Math.max(1, groups), ctx.limits.maxComputeWorkgroupsPerDimension)[0];
}

/**
 * A small zero buffer for bindings an entry point declares but a call does not use (a read-only
 * alias of the output would conflict with its writable binding within one dispatch).
 */
export function dummyView(ctx: KernelContext): GPUBuffer {
  return ctx.alloc.storage('train.dummy', 256);
}

/** A small read-write buffer for a writable binding a call does not use (distinct from dummyView). */
export function dummyRw(ctx: KernelContext): GPUBuffer {
  return ctx.alloc.storage('train.dummy.rw', 256);
}
