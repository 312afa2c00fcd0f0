/**
 * Coalesces a stream of values to at most one delivery per animation frame, the latest winning.
 * A slider fires an input event for every pixel of a drag, often several per frame; each one set in
 * the store would re-render every subscriber and start a compute that the next event supersedes.
 * The slider pushes every value here and the store gets the newest one once per frame.
 */

export interface FrameScheduler {
  request(cb: () => void): number;
  cancel(handle: number): void;
}

/**
 * requestAnimationFrame, with a timer beside it: a hidden page runs no frames, and a value set
 * there must still arrive (whichever fires first delivers; the other finds nothing pending).
 */
const browserFrames: FrameScheduler = (() => {
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  return {
    request(cb) {
      const h = requestAnimationFrame(() => {
        clearTimeout(timers.get(h));
        timers.delete(h);
        cb();
      });
      timers.set(
        h,
        setTimeout(() => {
          cancelAnimationFrame(h);
          timers.delete(h);
          cb();
        }, 100),
      );
      return h;
    },
    cancel(h) {
      cancelAnimationFrame(h);
      clearTimeout(timers.get(h));
      timers.delete(h);
    },
  };
})();

export interface FrameCoalescer<T> {
  /** Remember `value`; it is delivered on the next frame unless a newer one replaces it first. */
  push(value: T): void;
  /** Deliver the pending value now (e.g. on release), if any. */
  flush(): void;
  /** Drop the pending value. */
  cancel(): void;
  /** The value waiting for the next frame, or undefined. */
  readonly pending: T | undefined;
}

export function createFrameCoalescer<T>(
  deliver: (value: T) => void,
  frames: FrameScheduler = browserFrames,
): FrameCoalescer<T> {
  let handle: number | null = null;
  let has = false;
  let latest: T | undefined;

  const take = (): void => {
    handle = null;
    if (!has) return;
    const v = latest as T;
    has = false;
    latest = undefined;
    deliver(v);
  };

  return {
    push(value) {
      latest = value;
      has = true;
      handle ??= frames.request(take);
    },
    flush() {
      if (handle !== null) frames.cancel(handle);
      take();
    },
    cancel() {
      if (handle !== null) frames.cancel(handle);
      handle = null;
      has = false;
      latest = undefined;
    },
    get pending() {
      return has ? latest : undefined;
    },
  };
}
