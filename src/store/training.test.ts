import { describe, expect, it } from 'vitest';
import type { TrainingResponse } from '../engine/training-protocol';
import { adaptKinds, defaultSetup, type TrainingSetup } from '../engine/training-setup';
import { transferSetup } from '../engine/transfer-setup';
import { createActions, createAppStore } from './store';
import { createTrainingController, type TrainingClientLike } from './training-controller';
import { summarize, whyKind } from './training-summary';

/** A test double of the training client: records what it was asked and lets the test play the worker. */
function fakeClient() {
  const sent: string[] = [];
  let cb: ((m: TrainingResponse) => void) | null = null;
  let id = 0;
  const client: TrainingClientLike = {
    start: (setup, options) => {
      sent.push(
        `start ${setup ? setup.kinds.join(',') : 'default'}${options?.defaults === 'lecture' ? ' (lecture)' : ''}`,
      );
      return ++id;
    },
    pause: () => sent.push('pause'),
    resume: () => sent.push('resume'),
    cancel: () => sent.push('cancel'),
    weights: async () => [],
    onMessage: (f) => {
      cb = f;
      return () => (cb = null);
    },
  };
  return { client, sent, worker: (m: TrainingResponse) => cb?.(m), id: () => id };
}

const setup: TrainingSetup = {
  ...defaultSetup('cpu'),
  kinds: ['softmax', 'elu1'],
  lr: ['auto', 'auto'],
  seeds: 2,
  steps: 4,
};
const runs = [0, 1, 2, 3].map((index) => ({
  index,
  kind: index < 2 ? ('softmax' as const) : ('elu1' as const),
  seed: 1 + (index % 2),
  lr: 0.01,
  lrFactor: 1,
  flopsPerStep: 1e6,
}));
const rec = (step: number, acc: number) => ({ step, loss: 1 - acc, accuracy: acc, lr: 0.01, gradNorm: 1 });
const progress = (done: number) => ({ done, total: 16, elapsedMs: done, etaMs: 16 - done, gflops: 1 });

function setupController() {
  const store = createAppStore();
  const actions = createActions(store);
  const f = fakeClient();
  const ctl = createTrainingController(store, actions, f.client);
  return { store, ctl, ...f };
}

