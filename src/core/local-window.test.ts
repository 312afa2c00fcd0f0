import { describe, expect, it } from 'vitest';
import { exactAttentionMatrix } from './exact-attention';
import { localTruncationCurve, truncateToWindow, truncationCurveOf, windowGrid, windowRowStats } from './local-window';
import { linearAttentionMatrix, performerFeatures } from './linear-attention';
import { relFrobeniusError } from './matrix';
import { generateInputs } from './inputs';
import { DEFAULT_PARAMS } from './default-params';

const M = (n: number, data: number[]) => ({ rows: n, cols: n, data: Float32Array.from(data) });

describe('truncateToWindow', () => {
  it('keeps |i − j| ≤ w and renormalizes each row to sum 1', () => {
    const a = M(3, [0.2, 0.3, 0.5, 0.1, 0.1, 0.8, 0.25, 0.25, 0.5]);
    const t = truncateToWindow(a, 1).matrix.data;
    expect(Array.from(t)).toEqual([0.4, 0.6, 0, 0.1, 0.1, 0.8, 0, 1 / 3, 2 / 3].map((x) => expect.closeTo(x, 6)));
  });

  it('w = 0 gives the identity (each token attends to itself: full rank), w = n − 1 changes nothing', () => {
    const a = M(3, [0.2, 0.3, 0.5, 0.1, 0.1, 0.8, 0.25, 0.25, 0.5]);
    expect(Array.from(truncateToWindow(a, 0).matrix.data)).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
    expect(relFrobeniusError(truncateToWindow(a, 2).matrix, a)).toBeLessThan(1e-7);
  });

  it('leaves rows with a non-positive window sum (trig features) as zeros and counts them', () => {
    const a = M(2, [-0.5, 1.5, 0.5, 0.5]);
    const t = truncateToWindow(a, 0);
    expect(t.degenerateRows).toBe(1);
    expect(Array.from(t.matrix.data)).toEqual([0, 0, 0, 1]);
  });

  it('rejects non-square matrices and bad windows', () => {
    expect(() => truncateToWindow({ rows: 1, cols: 2, data: new Float32Array(2) }, 1)).toThrow(RangeError);
    expect(() => truncateToWindow(M(1, [1]), -1)).toThrow(RangeError);
    expect(() => truncateToWindow(M(1, [1]), 0.5)).toThrow(RangeError);
  });
});

describe('windowGrid', () => {
  it('doubles from 1 and ends with the full matrix', () => {
    expect(windowGrid(16, true)).toEqual([0, 1, 2, 4, 8, 15]);
    expect(windowGrid(1, true)).toEqual([0]);
    expect(windowGrid(1, false)).toEqual([0]);
  });

  it('without the mask stops doubling before a window’s 2w + 1 keys reach n, so no window is drawn at the full one’s x', () => {
    expect(windowGrid(16, false)).toEqual([0, 1, 2, 4, 15]);
    const g = windowGrid(256, false);
    expect(g.slice(-2)).toEqual([64, 255]);
    for (const w of g.slice(0, -1)) expect(2 * w + 1).toBeLessThan(256);
    // causal rows hold w + 1 keys: every doubling below n − 1 stays
    expect(windowGrid(256, true).slice(-3)).toEqual([64, 128, 255]);
  });
});

describe('localTruncationCurve (Su: truncated linear attention is closer to softmax when softmax is local)', () => {
  const p = { ...DEFAULT_PARAMS, n: 128, input: 'local' as const, scale: 1.5, featureMap: 'elu1' as const };
  const inputs = generateInputs(p);
  const A = exactAttentionMatrix(inputs.q, inputs.k, false);
  const { qf, kf } = performerFeatures(inputs, 'elu1');
  const Ahat = linearAttentionMatrix(qf, kf, false);
  const curve = localTruncationCurve(A, Ahat, windowGrid(128, false), inputs.v);

  it('the full window reproduces the plain errors, and truncates nothing of the exact A (error exactly 0, not rounding)', () => {
    const full = curve.at(-1)!;
    expect(full.errorExact).toBe(0);
    expect(full.errorApprox).toBeCloseTo(relFrobeniusError(Ahat, A), 5);
  });

  it('some finite window beats the full 1+elu matrix on local inputs', () => {
    const best = Math.min(...curve.slice(0, -1).map((c) => c.errorApprox));
    expect(best).toBeLessThan(curve.at(-1)!.errorApprox);
    expect(curve.every((c) => c.errorOutApprox !== null && Number.isFinite(c.errorOutApprox))).toBe(true);
  });
});

describe('windowRowStats (the twin of local-window-stats.wgsl)', () => {
  it.each([
    ['positive', false],
    ['trig', true],
    ['elu1', true],
  ] as const)(
    'reduced by truncationCurveOf, gives localTruncationCurve’s curve (%s, causal %s, n = 37)',
    (map, causal) => {
      const p = { ...DEFAULT_PARAMS, n: 37, d: 5, m: 6, featureMap: map, causal, scale: 1.2 };
      const inputs = generateInputs(p);
      const A = exactAttentionMatrix(inputs.q, inputs.k, causal);
      const { qf, kf } = performerFeatures(inputs, map, 'shift', causal);
      const Ahat = linearAttentionMatrix(qf, kf, causal);
      const windows = [...windowGrid(37, true), 3, 0];
      const want = localTruncationCurve(A, Ahat, windows, inputs.v);
      const got = truncationCurveOf(windowRowStats(A.data, Ahat.data, 37, windows, inputs.v), true);
      expect(got.map((c) => c.w)).toEqual(windows);
      got.forEach((c, t) => {
        const w = want[t]!;
        expect(c.degenerateRows).toBe(w.degenerateRows);
        for (const k of ['errorApprox', 'errorExact', 'errorOutApprox'] as const)
          expect(Math.abs(c[k]! - w[k]!)).toBeLessThan(1e-6 * Math.max(1, Math.abs(w[k]!)));
      });
      if (map === 'trig') expect(want.some((c) => c.degenerateRows > 0)).toBe(true);
    },
  );

  it('n = 1: the one entry, every window the whole row; no V gives no output error', () => {
    const s = windowRowStats([1], [0.5], 1, [0]);
    expect(truncationCurveOf(s, false)).toEqual([
      { w: 0, errorApprox: 0, errorExact: 0, errorOutApprox: null, degenerateRows: 0 },
    ]);
  });
});
