import { describe, expect, it } from 'vitest';
import { defaultSetup, type TrainingSetup } from './training-setup';
import { parseSetup, writeSetup } from './training-setup-url';

const base = defaultSetup('webgpu');

describe('the train= setup format', () => {
  it('round-trips every field through writeSetup and parseSetup', () => {
    const s: TrainingSetup = {
      ...base,
      task: 'lm',
      kinds: ['softmax', 'taylor2', 'elu1-local', 'hedgehog'],
      lr: [0.001, 'auto', 0.02, 3e-4],
      pairs: 4,
      seqLen: 128,
      dModel: 96,
      heads: 4,
      layers: 3,
      mlp: true,
      shortConv: 'conv3',
      steps: 1234,
      batch: 8,
      seeds: 5,
      seed: 77,
      m: 48,
      proj: 'iid',
      window: 16,
      sweep: true,
    };
    const raw = writeSetup(s);
    const back = parseSetup(raw, base);
    expect(back.problems).toEqual([]);
    expect(back.setup).toEqual(s);
    // it survives URLSearchParams (spaces become +, nothing else is escaped)
    const q = new URLSearchParams({ train: raw }).toString();
    expect(q).not.toMatch(/%/);
    expect(parseSetup(new URLSearchParams(q).get('train')!, base).setup).toEqual(s);
  });

  it('rejects bad fields one by one with a reason and keeps the previous value of each', () => {
    const r = parseSetup('task.chess_d.-3_h.x_kinds.softmax_steps.1e3_lr.0_layers.9_mlp.2_bogus.1_seeds.3', base);
    expect(r.problems.map((p) => [p.field, p.reason])).toEqual([
      ['task', 'not-an-option'],
      ['d', 'not-an-integer'],
      ['h', 'not-a-number'],
      ['kinds', 'not-an-option'],
      ['steps', 'not-an-integer'],
      ['layers', 'out-of-range'],
      ['mlp', 'not-an-option'],
      ['bogus', 'not-an-option'],
      ['lr', 'out-of-range'],
    ]);
    expect(r.setup).toEqual({ ...base, seeds: 3 });
  });

  it('refuses heads that do not divide d, too many pairs for L, duplicate or too many kinds, hostile text', () => {
    expect(parseSetup('d.64_h.3', base).problems.map((p) => p.field)).toEqual(['h']);
    expect(parseSetup('d.64_h.3', base).setup.heads).toBe(base.heads);
    expect(parseSetup('L.16_pairs.6', base).problems.map((p) => p.field)).toEqual(['pairs']);
    expect(parseSetup('kinds.elu1 elu1', base).problems.length).toBe(1);
    expect(parseSetup('kinds.softmax elu1 relu taylor2 cosformer', base).problems.length).toBe(1);
    expect(parseSetup('task.<script>', base).setup).toEqual(base);
    expect(parseSetup('x'.repeat(1000), base).problems.map((p) => p.reason)).toEqual(['too-long']);
  });

  it('one lr applies to every kind; a wrong-length list is refused', () => {
    expect(parseSetup('lr.0.004', base).setup.lr).toEqual([0.004, 0.004, 0.004]);
    expect(parseSetup('lr.0.004 0.001', base).problems.map((p) => p.field)).toEqual(['lr']);
    expect(parseSetup('kinds.softmax relu_lr.auto 0.02', base).setup.lr).toEqual(['auto', 0.02]);
  });
});
