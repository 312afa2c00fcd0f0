import { GpuAllocator } from './allocator';
import { GpuTimer } from './gpu-timer';
import { pipelineCacheFor, type PipelineCache } from './pipelines';

/**
 * What every kernel dispatcher receives: the device, the pipeline cache, the allocator that owns
 * every buffer, and the timer that labels compute passes. Dispatchers encode passes into the given
 * encoder (one compute pass per kernel, created via `timer.pass(label)`) and return the buffers
 * they produced; they never submit or read back themselves, so the backend can batch a whole job
 * into one submission (or time kernels one by one).
 */
export interface KernelContext {
  device: GPUDevice;
  pipelines: PipelineCache;
  alloc: GpuAllocator;
  timer: GpuTimer;
  limits: GPUSupportedLimits;
}

/**
 * A context with its own allocator, no timestamp queries, and the device's one pipeline cache (so a
 * second trainer or test page on the device compiles nothing): the GPU trainer's and the kernel
 * test pages'.
 */
export function untimedKernelContext(device: GPUDevice): KernelContext {
  return {
    device,
    pipelines: pipelineCacheFor(device),
    alloc: new GpuAllocator(device),
    timer: new GpuTimer(device, false),
    limits: device.limits,
  };
}
