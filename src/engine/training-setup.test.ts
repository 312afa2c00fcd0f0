import { describe, expect, it } from 'vitest';
import {
  chanceAccuracy,
  defaultSetup,
  lectureSetup,
  MQAR_VOCAB,
  runSpecs,
  trainConfig,
  type TrainingSetup,
} from './training-setup';
import { parseSetup, writeSetup } from './training-setup-url';

const base = defaultSetup('webgpu');

describe('runSpecs', () => {
  it('expands kinds × seeds (× the sweep’s three learning rates) with the same seeds for every kind', () => {
    const s = {
      ...base,
      kinds: ['softmax', 'elu1'] as TrainingSetup['kinds'],
      lr: ['auto', 'auto'] as TrainingSetup['lr'],
      seeds: 2,
      seed: 5,
    };
    const runs = runSpecs(s);
    expect(runs.map((r) => `${r.kind}:${r.seed}`)).toEqual(['softmax:5', 'softmax:6', 'elu1:5', 'elu1:6']);
    expect(runs.map((r) => r.index)).toEqual([0, 1, 2, 3]);
    expect(runSpecs({ ...s, sweep: true }).length).toBe(12);
  });

  it('maps a kind to its attention and a task to causality (MLM and local truncation bidirectional)', () => {
    expect(trainConfig(base, 'softmax', 1, 1e-3).model.attention).toEqual({ kind: 'softmax' });
    expect(trainConfig({ ...base, window: 12 }, 'relu-local', 1, 1e-3).model.attention).toMatchObject({
      kind: 'linear',
      map: 'relu',
      window: 12,
    });
    expect(trainConfig(base, 'elu1', 1, 1e-3).model.causal).toBe(true);
    expect(trainConfig({ ...base, task: 'local' }, 'elu1', 1, 1e-3).model.causal).toBe(false);
    expect(trainConfig({ ...base, task: 'local' }, 'elu1', 1, 1e-3).task.kind).toBe('mlm');
  });
});

describe('lectureSetup', () => {
  it('on the CPU twins is the short recall comparison (8 pairs, L 32, 250 steps, batch 16, 2 seeds); with WebGPU the default', () => {
    const cpu = lectureSetup('cpu');
    expect([cpu.pairs, cpu.seqLen, cpu.steps, cpu.batch, cpu.seeds]).toEqual([8, 32, 250, 16, 2]);
    expect(cpu.kinds).toEqual(defaultSetup('cpu').kinds);
    expect(parseSetup(writeSetup(cpu), defaultSetup('cpu')).problems).toEqual([]);
    expect(lectureSetup('webgpu')).toEqual(defaultSetup('webgpu'));
  });
});

describe('chanceAccuracy', () => {
  it("is MQAR's random-value guess at the panel's vocabulary, and no line for the text tasks", () => {
    expect(MQAR_VOCAB).toBe(64);
    expect(chanceAccuracy('mqar')).toBe(1 / 32);
    for (const task of ['lm', 'mlm', 'local'] as const) expect(chanceAccuracy(task)).toBeNull();
  });
});
