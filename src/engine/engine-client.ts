/**
 * The main-thread face of the engine: workers behind one small API. `compute` is latest-wins by
 * construction — each call supersedes the previous one, whose promise rejects with an EngineError
 * 'cancelled' — so a stale result can never overwrite a newer one. `analyze` runs the panels'
 * sweeps and spectra in a pool of analysis workers (one per core, up to 3; src/engine/analysis-pool.ts)
 * with one priority queue, progress and cancellation.
 *
 * First numbers fast: the engine worker that will use WebGPU (the primary) first compiles its
 * pipelines, which takes seconds on a software adapter. Until it is ready, a second engine worker
 * forced onto the CPU twins (the stand-in) answers the computes; then the primary takes over, the
 * stand-in is closed and `onSwitch` tells the page, which recomputes on WebGPU. `cancel` really
 * stops a run: a CPU worker is terminated and replaced (the twins cannot be interrupted
 * mid-pass); a WebGPU run is aborted between passes, and its worker replaced (with the CPU stand-in
 * serving again) if it has not stopped shortly after. The requests in flight, and how a replaced
 * worker's unanswered ones move to its successor, are worker-requests.ts's.
 */
import type { BackendInfo } from '../core/attention-job';
import { EngineError } from '../core/errors';
import type {
  ComputeRequest,
  ComputeResult,
  EngineRequestMessage,
  EngineResponseMessage,
  HeadsResult,
  RateSample,
} from './protocol';
import type { SpeedResult } from '../core/speed-model';
import type { AnalyzeOptions, EngineClient, EngineStats } from './engine-api';
import { isEngineOp, runsOnGpu } from './analysis/types';
import { analysisPoolSize, createAnalysisPool } from './analysis-pool';
import { runSharded, shardSpec } from './analysis/shards';
import { createWorkerRequests } from './worker-requests';

export type { AnalyzeOptions, EngineClient, EngineStats, SpeedOptions } from './engine-api';

/**
 * Analysis jobs wait while a live compute is in flight, at most this long: the main comparison
 * is the figure the user is looking at, and on a machine with few cores the sweeps that a step
 * starts would otherwise share the cores with it (a software adapter's GPU is those cores too).
 */
export const COMPUTE_FIRST_MS = 300;

/** How long an aborted WebGPU run may take to stop before its worker is replaced. */
export const GPU_CANCEL_GRACE_MS = 3_000;
const STAND_IN_REASON = 'WebGPU is starting; the CPU computes meanwhile';

