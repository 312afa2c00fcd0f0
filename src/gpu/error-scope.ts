import { EngineError } from '../core/errors';

/**
 * Run `work` inside validation and out-of-memory error scopes and turn any captured GPU error into a
 * typed EngineError, so a bad shape or an allocation the device cannot satisfy surfaces as a
 * message instead of a silent, zero-filled result.
 *
 * `work` may close the scopes early (`close()`, once its last GPU call is made, e.g. right after the
 * submit and the mapAsync of its read-back): their round trip to the GPU process then overlaps the
 * GPU's work and the read-back instead of following them — on a software adapter, with the cores
 * shared, that round trip cost several ms after every live job. Calls after `close()` are outside
 * the scopes (their errors go to the device's uncaptured-error event; a rejected mapAsync or a
 * throwing getMappedRange still reaches `work` itself).
 */
export async function withErrorScopes<T>(
  device: GPUDevice,
  label: string,
  work: (close: () => void) => Promise<T> | T,
): Promise<T> {
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  // both popped in one go (the stack order is fixed at the call): one round trip to the GPU process, not two
  let popped: Promise<[GPUError | null, GPUError | null]> | null = null;
  const close = (): void => {
    popped ??= Promise.all([device.popErrorScope(), device.popErrorScope()]);
  };
  // A GPU error outranks the work's own exception (it is usually its cause), so both scopes are
  // popped before either is rethrown.
  let outcome: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    outcome = { ok: true, value: await work(close) };
  } catch (error) {
    outcome = { ok: false, error };
  }
  close();
  const [validation, oom] = await popped!;
  const err = validation ?? oom;
  if (err) {
    throw new EngineError('gpu-validation', `${label}: ${err.message}`, {
      kind: validation ? 'validation' : 'out-of-memory',
    });
  }
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}
