import { describe, expect, it } from 'vitest';
import { evalSet } from './eval-set';
import { initParams } from './model';
import { defaultTrainConfig, linearSpec } from './train-defaults';
import { createCpuTrainer } from './trainer';
import { attentionConcentration, evaluateModel, transferParams } from './transfer';
import { TRAIN_FEATURE_MAPS, type AttentionSpec, type TrainConfig } from './types';

function tiny(attention: AttentionSpec, extra: Partial<TrainConfig['model']> = {}): TrainConfig {
  const c = defaultTrainConfig('mqar', attention);
  return {
    ...c,
    model: { ...c.model, dModel: 16, heads: 2, seqLen: 12, vocab: 16, layers: 2, mlp: true, ...extra, attention },
    task: { ...c.task, pairs: 3, seqLen: 12, vocab: 16 },
    batch: 4,
    steps: 8,
    evalEvery: 4,
  };
}

async function trainedSoftmax() {
  const cfg = tiny({ kind: 'softmax' });
  const t = createCpuTrainer(cfg);
  for (let i = 0; i < cfg.steps; i++) await t.step();
  return { cfg, params: await t.params() };
}

describe('transfer: softmax → feature map', () => {
  for (const map of TRAIN_FEATURE_MAPS) {
    it(`${map}: every tensor both models have is copied bit for bit; the others are the target's init`, async () => {
      const { params } = await trainedSoftmax();
      const target = tiny(linearSpec(map, 8)).model;
      const out = transferParams(params, target, 5);
      const init = initParams(target, 5);
      expect(out.map((p) => p.name)).toEqual(init.map((p) => p.name));
      const byName = new Map(params.map((p) => [p.name, p]));
      out.forEach((p, i) => {
        const src = byName.get(p.name);
        expect(p.data).toEqual(src ? src.data : init[i].data);
        if (src) expect(p.data).not.toBe(src.data);
      });
      const extra = out.filter((p) => !byName.has(p.name)).map((p) => p.name);
      expect(extra).toEqual(
        map === 'hedgehog'
          ? ['l0.hh.q.w', 'l0.hh.q.b', 'l0.hh.k.w', 'l0.hh.k.b', 'l1.hh.q.w', 'l1.hh.q.b', 'l1.hh.k.w', 'l1.hh.k.b']
          : [],
      );
    });
  }

  it('refuses a shared tensor whose shape differs (another d_model)', async () => {
    const { params } = await trainedSoftmax();
    expect(() => transferParams(params, tiny(linearSpec('elu1'), { dModel: 8 }).model, 1)).toThrow(RangeError);
  });

  for (const map of ['positive', 'hedgehog'] as const) {
    it(`${map}: a trainer started from the swapped parameters evaluates, before its first step, to exactly evaluateModel of them`, async () => {
      const { params } = await trainedSoftmax();
      const cfg = tiny(linearSpec(map, 8));
      const swapped = transferParams(params, cfg.model, cfg.seed);
      const direct = evaluateModel(swapped, cfg);
      const t = createCpuTrainer(cfg, { initial: swapped });
      expect(await t.evaluate()).toEqual(direct);
      // and the trainer copies: stepping it leaves the swapped list untouched
      await t.step();
      expect(evaluateModel(swapped, cfg)).toEqual(direct);
    });
  }

  it('a trainer refuses initial parameters of another model', async () => {
    const { params } = await trainedSoftmax();
    expect(() => createCpuTrainer(tiny(linearSpec('hedgehog', 8)), { initial: params })).toThrow(RangeError);
  });

  it('concentration: per layer and head, 0 ≤ entropy ≤ the uniform row’s, 1/keys ≤ top ≤ 1', async () => {
    const { cfg, params } = await trainedSoftmax();
    const c = attentionConcentration(params, cfg.model, evalSet(cfg));
    expect(c.map((h) => [h.layer, h.head])).toEqual([
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
    ]);
    for (const h of c) {
      expect(h.entropy).toBeGreaterThanOrEqual(0);
      expect(h.entropy).toBeLessThanOrEqual(h.uniform + 1e-9);
      expect(h.top).toBeLessThanOrEqual(1);
      expect(h.top).toBeGreaterThan(0);
    }
  });
});
