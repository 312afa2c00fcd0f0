/**
 * Monte-Carlo statistics of the random-feature estimators of SM(x, y) = e^{x·y} over independent
 * draws of W: per pair, the mean, the sample standard deviation and the mean squared error. Pure
 * f64 math for the tests (unbiasedness within a stated bound, MSE ratios) and for anyone who wants
 * the same numbers in a benchmark script.
 */
import { oprfKernelEstimate, oprfParameter } from './feature-maps-beyond';
import { positiveKernelEstimate } from './kernel-estimates';
import { randomProjection } from './projections';
import { createRng, deriveSeed } from './rng';
import type { Matrix, ProjectionKind } from './types';

/** A random-feature estimator: which map (FAVOR+ positive or OPRF) on which projection. */
export interface EstimatorSpec {
  map: 'positive' | 'oprf';
  projection: ProjectionKind;
}

export interface PairStats {
  /** the target e^{x_p·y_p} */
  target: number;
  /** mean of the estimates over the draws */
  mean: number;
  /** sample standard deviation of one estimate */
  std: number;
  /** mean squared error of one estimate */
  mse: number;
}

/**
 * Estimates of e^{x_p·y_p} for the pairs (row p of x, row p of y) over `draws` projections W (m×d,
 * seeds derived from `seed`; draw s uses the same W for every spec, so specs are compared on common
 * random numbers). OPRF's A is chosen once from all of x and y (`oprfParameter`), as the app does.
 */
export function estimatorStats(
  specs: readonly EstimatorSpec[],
  x: Matrix,
  y: Matrix,
  m: number,
  draws: number,
  seed: number,
): PairStats[][] {
  const d = x.cols;
  const a = oprfParameter(x, y);
  const pairs = x.rows;
  const sums = specs.map(() => Array.from({ length: pairs }, () => ({ s: 0, s2: 0, se: 0 })));
  const targets: number[] = [];
  for (let p = 0; p < pairs; p++) {
    let dot = 0;
    for (let c = 0; c < d; c++) dot += x.data[p * d + c]! * y.data[p * d + c]!;
    targets.push(Math.exp(dot));
  }
  const ws = new Map<ProjectionKind, Matrix>();
  for (let s = 0; s < draws; s++) {
    ws.clear();
    specs.forEach((spec, k) => {
      let w = ws.get(spec.projection);
      if (!w) {
        w = randomProjection(spec.projection, m, d, createRng(deriveSeed(seed + s, 'w')));
        ws.set(spec.projection, w);
      }
      for (let p = 0; p < pairs; p++) {
        const xp = x.data.subarray(p * d, (p + 1) * d);
        const yp = y.data.subarray(p * d, (p + 1) * d);
        const est = spec.map === 'oprf' ? oprfKernelEstimate(xp, yp, w, a) : positiveKernelEstimate(xp, yp, w);
        const acc = sums[k]![p]!;
        acc.s += est;
        acc.s2 += est * est;
        acc.se += (est - targets[p]!) ** 2;
      }
    });
  }
  return sums.map((rows) =>
    rows.map((acc, p) => {
      const mean = acc.s / draws;
      const variance = Math.max(0, (acc.s2 - draws * mean * mean) / Math.max(draws - 1, 1));
      return { target: targets[p]!, mean, std: Math.sqrt(variance), mse: acc.se / draws };
    }),
  );
}

/** Mean over pairs of the per-entry MSE. */
export function meanMse(stats: readonly PairStats[]): number {
  let s = 0;
  for (const p of stats) s += p.mse;
  return stats.length > 0 ? s / stats.length : 0;
}
