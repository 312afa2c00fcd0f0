/**
 * Shared plumbing of the training attention dispatchers (softmax-attention.ts, feature-maps.ts,
 * linear-attention.ts): strided tensor views, bind groups by explicit binding number, the 2-D
 * split of long 1-D grids, and the size checks against the device limits.
 *
 * Why explicit binding numbers: one WGSL file holds several entry points (forward, backward, the
 * reductions) that use different subsets of its bindings, and a pipeline's 'auto' layout lists only
 * the bindings its entry point statically uses, so each pass binds exactly those.
 */
import { EngineError } from '../../core/errors';
import type { KernelContext } from '../kernel-context';
import { dispatchGrid } from '../pipelines';

/**
 * A row-major matrix inside a buffer: element (r, c) is at `offset + r·stride + c` (in f32
 * elements). A bare buffer is the dense matrix (offset 0, stride = its column count). Views let the
 * trainer read Q, K, V out of one fused (B·L)×3D projection and write dQ, dK, dV into one gradient
 * buffer, and read parameters out of one flat parameter buffer, without copies.
 */
export type View = GPUBuffer | { buffer: GPUBuffer; offset?: number; stride?: number };

export interface ResolvedView {
  buffer: GPUBuffer;
  offset: number;
  stride: number;
}

export function resolveView(v: View, cols: number): ResolvedView {
  // a GPUBuffer has no `buffer` property; a view object does
  if ('buffer' in v) return { buffer: v.buffer, offset: v.offset ?? 0, stride: v.stride ?? cols };
  return { buffer: v, offset: 0, stride: cols };
}

/** Bind group 0 with `entries` [binding, buffer] (only the bindings the entry point uses). */
export function bindAt(
  ctx: KernelContext,
  pipeline: GPUComputePipeline,
  entries: readonly (readonly [number, GPUBuffer])[],
  label: string,
): GPUBindGroup {
  return ctx.device.createBindGroup({
    label,
    layout: pipeline.getBindGroupLayout(0),
    entries: entries.map(([binding, buffer]) => ({ binding, resource: { buffer } })),
  });
}

/** Workgroups of a 1-D grid of `groups`, split over (x, y); x is passed to the shader as `gx`. */
export function grid(ctx: KernelContext, groups: number, what: string): [number, number] {
  const maxDim = ctx.limits.maxComputeWorkgroupsPerDimension;
  const [gx, gy] = dispatchGrid(groups, maxDim);
  if (gy > maxDim) throw new EngineError('exceeds-limit', `${what} needs ${groups} workgroups; too many for this GPU`);
  return [gx, gy];
}

/** Throws when a buffer of `floats` f32 would exceed the device's storage binding size. */
export function checkBinding(ctx: KernelContext, floats: number, what: string): void {
  const bytes = floats * 4;
  const max = Math.min(ctx.limits.maxStorageBufferBindingSize, ctx.limits.maxBufferSize);
  if (bytes > max)
    throw new EngineError(
      'exceeds-limit',
      `${what} needs ${(bytes / 2 ** 20).toFixed(1)} MiB; this GPU binds at most ${(max / 2 ** 20).toFixed(0)} MiB`,
    );
}

/** A tiny storage buffer bound where an entry point declares a binding the current map does not read. */
export function dummy(ctx: KernelContext): GPUBuffer {
  return ctx.alloc.storage('train.attn.dummy', 16);
}

/**
 * The same for a read_write binding: a separate buffer, since one buffer bound both read-only and
 * writable in one dispatch fails validation.
 */
export function dummyRw(ctx: KernelContext): GPUBuffer {
  return ctx.alloc.storage('train.attn.dummy.rw', 16);
}

/** One compute pass: pipeline, bind group, dispatch. */
export function pass(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  label: string,
  pipeline: GPUComputePipeline,
  bind: GPUBindGroup,
  [gx, gy]: [number, number],
): void {
  const p = encoder.beginComputePass(ctx.timer.pass(label));
  p.setPipeline(pipeline);
  p.setBindGroup(0, bind);
  p.dispatchWorkgroups(gx, gy);
  p.end();
}

/** Uniform words: u32 values, f32 values stored by bit pattern (the WGSL side bitcasts or declares f32). */
export function words(values: readonly (number | { f32: number })[]): Uint32Array {
  const u = new Uint32Array(Math.ceil(values.length / 4) * 4);
  const f = new Float32Array(u.buffer);
  values.forEach((v, i) => {
    if (typeof v === 'number') u[i] = v;
    else f[i] = v.f32;
  });
  return u;
}

/**
 * The variant of a shader in which the writable storage variable `from` is the variable `to`
 * (its declaration dropped, its uses renamed). WebGPU rejects one buffer bound to two writable
 * bindings of one dispatch, but the trainer keeps gradients in one buffer (dK and dV of a fused
 * dQKV, dWh and dbh of one flat gradient buffer): when the two views share a buffer the dispatcher
 * compiles this variant and binds the buffer once.
 */
export function aliasWritable(code: string, from: string, to: string): string {
  const decl = new RegExp(`^@group\\(0\\) @binding\\(\\d+\\) var<storage, read_write> ${from}: array<f32>;\\n`, 'm');
  if (!decl.test(code)) throw new Error(`aliasWritable: no declaration of ${from}`);
  return code.replace(decl, '').replace(new RegExp(`\\b${from}\\[`, 'g'), `${to}[`);
}
