/**
 * Analyses (sweeps, spectra, the Hedgehog fit) in the analysis worker, one entry per op in the
 * store. They are keyed by the parameters they depend on: a panel asks for (op, payload, key) and
 * the run is skipped when that key is already running or done. While paused, requests are
 * remembered and running ones stopped without being marked cancelled; they go again on resume.
 *
 * Progressive: a request with a coarse payload runs in two stages under one key — the coarse value
 * is shown (entry `refined: false`, status still 'running') until the full one replaces it. Both
 * stages go to the worker at once with a priority (`analysisPriority`): the coarse stages of the
 * analyses on screen first, then their refinements, then the same for those off screen; the worker
 * queue orders them (src/engine/analysis-queue.ts). A newer request for the op aborts both stages:
 * a waiting one is dropped from the queue, a running one stops at its next step.
 *
 * A coarse stage is only worth its run where the full one is slow. Each full run reports its own
 * time in the worker (queue excluded), remembered per op and backend; scaled to the next request's
 * size on the same backend, if it predicts at most
 * `COARSE_SKIP_MS` the coarse stage is left out and the full run goes with a first stage's priority
 * (on a fast GPU, or at small n): the refined figure comes about when a coarse one would, without
 * a second round of work and a flash of 'refining'.
 */
import { isEngineError } from '../core/errors';
import type { AnalysisOpName } from '../engine/analysis';
import type { EngineClient } from '../engine/engine-client';
import { errorInfo } from './compute-request';
import type { HedgehogGate } from './hedgehog-gate';
import type { Lifecycle } from './lifecycle';
import type { AnalysisEntries, AnalysisEntry, AppStore } from './store';

/** Progress messages closer together than this are not written to the store (the last one always is). */
const PROGRESS_MIN_MS = 80;

/** A full run predicted to take at most this (ms, in its worker) goes without its coarse stage. */
export const COARSE_SKIP_MS = 100;

/**
 * The size a run's time is scaled by: n²·(d + m) of its parameters, the dense ops' cost and more than
 * the row sweeps' growth in n (their rows are a fixed budget), so that a larger n keeps the coarse
 * stage rather than drops it. null for a payload without parameters (then no stage is skipped).
 */
export function runSize(payload: unknown): number | null {
  const p = (payload as { params?: { n?: unknown; d?: unknown; m?: unknown } } | null)?.params;
  if (!p || typeof p.n !== 'number' || typeof p.d !== 'number' || typeof p.m !== 'number') return null;
  return p.n * p.n * (p.d + p.m);
}

/** Ops whose result something else waits for (the compute waits for the Hedgehog fit): before all. */
const URGENT_OPS: readonly AnalysisOpName[] = ['hedgehogFit'];

/**
 * Within one class, the cheaper first stages first (measured on the CPU twins at the defaults), so
 * that most figures show something soon; ops not listed go last.
 */
const CHEAP_FIRST: readonly AnalysisOpName[] = [
  'mapRows',
  'entryErrors',
  'rowEntropies',
  'localTruncation',
  'errorVsD',
  'entropyVsN',
  'spectra',
  'normSweep',
  'errorVsM',
  'beyondSweeps',
];

/**
 * The worker queue's order (lower first): urgent ops; then coarse stages on screen (class 0),
 * refinements on screen (1), coarse stages off screen (2), refinements off screen (3); within a
 * class, cheaper first (a fraction below 1).
 */
export function analysisPriority(op: AnalysisOpName, onScreen: boolean, stage: 'coarse' | 'refine'): number {
  if (URGENT_OPS.includes(op)) return -1;
  const rank = CHEAP_FIRST.indexOf(op);
  const within = (rank < 0 ? CHEAP_FIRST.length : rank) / (CHEAP_FIRST.length + 1);
  return (onScreen ? 0 : 2) + (stage === 'refine' ? 1 : 0) + within;
}