describe('training controller', () => {
  it('the lecture slide’s Train asks the worker for the lecture default when nothing is configured, else runs the configured setup', () => {
    const { ctl, sent } = setupController();
    ctl.start('lecture');
    expect(sent).toEqual(['start default (lecture)']);
    ctl.cancel();
    expect(ctl.setSetup(setup)).toBe(true);
    ctl.start('lecture');
    expect(sent.at(-1)).toBe('start softmax,elu1 (lecture)');
  });

  it('start sends the configured setup, the worker’s steps grow the curves, pause and resume follow the worker', () => {
    const { store, ctl, sent, worker } = setupController();
    expect(ctl.setSetup(setup)).toBe(true);
    ctl.start();
    expect(sent).toEqual(['start softmax,elu1']);
    expect(store.getState().training.status).toBe('starting');
    const id = store.getState().training.id;
    worker({ type: 'started', id, backend: 'cpu', device: 'test', setup, reduced: false, runs });
    expect(store.getState().training.status).toBe('running');
    worker({
      type: 'steps',
      id,
      steps: runs.map((r) => ({ run: r.index, record: rec(1, r.index < 2 ? 0.5 : 0.1) })),
      progress: progress(4),
    });
    expect(store.getState().training.curves.map((c) => c.steps.length)).toEqual([1, 1, 1, 1]);
    ctl.pause();
    expect(sent.at(-1)).toBe('pause');
    worker({ type: 'paused', id, progress: progress(4) });
    expect(store.getState().training.status).toBe('paused');
    ctl.pause(); // not running: nothing sent
    expect(sent.filter((s) => s === 'pause').length).toBe(1);
    ctl.resume();
    expect(sent.at(-1)).toBe('resume');
    worker({ type: 'resumed', id });
    expect(store.getState().training.status).toBe('running');
  });

  it('cancel is sent only while training; the cancelled comparison keeps its curves; stale messages are ignored', () => {
    const { store, ctl, sent, worker } = setupController();
    ctl.cancel();
    expect(sent).toEqual([]);
    ctl.start();
    const id = store.getState().training.id;
    worker({ type: 'started', id, backend: 'cpu', device: 'test', setup, reduced: true, runs });
    worker({ type: 'steps', id, steps: [{ run: 0, record: rec(1, 0.2) }], progress: progress(1) });
    ctl.cancel();
    expect(sent.at(-1)).toBe('cancel');
    worker({ type: 'cancelled', id, progress: progress(1) });
    const tr = store.getState().training;
    expect(tr.status).toBe('cancelled');
    expect(tr.curves[0].loss).toEqual([0.8]);
    expect(tr.reduced).toBe(true);
    worker({ type: 'steps', id: id - 1, steps: [{ run: 0, record: rec(2, 0.9) }], progress: progress(2) });
    expect(store.getState().training.curves[0].steps).toEqual([1]);
  });

  it('a worker error is shown with its code, never thrown', () => {
    const { store, ctl, worker } = setupController();
    ctl.start();
    const id = store.getState().training.id;
    worker({ type: 'error', id, error: { code: 'gpu-validation', message: 'out of memory' } });
    expect(store.getState().training.status).toBe('error');
    expect(store.getState().training.error).toEqual({ code: 'gpu-validation', message: 'out of memory' });
  });

  it('setSetup refuses what the URL would refuse, with a notice, and keeps the previous value', () => {
    const { store, ctl } = setupController();
    ctl.setSetup(setup);
    expect(ctl.setSetup({ ...setup, heads: 3, layers: 99 })).toBe(false);
    expect(store.getState().training.setup).toEqual(setup);
    const keys = store.getState().notices.map((n) => (n.code === 'param-rejected' ? n.key : ''));
    expect(keys).toEqual(['train.layers', 'train.h']);
  });

  it('summarize: the mean over seeds with the seeds’ band, and the step every seed reached', () => {
    const curves = [
      {
        steps: [1, 2],
        loss: [1, 0.5],
        accuracy: [0.2, 0.6],
        evalSteps: [2],
        evalLoss: [0.5],
        evalAccuracy: [0.6],
        last: null,
      },
      { steps: [1], loss: [0.8], accuracy: [0.4], evalSteps: [], evalLoss: [], evalAccuracy: [], last: null },
      {
        steps: [1, 2],
        loss: [1, 0.9],
        accuracy: [0.1, 0.1],
        evalSteps: [2],
        evalLoss: [0.9],
        evalAccuracy: [0.1],
        last: null,
      },
      {
        steps: [1, 2],
        loss: [1, 0.7],
        accuracy: [0.1, 0.3],
        evalSteps: [2],
        evalLoss: [0.7],
        evalAccuracy: [0.3],
        last: null,
      },
    ];
    const g = summarize({ runs, curves });
    expect(g.map((x) => x.kind)).toEqual(['softmax', 'elu1']);
    expect(g[0].latest).toEqual({ step: 1, loss: 0.9, accuracy: expect.closeTo(0.3, 12) as unknown as number });
    expect(g[0].accuracy.lo).toEqual([0.2]);
    expect(g[0].accuracy.hi).toEqual([0.4]);
    expect(g[0].final).toBeNull(); // seed 2 has no eval yet
    expect(g[1].final?.accuracy).toBeCloseTo(0.2, 12);
    expect(g[1].final?.accuracySpread).toBeCloseTo(0.1, 12);
  });
});

describe('the why sentence', () => {
  const g = (kind: 'softmax' | 'elu1' | 'elu1-local', accuracy: number) =>
    ({ kind, final: { accuracy, accuracySpread: 0, loss: 1, lossSpread: 0, step: 1 } }) as unknown as Parameters<
      typeof whyKind
    >[1];
  it('explains the papers’ gap only when the result shows it; a small or reversed gap gets its own sentence', () => {
    expect(whyKind('mqar', g('softmax', 0.99), g('elu1', 0.3))).toBe('expected');
    expect(whyKind('mqar', g('elu1', 0.5), g('softmax', 0.3))).toBe('other');
    expect(whyKind('mqar', g('softmax', 0.32), g('elu1', 0.3))).toBe('close');
    expect(whyKind('local', g('elu1-local', 0.6), g('elu1', 0.4))).toBe('expected');
    expect(whyKind('lm', g('elu1', 0.6), g('softmax', 0.4))).toBe('expected');
  });
});

