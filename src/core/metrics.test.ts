import { describe, expect, it } from 'vitest';
import { createRowStats } from './matrix-view';
import { klDivergence, normalizedEntropy, relativeError, rowEntropy, summarizeRowStats, topKMass } from './metrics';

describe('metrics', () => {
  it('relativeError = ‖a − e‖ / ‖e‖', () => {
    expect(relativeError([3, 5], [3, 4])).toBeCloseTo(0.2, 12);
    expect(relativeError([0, 0], [0, 0])).toBe(0);
    expect(relativeError([1, 0], [0, 0])).toBe(Infinity);
  });

  it('rowEntropy: −Σ p log p over p > 0', () => {
    expect(rowEntropy([0.25, 0.25, 0.25, 0.25])).toBeCloseTo(Math.log(4), 12);
    expect(rowEntropy([1, 0, 0])).toBe(0);
    expect(rowEntropy([0.5, -0.1, 0.6])).toBeCloseTo(-0.5 * Math.log(0.5) - 0.6 * Math.log(0.6), 12);
  });

  it('normalizedEntropy: 1 for a uniform row, 0 for one-hot, 1 for a single allowed key', () => {
    expect(normalizedEntropy(Math.log(7), 7)).toBeCloseTo(1, 12);
    expect(normalizedEntropy(0, 7)).toBe(0);
    expect(normalizedEntropy(0, 1)).toBe(1);
  });

  it('topKMass sums the k largest entries', () => {
    expect(topKMass([0.1, 0.5, 0.2, 0.2], 2)).toBeCloseTo(0.7, 12);
    expect(topKMass([0.1, 0.9], 5)).toBeCloseTo(1, 12);
    expect(topKMass([0.1, 0.9], 0)).toBe(0);
  });

  it('klDivergence: 0 for equal rows, clamps q at 1e-30', () => {
    expect(klDivergence([0.3, 0.7], [0.3, 0.7])).toBeCloseTo(0, 12);
    expect(klDivergence([1, 0], [0.5, 0.5])).toBeCloseTo(Math.log(2), 12);
    expect(klDivergence([0.5, 0.5], [1, 0])).toBeCloseTo(0.5 * Math.log(0.5) + 0.5 * Math.log(0.5 / 1e-30), 9);
  });

  it('summarizeRowStats: relErrorA = sqrt(Σ sqErr / Σ exactSq), means of KL and normalized entropies', () => {
    const s = createRowStats(3);
    s.sqErr.set([0.01, 0.02, 0.03]);
    s.exactSq.set([0.5, 0.5, 0.5]);
    s.kl.set([0.1, 0.2, 0.3]);
    s.exactEntropy.set([0, Math.log(2), Math.log(3)]);
    s.approxEntropy.set([0, Math.log(2), 0]);
    const causal = summarizeRowStats(s, true); // rows have 1, 2, 3 keys
    expect(causal.relErrorA).toBeCloseTo(Math.sqrt(0.06 / 1.5), 6);
    expect(causal.meanKL).toBeCloseTo(0.2, 6);
    expect(causal.meanNormEntropyExact).toBeCloseTo(1, 6);
    expect(causal.meanNormEntropyApprox).toBeCloseTo(2 / 3, 6);
    const bidir = summarizeRowStats(s, false); // every row has 3 keys
    expect(bidir.meanNormEntropyExact).toBeCloseTo((Math.log(2) / Math.log(3) + 1) / 3, 6);
  });
});
