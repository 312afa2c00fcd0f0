/**
 * An engine that starts its workers only when asked to (`start()`), for embeds: a post with four
 * figures should not spin up four engines — and, on the WebGPU path, compile four sets of pipelines —
 * for figures nobody has scrolled to yet. Until started, `started` stays pending, so the controller
 * sends nothing; afterwards every call goes to the real client.
 */
import type { BackendInfo } from '../core/attention-job';
import type { EngineClient } from '../engine/engine-client';
import type { EngineLike } from '../store/controller';

export interface LazyEngine extends EngineLike {
  start(): void;
  isStarted(): boolean;
}

export function createLazyEngine(create: () => EngineLike): LazyEngine {
  let real: EngineLike | null = null;
  let resolveStarted!: (b: BackendInfo) => void;
  const started = new Promise<BackendInfo>((r) => (resolveStarted = r));
  const listeners = new Set<(b: BackendInfo, why: string) => void>();
  const switchListeners = new Set<(b: BackendInfo, warming: boolean) => void>();

  function start(): EngineLike {
    if (!real) {
      real = create();
      real.onBackendChange((b, why) => listeners.forEach((cb) => cb(b, why)));
      real.onSwitch((b, warming) => switchListeners.forEach((cb) => cb(b, warming)));
      void real.started.then(resolveStarted);
    }
    return real;
  }

  return {
    started,
    start: () => void start(),
    isStarted: () => real !== null,
    backend: () => real?.backend() ?? null,
    warming: () => real?.warming() ?? false,
    calibration: () => real?.calibration() ?? null,
    onBackendChange(cb) {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    onSwitch(cb) {
      switchListeners.add(cb);
      return () => switchListeners.delete(cb);
    },
    compute: (req) => start().compute(req),
    cancel: () => real?.cancel() ?? false,
    analyze: <T>(op: string, payload: unknown, opts?: Parameters<EngineClient['analyze']>[2]) =>
      start().analyze<T>(op, payload, opts),
    exportState: (req, meta) => {
      const e = start();
      return e.exportState ? e.exportState(req, meta) : Promise.reject(new Error('this engine cannot export'));
    },
    // a trained head waits for the embed to start (on screen) instead of starting it
    heads: (req) =>
      started.then(() => {
        const e = start();
        return e.heads ? e.heads(req) : Promise.reject(new Error('this engine cannot run the trained models'));
      }),
    speed: (req, opts) => {
      const e = start();
      return e.speed ? e.speed(req, opts) : Promise.reject(new Error('this engine cannot time kernels'));
    },
  };
}

/** Calls `cb` once, the first time `el` intersects the viewport (at once where IntersectionObserver is missing). */
export function onFirstOnScreen(el: Element, cb: () => void): void {
  if (typeof IntersectionObserver === 'undefined') return cb();
  const io = new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    io.disconnect();
    cb();
  });
  io.observe(el);
}
