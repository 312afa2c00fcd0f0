/**
 * Connects the training slice to the training worker (src/engine/training-client.ts): Start /
 * Pause / Resume / Cancel, the worker's messages into the store (through the pure reducer), the
 * configured setup (validated by the same strict parser as the URL, so a control can never hand
 * the trainer what a link could not) and the trained weights for export. `run=1` in the URL calls
 * `start()` once the page is up (src/app/main.tsx).
 */
import type { ParamTensor } from '../core/train/types';
import type { TrainingClient } from '../engine/training-client';
import { defaultSetup, type TrainingSetup } from '../engine/training-setup';
import { parseSetup, writeSetup } from '../engine/training-setup-url';
import type { Actions, AppStore } from './store';
import { transferSetup } from '../engine/transfer-setup';
import { applyTrainingMessage, isTraining, type TrainingState } from './training';
import { MAX_HISTORY, recordOf, seriesSetups, type SeriesKind } from './training-series';

export type TrainingClientLike = Pick<
  TrainingClient,
  'start' | 'pause' | 'resume' | 'cancel' | 'weights' | 'onMessage'
>;

export interface TrainingController {
  /** Start the configured comparison (replacing one in progress). */
  /** `defaults`: what runs when the page has no comparison configured (the panel's default, or the lecture slide's) */
  start(defaults?: 'panel' | 'lecture'): void;
  pause(): void;
  resume(): void;
  cancel(): void;
  /**
   * An embed went off screen (false) or came back (true): a running comparison pauses while the
   * frame is off screen and resumes when it is back, unless the reader paused it.
   */
  setVisible(visible: boolean): void;
  /** Train a series of comparisons built from the configured one (pairs / m sweep, LM then MLM); false if it does not apply. */
  startSeries(kind: SeriesKind): boolean;
  /** Configure the default transfer experiment for the shown backend (transferSetup) and start it. */
  startTransfer(): void;
  /** Set the configured comparison; invalid fields are refused with a notice and keep their value. Returns false if any was. */
  setSetup(next: TrainingSetup): boolean;
  /** The setup the panel shows: the configured one, or the default for `backend`. */
  effectiveSetup(backend: 'cpu' | 'webgpu'): TrainingSetup;
  weights(run: number): Promise<ParamTensor[]>;
  dispose(): void;
}

export function createTrainingController(
  store: AppStore,
  actions: Pick<Actions, 'notify'>,
  client: TrainingClientLike,
  options: { forceCpu?: boolean; forceGpu?: boolean } = {},
): TrainingController {
  let seriesId = 0;
  let pausedOffScreen = false;
  const off = client.onMessage((msg) => {
    const s = store.getState();
    const next = applyTrainingMessage(s.training, msg);
    if (next === s.training) return;
    if (msg.type === 'done') {
      // keep its final numbers; a series goes on with its next setup
      const rec = recordOf(next, next.series ? { kind: next.series.kind, id: next.series.id } : null);
      const history = rec ? [...next.history, rec].slice(-MAX_HISTORY) : next.history;
      const queue = next.series?.queue ?? [];
      if (next.series && queue.length) {
        store.setState({
          training: { ...next, history, setup: queue[0], series: { ...next.series, queue: queue.slice(1) } },
        });
        start();
        return;
      }
      store.setState({ training: { ...next, history, series: null } });
      return;
    }
    if (msg.type === 'cancelled' || msg.type === 'error') {
      store.setState({ training: { ...next, series: null } });
      return;
    }
    store.setState({ training: next });
  });

  const patch = (p: Partial<TrainingState>) => store.setState((s) => ({ training: { ...s.training, ...p } }));
  const shownBackend = () => (store.getState().backend.info?.kind === 'cpu' || options.forceCpu ? 'cpu' : 'webgpu');

  function start(defaults: 'panel' | 'lecture' = 'panel'): void {
    const s = store.getState().training;
    const id = client.start(s.setup, { forceCpu: options.forceCpu, forceGpu: options.forceGpu, defaults });
    patch({
      id,
      status: 'starting',
      error: null,
      progress: null,
      runs: [],
      curves: [],
      maps: null,
      exampleTokens: null,
      transfer: null,
      ran: s.setup,
    });
  }

  return {
    start(defaults) {
      patch({ series: null });
      start(defaults);
    },
    startSeries(kind) {
      const base = store.getState().training.setup ?? defaultSetup(shownBackend());
      const setups = seriesSetups(kind, base);
      if (!setups?.length) return false;
      patch({ setup: setups[0], series: { kind, id: ++seriesId, queue: setups.slice(1), total: setups.length } });
      start();
      return true;
    },
    startTransfer() {
      patch({ setup: transferSetup(shownBackend()), series: null });
      start();
    },
    pause() {
      pausedOffScreen = false;
      if (store.getState().training.status === 'running') client.pause();
    },
    setVisible(visible) {
      const status = store.getState().training.status;
      if (!visible && (status === 'running' || status === 'starting')) {
        pausedOffScreen = true;
        client.pause();
      } else if (visible && pausedOffScreen) {
        pausedOffScreen = false;
        client.resume();
      }
    },
    resume() {
      pausedOffScreen = false;
      if (store.getState().training.status === 'paused') client.resume();
    },
    cancel() {
      if (isTraining(store.getState().training)) client.cancel();
    },
    setSetup(next) {
      const base = store.getState().training.setup ?? defaultSetup(shownBackend());
      const { setup, problems } = parseSetup(writeSetup(next), base);
      for (const p of problems)
        actions.notify({
          level: 'error',
          code: 'param-rejected',
          source: 'control',
          key: p.field === 'train' ? 'train' : `train.${p.field}`,
          raw: p.raw,
          reason: p.reason,
        });
      patch({ setup });
      return problems.length === 0;
    },
    effectiveSetup(backend) {
      return store.getState().training.setup ?? defaultSetup(backend);
    },
    weights: (run) => client.weights(run),
    dispose: off,
  };
}
