/**
 * Connects the store to the engine. It watches the parameters (and the pinned row) and keeps at
 * most one compute in flight: a change while one runs marks the state dirty, and the newest
 * parameters are sent the moment the running one answers. Dragging a slider therefore shows a
 * stream of results as fast as the backend can produce them, never queues stale work, and never
 * blocks the main thread (all maths is in the workers). The engine client is latest-wins as well,
 * so a superseded request only ever rejects with 'cancelled', which is ignored here.
 *
 * Analyses (sweeps, spectra) are keyed by the parameters they depend on: a panel asks for
 * (id, op, payload, key) and the run is skipped when that key is already running or done.
 */
import type { BackendInfo } from '../core/attention-job';
import { isEngineError } from '../core/errors';
import type { EngineClient } from '../engine/engine-client';
import type { ComputeRequest } from '../engine/protocol';
import { LIMITS } from '../core/limits';
import { createActions, defaultRow, type AnalysisEntries, type AnalysisEntry, type AppState, type AppStore } from './store';
import type { AnalysisOpName } from '../engine/analysis';

export type EngineLike = Pick<EngineClient, 'ready' | 'backend' | 'onBackendChange' | 'compute' | 'analyze'> & Partial<Pick<EngineClient, 'exportState'>>;

/**
 * Largest n for which the matrix view and per-row statistics (both O(n²(d + m')) work) are
 * requested. Above it the panels show outputs only and say why.
 */
export const VIEW_LIMITS = { webgpu: 4_096, cpu: 1_024 } as const;

export function viewLimit(backend: BackendInfo | null): number {
  return backend?.kind === 'webgpu' ? VIEW_LIMITS.webgpu : VIEW_LIMITS.cpu;
}

/** The compute request for the current state. */
export function buildRequest(state: Pick<AppState, 'params' | 'ui' | 'backend'> & { upload?: AppState['upload'] }): ComputeRequest {
  const { params, ui } = state;
  const withView = params.n <= viewLimit(state.backend.info);
  const up = state.upload?.active;
  return {
    params,
    ...(up ? { external: { q: up.q.matrix, k: up.k.matrix, ...(up.v ? { v: up.v.matrix } : {}) } } : {}),
    viewCells: withView ? Math.min(params.n, LIMITS.viewCellsMax) : 0,
    rowStats: withView,
    rows: [ui.pinnedRow ?? defaultRow(params.n)],
  };
}

function errorInfo(e: unknown): { code: string; message: string } {
  if (isEngineError(e)) return { code: e.code, message: e.message };
  return { code: 'internal', message: e instanceof Error ? e.message : String(e) };
}

export interface Controller {
  /** Ask for an analysis; no-op if `key` is already running or done for `id` (unless `force`). */
  requestAnalysis(op: AnalysisOpName, payload: unknown, key: string, force?: boolean): void;
  cancelAnalysis(op: AnalysisOpName): void;
  /** Recompute now (e.g. after an error). */
  recompute(): void;
  /**
   * Pause (false) or resume (true) all work: while paused, parameter changes and analysis requests
   * are remembered but nothing is sent, and running analyses are stopped and re-run on resume
   * (an embed off screen computes nothing). Active by default.
   */
  setActive(active: boolean): void;
  /**
   * The experiment on screen (the shown result's parameters and inputs, not a newer request still
   * in flight) as JSON text, with `metrics` (the headline numbers as shown) and the backend added.
   */
  exportState(metrics: Record<string, number | null>): Promise<string>;
  dispose(): void;
}