export function createEngineClient(
  options: {
    forceCpu?: boolean;
    /** the GPU analyses on a software adapter too (tests of that path; see runsOnGpu) */
    gpuAnalysesOnSoftware?: boolean;
  } = {},
): EngineClient {
  const forceCpu = options.forceCpu ?? false;
  const gpuAnalysesOnSoftware = options.gpuAnalysesOnSoftware ?? false;
  type PoolJob = { id: number; priority: number; msg: EngineRequestMessage };
  const poolSize = analysisPoolSize(typeof navigator === 'undefined' ? undefined : navigator.hardwareConcurrency);
  const pool = createAnalysisPool<Worker, PoolJob>({
    size: poolSize,
    spawn: spawnAnalysis,
    send: (w, job) => {
      const p = pending.get(job.id);
      if (!p) return pool.finished(job.id);
      p.worker = w;
      w.postMessage(job.msg);
    },
  });
  const pending = createWorkerRequests<Worker>();
  const listeners = new Set<(b: BackendInfo, why: string) => void>();
  const switchListeners = new Set<(b: BackendInfo, warming: boolean) => void>();
  let nextId = 1;
  let latestCompute = 0;
  let disposed = false;

  /** The settled engine (WebGPU or the CPU fallback) and its state. */
  let primary!: Worker;
  let primaryInfo: BackendInfo | null = null;
  let calibrationSample: RateSample | null = null;
  /** The CPU stand-in while the primary warms up (null when none is needed or it was closed). */
  let standIn: Worker | null = null;
  let standInInfo: BackendInfo | null = null;
  /** Whether a primary has been ready before (a later stand-in is a restart, not the start). */
  let settledOnce = false;
  /** Last compute request, handed to a (re)starting primary so it warms up the right pipelines. */
  let lastRequest: ComputeRequest | null = null;
  /** Releases the analysis pool if the compute in flight has not answered by then (COMPUTE_FIRST_MS). */
  let holdTimer: ReturnType<typeof setTimeout> | undefined;
  function holdPool(): void {
    pool.hold(true);
    clearTimeout(holdTimer);
    holdTimer = setTimeout(() => pool.hold(false), COMPUTE_FIRST_MS);
  }
  function releasePool(id: number): void {
    if (id !== latestCompute) return;
    clearTimeout(holdTimer);
    pool.hold(false);
  }
  /** Aborted WebGPU runs still running: the timer replaces the worker if they do not stop. */
  const abandoned = new Map<number, ReturnType<typeof setTimeout>>();

  let resolveReady!: (b: BackendInfo) => void;
  const ready = new Promise<BackendInfo>((r) => (resolveReady = r));
  let resolveStarted!: (b: BackendInfo) => void;
  const started = new Promise<BackendInfo>((r) => (resolveStarted = r));

  const current = (): BackendInfo | null => primaryInfo ?? standInInfo;

  function onMessageFrom(w: Worker) {
    return (ev: MessageEvent<EngineResponseMessage>) => {
      const msg = ev.data;
      switch (msg.type) {
        case 'ready':
          // (a stand-in promoted to primary before its own 'ready' is already settled)
          if (w === primary && !primaryInfo) {
            calibrationSample = msg.calibration ?? null;
            primaryReady(msg.backend);
          } else if (w === standIn) {
            standInInfo = msg.backend;
            resolveStarted(msg.backend);
            // the stand-in is back while a replaced WebGPU worker warms up (after a cancel)
            if (settledOnce) switchListeners.forEach((cb) => cb(msg.backend, true));
          }
          return;
        case 'backend-changed':
          if (w !== primary) return;
          primaryInfo = msg.backend;
          listeners.forEach((cb) => cb(msg.backend, msg.why));
          return;
        case 'progress':
        case 'speed-progress':
          pending.progress(msg);
          return;
        default: {
          const timer = abandoned.get(msg.id);
          if (timer !== undefined) {
            clearTimeout(timer);
            abandoned.delete(msg.id);
          }
          if (pending.answer(msg)?.pooled) pool.finished(msg.id);
        }
      }
    };
  }

  function spawn(name: string, init: EngineRequestMessage): Worker {
    const w = new Worker(new URL('./engine-worker.ts', import.meta.url), { type: 'module', name });
    w.onmessage = onMessageFrom(w);
    const crash = (ev: ErrorEvent | MessageEvent) => {
      const message = ev instanceof ErrorEvent ? ev.message : 'message could not be deserialized';
      pending.rejectWhere(w, new EngineError('internal', `engine worker failed: ${message}`));
    };
    w.onerror = crash;
    w.onmessageerror = crash;
    w.postMessage(init);
    return w;
  }

  function startPrimary(): void {
    primaryInfo = null;
    primary = spawn('attention-engine', { type: 'init', forceCpu, warmup: !forceCpu });
    if (lastRequest) primary.postMessage({ type: 'warmup', request: lastRequest } satisfies EngineRequestMessage);
  }

  function startStandIn(): void {
    standInInfo = null;
    standIn = spawn('attention-engine-cpu', { type: 'init', forceCpu: true, cpuReason: STAND_IN_REASON });
  }

  function primaryReady(info: BackendInfo): void {
    primaryInfo = info;
    settledOnce = true;
    resolveReady(info);
    resolveStarted(info);
    if (!standIn) return;
    if (info.kind === 'cpu') {
      // No WebGPU after all: the stand-in runs the same CPU twins and may be halfway through the
      // first result, so it carries on as the settled engine and the new worker goes — with what
      // was sent to it while it started (an engine op, stats), else those would never be answered.
      const old = primary;
      old.terminate();
      primary = standIn;
      standIn = null;
      standInInfo = null;
      pending.resend(old, primary);
      switchListeners.forEach((cb) => cb(info, false));
      return;
    }
    // The stand-in's unfinished computes are superseded by the settled backend; the page recomputes
    // what it needs (the listeners hear of the switch before the rejections arrive). Anything else
    // it was asked (an export the user clicked while WebGPU warmed up) is asked of the primary.
    const old = standIn;
    standIn = null;
    standInInfo = null;
    old.terminate();
    switchListeners.forEach((cb) => cb(info, false));
    pending.rejectWhere(
      old,
      new EngineError('cancelled', 'superseded: the settled backend is ready'),
      (p) => !!p.request,
    );
    pending.resend(old, primary);
  }

  /** The worker the next compute goes to. */
  const active = (): Worker => (primaryInfo || !standIn ? primary : standIn);

  startPrimary();
  // A stand-in only pays off where WebGPU may come up (navigator.gpu exists) and is not excluded.
  if (!forceCpu && typeof navigator !== 'undefined' && 'gpu' in navigator) startStandIn();

  function spawnAnalysis(): Worker {
    const w = new Worker(new URL('./analysis-worker.ts', import.meta.url), {
      type: 'module',
      name: 'attention-analysis',
    });
    w.onmessage = onMessageFrom(w);
    w.onerror = (ev) => {
      // its jobs fail; the next ones go to the other workers or a fresh one
      pool.remove(w);
      pending.rejectWhere(w, new EngineError('internal', `analysis worker failed: ${ev.message}`));
      w.terminate();
    };
    return w;
  }

  /** One analysis job on the pool: queued, sent when a worker is free; an abort drops it or stops it. */
  function pooled<T>(
    id: number,
    op: string,
    payload: unknown,
    priority: number,
    onProgress: AnalyzeOptions['onProgress'],
    signal: AbortSignal | undefined,
    onRunMs?: AnalyzeOptions['onRunMs'],
  ): Promise<T> {
    if (signal?.aborted) return Promise.reject(new EngineError('cancelled', 'cancelled'));
    return new Promise<T>((resolve, reject) => {
      pending.add(id, { resolve: resolve as (v: never) => void, reject, onProgress, onRunMs, pooled: true });
      pool.submit({ id, priority, msg: { type: 'analyze', id, op, payload, priority } });
      signal?.addEventListener(
        'abort',
        () => {
          const where = pool.cancel(id);
          if (where && 'worker' in where) {
            where.worker.postMessage({ type: 'cancel', id } satisfies EngineRequestMessage);
          } else if (where?.dropped && pending.remove(id)) {
            // never sent: answered here as the worker would
            reject(new EngineError('cancelled', 'cancelled'));
          }
        },
        { once: true },
      );
    });
  }

  /**
   * Replaces a CPU worker whose run cannot be interrupted. The cancelled compute is no longer
   * pending; what else was sent to the worker (an engine op such as the estimators' timing, an
   * export) goes on in the replacement rather than being dropped unanswered.
   */
  function restart(worker: Worker): void {
    worker.terminate();
    if (worker === standIn) {
      startStandIn();
      if (standIn) pending.resend(worker, standIn);
    } else if (worker === primary) {
      const info = primaryInfo;
      startPrimary();
      // A CPU primary comes back at once; until then the old info still describes it.
      primaryInfo = info?.kind === 'cpu' ? info : null;
      pending.resend(worker, primary);
    } else pending.rejectWhere(worker, new EngineError('cancelled', 'cancelled'));
  }

  /** The WebGPU worker did not stop: replace it, with the CPU stand-in serving while it warms up. */
  function restartGpu(): void {
    if (disposed) return;
    const old = primary;
    old.terminate();
    startStandIn();
    startPrimary();
    // Requests queued behind the run that would not stop go to the stand-in instead.
    for (const [id, p] of pending.heldBy(old)) {
      if (p.request && standIn) {
        p.worker = standIn;
        standIn.postMessage({ type: 'compute', id, request: p.request } satisfies EngineRequestMessage);
      } else pending.reject(id, new EngineError('cancelled', 'the WebGPU worker was replaced'));
    }
  }

  return {
    ready,
    started,
    backend: current,
    warming: () => primaryInfo === null && standIn !== null,
    calibration: () => calibrationSample,
    onBackendChange(cb) {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    onSwitch(cb) {
      switchListeners.add(cb);
      return () => switchListeners.delete(cb);
    },
    compute(req) {
      const id = nextId++;
      // The worker also answers superseded requests with 'cancelled'; rejecting here as well
      // keeps the guarantee even if a message were lost.
      const prev = pending.reject(latestCompute, new EngineError('cancelled', 'superseded by a newer request'));
      if (prev) {
        // the worker drops a superseded request itself when it sees the newer one
        if (prev.worker && prev.worker !== active())
          prev.worker.postMessage({ type: 'cancel', id: latestCompute } satisfies EngineRequestMessage);
      }
      latestCompute = id;
      lastRequest = req;
      if (!primaryInfo && standIn) primary.postMessage({ type: 'warmup', request: req } satisfies EngineRequestMessage);
      holdPool();
      const run = pending.send<ComputeResult>(active(), { type: 'compute', id, request: req }, { request: req });
      const release = () => releasePool(id);
      run.then(release, release);
      return run;
    },
    cancel() {
      const id = latestCompute;
      const w = pending.get(id)?.worker;
      if (!w) return false;
      pending.reject(id, new EngineError('cancelled', 'cancelled by the user', { byUser: true }));
      const onGpu = w === primary && primaryInfo?.kind === 'webgpu';
      if (!onGpu) {
        restart(w);
        return true;
      }
      w.postMessage({ type: 'cancel', id } satisfies EngineRequestMessage);
      abandoned.set(
        id,
        setTimeout(() => {
          abandoned.delete(id);
          if (w === primary) restartGpu();
        }, GPU_CANCEL_GRACE_MS),
      );
      return true;
    },
    analyze<T>(op: string, payload: unknown, opts: AnalyzeOptions = {}) {
      if (opts.signal?.aborted) return Promise.reject(new EngineError('cancelled', 'cancelled'));
      const priority = opts.priority ?? 0;
      // ops that time the live backend run in the engine worker; so do the GPU analyses once the
      // settled backend is WebGPU on a hardware adapter (on the GPU, between live computes:
      // runsOnGpu); the rest, and all of them without WebGPU (or while it warms up, or on a
      // software adapter), on the CPU twins in the analysis pool
      if (isEngineOp(op) || runsOnGpu(op, primaryInfo, gpuAnalysesOnSoftware)) {
        const id = nextId++;
        opts.signal?.addEventListener('abort', () => pending.cancelOnWorker(id), { once: true });
        // sent soon: the analyses asked in this task reach the worker as one batch, ordered there by priority
        return pending.sendSoon<T>(
          primary,
          { type: 'analyze', id, op, payload, priority },
          { onProgress: opts.onProgress, onRunMs: opts.onRunMs },
        );
      }
      // a sweep that splits over its grid runs as shards on the pool's workers side by side
      const spec = poolSize > 1 ? shardSpec(op) : null;
      const part = (p: unknown, onProgress: AnalyzeOptions['onProgress'], signal: AbortSignal | undefined) =>
        pooled<T>(nextId++, op, p, priority, onProgress, signal);
      return spec
        ? runSharded<T>(spec, payload, poolSize, part, opts)
        : pooled<T>(nextId++, op, payload, priority, opts.onProgress, opts.signal, opts.onRunMs);
    },
    stats() {
      const id = nextId++;
      return pending.send<EngineStats>(primary, { type: 'stats', id });
    },
    exportState(req, meta) {
      const id = nextId++;
      // dense CPU-twin matrices: whichever engine worker computes now (the stand-in while WebGPU warms up)
      return pending.send<string>(active(), { type: 'export', id, request: req, meta });
    },
    speed(req, opts = {}) {
      const id = nextId++;
      if (opts.signal?.aborted) return Promise.reject(new EngineError('cancelled', 'cancelled'));
      // timed on the settled backend (the primary), never on the CPU stand-in
      // the worker checks between points (a CPU point may run 2.5 s on): the caller hears 'cancelled' now
      opts.signal?.addEventListener('abort', () => pending.cancelOnWorker(id, { now: true }), { once: true });
      return pending.send<SpeedResult>(primary, { type: 'speed', id, request: req }, { onSpeed: opts.onProgress });
    },
    heads(req) {
      const id = nextId++;
      // on the settled backend, so a WebGPU page computes the head with WGSL (not on the CPU stand-in)
      return pending.send<HeadsResult>(primary, { type: 'heads', id, request: req });
    },
    async loseDevice() {
      const id = nextId++;
      await pending.send<EngineStats>(primary, { type: 'lose-device', id });
    },
    dispose() {
      disposed = true;
      primary.terminate();
      standIn?.terminate();
      for (const w of pool.workers) w.terminate();
      for (const t of abandoned.values()) clearTimeout(t);
      clearTimeout(holdTimer);
      pending.rejectWhere(null, new EngineError('cancelled', 'engine disposed'));
    },
  };
}
