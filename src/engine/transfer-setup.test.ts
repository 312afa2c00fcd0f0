import { describe, expect, it } from 'vitest';
import { defaultSetup, type TrainingSetup } from './training-setup';
import { parseSetup, writeSetup } from './training-setup-url';
import { transferSetup, transferSpecs, transferTotalSteps } from './transfer-setup';

const comparison = defaultSetup('cpu');

describe('the transfer experiment in train=', () => {
  it('round-trips a transfer setup (maps, softmax steps, fine-tune steps, fit steps) onto the default comparison', () => {
    const s: TrainingSetup = {
      ...transferSetup('cpu'),
      kinds: ['positive', 'taylor2', 'hedgehog'],
      lr: [0.003, 'auto', 0.02],
      steps: 321,
      tune: 77,
      fit: 0,
      seeds: 3,
      m: 64,
    };
    const raw = writeSetup(s);
    expect(raw).toContain('_transfer.1_tune.77_fit.0');
    const back = parseSetup(raw, comparison);
    expect(back.problems).toEqual([]);
    expect(back.setup).toEqual(s);
  });

  it('a comparison writes transfer.0 and no tune/fit; it parses back onto a transfer setup as a comparison', () => {
    const raw = writeSetup(comparison);
    expect(raw).toMatch(/_transfer\.0$/);
    const back = parseSetup(raw, transferSetup('cpu'));
    expect(back.problems).toEqual([]);
    expect(back.setup.transfer).toBe(false);
    expect(back.setup.kinds).toEqual(comparison.kinds);
  });

  it.each([
    ['transfer.2', 'transfer', 'not-an-option'],
    ['transfer.1_tune.0', 'tune', 'out-of-range'],
    ['transfer.1_tune.1.5', 'tune', 'not-an-integer'],
    ['transfer.1_tune.abc', 'tune', 'not-a-number'],
    ['transfer.1_fit.5001', 'fit', 'out-of-range'],
    ['transfer.1_kinds.softmax positive', 'kinds', 'not-an-option'],
    ['transfer.1_kinds.elu1-local', 'kinds', 'not-an-option'],
    ['transfer.1_sweep.1', 'sweep', 'not-an-option'],
    ['transfer.0_kinds.positive', 'kinds', 'not-an-option'],
  ])('rejects %s (%s: %s) and keeps a valid setup', (raw, field, reason) => {
    const base = transferSetup('cpu');
    const r = parseSetup(raw, base);
    expect(r.problems).toEqual([expect.objectContaining({ field, reason })]);
    const s = r.setup;
    expect(s.tune).toBe(base.tune);
    expect(s.fit).toBe(base.fit);
    expect(s.sweep && s.transfer).toBe(false);
    if (s.transfer) expect(s.kinds.every((k) => k !== 'softmax' && !k.endsWith('-local'))).toBe(true);
    else expect(s.kinds.length).toBeGreaterThanOrEqual(2);
    expect(s.lr.length).toBe(s.kinds.length);
  });

  it('transfer.1 alone turns the default comparison into a transfer of its feature maps (softmax dropped)', () => {
    const r = parseSetup('transfer.1', comparison);
    expect(r.problems).toEqual([]);
    expect(r.setup.kinds).toEqual(['elu1', 'positive']);
  });
});

describe('transfer runs', () => {
  it('per seed one softmax run; per map and seed fine-tune and scratch share one config; fitted only for Hedgehog with fit > 0', () => {
    const s = { ...transferSetup('cpu'), kinds: ['positive', 'hedgehog'] as TrainingSetup['kinds'], seeds: 2 };
    const specs = transferSpecs(s);
    expect(specs.map((x) => x.role)).toEqual([
      'softmax',
      'softmax',
      'finetune',
      'finetune',
      'scratch',
      'scratch',
      'finetune',
      'finetune',
      'scratch',
      'scratch',
      'fitted',
      'fitted',
    ]);
    const ft = specs.find((x) => x.role === 'finetune' && x.kind === 'hedgehog' && x.seed === 2)!;
    const sc = specs.find((x) => x.role === 'scratch' && x.kind === 'hedgehog' && x.seed === 2)!;
    const fi = specs.find((x) => x.role === 'fitted' && x.seed === 2)!;
    expect(sc.config).toEqual(ft.config);
    expect(fi.config).toEqual(ft.config);
    expect(ft.config.steps).toBe(s.tune);
    expect(specs[ft.source].role).toBe('softmax');
    expect(specs[ft.source].seed).toBe(2);
    expect(specs[0].config.steps).toBe(s.steps);
    expect(specs[0].config.model.attention).toEqual({ kind: 'softmax' });
    expect(transferSpecs({ ...s, fit: 0 }).some((x) => x.role === 'fitted')).toBe(false);
    expect(transferTotalSteps(s)).toBe(2 * s.steps + 10 * s.tune + 2 * s.fit);
  });
});
