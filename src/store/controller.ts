/**
 * Connects the store to the engine. It watches the parameters (and the pinned row) and keeps at
 * most one compute in flight: a change while one runs marks the state dirty, and the newest
 * parameters are sent the moment the running one answers. Dragging a slider therefore shows a
 * stream of results as fast as the backend can produce them, never queues stale work, and never
 * blocks the main thread (all maths is in the workers). The engine client is latest-wins as well,
 * so a superseded request only ever rejects with 'cancelled', which is ignored here.
 *
 * Every run is priced beforehand (src/engine/cost-model.ts: FLOPs × the rate measured on this
 * backend); a long one is marked so the page can say how long and offer Cancel, and a very long
 * one waits for the user's go-ahead. Cancel stops the
 * work in the engine and reverts the parameters to those of the result on screen, so controls,
 * URL and figures keep describing the same experiment (with nothing on screen yet, the parameters
 * stay and the page says they were not computed). A parameter change during a long run stops it
 * too, rather than waiting for it. While WebGPU warms up, the engine's CPU stand-in answers; when
 * WebGPU takes over, the shown result is recomputed there.
 *
 * Analyses (sweeps, spectra) are keyed by the parameters they depend on: a panel asks for
 * (id, op, payload, key) and the run is skipped when that key is already running or done.
 */
import type { BackendInfo } from '../core/attention-job';
import { isEngineError } from '../core/errors';
import { createRateModel, LONG_RUN_MS, requestFlops, type RateModel } from '../engine/cost-model';
import type { EngineClient, SpeedOptions } from '../engine/engine-client';
import type { SpeedRequest, SpeedResult } from '../core/speed-model';
import type { ComputeRequest } from '../engine/protocol';
import { LIMITS } from '../core/limits';
import {
  createActions,
  defaultRow,
  type AnalysisEntries,
  type AnalysisEntry,
  type AppState,
  type AppStore,
  type RunningCompute,
} from './store';
import type { AnalysisOpName } from '../engine/analysis';
import { fitBlock, fitRequest, fittedField, fitKeyOf, HEDGEHOG_ID, OPS_USING_MAP } from './hedgehog-fit';

export type EngineLike = Pick<
  EngineClient,
  'started' | 'backend' | 'warming' | 'calibration' | 'onBackendChange' | 'onSwitch' | 'compute' | 'cancel' | 'analyze'
> &
  Partial<Pick<EngineClient, 'exportState' | 'speed'>>;

/**
 * Largest n for which the matrix view and per-row statistics (both O(n²(d + m')) work) are
 * requested. Above it the panels show outputs only and say why.
 */
export const VIEW_LIMITS = { webgpu: 4_096, cpu: 1_024 } as const;

export function viewLimit(backend: BackendInfo | null): number {
  return backend?.kind === 'webgpu' ? VIEW_LIMITS.webgpu : VIEW_LIMITS.cpu;
}

