import { describe, expect, it } from 'vitest';
import { rawFeatures } from './feature-maps';
import { hyperbolicKernelEstimate, positiveKernelEstimate, trigKernelEstimate } from './kernel-estimates';
import { matrix } from './matrix';
import { randomProjection } from './projections';
import { createRng } from './rng';
import { positiveMse } from './theory';

describe('raw estimators of SM(x, y) = exp(x·y)', () => {
  const x = [0.3, -0.2, 0.4, 0.1];
  const y = [0.2, 0.1, -0.3, 0.5];
  const sm = Math.exp(x.reduce((s, xi, i) => s + xi * y[i]!, 0));

  it('positive: the mean over many independent W (iid, m = 8) is within 4 standard errors of exp(x·y)', () => {
    const draws = 3000;
    const m = 8;
    const rng = createRng(20);
    let s = 0;
    for (let t = 0; t < draws; t++) s += positiveKernelEstimate(x, y, randomProjection('iid', m, 4, rng));
    const se = Math.sqrt(positiveMse(x, y, m) / draws); // Lemma 2 gives the variance of one estimate
    expect(Math.abs(s / draws - sm)).toBeLessThan(4 * se);
  });

  it('positive with orthogonal-chi rows is unbiased too (rows are marginally Gaussian)', () => {
    const draws = 3000;
    const rng = createRng(21);
    const vals: number[] = [];
    for (let t = 0; t < draws; t++)
      vals.push(positiveKernelEstimate(x, y, randomProjection('orthogonal-chi', 8, 4, rng)));
    const mean = vals.reduce((a, b) => a + b, 0) / draws;
    const sd = Math.sqrt(vals.reduce((a, b) => a + (b - mean) ** 2, 0) / (draws - 1));
    expect(Math.abs(mean - sm)).toBeLessThan((4 * sd) / Math.sqrt(draws));
  });

  it('agrees with the features: φ(x)·φ(y) of rawFeatures equals positiveKernelEstimate', () => {
    const w = randomProjection('iid', 6, 4, createRng(23));
    const fx = rawFeatures('positive', matrix(1, 4, x), w, 'query').data;
    const fy = rawFeatures('positive', matrix(1, 4, y), w, 'key').data;
    let dot = 0;
    for (let r = 0; r < 6; r++) dot += fx[r]! * fy[r]!;
    expect(dot).toBeCloseTo(positiveKernelEstimate(x, y, w), 5);
  });

  it("rejects vectors whose length is not W's column count, for every estimator", () => {
    const w = randomProjection('iid', 4, 4, createRng(24));
    for (const est of [positiveKernelEstimate, trigKernelEstimate, hyperbolicKernelEstimate]) {
      expect(() => est([1, 2, 3], y, w)).toThrow(/vectors of length 3, 4 vs W 4×4/);
    }
  });
});
