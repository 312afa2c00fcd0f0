import { describe, expect, it } from 'vitest';
import { defaultTrainConfig } from '../core/train/train-defaults';
import { defaultSetup, runSpecs } from '../engine/training-setup';
import { seriesSetups } from './training-series';

describe('LM then MLM series', () => {
  it('from the MQAR default, each task trains at its tuned grammar default (sizes, steps, batch, auto LR per task)', () => {
    const base = defaultSetup('webgpu');
    const setups = seriesSetups('lm-mlm', base)!;
    expect(setups.map((s) => s.task)).toEqual(['lm', 'mlm']);
    for (const s of setups) {
      const core = defaultTrainConfig(s.task as 'lm' | 'mlm');
      expect(s.kinds).toEqual(base.kinds);
      expect([s.seqLen, s.dModel, s.heads, s.layers, s.mlp, s.shortConv, s.steps, s.batch]).toEqual([
        core.task.seqLen,
        core.model.dModel,
        core.model.heads,
        core.model.layers,
        core.model.mlp,
        core.model.shortConv,
        core.steps,
        core.batch,
      ]);
      // 'auto' resolves to the task's own tuned rate, not MQAR's
      for (const r of runSpecs(s)) {
        const spec = defaultTrainConfig(s.task as 'lm' | 'mlm', r.config.model.attention);
        expect(r.lr).toBe(spec.optimizer.lr);
        expect(r.config.model.causal).toBe(s.task === 'lm');
      }
    }
    expect(setups[0].layers).not.toBe(base.layers);
  });

  it('from a text setup, both tasks keep the reader’s sizes', () => {
    const base = { ...defaultSetup('webgpu'), task: 'lm' as const, dModel: 48, heads: 3, layers: 3, steps: 77 };
    for (const s of seriesSetups('lm-mlm', base)!) {
      expect([s.dModel, s.heads, s.layers, s.steps]).toEqual([48, 3, 3, 77]);
    }
  });
});
