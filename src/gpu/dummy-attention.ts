/**
 * Dispatcher of dummy attention (src/shaders/dummy-attention.wgsl): reads Q, K, V, returns V —
 * the speed baseline of the benchmark (memory traffic only). CPU twin: the identity on V.
 */
import code from '../shaders/dummy-attention.wgsl?raw';
import type { KernelContext } from './kernel-context';
import { bindBuffers, dispatchGrid } from './pipelines';

export interface DummyAttentionArgs {
  n: number;
  d: number;
  q: GPUBuffer;
  k: GPUBuffer;
  v: GPUBuffer;
  /** output role (default 'dummy.out') */
  role?: string;
}

/** Encodes out = V (having read Q and K) into `encoder`; returns the n×d output buffer. */
export function encodeDummyAttention(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  args: DummyAttentionArgs,
): GPUBuffer {
  const role = args.role ?? 'dummy.out';
  const count = args.n * args.d;
  const out = ctx.alloc.storage(role, count * 4);
  const [gx, gy] = dispatchGrid(Math.ceil(count / 256), ctx.limits.maxComputeWorkgroupsPerDimension);
  const params = new ArrayBuffer(16);
  new Uint32Array(params).set([count, gx]);
  new Float32Array(params)[2] = 0; // the runtime zero
  const uniform = ctx.alloc.uniform(`${role}.params`, new Uint8Array(params));
  const pipeline = ctx.pipelines.pipeline('dummy-attention', code, 'main');
  const pass = encoder.beginComputePass(ctx.timer.pass('dummy-attention'));
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindBuffers(ctx.device, pipeline, [uniform, args.q, args.k, args.v, out], 'dummy-attention'));
  pass.dispatchWorkgroups(gx, gy);
  pass.end();
  return out;
}
