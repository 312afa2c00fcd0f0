import { describe, expect, it } from 'vitest';
import type { HedgehogParams } from './attention-layer';
import { distillLayer, createHedgehogFit, type DistillShape } from './hedgehog-distill';
import { gradCheck, randArr } from './grad-check';
import { softmaxAttentionForward } from './softmax-attention';
import { defaultTrainConfig, linearSpec } from './train-defaults';
import { createCpuTrainer } from './trainer';
import { transferParams } from './transfer';
import type { TrainConfig } from './types';

describe('Hedgehog attention distillation', () => {
  for (const causal of [true, false]) {
    it(`the KL's gradient w.r.t. Wh, bh (queries and keys) matches central differences in f64 (${causal ? 'causal' : 'bidirectional'}, 2 heads)`, () => {
      const s: DistillShape = { B: 2, L: 5, H: 2, dh: 3, m: 4, causal };
      const D = s.H * s.dh;
      const rows = s.B * s.L;
      const q = randArr(rows * D, 11);
      const k = randArr(rows * D, 12);
      const v = randArr(rows * D, 13);
      const { p } = softmaxAttentionForward(q, k, v, s.B, s.L, s.H, s.dh, causal);
      const hh: HedgehogParams = {
        qw: randArr(s.H * s.dh * s.m, 14, 0.7),
        qb: randArr(s.H * s.m, 15, 0.3),
        kw: randArr(s.H * s.dh * s.m, 16, 0.7),
        kb: randArr(s.H * s.m, 17, 0.3),
      };
      const norm = s.H * rows;
      const { loss, grads } = distillLayer({ q, k, p }, hh, s, norm);
      expect(loss).toBeGreaterThan(0);
      const f = () => distillLayer({ q, k, p }, hh, s, norm).loss;
      for (const key of ['qw', 'qb', 'kw', 'kb'] as const) {
        expect(gradCheck(f, hh[key] as Float64Array, grads[key]), key).toBeLessThan(1e-6);
      }
    });
  }

  it('the fit lowers the held-out KL between the softmax and the Hedgehog attention rows', async () => {
    const base = defaultTrainConfig('mqar');
    const soft: TrainConfig = {
      ...base,
      model: { ...base.model, dModel: 16, seqLen: 16, vocab: 16 },
      task: { ...base.task, pairs: 3, seqLen: 16, vocab: 16 },
      batch: 4,
      steps: 30,
      evalEvery: 30,
    };
    const t = createCpuTrainer(soft);
    for (let i = 0; i < soft.steps; i++) await t.step();
    const teacher = await t.params();
    const hhCfg: TrainConfig = { ...soft, model: { ...soft.model, attention: linearSpec('hedgehog', 8) } };
    const student = transferParams(teacher, hhCfg.model, soft.seed);
    const fit = createHedgehogFit(teacher, soft.model, student, hhCfg, 40, 1e-2);
    const before = fit.heldOutLoss();
    for (let i = 0; i < fit.steps; i++) fit.step();
    const after = fit.heldOutLoss();
    expect(after).toBeLessThan(0.8 * before);
    // only the Hedgehog tensors moved
    const fitted = fit.params();
    fitted.forEach((p, i) => {
      if (!p.name.includes('.hh.')) expect(p.data).toEqual(student[i].data);
    });
    expect(fitted.some((p, i) => p.name.includes('.hh.') && p.data.some((x, j) => x !== student[i].data[j]))).toBe(
      true,
    );
  });
});