export function createController(store: AppStore, engine: EngineLike): Controller {
  const actions = createActions(store);
  let disposed = false;
  let ready = false;
  let inFlight = false;
  let dirty = false;
  let active = true;

  function run(): void {
    if (disposed) return;
    if (!ready || inFlight || !active) {
      dirty = true;
      return;
    }
    dirty = false;
    inFlight = true;
    const state = store.getState();
    const request = buildRequest(state);
    const t0 = performance.now();
    store.setState({ compute: { ...state.compute, status: 'computing' } });
    engine.compute(request).then(
      (result) => {
        inFlight = false;
        if (disposed) return;
        store.setState({
          compute: { status: dirty ? 'computing' : 'ok', error: null, result, latencyMs: performance.now() - t0 },
        });
        if (dirty) run();
      },
      (e: unknown) => {
        inFlight = false;
        if (disposed) return;
        if (isEngineError(e) && e.code === 'cancelled') {
          if (dirty) run();
          else store.setState((s) => ({ compute: { ...s.compute, status: s.compute.error ? 'error' : 'ok' } }));
          return;
        }
        store.setState((s) => ({ compute: { ...s.compute, status: dirty ? 'computing' : 'error', error: errorInfo(e) } }));
        if (dirty) run();
      },
    );
  }

  const unsubscribe = store.subscribe((s, prev) => {
    if (s.params !== prev.params || s.ui.pinnedRow !== prev.ui.pinnedRow || s.upload?.active !== prev.upload?.active) run();
  });

  const setBackend = (info: BackendInfo, why: string | null) => {
    const before = store.getState().backend.info;
    store.setState({ backend: { info, why } });
    return viewLimit(before) !== viewLimit(info);
  };
  void engine.ready.then((info) => {
    if (disposed) return;
    setBackend(info, null);
    ready = true;
    run();
  });
  const offBackend = engine.onBackendChange((info, why) => {
    if (disposed) return;
    setBackend(info, why);
    actions.notify({ level: 'warning', code: 'backend-changed', why });
    run();
  });

  // ---- analyses ----
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

  function requestAnalysis(id: AnalysisOpName, payload: unknown, key: string, force = false): void {
    const op = id;
    if (disposed) return;
    const entry = store.getState().analyses[id];
    if (!force && entry && entry.key === key && entry.op === op && entry.status !== 'error') return;
    if (!active) {
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
        onProgress: (done, total, label) => {
          const now = performance.now();
          if (runs.get(id)?.token !== my || (now - lastProgress < 80 && done < total)) return;
          lastProgress = now;
          patch(id, (e) => ({ ...(e as AnalysisEntry), progress: { done, total, label } }));
        },
      })
      .then(
        (value) => {
          if (runs.get(id)?.token !== my || disposed) return;
          runs.delete(id);
          patch(id, (e) => ({ ...(e as AnalysisEntry), status: 'done', value, valueKey: key, progress: null, elapsedMs: performance.now() - t0 }));
        },
        (e: unknown) => {
          const r = runs.get(id);
          if (r?.token !== my || disposed) return;
          runs.delete(id);
          const cancelled = isEngineError(e) && e.code === 'cancelled';
          patch(id, (old) => ({
            ...(old as AnalysisEntry),
            status: cancelled ? 'cancelled' : 'error',
            progress: null,
            error: cancelled ? null : errorInfo(e),
          }));
        },
      );
  }

  function cancelAnalysis(id: AnalysisOpName): void {
    runs.get(id)?.abort.abort();
  }

  function setActive(next: boolean): void {
    if (disposed || next === active) return;
    active = next;
    if (!active) {
      // stop running analyses without marking them cancelled: they resume when active again
      for (const [id, r] of runs) paused.set(id, { payload: r.payload, key: r.key, force: true });
      const stopped = [...runs.values()];
      runs.clear();
      for (const r of stopped) r.abort.abort();
      return;
    }
    const pending = [...paused];
    paused.clear();
    // an entry left 'running' was stopped by the pause: run it again even though its key is unchanged
    const entries = store.getState().analyses;
    for (const [id, p] of pending) requestAnalysis(id, p.payload, p.key, p.force || entries[id]?.status === 'running');
    if (dirty) run();
  }

  function exportState(metrics: Record<string, number | null>): Promise<string> {
    const state = store.getState();
    const result = state.compute.result;
    if (!result) return Promise.reject(new Error('no result to export yet'));
    if (!engine.exportState) return Promise.reject(new Error('this engine cannot export'));
    return engine.exportState({ ...buildRequest(state), params: result.params }, { backend: result.backend, metrics });
  }

  return {
    requestAnalysis,
    cancelAnalysis,
    recompute: run,
    setActive,
    exportState,
    dispose() {
      disposed = true;
      unsubscribe();
      offBackend();
      for (const r of runs.values()) r.abort.abort();
      runs.clear();
    },
  };
}
