/**
 * Analyses (sweeps, spectra, the Hedgehog fit) in the analysis worker, one entry per op in the
 * store. They are keyed by the parameters they depend on: a panel asks for (op, payload, key) and
 * the run is skipped when that key is already running or done. While paused, requests are
 * remembered and running ones stopped without being marked cancelled; they go again on resume.
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

export interface AnalysisRuns {
  /** Ask for an analysis; no-op if `key` is already running or done for `op` (unless `force`). */
  request(op: AnalysisOpName, payload: unknown, key: string, force?: boolean): void;
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
  const runs = new Map<AnalysisOpName, { key: string; abort: AbortController; token: number; payload: unknown }>();
  /** analyses asked for (or stopped) while paused, latest per id */
  const paused = new Map<AnalysisOpName, { payload: unknown; key: string; force: boolean }>();
  let token = 0;

  /**
   * The one place an entry is written. The op's result arrives from the worker as a message (unknown
   * to the type system); ANALYSIS_OPS ties it to the op, so the entry is stored under its op's type.
   */
  function patch(id: AnalysisOpName, f: (e: AnalysisEntry | undefined) => AnalysisEntry): void {
    store.setState((s) => ({ analyses: { ...s.analyses, [id]: f(s.analyses[id]) } as AnalysisEntries }));
  }

  function request(id: AnalysisOpName, rawPayload: unknown, rawKey: string, force = false): void {
    const op = id;
    if (life.disposed) return;
    const fitted = fit.attachFit(id, rawPayload, rawKey, force);
    if (!fitted) return;
    const { payload, key } = fitted;
    const entry = store.getState().analyses[id];
    if (!force && entry && entry.key === key && entry.op === op && entry.status !== 'error') return;
    if (!life.active) {
      paused.set(id, { payload, key, force });
      return;
    }
    runs.get(id)?.abort.abort();
    const abort = new AbortController();
    const my = ++token;
    runs.set(id, { key, abort, token: my, payload });
    const t0 = performance.now();
    patch(id, (e) => ({
      op,
      key,
      status: 'running',
      progress: null,
      value: e?.value ?? null,
      valueKey: e?.valueKey ?? null,
      error: null,
      elapsedMs: null,
    }));
    let lastProgress = 0;
    engine
      .analyze<unknown>(op, payload, {
        signal: abort.signal,
        onProgress: (done, total, label, detail) => {
          const now = performance.now();
          if (runs.get(id)?.token !== my || (now - lastProgress < PROGRESS_MIN_MS && done < total)) return;
          lastProgress = now;
          patch(id, (e) => ({
            ...(e as AnalysisEntry),
            progress: { done, total, label, ...(detail !== undefined ? { detail } : {}) },
          }));
        },
      })
      .then(
        (value) => {
          if (runs.get(id)?.token !== my || life.disposed) return;
          runs.delete(id);
          patch(id, (e) => ({
            ...(e as AnalysisEntry),
            status: 'done',
            value,
            valueKey: key,
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
    cancel(id) {
      runs.get(id)?.abort.abort();
    },
    pause() {
      // stop running analyses without marking them cancelled: they resume when active again
      for (const [id, r] of runs) paused.set(id, { payload: r.payload, key: r.key, force: true });
      const stopped = [...runs.values()];
      runs.clear();
      for (const r of stopped) r.abort.abort();
    },
    resume() {
      const pending = [...paused];
      paused.clear();
      // an entry left 'running' was stopped by the pause: run it again even though its key is unchanged
      const entries = store.getState().analyses;
      for (const [id, p] of pending) request(id, p.payload, p.key, p.force || entries[id]?.status === 'running');
    },
    abortAll() {
      for (const r of runs.values()) r.abort.abort();
      runs.clear();
    },
  };
}
