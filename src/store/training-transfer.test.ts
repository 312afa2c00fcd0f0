import { describe, expect, it } from 'vitest';
import type { RunInfo, TransferReport } from '../engine/training-protocol';
import { applyTrainingMessage, INITIAL_TRAINING, type RunCurve } from './training';
import { recordOf } from './training-series';
import { summarizeTransfer } from './training-transfer';
import { transferSetup } from '../engine/transfer-setup';

const run = (index: number, role: RunInfo['role'], kind: RunInfo['kind'], seed: number): RunInfo => ({
  index,
  role,
  kind,
  seed,
  lr: 0.01,
  lrFactor: 1,
  flopsPerStep: 1,
});
const curve = (acc: number[]): RunCurve => ({
  steps: acc.map((_, i) => (i + 1) * 5),
  loss: acc.map(() => 1),
  accuracy: acc,
  evalSteps: acc.map((_, i) => (i + 1) * 5),
  evalLoss: acc.map(() => 1),
  evalAccuracy: acc,
  last: null,
});
const runs = [
  run(0, 'softmax', 'softmax', 1),
  run(1, 'softmax', 'softmax', 2),
  run(2, 'finetune', 'positive', 1),
  run(3, 'finetune', 'positive', 2),
];
const curves = [curve([0.5, 0.9]), curve([0.7, 1]), curve([0.6, 0.8]), curve([0.4, 0.6])];
const report: TransferReport = {
  concentration: [
    { seed: 1, heads: [{ layer: 0, head: 0, entropy: 1, uniform: 3, top: 0.5 }] },
    { seed: 2, heads: [{ layer: 0, head: 0, entropy: 2, uniform: 3, top: 0.7 }] },
  ],
  step0: [
    { run: 2, loss: 3, accuracy: 0.2 },
    { run: 3, loss: 3, accuracy: 0.1 },
  ],
  favorM: [
    { seed: 1, m: 16, loss: 3, accuracy: 0.1 },
    { seed: 2, m: 16, loss: 3, accuracy: 0.3 },
  ],
  fits: [],
  maps: [],
};

describe('transfer summary', () => {
  it('groups by (role, map); the fine-tune curve starts at step 0 with the report’s numbers; finals and spreads over seeds', () => {
    const sum = summarizeTransfer({ runs, curves, transfer: report });
    const ft = sum.groups.find((g) => g.role === 'finetune')!;
    expect(ft.accuracy.x).toEqual([0, 5, 10]);
    expect(ft.accuracy.mean[0]).toBeCloseTo(0.15, 12);
    expect(ft.accuracy.lo[0]).toBe(0.1);
    expect(ft.step0).toEqual({ mean: expect.closeTo(0.15, 12), lo: 0.1, hi: 0.2 });
    expect(ft.final).toEqual({ mean: expect.closeTo(0.7, 12), lo: 0.6, hi: 0.8, step: 10 });
    const soft = sum.groups.find((g) => g.role === 'softmax')!;
    expect(soft.step0).toBeNull();
    expect(soft.final?.mean).toBeCloseTo(0.95, 12);
    expect(sum.concentration).toEqual([{ layer: 0, head: 0, entropy: 1.5, uniform: 3, top: 0.6 }]);
    expect(sum.favorM).toEqual([{ m: 16, mean: expect.closeTo(0.2, 12), lo: 0.1, hi: 0.3, loss: 3 }]);
  });

  it('the reducer keeps the transfer report, a new start clears it; a finished transfer leaves no comparison record', () => {
    let s = { ...INITIAL_TRAINING, id: 7 };
    const started = {
      type: 'started' as const,
      id: 7,
      backend: 'cpu' as const,
      device: 'x',
      setup: transferSetup('cpu'),
      reduced: false,
      runs,
    };
    s = applyTrainingMessage(s, started);
    s = applyTrainingMessage(s, { type: 'transfer', id: 7, report });
    expect(s.transfer).toBe(report);
    expect(recordOf(s, null)).toBeNull();
    expect(applyTrainingMessage(s, started).transfer).toBeNull();
  });
});
