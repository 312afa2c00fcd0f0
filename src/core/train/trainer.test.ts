import { describe, expect, it } from 'vitest';
import { defaultTrainConfig, linearSpec } from './train-defaults';
import { createCpuTrainer } from './trainer';
import type { TrainConfig } from './types';

function tiny(attention = linearSpec('positive', 8)): TrainConfig {
  const c = defaultTrainConfig('mqar', attention);
  return {
    ...c,
    model: {
      ...c.model,
      dModel: 16,
      seqLen: 12,
      vocab: 16,
      attention: { ...attention, redraw: attention.kind === 'linear' ? 2 : 0 } as typeof attention,
    },
    task: { ...c.task, pairs: 3, seqLen: 12, vocab: 16 },
    batch: 4,
    steps: 6,
    evalEvery: 3,
  };
}

async function losses(cfg: TrainConfig): Promise<number[]> {
  const t = createCpuTrainer(cfg);
  const out: number[] = [];
  for (let i = 0; i < cfg.steps; i++) out.push((await t.step()).loss);
  return out;
}

describe('CPU trainer', () => {
  it('same seed → the same loss curve, bit for bit (FAVOR+ with redraws every 2 steps)', async () => {
    const a = await losses(tiny());
    const b = await losses(tiny());
    expect(new Float64Array(a)).toEqual(new Float64Array(b));
    const c = await losses({ ...tiny(), seed: 2 });
    expect(c).not.toEqual(a);
  });

  it('evaluates on the held-out set every evalEvery steps and at the last step', async () => {
    const cfg = { ...tiny({ kind: 'softmax' }), steps: 4 };
    const t = createCpuTrainer(cfg);
    const recs = [];
    for (let i = 0; i < 4; i++) recs.push(await t.step());
    expect(recs.map((r) => r.evalAccuracy !== undefined)).toEqual([false, false, true, true]);
    expect(recs[0].step).toBe(1);
    expect(recs[0].lr).toBeGreaterThan(0);
    expect(recs[0].gradNorm).toBeGreaterThan(0);
  });

  it('training lowers the loss on a small MQAR (softmax, 40 steps)', async () => {
    const cfg = { ...tiny({ kind: 'softmax' }), steps: 40, evalEvery: 0 };
    const l = await losses(cfg);
    const first = (l[0] + l[1] + l[2]) / 3;
    const last = (l[37] + l[38] + l[39]) / 3;
    expect(last).toBeLessThan(first - 0.3);
  });

  it('params() are copies and attentionMaps() gives [layer][head] L×L', async () => {
    const t = createCpuTrainer(tiny());
    const p = await t.params();
    p[0].data[0] = 123;
    expect((await t.params())[0].data[0]).not.toBe(123);
    const maps = await t.attentionMaps({
      batch: 1,
      seqLen: 12,
      tokens: new Int32Array(12).fill(1),
      targets: new Int32Array(12),
      mask: new Uint8Array(12),
    });
    expect(maps.length).toBe(tiny().model.layers);
    expect(maps[0][0].length).toBe(144);
  });
});
