// The training kernel pages' GPU (e2e/pages/train-{attention-kernels,dense-kernels,step}.ts): the
// page's one adapter and device, acquired once, and one untimed kernel context on it
// (src/gpu/kernel-context.ts `untimedKernelContext`: the device's pipeline cache, an allocator).
import { acquireGpu, type GpuContext } from '../../src/gpu/device';
import { untimedKernelContext, type KernelContext } from '../../src/gpu/kernel-context';

let gpuP: Promise<GpuContext> | null = null;

/** The page's GPU (throws with the reason when WebGPU is unavailable). */
export function pageGpu(): Promise<GpuContext> {
  gpuP ??= acquireGpu().then((a) => {
    if (!a.ok) throw new Error(a.reason);
    return a.gpu;
  });
  return gpuP;
}

let ctxP: Promise<KernelContext & { adapter: string }> | null = null;

/** One kernel context on the page's GPU, with the adapter's name. */
export function pageKernelContext(): Promise<KernelContext & { adapter: string }> {
  ctxP ??= pageGpu().then((g) => ({ ...untimedKernelContext(g.device), adapter: g.adapterName }));
  return ctxP;
}
