/**
 * The engine side of a speed run: picks the runner for the backend the worker holds (WebGPU: the
 * dispatchers timed on the GPU; CPU fallback: the CPU twins timed in this worker) and runs the
 * shared sweep loop (src/core/speed-run.ts) with progress and cancellation.
 */
import type { BackendInfo } from '../core/attention-job';
import { createCpuSpeedBackend } from '../core/speed-cpu';
import type { SpeedProgress, SpeedRequest, SpeedResult } from '../core/speed-model';
import { runSpeedSweep } from '../core/speed-run';
import { EngineError } from '../core/errors';
import type { KernelContext } from '../gpu/kernel-context';
import { createGpuSpeedBackend, type GpuLock } from '../gpu/speed-runner';

export function checkSpeedRequest(r: SpeedRequest): void {
  const int = (v: number, lo: number, hi: number) => Number.isInteger(v) && v >= lo && v <= hi;
  if (!int(r.d, 1, 256) || !int(r.m, 1, 4096) || !(r.budgetMs > 0 && r.budgetMs <= 600_000)) {
    throw new EngineError(
      'invalid-size',
      `speed run: d = ${r.d} (1–256), m = ${r.m} (1–4096), budget = ${r.budgetMs} ms (≤ 10 min)`,
    );
  }
}

export async function runSpeed(
  request: SpeedRequest,
  backend: BackendInfo,
  gpu: { context: KernelContext; lock: GpuLock } | null,
  signal: AbortSignal,
  onProgress: (p: SpeedProgress) => void,
): Promise<SpeedResult> {
  checkSpeedRequest(request);
  const hooks = {
    onProgress,
    cancelled: () => signal.aborted,
    breathe: () => new Promise<void>((r) => setTimeout(r, 0)),
  };
  if (backend.kind === 'webgpu' && gpu) {
    const be = createGpuSpeedBackend(gpu.context, backend.adapter, request.d, request.m, gpu.lock);
    try {
      return await runSpeedSweep(request, be, hooks);
    } finally {
      be.dispose();
    }
  }
  const reason = backend.kind === 'cpu' ? backend.reason : 'CPU';
  return runSpeedSweep(request, createCpuSpeedBackend(reason, request.d, request.m), hooks);
}
