import { describe, expect, it } from 'vitest';
import { hyperbolicKernelEstimate, positiveKernelEstimate, trigKernelEstimate } from './kernel-estimates';
import { randomProjection } from './projections';
import { createRng } from './rng';
import {
  chiMeanLength,
  hyperbolicMse,
  logGamma,
  positiveMse,
  positiveRelativeMse,
  softmaxKernel,
  trigMse,
  trigRelativeMse,
} from './theory';

describe('chiMeanLength and logGamma', () => {
  it('logGamma matches known values', () => {
    expect(logGamma(1)).toBeCloseTo(0, 12);
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 12);
    expect(logGamma(200)).toBeCloseTo(857.9336698258574, 8);
  });

  it('E‖g‖ for g ~ N(0, I_d): √(2/π) at d = 1, √(π/2) at d = 2, 2√(2/π) at d = 3, ≈ √(d − ½) for large d', () => {
    expect(chiMeanLength(1)).toBeCloseTo(Math.sqrt(2 / Math.PI), 12);
    expect(chiMeanLength(2)).toBeCloseTo(Math.sqrt(Math.PI / 2), 12);
    expect(chiMeanLength(3)).toBeCloseTo(2 * Math.sqrt(2 / Math.PI), 12);
    expect(chiMeanLength(256)).toBeCloseTo(Math.sqrt(255.5), 3);
  });
});

describe('Lemma 2 (closed forms)', () => {
  const x = [0.3, -0.1];
  const y = [0.2, 0.4];
  it('relative MSEs are MSE / SM²; positive depends only on ‖x + y‖²', () => {
    const sm = softmaxKernel(x, y);
    expect(positiveRelativeMse(x, y, 3)).toBeCloseTo(positiveMse(x, y, 3) / sm ** 2, 12);
    expect(positiveRelativeMse(x, y, 3)).toBeCloseTo(Math.expm1(0.25 + 0.09) / 3, 12);
    expect(trigRelativeMse(x, y, 3)).toBeCloseTo(trigMse(x, y, 3) / sm ** 2, 12);
  });

  it('hyperbolic = ½(1 − e^{−‖x+y‖²}) · positive < positive', () => {
    expect(hyperbolicMse(x, y, 4)).toBeCloseTo(0.5 * -Math.expm1(-0.34) * positiveMse(x, y, 4), 14);
    expect(hyperbolicMse(x, y, 4)).toBeLessThan(positiveMse(x, y, 4));
  });

  it('the positive MSE vanishes as SM → 0 while the trig MSE blows up', () => {
    const far = [3, 0];
    const anti = [-3, 0];
    expect(positiveRelativeMse(far, anti, 1)).toBe(0); // x + y = 0: exact with one feature
    expect(trigRelativeMse(far, anti, 1)).toBeGreaterThan(1e6);
  });
});

/**
 * Empirical MSE of one entry over iid draws of W. The sample MSE of N draws has standard error
 * sd(err²)/√N, estimated from the same draws; we require agreement within 4 such standard errors
 * AND within 15% relative (the inputs are chosen small, ‖x ± y‖² < 1, so err² is not heavy-tailed
 * and N = 4000 gives a relative standard error of ~3–5%).
 */
function empiricalMse(
  est: typeof positiveKernelEstimate,
  x: number[],
  y: number[],
  m: number,
  draws: number,
  seed: number,
) {
  const rng = createRng(seed);
  const target = softmaxKernel(x, y);
  const sq: number[] = [];
  for (let t = 0; t < draws; t++) sq.push((est(x, y, randomProjection('iid', m, x.length, rng)) - target) ** 2);
  const mean = sq.reduce((a, b) => a + b, 0) / draws;
  const sd = Math.sqrt(sq.reduce((a, b) => a + (b - mean) ** 2, 0) / (draws - 1));
  return { mse: mean, se: sd / Math.sqrt(draws) };
}

describe('Lemma 2 (empirical MSE of one entry matches the closed forms)', () => {
  const x = [0.4, -0.3, 0.2];
  const y = [0.1, 0.5, -0.2];
  const m = 4;
  const draws = 4000;
  for (const [name, est, theory] of [
    ['positive', positiveKernelEstimate, positiveMse],
    ['trig', trigKernelEstimate, trigMse],
    ['hyperbolic', hyperbolicKernelEstimate, hyperbolicMse],
  ] as const) {
    it(name, () => {
      const { mse, se } = empiricalMse(est, x, y, m, draws, 100 + name.length);
      const expected = theory(x, y, m);
      expect(Math.abs(mse - expected)).toBeLessThan(4 * se);
      expect(Math.abs(mse / expected - 1)).toBeLessThan(0.15);
    });
  }
});
