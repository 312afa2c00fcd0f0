/**
 * The engine's backend in the store: the first one when the engine starts, a fallback when WebGPU is
 * lost, and the switch from the CPU stand-in (answering while WebGPU warms up) to WebGPU, after
 * which the shown result is recomputed there. Each backend's calibration feeds the rate model.
 */
import type { BackendInfo } from '../core/attention-job';
import type { RateModel } from '../engine/cost-model';
import type { EngineClient } from '../engine/engine-client';
import type { ComputeLoop } from './compute-loop';
import type { Lifecycle } from './lifecycle';
import type { AppStore, createActions } from './store';

/** Starts watching; returns the function that stops it. */
export function watchBackend(deps: {
  store: AppStore;
  engine: Pick<EngineClient, 'started' | 'warming' | 'calibration' | 'onBackendChange' | 'onSwitch'>;
  rates: RateModel;
  actions: Pick<ReturnType<typeof createActions>, 'notify'>;
  life: Lifecycle;
  compute: Pick<ComputeLoop, 'run' | 'setReady' | 'ready' | 'inFlight' | 'inFlightBackend'>;
}): () => void {
  const { store, engine, rates, actions, life, compute } = deps;
  const setBackend = (info: BackendInfo, why: string | null, warming: boolean) => {
    store.setState({ backend: { info, why, warming } });
    const cal = warming ? null : engine.calibration();
    if (cal) rates.observe(info.kind, cal.flops, cal.ms);
  };
  void engine.started.then((info) => {
    if (life.disposed) return;
    setBackend(info, null, engine.warming());
    compute.setReady();
    compute.run();
  });
  const offBackend = engine.onBackendChange((info, why) => {
    if (life.disposed) return;
    setBackend(info, why, false);
    actions.notify({ level: 'warning', code: 'backend-changed', why });
    compute.run();
  });
  const offSwitch = engine.onSwitch((info, warming) => {
    if (life.disposed) return;
    setBackend(info, null, warming);
    if (warming || !compute.ready) return;
    // Recompute on the settled backend unless the shown result came from it already, or the
    // user cancelled the run for these parameters (nothing on screen): that stays their call.
    // A run in flight on the same kind of backend (the CPU stand-in kept on when there is no
    // WebGPU) is left to finish.
    const { result: shown, status } = store.getState().compute;
    if (status === 'cancelled' && !compute.inFlight) return;
    if (compute.inFlight ? compute.inFlightBackend !== info.kind : !shown || shown.backend.kind !== info.kind)
      compute.run();
  });
  return () => {
    offBackend();
    offSwitch();
  };
}
