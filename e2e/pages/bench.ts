// In-page driver of e2e/bench.mjs: one WebGPU backend, and its `timeKernel` hook per point.
import { acquireGpu } from '../../src/gpu/device';
import type { KernelBenchOptions } from '../../src/gpu/kernel-bench';
import { createWebGpuBackend, type WebGpuBackend } from '../../src/gpu/webgpu-backend';

let backendP: Promise<WebGpuBackend> | null = null;
function backend(): Promise<WebGpuBackend> {
  backendP ??= acquireGpu().then((a) => {
    if (!a.ok) throw new Error(a.reason);
    return createWebGpuBackend(a.gpu);
  });
  return backendP;
}

const bench = {
  async info() {
    const b = await backend();
    const l = b.context.limits;
    return {
      adapter: b.info.adapter,
      timestamps: b.info.features.includes('timestamp-query'),
      workgroupStorage: l.maxComputeWorkgroupStorageSize,
      maxBinding: Math.min(l.maxStorageBufferBindingSize, l.maxBufferSize),
    };
  },
  async time(options: KernelBenchOptions) {
    const b = await backend();
    const t0 = performance.now();
    try {
      const r = await b.timeKernel(options);
      return { ok: true as const, ...r, wallMs: performance.now() - t0, live: b.stats() };
    } catch (e) {
      const err = e as { code?: string; message?: string };
      return { ok: false as const, code: err.code ?? 'error', message: err.message ?? String(e), wallMs: performance.now() - t0 };
    }
  },
};

(window as unknown as { bench: typeof bench }).bench = bench;
