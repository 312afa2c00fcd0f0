import { describe, expect, it } from 'vitest';
import { evaluateModel, transferParams } from '../core/train/transfer';
import { createCpuTrainer } from '../core/train/trainer';
import type { TrainingResponse, TransferReport } from './training-protocol';
import { startTransferSession, type TransferDeps } from './transfer-runner';
import { transferSetup, transferSpecs, transferTotalSteps } from './transfer-setup';
import { taskConfig, type TrainingSetup } from './training-setup';
import { makeBatch } from '../core/train/tasks/index';
import { createHedgehogFit, type HedgehogFitLike } from '../core/train/hedgehog-distill';

const tiny: TrainingSetup = {
  ...transferSetup('cpu'),
  pairs: 2,
  seqLen: 8,
  dModel: 8,
  batch: 4,
  steps: 12,
  tune: 6,
  fit: 4,
  m: 4,
  seeds: 2,
};

function harness() {
  const msgs: TrainingResponse[] = [];
  const deps: TransferDeps = {
    createTrainer: async (cfg, initial) => createCpuTrainer(cfg, { initial }),
    stepFlops: () => 1e6,
    example: (s) => makeBatch(taskConfig(s), 1, 99, 0),
    now: () => performance.now(),
    yieldNow: () => new Promise((r) => setTimeout(r, 0)),
    post: (m) => msgs.push(m),
    flushMs: 0,
  };
  return { msgs, deps };
}

const info = { backend: 'cpu' as const, device: 'test', reduced: false };

describe('transfer runner (CPU twins)', () => {
  it('runs softmax, then per map and seed fine-tune / scratch (/ fitted for Hedgehog); every step is posted once', async () => {
    const h = harness();
    const s = startTransferSession(1, tiny, info, h.deps);
    await s.finished;
    const types = h.msgs.map((m) => m.type);
    expect(types[0]).toBe('started');
    expect(types.at(-1)).toBe('done');
    const started = h.msgs[0];
    if (started.type !== 'started') throw new Error('not started');
    expect(started.runs.map((r) => `${r.role}:${r.kind}:${r.seed}`)).toEqual([
      'softmax:softmax:1',
      'softmax:softmax:2',
      'finetune:positive:1',
      'finetune:positive:2',
      'scratch:positive:1',
      'scratch:positive:2',
      'finetune:hedgehog:1',
      'finetune:hedgehog:2',
      'scratch:hedgehog:1',
      'scratch:hedgehog:2',
      'fitted:hedgehog:1',
      'fitted:hedgehog:2',
    ]);
    // the report comes after the last softmax step and before the first phase-2 step
    const iReport = types.indexOf('transfer');
    const stepRuns = (from: number, to: number) =>
      h.msgs.slice(from, to).flatMap((m) => (m.type === 'steps' ? m.steps.map((x) => x.run) : []));
    expect(new Set(stepRuns(0, iReport))).toEqual(new Set([0, 1]));
    expect(stepRuns(iReport, h.msgs.length).every((r) => r >= 2)).toBe(true);
    const all = stepRuns(0, h.msgs.length);
    expect(all.filter((r) => r === 0).length).toBe(tiny.steps);
    expect(all.filter((r) => r === 5).length).toBe(tiny.tune);
    const done = h.msgs.at(-1);
    if (done?.type !== 'done') throw new Error('not done');
    expect(done.progress.done).toBe(transferTotalSteps(tiny));
    expect(done.progress.done).toBe(2 * tiny.steps + 10 * tiny.tune + 2 * tiny.fit);
  });

  it('step 0 of each fine-tune run equals evaluating the softmax run’s weights, swapped, directly; fits lower the KL', async () => {
    const h = harness();
    const s = startTransferSession(2, tiny, info, h.deps);
    await s.finished;
    const msg = h.msgs.find((m) => m.type === 'transfer');
    const report: TransferReport = msg?.type === 'transfer' ? msg.report : (null as never);
    const specs = transferSpecs(tiny);
    for (const spec of specs.filter((x) => x.role === 'finetune')) {
      const teacher = await s.weights(spec.source);
      const direct = evaluateModel(transferParams(teacher, spec.config.model, spec.seed), spec.config);
      const step0 = report.step0.find((x) => x.run === spec.index)!;
      expect({ loss: step0.loss, accuracy: step0.accuracy }).toEqual(direct);
    }
    expect(report.step0.length).toBe(specs.length - 2);
    expect(report.fits.length).toBe(2);
    for (const f of report.fits) expect(f.after).toBeLessThan(f.before);
    expect(report.concentration.map((c) => c.seed)).toEqual([1, 2]);
    expect(report.favorM.filter((x) => x.seed === 1).map((x) => x.m)).toEqual([4, 16, 64, 256]);
    // maps of the first seed: the softmax teacher and its swapped / fitted models at step 0, then after the fine-tune
    expect(report.maps.map((m) => m.run)).toEqual([0, 2, 6, 10]);
    const done = h.msgs.at(-1);
    if (done?.type !== 'done') throw new Error('not done');
    expect(done.maps.map((m) => m.run)).toEqual([2, 6, 10]);
    const L = tiny.seqLen;
    expect(report.maps[1].maps[0][0].length).toBe(L * L);
    // the swapped FAVOR+ head is not the softmax head's matrix, and its rows are still distributions
    expect(report.maps[1].maps[0][0]).not.toEqual(report.maps[0].maps[0][0]);
    let row = 0;
    for (let j = 0; j < L; j++) row += report.maps[1].maps[0][0][(L - 1) * L + j];
    expect(row).toBeCloseTo(1, 4);
  });

  it('a backend fit from deps.createFit (async, as the WebGPU one) is driven and disposed, and gives the same report as the default CPU fit', async () => {
    const calls = { created: 0, steps: 0, disposed: 0 };
    const h = harness();
    h.deps.createFit = async (...args) => {
      calls.created++;
      const f = createHedgehogFit(...args);
      const wrapped: HedgehogFitLike = {
        steps: f.steps,
        step: async () => (calls.steps++, f.step()),
        heldOutLoss: async () => f.heldOutLoss(),
        params: async () => f.params(),
        dispose: () => void calls.disposed++,
      };
      return wrapped;
    };
    const s = startTransferSession(4, tiny, info, h.deps);
    await s.finished;
    const ref = harness();
    await startTransferSession(5, tiny, info, ref.deps).finished;
    const reportOf = (msgs: TrainingResponse[]) => {
      const m = msgs.find((x) => x.type === 'transfer');
      return m?.type === 'transfer' ? m.report : null;
    };
    expect(calls).toEqual({ created: tiny.seeds, steps: tiny.seeds * tiny.fit, disposed: tiny.seeds });
    const got = reportOf(h.msgs)!;
    const want = reportOf(ref.msgs)!;
    expect(got.fits).toEqual(want.fits);
    expect(got.step0).toEqual(want.step0);
  });

  it('cancel during phase 2 ends the experiment: cancelled, no more steps', async () => {
    const h = harness();
    const setup = { ...tiny, tune: 400 };
    const s = startTransferSession(3, setup, info, h.deps);
    while (!h.msgs.some((m) => m.type === 'transfer')) await new Promise((r) => setTimeout(r, 5));
    s.cancel();
    await s.finished;
    expect(h.msgs.at(-1)?.type).toBe('cancelled');
    const steps = h.msgs.flatMap((m) => (m.type === 'steps' ? m.steps : []));
    expect(steps.length).toBeLessThan(2 * setup.steps + 10 * setup.tune);
  });
});
