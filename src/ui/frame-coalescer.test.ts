import { describe, expect, it } from 'vitest';
import { createFrameCoalescer, type FrameScheduler } from './frame-coalescer';

/** A fake requestAnimationFrame: callbacks wait until `frame()` runs them. */
function fakeFrames() {
  let next = 1;
  const queue = new Map<number, () => void>();
  const frames: FrameScheduler = {
    request(cb) {
      queue.set(next, cb);
      return next++;
    },
    cancel(h) {
      queue.delete(h);
    },
  };
  return {
    frames,
    get scheduled() {
      return queue.size;
    },
    frame() {
      const cbs = [...queue.values()];
      queue.clear();
      for (const cb of cbs) cb();
    },
  };
}

describe('createFrameCoalescer', () => {
  it('delivers one value per frame, the latest pushed', () => {
    const raf = fakeFrames();
    const got: number[] = [];
    const c = createFrameCoalescer<number>((v) => got.push(v), raf.frames);
    c.push(1);
    c.push(2);
    c.push(3);
    expect(got).toEqual([]);
    expect(raf.scheduled).toBe(1);
    expect(c.pending).toBe(3);
    raf.frame();
    expect(got).toEqual([3]);
    c.push(4);
    c.push(5);
    raf.frame();
    expect(got).toEqual([3, 5]);
  });

  it('delivers nothing on a frame without a new value', () => {
    const raf = fakeFrames();
    const got: number[] = [];
    const c = createFrameCoalescer<number>((v) => got.push(v), raf.frames);
    c.push(1);
    raf.frame();
    raf.frame();
    expect(got).toEqual([1]);
    expect(raf.scheduled).toBe(0);
    expect(c.pending).toBeUndefined();
  });

  it('flush delivers the pending value at once and cancels its frame', () => {
    const raf = fakeFrames();
    const got: number[] = [];
    const c = createFrameCoalescer<number>((v) => got.push(v), raf.frames);
    c.push(7);
    c.push(8);
    c.flush();
    expect(got).toEqual([8]);
    expect(raf.scheduled).toBe(0);
    c.flush();
    raf.frame();
    expect(got).toEqual([8]);
  });

  it('cancel drops the pending value', () => {
    const raf = fakeFrames();
    const got: number[] = [];
    const c = createFrameCoalescer<number>((v) => got.push(v), raf.frames);
    c.push(1);
    c.cancel();
    raf.frame();
    expect(got).toEqual([]);
    c.push(2);
    raf.frame();
    expect(got).toEqual([2]);
  });
});
