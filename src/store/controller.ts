/**
 * Connects the store to the engine, one job per module, wired here:
 * - compute-request.ts — the request for the current state (and the view limit);
 * - compute-loop.ts — at most one compute in flight, priced, held when very long, cancel and revert;
 * - hedgehog-gate.ts — map=hedgehog: compute and map-dependent analyses wait for the fitted W;
 * - analysis-runs.ts — the panels' analyses, keyed, one entry per op;
 * - backend-watch.ts — the engine's backend (start, fallback, stand-in → WebGPU) in the store;
 * - this file — the store subscription that starts runs, pause/resume, export, the speed run and the
 *   engine's forward pass for input=trained (setHeadsSource, src/store/trained.ts).
 */
import { createRateModel, type RateModel } from '../engine/cost-model';
import type { EngineClient, SpeedOptions } from '../engine/engine-client';
import type { SpeedRequest, SpeedResult } from '../core/speed-model';
import type { AnalysisOpName } from '../engine/analysis';
import { createAnalysisRuns } from './analysis-runs';
import { watchBackend } from './backend-watch';
import { createComputeLoop } from './compute-loop';
import { buildRequest } from './compute-request';
import { createHedgehogGate } from './hedgehog-gate';
import { showsMainResult } from './embed';
import { HEDGEHOG_ID } from './hedgehog-fit';
import type { Lifecycle } from './lifecycle';
import { createActions, type AppStore } from './store';
import { setHeadsSource } from './trained';

export { CONFIRM_RUN_MS } from './compute-loop';
export { buildRequest, VIEW_LIMITS, viewLimit } from './compute-request';

export type EngineLike = Pick<
  EngineClient,
  'started' | 'backend' | 'warming' | 'calibration' | 'onBackendChange' | 'onSwitch' | 'compute' | 'cancel' | 'analyze'
> &
  Partial<Pick<EngineClient, 'exportState' | 'speed' | 'heads'>>;

export interface Controller {
  /**
   * Ask for an analysis; no-op if `key` is already running or done for `id` (unless `force`).
   * `coarse`: the same request on smaller budgets, shown until the full one is done (analysis-runs.ts).
   */
  requestAnalysis(op: AnalysisOpName, payload: unknown, key: string, force?: boolean, coarse?: unknown): void;
  cancelAnalysis(op: AnalysisOpName): void;
  /** A figure of `op` came on screen or left it: analyses on screen run first. */
  setAnalysisOnScreen(op: AnalysisOpName, figure: object, onScreen: boolean): void;
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

export function createController(store: AppStore, engine: EngineLike): Controller {
  const actions = createActions(store);
  const rates = createRateModel();
  const life: Lifecycle = { disposed: false, active: true };

  // The loop, the gate and the analyses call each other; each is built before any of them runs.
  const compute = createComputeLoop({
    store,
    engine,
    rates,
    life,
    waitForFit: () => fit.waitForFit(),
    // an embed of a figure that does not draw the main result does not compute it
    shown: () => {
      const ui = store.getState().ui;
      return showsMainResult(ui.embed, ui.embedFigure);
    },
  });
  const fit = createHedgehogGate({
    store,
    compute,
    requestAnalysis: (op, payload, key, force) => analyses.request(op, payload, key, force),
  });
  const analyses = createAnalysisRuns({ store, engine, life, fit });

  const unsubscribe = store.subscribe((s, prev) => {
    if (compute.reverting) return;
    if (s.params !== prev.params || s.ui.pinnedRow !== prev.ui.pinnedRow || s.upload?.active !== prev.upload?.active)
      compute.run();
    else if (s.params.featureMap === 'hedgehog' && s.analyses[HEDGEHOG_ID] !== prev.analyses[HEDGEHOG_ID])
      fit.onFitChange(s, prev);
  });
  const unwatchBackend = watchBackend({ store, engine, rates, actions, life, compute });
  // input=trained: the heads' forward pass runs in the engine (src/store/trained.ts)
  const heads = engine.heads?.bind(engine);
  setHeadsSource(store, heads ?? null);

  function setActive(next: boolean): void {
    if (life.disposed || next === life.active) return;
    life.active = next;
    if (!next) {
      analyses.pause();
      return;
    }
    analyses.resume();
    if (compute.dirty) compute.run();
  }

  function exportState(metrics: Record<string, number | null>): Promise<string> {
    const state = store.getState();
    const result = state.compute.result;
    if (!result) return Promise.reject(new Error('no result to export yet'));
    if (!engine.exportState) return Promise.reject(new Error('this engine cannot export'));
    const up = state.upload.active;
    const sel = up?.trained;
    const trained =
      sel && up.heads
        ? {
            model: sel.model,
            layer: sel.layer,
            head: sel.head,
            example: sel.text === undefined ? sel.example : null,
            text: sel.text ?? null,
            tokens: Array.from(up.heads.tokens),
            forward: up.heads.backend,
          }
        : undefined;
    return engine.exportState(
      { ...buildRequest(state), params: result.params },
      { backend: result.backend, metrics, ...(trained ? { trained } : {}) },
    );
  }

  function runSpeed(req: SpeedRequest, opts?: SpeedOptions): Promise<SpeedResult> {
    if (!engine.speed) return Promise.reject(new Error('this engine cannot time kernels'));
    return engine.speed(req, opts);
  }

  return {
    requestAnalysis: analyses.request,
    cancelAnalysis: analyses.cancel,
    setAnalysisOnScreen: analyses.setOnScreen,
    recompute: () => compute.run(),
    computeAnyway: () => compute.run(true),
    cancelCompute: compute.cancel,
    rates,
    setActive,
    exportState,
    runSpeed,
    dispose() {
      life.disposed = true;
      unsubscribe();
      unwatchBackend();
      setHeadsSource(store, null);
      analyses.abortAll();
    },
  };
}