export interface AnalysisRuns {
  /**
   * Ask for an analysis; no-op if `key` is already running or done for `op` (unless `force`).
   * `coarse`: the same request on smaller budgets, shown first (see above).
   */
  request(op: AnalysisOpName, payload: unknown, key: string, force?: boolean, coarse?: unknown): void;
  /** A figure of `op` came on screen or left it (`figure`: any identity of that figure). */
  setOnScreen(op: AnalysisOpName, figure: object, onScreen: boolean): void;
  /** Whether a figure of `op` is on screen (by the last `setOnScreen` calls). */
  onScreen(op: AnalysisOpName): boolean;
  cancel(op: AnalysisOpName): void;
  /** Stop the running analyses; they are re-run by `resume`. */
  pause(): void;
  /** Send what was asked for or stopped while paused. */
  resume(): void;
  /** Abort everything (the controller is disposed). */
  abortAll(): void;
}

export function createAnalysisRuns(deps: {
  store: AppStore;
  engine: Pick<EngineClient, 'analyze'>;
  life: Lifecycle;
  fit: Pick<HedgehogGate, 'attachFit'>;
}): AnalysisRuns {
  const { store, engine, life, fit } = deps;
  const runs = new Map<
    AnalysisOpName,
    {
      key: string;
      abort: AbortController;
      token: number;
      payload: unknown;
      coarse: unknown;
      /** the request as asked for (before the fit was attached), to send it again */
      asked: { payload: unknown; key: string; coarse: unknown };
      /** a stage reported progress: it runs or ran (not only queued) */
      started: boolean;
    }
  >();
  /** analyses asked for (or stopped) while paused, latest per id */
  const paused = new Map<AnalysisOpName, { payload: unknown; key: string; force: boolean; coarse: unknown }>();
  /**
   * each op's last full run per backend (op|side): its time in the worker and its size (runSize). A
   * time learned on one side says nothing of the other: the ops on the GPU are many times faster
   * than their twins on the CPU pool, so after a fallback (device lost) a GPU time would drop the
   * coarse stage of a run that takes seconds on the twins.
   */
  const lastFull = new Map<string, { ms: number; size: number }>();
  /** where the store's backend runs the analyses: the CPU pool, or a WebGPU adapter */
  const side = (): string => {
    const info = store.getState().backend.info;
    return info?.kind === 'webgpu' ? `webgpu|${info.adapter}` : 'cpu';
  };
  /** whether the op's last full run on this side, scaled to `size`, predicts at most COARSE_SKIP_MS */
  const fastAt = (runKey: string, size: number | null) => {
    const last = lastFull.get(runKey);
    return !!last && size !== null && (last.ms * size) / last.size <= COARSE_SKIP_MS;
  };
  /** the figures of each op that are on screen */
  const visible = new Map<AnalysisOpName, Set<object>>();
  let token = 0;
  const isOnScreen = (op: AnalysisOpName) => (visible.get(op)?.size ?? 0) > 0;

  /**
   * The one place an entry is written. The op's result arrives from the worker as a message (unknown
   * to the type system); ANALYSIS_OPS ties it to the op, so the entry is stored under its op's type.
   */
  function patch(id: AnalysisOpName, f: (e: AnalysisEntry | undefined) => AnalysisEntry): void {
    store.setState((s) => ({ analyses: { ...s.analyses, [id]: f(s.analyses[id]) } as AnalysisEntries }));
  }

  function request(
    id: AnalysisOpName,
    rawPayload: unknown,
    rawKey: string,
    force = false,
    rawCoarse: unknown = undefined,
  ): void {
    const op = id;
    if (life.disposed) return;
    const fitted = fit.attachFit(id, rawPayload, rawKey, force);
    if (!fitted) return;
    const { payload, key } = fitted;
    // the coarse payload gets the same fitted W (the fit is there: attachFit just said so)
    const size = runSize(payload);
    const runKey = `${id}|${side()}`;
    const coarse =
      rawCoarse === undefined || fastAt(runKey, size)
        ? undefined
        : (fit.attachFit(id, rawCoarse, rawKey, force)?.payload ?? undefined);
    const entry = store.getState().analyses[id];
    if (!force && entry && entry.key === key && entry.op === op && entry.status !== 'error') return;
    if (!life.active) {
      paused.set(id, { payload, key, force, coarse });
      return;
    }
    runs.get(id)?.abort.abort();
    const abort = new AbortController();
    const my = ++token;
    const run = {
      key,
      abort,
      token: my,
      payload,
      coarse,
      asked: { payload: rawPayload, key: rawKey, coarse: rawCoarse },
      started: false,
    };
    runs.set(id, run);
    const t0 = performance.now();
    patch(id, (e) => ({
      op,
      key,
      status: 'running',
      progress: null,
      value: e?.value ?? null,
      valueKey: e?.valueKey ?? null,
      refined: e?.refined ?? true,
      stages: coarse !== undefined ? 2 : 1,
      error: null,
      elapsedMs: null,
    }));
    let lastProgress = 0;
    let final = false;
    const onProgress = (done: number, total: number, label?: string, detail?: unknown) => {
      const now = performance.now();
      if (runs.get(id)?.token !== my) return;
      run.started = true;
      if (now - lastProgress < PROGRESS_MIN_MS && done < total) return;
      lastProgress = now;
      patch(id, (e) => ({
        ...(e as AnalysisEntry),
        progress: { done, total, label, ...(detail !== undefined ? { detail } : {}) },
      }));
    };
    const onScreen = isOnScreen(id);
    if (coarse !== undefined)
      engine
        .analyze<unknown>(op, coarse, {
          signal: abort.signal,
          priority: analysisPriority(id, onScreen, 'coarse'),
          onProgress,
        })
        .then(
          (value) => {
            if (runs.get(id)?.token !== my || life.disposed || final) return;
            patch(id, (e) => ({ ...(e as AnalysisEntry), value, valueKey: key, refined: false }));
          },
          // a failed or cancelled coarse stage shows nothing: the refinement (same signal) reports
          () => {},
        );
    engine
      .analyze<unknown>(op, payload, {
        signal: abort.signal,
        priority: analysisPriority(id, onScreen, coarse !== undefined ? 'refine' : 'coarse'),
        onProgress,
        onRunMs: (ms) => {
          if (size !== null && size > 0) lastFull.set(runKey, { ms, size });
        },
      })
      .then(
        (value) => {
          if (runs.get(id)?.token !== my || life.disposed) return;
          final = true;
          runs.delete(id);
          patch(id, (e) => ({
            ...(e as AnalysisEntry),
            status: 'done',
            value,
            valueKey: key,
            refined: true,
            progress: null,
            elapsedMs: performance.now() - t0,
          }));
        },
        (e: unknown) => {
          const r = runs.get(id);
          if (r?.token !== my || life.disposed) return;
          runs.delete(id);
          const cancelled = isEngineError(e) && e.code === 'cancelled';
          patch(id, (old) => ({
            ...(old as AnalysisEntry),
            status: cancelled ? 'cancelled' : 'error',
            // a cancelled run keeps its last progress (e.g. the Hedgehog loss curve so far)
            progress: cancelled ? (old?.progress ?? null) : null,
            error: cancelled ? null : errorInfo(e),
          }));
        },
      );
  }

  return {
    request,
    setOnScreen(op, figure, on) {
      let set = visible.get(op);
      if (!set) visible.set(op, (set = new Set()));
      const was = set.size > 0;
      if (on) set.add(figure);
      else set.delete(figure);
      // scrolled into view while its stages only wait in the queue: send them again, ahead
      const r = runs.get(op);
      // (not one the user just cancelled: clicking Cancel can scroll its figure into view before the
      // cancellation has come back from the worker)
      if (on && !was && r && !r.started && !r.abort.signal.aborted && life.active)
        request(op, r.asked.payload, r.asked.key, true, r.asked.coarse);
    },
    onScreen: isOnScreen,
    cancel(id) {
      runs.get(id)?.abort.abort();
    },
    pause() {
      // stop running analyses without marking them cancelled: they resume when active again
      for (const [id, r] of runs) paused.set(id, { payload: r.payload, key: r.key, force: true, coarse: r.coarse });
      const stopped = [...runs.values()];
      runs.clear();
      for (const r of stopped) r.abort.abort();
    },
    resume() {
      const pending = [...paused];
      paused.clear();
      // an entry left 'running' was stopped by the pause: run it again even though its key is unchanged
      const entries = store.getState().analyses;
      for (const [id, p] of pending)
        request(id, p.payload, p.key, p.force || entries[id]?.status === 'running', p.coarse);
    },
    abortAll() {
      for (const r of runs.values()) r.abort.abort();
      runs.clear();
    },
  };
}
