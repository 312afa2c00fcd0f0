import { EngineError } from '../core/errors';

/**
 * Run `work` inside validation and out-of-memory error scopes and turn any captured GPU error into a
 * typed EngineError, so a bad shape or an allocation the device cannot satisfy surfaces as a
 * message instead of a silent, zero-filled result.
 */
export async function withErrorScopes<T>(device: GPUDevice, label: string, work: () => Promise<T> | T): Promise<T> {
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  let result: T;
  try {
    result = await work();
  } finally {
    const validation = await device.popErrorScope();
    const oom = await device.popErrorScope();
    const err = validation ?? oom;
    if (err) {
      throw new EngineError('gpu-validation', `${label}: ${err.message}`, {
        kind: validation ? 'validation' : 'out-of-memory',
      });
    }
  }
  return result;
}
