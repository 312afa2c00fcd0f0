import { describe, expect, it } from 'vitest';
import { defaultTrainConfig, linearSpec, suggestedLr } from './train-defaults';

describe('training defaults', () => {
  it('grammar LM / MLM: 2 layers with MLP and the token shift at d 32, 2 heads, L 32, batch 16; LM causal, MLM bidirectional with 15 % masked', () => {
    const lm = defaultTrainConfig('lm');
    const mlm = defaultTrainConfig('mlm');
    for (const c of [lm, mlm]) {
      expect(c.model).toMatchObject({ dModel: 32, heads: 2, layers: 2, mlp: true, shortConv: 'shift', seqLen: 32 });
      expect([c.task.seqLen, c.batch]).toEqual([32, 16]);
    }
    expect([lm.model.causal, lm.task.maskRate, lm.steps]).toEqual([true, 0, 300]);
    expect([mlm.model.causal, mlm.task.maskRate, mlm.steps]).toEqual([false, 0.15, 400]);
  });

  it('learning rates: each swept kind’s best per task; a kind with no text sweep (Taylor-2) takes its MQAR rate', () => {
    const elu = linearSpec('elu1');
    const favor = linearSpec('positive');
    expect([suggestedLr({ kind: 'softmax' }, 'lm'), suggestedLr(elu, 'lm'), suggestedLr(favor, 'lm')]).toEqual([
      1e-2, 3e-3, 3e-2,
    ]);
    expect([suggestedLr({ kind: 'softmax' }, 'mlm'), suggestedLr(elu, 'mlm'), suggestedLr(favor, 'mlm')]).toEqual([
      1e-2, 3e-2, 1e-2,
    ]);
    expect(suggestedLr(linearSpec('taylor2'), 'mlm')).toBe(suggestedLr(linearSpec('taylor2'), 'mqar'));
    // the default config carries its kind's rate for its task
    expect(defaultTrainConfig('mlm', elu).optimizer.lr).toBe(3e-2);
    expect(defaultTrainConfig('mqar', elu).optimizer.lr).toBe(1e-2);
  });
});
