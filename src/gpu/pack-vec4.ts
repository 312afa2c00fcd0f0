/**
 * Dispatcher of pack-vec4.wgsl: rows padded to whole vec4s so kernels can read them as aligned
 * vec4f. A matrix whose width is already a multiple of 4 has that layout and is returned as is.
 */
import code from '../shaders/pack-vec4.wgsl?raw';
import type { KernelContext } from './kernel-context';
import { bindBuffers, dispatchGrid } from './pipelines';

/** Bytes of the padded rows×⌈cols/4⌉ vec4 layout. */
export function vec4Bytes(rows: number, cols: number): number {
  return rows * Math.ceil(cols / 4) * 16;
}

/** `src` (rows×cols f32) as rows of ⌈cols/4⌉ vec4s: `src` itself when 4 | cols, else a padded copy in buffer `role`. */
export function encodeVec4Rows(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  src: GPUBuffer,
  rows: number,
  cols: number,
  role: string,
): GPUBuffer {
  if (cols % 4 === 0) return src;
  const dst = ctx.alloc.storage(role, vec4Bytes(rows, cols));
  const total = rows * Math.ceil(cols / 4);
  const [gx, gy] = dispatchGrid(Math.ceil(total / 256), ctx.limits.maxComputeWorkgroupsPerDimension);
  const uniform = ctx.alloc.uniform(`${role}.params`, new Uint32Array([rows, cols, gx, 0]));
  const pipeline = ctx.pipelines.pipeline('pack-vec4', code, 'main');
  const pass = encoder.beginComputePass(ctx.timer.pass('pack-vec4'));
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindBuffers(ctx.device, pipeline, [uniform, src, dst], 'pack-vec4'));
  pass.dispatchWorkgroups(gx, gy);
  pass.end();
  return dst;
}