describe('training series', () => {
  it('LM then MLM: the second comparison starts when the first is done, each leaves its final numbers', () => {
    const { store, ctl, sent, worker } = setupController();
    ctl.setSetup(setup);
    expect(ctl.startSeries('lm-mlm')).toBe(true);
    expect(store.getState().training.setup?.task).toBe('lm');
    const finish = (task: 'lm' | 'mlm') => {
      const id = store.getState().training.id;
      const s = { ...setup, task };
      worker({ type: 'started', id, backend: 'cpu', device: 'test', setup: s, reduced: false, runs });
      const last = (r: number) => ({ ...rec(4, r < 2 ? 0.9 : 0.5), evalLoss: 0.1, evalAccuracy: r < 2 ? 0.9 : 0.5 });
      worker({
        type: 'steps',
        id,
        steps: runs.map((r) => ({ run: r.index, record: last(r.index) })),
        progress: progress(16),
      });
      worker({ type: 'done', id, progress: progress(16), exampleTokens: new Int32Array(4), maps: [] });
    };
    finish('lm');
    expect(sent).toEqual(['start softmax,elu1', 'start softmax,elu1']);
    expect(store.getState().training.setup?.task).toBe('mlm');
    finish('mlm');
    const tr = store.getState().training;
    expect(tr.series).toBeNull();
    expect(tr.history.map((h) => h.setup.task)).toEqual(['lm', 'mlm']);
    expect(tr.history[1].finals.map((f) => [f.kind, f.accuracy])).toEqual([
      ['softmax', 0.9],
      ['elu1', 0.5],
    ]);
  });

  it('a pairs sweep grows L so every pair count fits; cancel ends the series', () => {
    const { store, ctl, sent, worker } = setupController();
    ctl.setSetup(setup);
    ctl.startSeries('pairs');
    expect(store.getState().training.setup).toMatchObject({ pairs: 2, seqLen: Math.max(setup.seqLen, 48) });
    expect(store.getState().training.series?.queue.map((s) => s.pairs)).toEqual([4, 8, 16]);
    const id = store.getState().training.id;
    worker({ type: 'started', id, backend: 'cpu', device: 'test', setup, reduced: false, runs });
    ctl.cancel();
    worker({ type: 'cancelled', id, progress: null });
    expect(store.getState().training.series).toBeNull();
    expect(sent.filter((s) => s.startsWith('start')).length).toBe(1);
  });
});

describe('the transfer experiment in the controller', () => {
  it('Transfer configures the backend’s default transfer setup and starts it; the controls can switch back to a comparison', () => {
    const { store, ctl, sent } = setupController();
    ctl.startTransfer();
    const s = store.getState().training.setup!;
    expect(s).toEqual(transferSetup('webgpu'));
    expect(sent).toEqual(['start positive,hedgehog']);
    ctl.cancel();
    // switching back as the controls do: the maps get softmax in front again
    expect(
      ctl.setSetup({ ...s, transfer: false, kinds: adaptKinds(s.kinds, false), lr: ['auto', 'auto', 'auto'] }),
    ).toBe(true);
    expect(store.getState().training.setup).toMatchObject({
      transfer: false,
      kinds: ['softmax', 'positive', 'hedgehog'],
    });
    // a comparison kind in a transfer is refused with a notice and the maps are kept
    ctl.setSetup({ ...s });
    expect(ctl.setSetup({ ...s, kinds: ['softmax', 'positive'], lr: ['auto', 'auto'] })).toBe(false);
    expect(store.getState().training.setup?.kinds).toEqual(['positive', 'hedgehog']);
  });
});

describe('training in an embed', () => {
  it('pauses off screen and resumes on screen, but never resumes what the reader paused', () => {
    const { store, ctl, sent, worker } = setupController();
    ctl.start();
    const id = store.getState().training.id;
    worker({ type: 'started', id, backend: 'cpu', device: 'test', setup, reduced: false, runs });
    ctl.setVisible(false);
    expect(sent.at(-1)).toBe('pause');
    worker({ type: 'paused', id, progress: progress(1) });
    ctl.setVisible(true);
    expect(sent.at(-1)).toBe('resume');
    worker({ type: 'resumed', id });
    ctl.pause();
    worker({ type: 'paused', id, progress: progress(2) });
    ctl.setVisible(false);
    ctl.setVisible(true);
    expect(sent.filter((s) => s === 'resume').length).toBe(1);
  });
});