/** The compute request for the current state. */
export function buildRequest(
  state: Pick<AppState, 'params' | 'ui' | 'backend'> & { upload?: AppState['upload']; analyses?: AppState['analyses'] },
): ComputeRequest {
  const { params, ui } = state;
  const withView = params.n <= viewLimit(state.backend.info);
  const up = state.upload?.active;
  return {
    params,
    ...(up ? { external: { q: up.q.matrix, k: up.k.matrix, ...(up.v ? { v: up.v.matrix } : {}) } } : {}),
    viewCells: withView ? Math.min(params.n, LIMITS.viewCellsMax) : 0,
    rowStats: withView,
    rows: [ui.pinnedRow ?? defaultRow(params.n)],
    ...fittedField({ ...state, analyses: state.analyses ?? {} }),
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
  /** Start the current parameters' run even when it is predicted to be very long. */
  computeAnyway(): void;
  /** Stop the compute in flight; the shown result stays and the parameters revert to it. */
  cancelCompute(): void;
  /** The throughput model behind the estimates (for tests and diagnostics). */
  readonly rates: RateModel;
  /** The speed panel's timing run on the engine (src/engine/speed.ts); rejects 'cancelled' on abort. */
  runSpeed(req: SpeedRequest, opts?: SpeedOptions): Promise<SpeedResult>;
  dispose(): void;
}

/**
 * Runs predicted to take longer than this do not start by themselves: the page shows the estimate
 * and waits for "Compute anyway". Minutes of CPU, or GPU work that cannot be interrupted within a
 * pass (one exact-attention dispatch at n = 65,536 keeps a software adapter busy for hours), should
 * be the user's decision, not a side effect of typing a number.
 */
export const CONFIRM_RUN_MS = 60_000;

export function createController(store: AppStore, engine: EngineLike): Controller {
  const actions = createActions(store);
  const rates = createRateModel();
  let disposed = false;
  let ready = false;
  let inFlight = false;
  let dirty = false;
  let active = true;
  /** the run in flight, with its request */
  let current: { request: ComputeRequest; running: RunningCompute } | null = null;
  /** the in-flight run was cancelled by the user (not superseded) */
  let userCancel = false;
  /** parameter writes by the controller itself (a revert) start no run */
  let suppress = false;

  function priced(request: ComputeRequest): RunningCompute {
    const kind = engine.backend()?.kind ?? 'cpu';
    const estimateMs = rates.predict(kind, requestFlops(request, kind).total);
    return {
      params: request.params,
      backend: kind,
      startedAt: Date.now(),
      estimateMs,
      long: estimateMs >= LONG_RUN_MS,
    };
  }

  function run(force = false): void {
    if (disposed) return;
    // map=hedgehog: the fit starts at once (even while a compute is in flight); compute waits for it
    if (waitForFit()) return;
    if (!ready || !active) {
      dirty = true;
      return;
    }
    if (inFlight) {
      dirty = true;
      // A long run would hold the newest parameters back until it ends: stop it instead.
      if (current && (current.running.long || Date.now() - current.running.startedAt > LONG_RUN_MS)) engine.cancel();
      return;
    }
    dirty = false;
    const state = store.getState();
    const request = buildRequest(state);
    const running = priced(request);
    if (running.estimateMs >= CONFIRM_RUN_MS && !force) {
      store.setState({ compute: { ...state.compute, status: 'held', running: null, held: running, cancelled: null } });
      return;
    }
    inFlight = true;
    current = { request, running };
    const t0 = performance.now();
    store.setState({ compute: { ...state.compute, status: 'computing', running, held: null } });
    engine.compute(request).then(
      (result) => {
        inFlight = false;
        current = null;
        if (disposed) return;
        rates.observe(result.backend.kind, requestFlops(request, result.backend.kind).total, result.elapsedMs);
        store.setState({
          compute: {
            status: dirty ? 'computing' : 'ok',
            error: null,
            result,
            latencyMs: performance.now() - t0,
            running: null,
            cancelled: null,
          },
        });
        if (dirty) run();
      },
      (e: unknown) => {
        inFlight = false;
        const was = current;
        current = null;
        if (disposed) return;
        if (isEngineError(e) && e.code === 'cancelled') {
          if (userCancel) {
            userCancel = false;
            dirty = false;
            if (was) revert(was.running);
          } else if (dirty) run();
          else
            store.setState((s) => ({
              compute: {
                ...s.compute,
                running: null,
                status: s.compute.error ? 'error' : s.compute.result ? 'ok' : 'idle',
              },
            }));
          return;
        }
        store.setState((s) => ({
          compute: { ...s.compute, running: null, status: dirty ? 'computing' : 'error', error: errorInfo(e) },
        }));
        if (dirty) run();
      },
    );
  }

  /** After a user cancel: the shown result stays and the parameters go back to its parameters. */
  function revert(running: RunningCompute): void {
    const s = store.getState();
    const shown = s.compute.result;
    const cancelled = { params: running.params, estimateMs: running.estimateMs, reverted: shown !== null };
    if (!shown) {
      store.setState({ compute: { ...s.compute, status: 'cancelled', running: null, cancelled } });
      return;
    }
    suppress = true;
    try {
      store.setState({
        params: shown.params,
        compute: { ...s.compute, status: 'ok', error: null, running: null, cancelled },
      });
    } finally {
      suppress = false;
    }
  }

  function cancelCompute(): void {
    if (!inFlight || disposed) return;
    userCancel = engine.cancel();
  }

  const unsubscribe = store.subscribe((s, prev) => {
    if (suppress) return;
    if (s.params !== prev.params || s.ui.pinnedRow !== prev.ui.pinnedRow || s.upload?.active !== prev.upload?.active)
      run();
    else if (s.params.featureMap === 'hedgehog' && s.analyses[HEDGEHOG_ID] !== prev.analyses[HEDGEHOG_ID])
      onFitChange(s, prev);
  });

  // ---- map=hedgehog: compute and map-dependent analyses wait for the fitted W ----
  /** analyses asked for while the fit runs, latest per id: sent with the fitted W when it arrives */
  const awaitingFit = new Map<AnalysisOpName, { payload: unknown; key: string; force: boolean }>();

  /** True (and compute parked) while map=hedgehog has no fitted W; starts the fit once per key. */
  function waitForFit(): boolean {
    const s = store.getState();
    const block = fitBlock(s);
    if (block === 'none') return false;
    dirty = true;
    if (block === 'training') {
      const e = s.analyses[HEDGEHOG_ID];
      if (!(e && e.status === 'running' && e.key === fitKeyOf(s))) {
        const r = fitRequest(s);
        requestAnalysis(HEDGEHOG_ID, r.payload, r.key);
      }
      if (s.compute.status !== 'computing' || s.compute.error)
        store.setState({ compute: { ...s.compute, status: 'computing', error: null } });
    } else {
      store.setState({
        compute: {
          ...s.compute,
          status: 'error',
          error: { code: 'hedgehog-not-fitted', message: 'the Hedgehog map is not fitted: press Train' },
        },
      });
    }
    return true;
  }

  function onFitChange(s: AppState, prev: AppState): void {
    const e = s.analyses[HEDGEHOG_ID];
    const was = prev.analyses[HEDGEHOG_ID];
    if (e?.status === was?.status && e?.valueKey === was?.valueKey) return; // progress only
    if (dirty || e?.status === 'cancelled' || e?.status === 'error') run();
    if (e?.status === 'done' && e.valueKey === fitKeyOf(s)) {
      const waiting = [...awaitingFit];
      awaitingFit.clear();
      for (const [id, a] of waiting) requestAnalysis(id, a.payload, a.key, a.force);
    }
  }

  /** An analysis payload/key on the current map's fitted W; null while the fit is missing. */
  function withFit(op: string, payload: unknown, key: string): { payload: unknown; key: string } | null {
    const s = store.getState();
    const p = (payload as { params?: AppState['params'] } | null)?.params;
    if (!OPS_USING_MAP.has(op) || p?.featureMap !== 'hedgehog') return { payload, key };
    const f = fittedField({ ...s, params: p });
    if (!f.fitted) return null;
    return { payload: { ...(payload as object), fitted: f.fitted }, key: `${key}|${f.fitted.key}` };
  }

  const setBackend = (info: BackendInfo, why: string | null, warming: boolean) => {
    store.setState({ backend: { info, why, warming } });
    const cal = warming ? null : engine.calibration();
    if (cal) rates.observe(info.kind, cal.flops, cal.ms);
  };
  void engine.started.then((info) => {
    if (disposed) return;
    setBackend(info, null, engine.warming());
    ready = true;
    run();
  });
  const offBackend = engine.onBackendChange((info, why) => {
    if (disposed) return;
    setBackend(info, why, false);
    actions.notify({ level: 'warning', code: 'backend-changed', why });
    run();
  });
  const offSwitch = engine.onSwitch((info, warming) => {
    if (disposed) return;
    setBackend(info, null, warming);
    if (warming || !ready) return;
    // Recompute on the settled backend unless the shown result came from it already, or the
    // user cancelled the run for these parameters (nothing on screen): that stays their call.
    // A run in flight on the same kind of backend (the CPU stand-in kept on when there is no
    // WebGPU) is left to finish.
    const { result: shown, status } = store.getState().compute;
    if (status === 'cancelled' && !inFlight) return;
    if (inFlight ? current?.running.backend !== info.kind : !shown || shown.backend.kind !== info.kind) run();
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

  function requestAnalysis(id: AnalysisOpName, rawPayload: unknown, rawKey: string, force = false): void {
    const op = id;
    if (disposed) return;
    const fitted = withFit(op, rawPayload, rawKey);
    if (!fitted) {
      awaitingFit.set(id, { payload: rawPayload, key: rawKey, force });
      return;
    }
    awaitingFit.delete(id);
    const { payload, key } = fitted;
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
        onProgress: (done, total, label, detail) => {
          const now = performance.now();
          if (runs.get(id)?.token !== my || (now - lastProgress < 80 && done < total)) return;
          lastProgress = now;
          patch(id, (e) => ({
            ...(e as AnalysisEntry),
            progress: { done, total, label, ...(detail !== undefined ? { detail } : {}) },
          }));
        },
      })
      .then(
        (value) => {
          if (runs.get(id)?.token !== my || disposed) return;
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
          if (r?.token !== my || disposed) return;
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

  function runSpeed(req: SpeedRequest, opts?: SpeedOptions): Promise<SpeedResult> {
    if (!engine.speed) return Promise.reject(new Error('this engine cannot time kernels'));
    return engine.speed(req, opts);
  }

  return {
    requestAnalysis,
    cancelAnalysis,
    recompute: () => run(),
    computeAnyway: () => run(true),
    cancelCompute,
    rates,
    setActive,
    exportState,
    runSpeed,
    dispose() {
      disposed = true;
      unsubscribe();
      offBackend();
      offSwitch();
      for (const r of runs.values()) r.abort.abort();
      runs.clear();
    },
  };
}
