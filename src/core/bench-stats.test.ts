import { describe, expect, it } from 'vitest';
import {
  benchJson,
  findCrossover,
  flopModel,
  gflops,
  maxRelDiff,
  normalizePasses,
  rotatedOrder,
  sampleStats,
  targets,
  type BenchPoint,
} from './bench-stats';

describe('rotatedOrder (interleaved rounds of the bench)', () => {
  it('visits every point exactly once per round, starting each round at a different point', () => {
    const items = ['a', 'b', 'c', 'd', 'e', 'f'];
    const rounds = 3;
    const orders = Array.from({ length: rounds }, (_, r) => rotatedOrder(items, r, rounds));
    for (const o of orders) expect([...o].sort()).toEqual(items);
    expect(orders.map((o) => o[0])).toEqual(['a', 'c', 'e']);
    expect(orders[1]).toEqual(['c', 'd', 'e', 'f', 'a', 'b']);
  });
  it('still rotates by one when there are more rounds than points, and handles an empty list', () => {
    expect(rotatedOrder([1, 2, 3], 4, 10)).toEqual([2, 3, 1]);
    expect(rotatedOrder([], 2, 3)).toEqual([]);
  });
});

describe('sampleStats', () => {
  it('gives the minimum and the median (mean of the middle two for an even count)', () => {
    expect(sampleStats([5, 1, 3])).toEqual({ minMs: 1, medianMs: 3, count: 3 });
    expect(sampleStats([4, 1, 3, 10])).toEqual({ minMs: 1, medianMs: 3.5, count: 4 });
  });
});

describe('FLOP model and GFLOP/s', () => {
  it('counts exact as 4n²d, Performer (ours and tfjs) as 8nmd and dummy as nothing', () => {
    expect(flopModel('exact', 4096, 64, 256)).toBe(4 * 4096 ** 2 * 64);
    expect(flopModel('tfjs-exact', 10, 2, 3)).toBe(800);
    expect(flopModel('performer-causal', 4096, 64, 256)).toBe(8 * 4096 * 256 * 64);
    expect(flopModel('tfjs-favor', 10, 2, 3)).toBe(480);
    expect(flopModel('dummy', 10, 2, 3)).toBeNull();
    expect(gflops(2e9, 1000)).toBe(2);
    expect(gflops(null, 5)).toBeNull();
    expect(gflops(1e9, 0)).toBeNull();
  });
});

describe('maxRelDiff (numerical agreement of the two sides)', () => {
  it('is the largest entrywise relative difference, entries near zero floored at 1e-3 of the largest', () => {
    expect(maxRelDiff([1, 2, 4], [1, 2, 4])).toBe(0);
    expect(maxRelDiff([1.01, 2, 4], [1, 2, 4])).toBeCloseTo(0.01, 12);
    // |1e-6 − 0| relative to the floor 1e-3 · 4
    expect(maxRelDiff([1e-6, 4], [0, 4])).toBeCloseTo(1e-6 / 4e-3, 12);
    expect(maxRelDiff([NaN, 1], [1, 1])).toBe(Infinity);
    expect(() => maxRelDiff([1], [1, 2])).toThrow(/length/);
  });
});

describe('findCrossover', () => {
  it('interpolates in log-log between the two n where Performer overtakes exact', () => {
    const c = findCrossover([
      { n: 256, exactMs: 1, performerMs: 4 },
      { n: 1024, exactMs: 16, performerMs: 4 },
    ]);
    expect(c?.kind).toBe('measured');
    expect(c?.n).toBeCloseTo(512, 6);
  });
  it('says "below" when Performer is faster at the smallest n, and extrapolates with n² vs n past the last', () => {
    expect(findCrossover([{ n: 256, exactMs: 2, performerMs: 1 }])).toEqual({ kind: 'below', n: 256 });
    expect(
      findCrossover([
        { n: 4096, exactMs: 2000, performerMs: 2300 },
        { n: 1024, exactMs: 100, performerMs: 600 },
      ]),
    ).toEqual({
      kind: 'extrapolated',
      n: 4096 * 1.15,
      from: 4096,
    });
    expect(findCrossover([])).toBeNull();
  });
});

