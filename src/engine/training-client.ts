/**
 * The page's face of the training worker. The worker starts with the first comparison (a page
 * that never trains never loads the trainer), runs one comparison at a time, and its messages for
 * an older comparison are dropped here, so a stale step never reaches the store. A worker that
 * fails to load or crashes becomes an `error` message of the running comparison.
 */
import type { ParamTensor } from '../core/train/types';
import type { TrainingRequest, TrainingResponse } from './training-protocol';
import type { TrainingSetup } from './training-setup';

export interface TrainingClient {
  /** Start a comparison (null: the backend's default); returns its id. Replaces any running one. */
  start(
    setup: TrainingSetup | null,
    options?: { forceCpu?: boolean; forceGpu?: boolean; defaults?: 'panel' | 'lecture' },
  ): number;
  pause(): void;
  resume(): void;
  cancel(): void;
  /** the trained parameters of run `run` of the last comparison */
  weights(run: number): Promise<ParamTensor[]>;
  /** messages of the current comparison */
  onMessage(cb: (msg: TrainingResponse) => void): () => void;
  dispose(): void;
}

/** `spawn` is injectable for tests; the default is the module worker beside this file. */
export function createTrainingClient(
  spawn: () => Worker = () =>
    new Worker(new URL('./training-worker.ts', import.meta.url), { type: 'module', name: 'training' }),
): TrainingClient {
  let worker: Worker | null = null;
  let current = 0;
  let nextId = 1;
  const listeners = new Set<(msg: TrainingResponse) => void>();
  const pendingWeights = new Map<number, { resolve: (p: ParamTensor[]) => void; reject: (e: Error) => void }>();

  const emit = (msg: TrainingResponse) => {
    for (const cb of listeners) cb(msg);
  };

  function ensureWorker(): Worker {
    if (worker) return worker;
    const w = spawn();
    w.onmessage = (e: MessageEvent<TrainingResponse>) => {
      const msg = e.data;
      if (msg.type === 'weights') {
        const p = pendingWeights.get(msg.run);
        pendingWeights.delete(msg.run);
        if (msg.params) p?.resolve(msg.params);
        else p?.reject(new Error(msg.error ?? 'no weights'));
        return;
      }
      if (msg.id !== current) return; // an older comparison's late message
      emit(msg);
    };
    w.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      emit({
        type: 'error',
        id: current,
        error: { code: 'internal', message: `the training worker failed: ${e.message || 'could not start'}` },
      });
      w.terminate();
      if (worker === w) worker = null;
    };
    worker = w;
    return w;
  }

  const send = (msg: TrainingRequest) => ensureWorker().postMessage(msg);

  return {
    start(setup, options = {}) {
      current = nextId++;
      send({
        type: 'start',
        id: current,
        setup,
        gpu: options.forceCpu ? 'off' : options.forceGpu ? 'force' : 'auto',
        defaults: options.defaults ?? 'panel',
      });
      return current;
    },
    pause() {
      if (worker) send({ type: 'pause', id: current });
    },
    resume() {
      if (worker) send({ type: 'resume', id: current });
    },
    cancel() {
      if (worker) send({ type: 'cancel', id: current });
    },
    weights(run) {
      if (!worker) return Promise.reject(new Error('nothing trained yet'));
      pendingWeights.get(run)?.reject(new Error('superseded'));
      return new Promise((resolve, reject) => {
        pendingWeights.set(run, { resolve, reject });
        send({ type: 'weights', id: current, run });
      });
    },
    onMessage(cb) {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    dispose() {
      worker?.terminate();
      worker = null;
      listeners.clear();
    },
  };
}
