import { describe, expect, it } from 'vitest';
import { isEngineError } from '../core/errors';
import { withErrorScopes } from './error-scope';

/** A device whose scopes log when they are pushed and popped; `errors` are what the pops report (validation first). */
function fakeDevice(errors: (GPUError | null)[] = [null, null]) {
  const log: string[] = [];
  let pops = 0;
  const device = {
    pushErrorScope: (f: string) => log.push(`push ${f}`),
    popErrorScope: () => {
      log.push('pop');
      return Promise.resolve(errors[pops++] ?? null);
    },
  } as unknown as GPUDevice;
  return { device, log };
}

describe('withErrorScopes', () => {
  it('pops both scopes after the work when the work does not close them', async () => {
    const { device, log } = fakeDevice();
    const v = await withErrorScopes(device, 'job', async () => {
      log.push('work');
      return 7;
    });
    expect(v).toBe(7);
    expect(log).toEqual(['push out-of-memory', 'push validation', 'work', 'pop', 'pop']);
  });

  it('pops them at close(), before the rest of the work, and only once', async () => {
    const { device, log } = fakeDevice();
    await withErrorScopes(device, 'job', async (close) => {
      log.push('submit');
      close();
      close();
      await Promise.resolve();
      log.push('read back');
    });
    expect(log).toEqual(['push out-of-memory', 'push validation', 'submit', 'pop', 'pop', 'read back']);
  });

  it('a captured validation error becomes gpu-validation even when the work succeeded after closing', async () => {
    const { device } = fakeDevice([{ message: 'bad binding' } as GPUError, null]);
    const err = await withErrorScopes(device, 'job', async (close) => {
      close();
      return 1;
    }).catch((e: unknown) => e);
    expect(isEngineError(err) && err.code === 'gpu-validation' && err.message).toBe('job: bad binding');
  });

  it("a captured error outranks the work's own exception", async () => {
    const { device } = fakeDevice([null, { message: 'out of memory' } as GPUError]);
    const err = await withErrorScopes(device, 'job', async (close) => {
      close();
      throw new Error('mapAsync failed');
    }).catch((e: unknown) => e);
    expect(isEngineError(err) && err.code === 'gpu-validation' && err.detail).toEqual({ kind: 'out-of-memory' });
  });
});
