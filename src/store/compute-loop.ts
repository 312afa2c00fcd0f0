/**
 * The compute loop: at most one compute in flight. A change while one runs marks the state dirty,
 * and the newest parameters are sent the moment the running one answers. Dragging a slider
 * therefore shows a stream of results as fast as the backend can produce them, never queues stale
 * work, and never blocks the main thread (all maths is in the workers). The engine client is
 * latest-wins as well, so a superseded request only ever rejects with 'cancelled', which is ignored.
 *
 * Every run is priced beforehand (src/engine/cost-model.ts: FLOPs × the rate measured on this
 * backend); a long one is marked so the page can say how long and offer Cancel, and a very long
 * one waits for the user's go-ahead. Cancel stops the work in the engine and reverts the parameters
 * to those of the result on screen, so controls, URL and figures keep describing the same
 * experiment (with nothing on screen yet, the parameters stay and the page says they were not
 * computed). A parameter change during a long run stops it too, rather than waiting for it.
 */
import type { BackendInfo } from '../core/attention-job';
import { isEngineError } from '../core/errors';
import { LONG_RUN_MS, requestFlops, type RateModel } from '../engine/cost-model';
import type { EngineClient } from '../engine/engine-client';
import type { ComputeRequest } from '../engine/protocol';
import { buildRequest, errorInfo } from './compute-request';
import type { Lifecycle } from './lifecycle';
import type { AppStore, RunningCompute } from './store';

/**
 * Runs predicted to take longer than this do not start by themselves: the page shows the estimate
 * and waits for "Compute anyway". Minutes of CPU, or GPU work that cannot be interrupted within a
 * pass (one exact-attention dispatch at n = 65,536 keeps a software adapter busy for hours), should
 * be the user's decision, not a side effect of typing a number.
 */
export const CONFIRM_RUN_MS = 60_000;

export interface ComputeLoop {
  /** Send the current state's request now, or remember that it is due (dirty) when it cannot go yet. */
  run(force?: boolean): void;
  /** Stop the compute in flight; the shown result stays and the parameters revert to it. */
  cancel(): void;
  /** The engine has its first backend: runs may go from now on. */
  setReady(): void;
  /** Something changed that the next run must pick up (e.g. compute waits for the Hedgehog fit). */
  markDirty(): void;
  readonly ready: boolean;
  readonly dirty: boolean;
  readonly inFlight: boolean;
  /** The backend kind the run in flight was priced for; null when none is in flight. */
  readonly inFlightBackend: BackendInfo['kind'] | null;
  /** True while the loop writes the parameters itself (a revert): that write starts no run. */
  readonly reverting: boolean;
}

export function createComputeLoop(deps: {
  store: AppStore;
  engine: Pick<EngineClient, 'backend' | 'compute' | 'cancel'>;
  rates: RateModel;
  life: Lifecycle;
  /** True when compute must wait (map=hedgehog without its fitted W); called before each run. */
  waitForFit: () => boolean;
  /** False where nothing on the page shows the result (an embed of an analysis figure): runs stay due, unsent. */
  shown?: () => boolean;
}): ComputeLoop {
  const { store, engine, rates, life } = deps;
  let ready = false;
  let inFlight = false;
  let dirty = false;
  /** the run in flight, with its request */
  let current: { request: ComputeRequest; running: RunningCompute } | null = null;
  /** the in-flight run was cancelled by the user (not superseded) */
  let userCancel = false;
  let reverting = false;

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
    if (life.disposed) return;
    // map=hedgehog: the fit starts at once (even while a compute is in flight); compute waits for it
    if (deps.waitForFit()) return;
    if (deps.shown?.() === false) {
      dirty = true;
      // the Hedgehog fit it waited for is done: nothing computes after it here
      const c = store.getState().compute;
      if (c.status === 'computing' && !inFlight) store.setState({ compute: { ...c, status: 'idle' } });
      return;
    }
    if (!ready || !life.active) {
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
        if (life.disposed) return;
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
        if (life.disposed) return;
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
    reverting = true;
    try {
      store.setState({
        params: shown.params,
        compute: { ...s.compute, status: 'ok', error: null, running: null, cancelled },
      });
    } finally {
      reverting = false;
    }
  }

  return {
    run,
    cancel() {
      if (!inFlight || life.disposed) return;
      userCancel = engine.cancel();
    },
    setReady() {
      ready = true;
    },
    markDirty() {
      dirty = true;
    },
    get ready() {
      return ready;
    },
    get dirty() {
      return dirty;
    },
    get inFlight() {
      return inFlight;
    },
    get inFlightBackend() {
      return current?.running.backend ?? null;
    },
    get reverting() {
      return reverting;
    },
  };
}
