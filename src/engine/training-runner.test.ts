import { describe, expect, it } from 'vitest';
import type { Batch, ParamTensor, StepRecord, TrainConfig } from '../core/train/types';
import type { TrainingResponse } from './training-protocol';
import { createLoop, RATE_WINDOW, startTrainingSession, type RunnerDeps, type TrainerLike } from './training-runner';
import { defaultSetup, type TrainingSetup } from './training-setup';

/** A test double of the trainer: the loss falls as 1/step, and it records the order it was stepped in. */
function fakeTrainer(cfg: TrainConfig, log: string[], failAt = -1): TrainerLike {
  let step = 0;
  const name = `${cfg.model.attention.kind === 'softmax' ? 'softmax' : cfg.model.attention.map}:${cfg.seed}`;
  return {
    async step(): Promise<StepRecord> {
      step++;
      if (step === failAt) throw new Error('boom');
      log.push(`${name}@${step}`);
      const evalNow = step % cfg.evalEvery === 0 || step === cfg.steps;
      return {
        step,
        loss: 1 / step,
        accuracy: 1 - 1 / step,
        lr: cfg.optimizer.lr,
        gradNorm: 1,
        ...(evalNow ? { evalLoss: 1 / step, evalAccuracy: 1 - 1 / step } : {}),
      };
    },
    async params(): Promise<ParamTensor[]> {
      return [{ name: 'tok', shape: [1], decay: false, data: new Float32Array([step]) }];
    },
    async attentionMaps(example: Batch) {
      return [[new Float32Array(example.seqLen * example.seqLen)]];
    },
    dispose() {
      log.push(`dispose ${name}`);
    },
  };
}

function harness(_setup: TrainingSetup, opts: { failAt?: number } = {}) {
  const msgs: TrainingResponse[] = [];
  const log: string[] = [];
  let clock = 0;
  const deps: RunnerDeps = {
    createTrainer: async (cfg) => fakeTrainer(cfg, log, opts.failAt),
    stepFlops: () => 1e6,
    example: (s) => ({
      batch: 1,
      seqLen: s.seqLen,
      tokens: new Int32Array(s.seqLen),
      targets: new Int32Array(s.seqLen),
      mask: new Uint8Array(s.seqLen),
    }),
    now: () => (clock += 1), // every call is 1 ms later
    yieldNow: () => new Promise((r) => setTimeout(r, 0)),
    post: (m) => msgs.push(m),
    flushMs: 5,
  };
  return { msgs, log, deps };
}

const tiny: TrainingSetup = {
  ...defaultSetup('cpu'),
  kinds: ['softmax', 'elu1'],
  lr: ['auto', 'auto'],
  seeds: 2,
  steps: 6,
  seqLen: 8,
  pairs: 2,
};

describe('training runner', () => {
  it('steps the runs interleaved (step 1 of every run, then step 2 …) and streams every step in batches', async () => {
    const h = harness(tiny);
    const s = startTrainingSession(1, tiny, { backend: 'cpu', device: 'test', reduced: false }, h.deps);
    await s.finished;
    expect(h.log.slice(0, 8)).toEqual([
      'softmax:1@1',
      'softmax:2@1',
      'elu1:1@1',
      'elu1:2@1',
      'softmax:1@2',
      'softmax:2@2',
      'elu1:1@2',
      'elu1:2@2',
    ]);
    const types = h.msgs.map((m) => m.type);
    expect(types[0]).toBe('started');
    expect(types.at(-1)).toBe('done');
    const steps = h.msgs.flatMap((m) => (m.type === 'steps' ? m.steps : []));
    expect(steps.length).toBe(4 * 6);
    // batched: fewer messages than steps
    expect(h.msgs.filter((m) => m.type === 'steps').length).toBeLessThan(steps.length);
    const done = h.msgs.at(-1);
    if (done?.type !== 'done') throw new Error('not done');
    expect(done.progress.done).toBe(24);
    expect(done.progress.etaMs).toBe(0);
    expect(done.progress.gflops).toBeGreaterThan(0);
    // maps of each kind's first seed only
    expect(done.maps.map((m) => m.run)).toEqual([0, 2]);
    expect((await s.weights(3))[0].data[0]).toBe(6);
  });

  it('pause stops the steps at once (no step message until resume); resume continues to the end', async () => {
    const h = harness({ ...tiny, steps: 50 });
    const s = startTrainingSession(
      2,
      { ...tiny, steps: 50 },
      { backend: 'cpu', device: 'test', reduced: false },
      h.deps,
    );
    while (h.log.length < 10) await new Promise((r) => setTimeout(r, 0));
    s.pause();
    for (let i = 0; i < 5 && !h.msgs.some((m) => m.type === 'paused'); i++) await new Promise((r) => setTimeout(r, 0));
    const paused = h.msgs.find((m) => m.type === 'paused');
    expect(paused).toBeDefined();
    const at = h.log.length;
    await new Promise((r) => setTimeout(r, 20));
    expect(h.log.length).toBe(at);
    s.resume();
    await s.finished;
    expect(h.msgs.some((m) => m.type === 'resumed')).toBe(true);
    expect(h.msgs.at(-1)?.type).toBe('done');
  });

  it('cancel ends the comparison at the next step, says cancelled and frees every trainer', async () => {
    const h = harness({ ...tiny, steps: 50 });
    const s = startTrainingSession(
      3,
      { ...tiny, steps: 50 },
      { backend: 'cpu', device: 'test', reduced: false },
      h.deps,
    );
    while (h.log.length < 6) await new Promise((r) => setTimeout(r, 0));
    s.cancel();
    await s.finished;
    expect(h.msgs.at(-1)?.type).toBe('cancelled');
    expect(h.log.filter((l) => l.startsWith('dispose')).length).toBe(4);
    expect(h.log.filter((l) => l.includes('@')).length).toBeLessThan(4 * 50);
  });

  it('a trainer that throws becomes an error message (never an uncaught rejection)', async () => {
    const h = harness(tiny, { failAt: 3 });
    const s = startTrainingSession(4, tiny, { backend: 'cpu', device: 'test', reduced: false }, h.deps);
    await s.finished;
    const last = h.msgs.at(-1);
    expect(last?.type).toBe('error');
    if (last?.type === 'error') expect(last.error.message).toContain('boom');
  });
});

