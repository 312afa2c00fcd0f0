import { describe, expect, it } from 'vitest';
import { GpuTimer } from './gpu-timer';

/** A queue that logs submissions and waits, and says how long the work before each wait took. */
function fakeDevice() {
  const log: string[] = [];
  const device = {
    createCommandEncoder: () => ({ finish: () => ({}) }),
    queue: {
      submit: () => log.push('submit'),
      onSubmittedWorkDone: () => {
        log.push('wait');
        return Promise.resolve();
      },
    },
  } as unknown as GPUDevice;
  return { device, log };
}

describe('GpuTimer.submitTimed without timestamps (wall time)', () => {
  it('waits for what is already queued before it starts the clock and submits, then waits for its own work', async () => {
    const { device, log } = fakeDevice();
    const timer = new GpuTimer(device, false);
    const r = await timer.submitTimed('k', () => log.push('encode'));
    // an analysis batch's GPU turn ends at its submission: without the first wait its remaining GPU
    // time would be counted as this kernel's
    expect(log).toEqual(['encode', 'wait', 'submit', 'wait']);
    expect(r.passes).toEqual([]);
    expect(r.ms).toBeGreaterThanOrEqual(0);
  });
});
