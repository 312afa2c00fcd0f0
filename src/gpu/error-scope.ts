import { EngineError } from '../core/errors';

/**
 * Run `work` inside validation and out-of-memory error scopes and turn any captured GPU error into a
 * typed EngineError, so a bad shape or an allocation the device cannot satisfy surfaces as a
 * message instead of a silent, zero-filled result.
 */
export async function withErrorScopes<T>(device: GPUDevice, label: string, work: () => Promise<T> | T): Promise<T> {
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  // A GPU error outranks the work's own exception (it is usually its cause), so both scopes are
  // popped before either is rethrown.
  let outcome: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    outcome = { ok: true, value: await work() };
  } catch (error) {
    outcome = { ok: false, error };
  }
  // both popped in one go (the stack order is fixed at the call): one round trip to the GPU process, not two
  const [validation, oom] = await Promise.all([device.popErrorScope(), device.popErrorScope()]);
  const err = validation ?? oom;
  if (err) {
    throw new EngineError('gpu-validation', `${label}: ${err.message}`, {
      kind: validation ? 'validation' : 'out-of-memory',
    });
  }
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}
