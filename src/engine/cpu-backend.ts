import type { AttentionBackend, AttentionJob, AttentionOutput, BackendInfo } from '../core/attention-job';
import { runAttentionJob } from '../core/cpu-attention';
import { EngineError } from '../core/errors';

/**
 * The CPU fallback: the src/core twins of every kernel, run inside the engine worker so the page
 * never blocks. `reason` says why WebGPU is not in use; the UI shows it.
 */
export function createCpuBackend(reason: string): AttentionBackend {
  const info: BackendInfo = { kind: 'cpu', reason };
  return {
    info,
    async run(job: AttentionJob, signal?: AbortSignal): Promise<AttentionOutput> {
      if (signal?.aborted) throw new EngineError('cancelled', 'superseded by a newer request');
      return runAttentionJob(job);
    },
    dispose() {},
  };
}