describe('benchJson and normalizePasses', () => {
  it('writes { adapter, d, m, points } with min, median, GFLOP/s on the median, bytes and per-pass medians', () => {
    const json = benchJson('SwiftShader', 64, 256, [
      { method: 'exact', n: 1024, samples: [200, 100, 150], bytes: 10, passes: { 'exact.fused': [190, 90, 140] } },
      { method: 'dummy', n: 1024, samples: [1], bytes: 5 },
      { method: 'tfjs-exact', n: 4096, samples: [], bytes: 0 },
    ]);
    expect(json).toEqual({
      adapter: 'SwiftShader',
      d: 64,
      m: 256,
      points: [
        {
          method: 'exact',
          n: 1024,
          medianMs: 150,
          minMs: 100,
          gflops: (4 * 1024 ** 2 * 64) / 150e6,
          bytes: 10,
          passes: { 'exact.fused': 140 },
        },
        { method: 'dummy', n: 1024, medianMs: 1, minMs: 1, gflops: null, bytes: 5 },
      ],
    });
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });
  it('reads pass times given as a list of { kernel | name, ms } or as { name: ms }, summing repeats', () => {
    expect(
      normalizePasses([
        { kernel: 'a', ms: 1 },
        { name: 'b', ms: 2 },
        { kernel: 'a', ms: 3 },
      ]),
    ).toEqual({ a: 4, b: 2 });
    expect(normalizePasses({ x: 1.5, y: 'bad' })).toEqual({ x: 1.5 });
    expect(normalizePasses(undefined)).toBeNull();
  });
  it("reads kernel-bench's per-pass shape { label, medianMs, minMs } (the median)", () => {
    expect(normalizePasses([{ label: 'favor.project', medianMs: 2.5, minMs: 2 }])).toEqual({ 'favor.project': 2.5 });
  });
});

describe('targets (BENCH_TARGETS)', () => {
  const pt = (method: BenchPoint['method'], n: number, medianMs: number): BenchPoint => ({
    method,
    n,
    medianMs,
    minMs: medianMs,
    gflops: gflops(flopModel(method, n, 64, 256), medianMs),
    bytes: 0,
  });
  it('computes the GFLOP/s ratios, the crossover and the speed-ups over tfjs, each with its verdict', () => {
    const t = targets([
      pt('exact', 1024, 100),
      pt('performer-bidirectional', 1024, 50),
      pt('exact', 4096, 2000),
      pt('performer-bidirectional', 4096, 200),
      pt('performer-causal', 4096, 4000),
      pt('tfjs-favor', 4096, 500),
      pt('tfjs-exact', 4096, 12000),
    ]);
    expect(t.map((x) => x.met)).toEqual([true, false, true, false, true]);
    // bidir: 8·4096·256·64 / 200 ms vs 4·4096²·64 / 2000 ms → 0.5 · 256·… = ratio 1.25
    expect(t[0]!.value).toBeCloseTo((2 * 256 * 2000) / (4096 * 200), 12);
    expect(t[2]!.detail).toMatch(/faster already at the smallest n = 1024/);
    expect(t[3]!.value).toBeCloseTo(2.5, 12);
    expect(t[4]!.value).toBeCloseTo(6, 12);
  });
  it('counts an extrapolated crossover as missed only when Performer is slower at some n ≥ 1024, else as not measured', () => {
    const slowAt = (n: number) => targets([pt('exact', n, 1), pt('performer-bidirectional', n, 2)], n)[2]!;
    expect(slowAt(4096).met).toBe(false);
    expect(slowAt(256).met).toBeNull();
    expect(slowAt(256).value).toBe(512);
  });
  it('says "not measured" (met: null) for what the run lacks', () => {
    const t = targets([pt('exact', 256, 1)]);
    expect(t.every((x) => x.met === null)).toBe(true);
  });
});