describe('training loop clock', () => {
  /** A loop on a manual clock whose every step takes 10 ms and does 1e6 FLOPs; `onStep(k)` runs inside step k. */
  function clocked(onStep: (k: number, session: ReturnType<ReturnType<typeof createLoop>['session']>) => void) {
    let clock = 1_000;
    const msgs: TrainingResponse[] = [];
    const loop = createLoop(
      7,
      { now: () => clock, yieldNow: () => Promise.resolve(), post: (m) => msgs.push(m), flushMs: 1e9 },
      10,
      () => {},
    );
    const session = loop.session(Promise.resolve(), async () => []);
    let k = 0;
    const trainer = {
      async step(): Promise<StepRecord> {
        clock += 10;
        onStep(++k, session);
        return { step: k, loss: 1, accuracy: 0, lr: 1e-3, gradNorm: 1 };
      },
      params: async () => [],
      attentionMaps: async () => [],
      dispose() {},
    } as TrainerLike;
    loop.setFlopsTotal(10e6);
    const wait = (ms: number) => (clock += ms);
    return { loop, msgs, entries: [{ run: 0, trainer, flops: 1e6 }], wait };
  }
  const last = <T extends TrainingResponse['type']>(msgs: TrainingResponse[], type: T) =>
    msgs.filter((m): m is Extract<TrainingResponse, { type: T }> => m.type === type).at(-1)!;

  it('a run cancelled while stepping reports its rate over the active time counted once (a warm-up step, then one of 10 ms, cancelled: 0.1 GFLOP/s; counted twice it would read 0.033)', async () => {
    // cancelled at the second step: one timed step, so the rate is the timed FLOPs over the active time
    // (the recent window needs two), the path a double-counted clock would show in
    const h = clocked((k, s) => k === 2 && s.cancel());
    h.wait(5_000); // building the trainers is not active time
    h.loop.begin();
    expect(await h.loop.stepAll(h.entries, 10)).toBe(false);
    h.loop.cancelled();
    const p = last(h.msgs, 'cancelled').progress!;
    expect(p.done).toBe(2);
    expect(p.gflops).toBeCloseTo(1e6 / 10 / 1e6, 12);
  });

  it("each run's first step (where a GPU trainer compiles its pipelines) is not in the rate: two runs at 5 s then 10 ms per step give 0.1 GFLOP/s and the ETA at that rate; none after the first round alone", async () => {
    const h = clocked((k) => k <= 2 && h.wait(5_000 - 10));
    const two = [h.entries[0]!, { ...h.entries[0]!, run: 1 }];
    h.loop.begin();
    await h.loop.stepAll(two, 1);
    const first = last(h.msgs, 'steps').progress;
    expect(first.done).toBe(2);
    expect(first.gflops).toBeNull();
    expect(first.etaMs).toBeNull();
    // the next call's first round is a warm-up again (the transfer runner's phase 2 has new trainers)
    await h.loop.stepAll(two, 3);
    const p = last(h.msgs, 'steps').progress;
    expect(p.done).toBe(8);
    expect(p.gflops).toBeCloseTo(4e6 / 40 / 1e6, 12);
    expect(p.etaMs).toBeCloseTo((10e6 - 8e6) / (4e6 / 40), 6);
  });

  it('the rate is the recent one: after a 5 s first step, 4 steps of 100 ms and 25 of 10 ms, 0.1 GFLOP/s (the mean since the warm-up would be 0.045) and the ETA at that rate', async () => {
    const h = clocked((k) => {
      if (k === 1) h.wait(5_000 - 10);
      else if (k <= 5) h.wait(100 - 10);
    });
    h.loop.setFlopsTotal(40e6);
    h.loop.begin();
    await h.loop.stepAll(h.entries, 30);
    const p = last(h.msgs, 'steps').progress;
    expect(p.done).toBe(30);
    expect(RATE_WINDOW).toBeLessThan(25);
    expect(p.gflops).toBeCloseTo(0.1, 12);
    expect(p.etaMs).toBeCloseTo((40e6 - 30e6) / 1e5, 6);
  });

  it('a pause is not active time: 4 steps with a 1 s pause between them still run at 0.1 GFLOP/s, and the ETA is the rest at that rate', async () => {
    let resume: (() => void) | null = null;
    const h = clocked((k, s) => {
      if (k === 2) {
        s.pause();
        resume = () => s.resume();
      }
    });
    h.loop.begin();
    const run = h.loop.stepAll(h.entries, 4);
    await new Promise((r) => setTimeout(r, 0));
    expect(last(h.msgs, 'paused').progress.gflops).toBeCloseTo(0.1, 12);
    h.wait(1_000);
    resume!();
    expect(await run).toBe(true);
    const p = last(h.msgs, 'steps').progress;
    expect(p.done).toBe(4);
    expect(p.gflops).toBeCloseTo(4e6 / 40 / 1e6, 12);
    expect(p.etaMs).toBeCloseTo((10e6 - 4e6) / (4e6 / 40), 6);
  });
});
