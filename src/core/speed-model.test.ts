import { describe, expect, it } from 'vitest';
import {
  LAYER_GPU,
  attentionFlops,
  findCrossover,
  gflopsOf,
  layerFlops,
  modelMs,
  planSweep,
  predictedCrossover,
  repeatsFor,
  sweepLengths,
} from './speed-model';

describe('FLOP model', () => {
  it('counts exact attention 4n²d, the Performer 8nm′d, dummy attention 0', () => {
    expect(attentionFlops('exact', 1024, 64, 256)).toBe(4 * 1024 * 1024 * 64);
    expect(attentionFlops('performer-bidirectional', 1024, 64, 256)).toBe(8 * 1024 * 256 * 64);
    expect(attentionFlops('performer-causal', 1024, 64, 256)).toBe(8 * 1024 * 256 * 64);
    expect(attentionFlops('dummy', 1024, 64, 256)).toBe(0);
  });

  it('puts the equal-rate crossover at n = 2m′, moved by the ratio of measured rates', () => {
    const mp = 256;
    const n = predictedCrossover(mp);
    expect(n).toBe(512);
    expect(attentionFlops('exact', n, 64, mp)).toBe(attentionFlops('performer-bidirectional', n, 64, mp));
    // exact runs 4× more FLOP/s than the Performer → the Performer must save 4× the FLOPs
    expect(predictedCrossover(mp, 2, 0.5)).toBe(2048);
  });

  it('counts a layer as projections 8nD² + FFN 4nDF + heads × attention; dummy is the layer without attention FLOPs', () => {
    const n = 1000;
    const base = 8 * n * 512 * 512 + 4 * n * 512 * 2048;
    expect(layerFlops('layer-dummy', n, LAYER_GPU, 256)).toBe(base);
    expect(layerFlops('layer-exact', n, LAYER_GPU, 256)).toBe(base + 8 * 4 * n * n * 64);
    expect(layerFlops('layer-performer', n, LAYER_GPU, 256)).toBe(base + 8 * 8 * n * 256 * 64);
  });

  it('turns FLOPs and ms into GFLOP/s and back', () => {
    expect(gflopsOf(2e9, 1000)).toBeCloseTo(2);
    expect(modelMs(2e9, 2)).toBeCloseTo(1000);
    expect(gflopsOf(0, 5)).toBeNull();
  });
});

describe('crossover finder', () => {
  const curve = (f: (n: number) => number) => sweepLengths(12).map((n) => ({ n, ms: f(n) }));

  it('interpolates the crossing of a quadratic and a linear curve in log-log space', () => {
    // exact t = n², Performer t = 1000 n → cross at n = 1000
    const c = findCrossover(
      curve((n) => n * n),
      curve((n) => 1000 * n),
    );
    expect(c.kind).toBe('at');
    if (c.kind === 'at') expect(c.n).toBeCloseTo(1000, 6);
  });

  it('says "below" when the Performer is faster everywhere and "above" when it never catches up', () => {
    expect(
      findCrossover(
        curve((n) => n * n),
        curve((n) => n),
      ),
    ).toEqual({ kind: 'below', n: 64 });
    expect(
      findCrossover(
        curve((n) => n),
        curve((n) => 10 * n),
      ),
    ).toEqual({ kind: 'above', n: 4096 });
    expect(
      findCrossover(
        [],
        curve((n) => n),
      ),
    ).toEqual({ kind: 'none' });
  });

  it('uses the last sign change (noise at small n does not count) and only n measured by both', () => {
    const slow = [
      { n: 64, ms: 2 },
      { n: 128, ms: 1 },
      { n: 256, ms: 1 },
      { n: 512, ms: 4 },
      { n: 1024, ms: 16 },
    ];
    const fast = [
      { n: 64, ms: 1 }, // faster by noise
      { n: 128, ms: 2 },
      { n: 256, ms: 4 },
      { n: 512, ms: 2 },
      { n: 1024, ms: 4 },
      { n: 2048, ms: 8 },
    ];
    const c = findCrossover(slow, fast);
    expect(c.kind).toBe('at');
    if (c.kind === 'at') {
      expect(c.n).toBeGreaterThan(256);
      expect(c.n).toBeLessThan(512);
    }
  });
});

describe('sweep planner', () => {
  const base = { ns: sweepLengths(16), d: 64, mp: 256, layer: LAYER_GPU, pointCapMs: 1e9 };

  it('takes fewer timed runs for slow points (5 at most, 1 at least)', () => {
    expect(repeatsFor(1, 100)).toBe(5);
    expect(repeatsFor(30, 100)).toBe(3);
    expect(repeatsFor(1000, 100)).toBe(1);
  });

  it('keeps every method inside its equal share of the budget and stops exact attention earlier than the linear methods', () => {
    const calibration = { exact: { n: 256, ms: 1 }, 'performer-bidirectional': { n: 256, ms: 1 } } as const;
    const plan = planSweep({ ...base, methods: ['exact', 'performer-bidirectional'], calibration, budgetMs: 2000 });
    for (const method of ['exact', 'performer-bidirectional'] as const) {
      const cost = plan.points.filter((p) => p.method === method).reduce((s, p) => s + p.costMs, 0);
      expect(cost).toBeLessThanOrEqual(1000);
    }
    const maxN = (m: string) => Math.max(...plan.points.filter((p) => p.method === m).map((p) => p.n));
    expect(maxN('exact')).toBeLessThan(maxN('performer-bidirectional'));
    expect(plan.stops.exact?.kind).toBe('budget');
    expect(plan.totalMs).toBeLessThanOrEqual(2000);
  });

  it('predicts a quadratic method 4× slower per doubling of n and a linear one 2×', () => {
    const calibration = { exact: { n: 256, ms: 1 }, 'performer-bidirectional': { n: 256, ms: 1 } } as const;
    const plan = planSweep({ ...base, methods: ['exact', 'performer-bidirectional'], calibration, budgetMs: 1e7 });
    const at = (m: string, n: number) => plan.points.find((p) => p.method === m && p.n === n)!.predictedMs;
    expect(at('exact', 1024)).toBeCloseTo(16);
    expect(at('performer-bidirectional', 1024)).toBeCloseTo(4);
    expect(plan.stops['performer-bidirectional']).toEqual({ kind: 'range', maxN: 65536 });
  });

  it('always plans the first n and respects the per-point cap', () => {
    const calibration = { exact: { n: 64, ms: 500 } } as const;
    const plan = planSweep({ ...base, methods: ['exact'], calibration, budgetMs: 1, pointCapMs: 100 });
    expect(plan.points.map((p) => p.n)).toEqual([64]);
    expect(plan.stops.exact).toMatchObject({ kind: 'budget', nextN: 128 });
  });
});
