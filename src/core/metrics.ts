/**
 * Scalar summaries of how well Â approximates A, and of how peaked A is.
 *
 * Normalized entropy H / log(#allowed keys) is the "how close to average pooling" gauge: 1 means a
 * uniform row (average pooling), 0 a one-hot row. A row with a single allowed key (causal row 0, or
 * n = 1) is both; it is reported as 1 (its distribution *is* the uniform one over its keys).
 */
import type { RowStats } from './attention-job';
import { KL_FLOOR } from './matrix-view';

/** Running sums behind a relative error: Σ (approx − exact)² and Σ exact². */
export interface SquaredErrorSums {
  num: number;
  den: number;
}

/** Adds the squared error of two equally long arrays (and the exact one's squared norm) to `sums`. */
export function addSquaredError(sums: SquaredErrorSums, approx: ArrayLike<number>, exact: ArrayLike<number>): void {
  let num = 0;
  let den = 0;
  for (let i = 0; i < exact.length; i++) {
    const e = exact[i]!;
    num += (approx[i]! - e) ** 2;
    den += e * e;
  }
  sums.num += num;
  sums.den += den;
}

/** sqrt(num / den): 0 if both are zero, ∞ if only the exact side is. */
export function relErrorOf({ num, den }: SquaredErrorSums): number {
  if (den === 0) return num === 0 ? 0 : Infinity;
  return Math.sqrt(num / den);
}

/** ‖approx − exact‖₂ / ‖exact‖₂ over two equally long arrays (0 if both are zero, ∞ if only exact is). */
export function relativeError(approx: ArrayLike<number>, exact: ArrayLike<number>): number {
  if (approx.length !== exact.length)
    throw new RangeError(`relativeError: lengths ${approx.length} and ${exact.length}`);
  const sums = { num: 0, den: 0 };
  addSquaredError(sums, approx, exact);
  return relErrorOf(sums);
}

/** H(p) = −Σ p log p over entries p > 0 (natural log). */
export function rowEntropy(p: ArrayLike<number>): number {
  let h = 0;
  for (let j = 0; j < p.length; j++) {
    const x = p[j]!;
    if (x > 0) h -= x * Math.log(x);
  }
  return h;
}

/** H / log(allowedKeys); 1 when there is at most one allowed key. */
export function normalizedEntropy(H: number, allowedKeys: number): number {
  if (allowedKeys <= 1) return 1;
  return H / Math.log(allowedKeys);
}

/** Sum of the k largest entries of a row (how much mass the top-k keys get). */
export function topKMass(row: ArrayLike<number>, k: number): number {
  if (k <= 0) return 0;
  const sorted = Array.from(row).sort((a, b) => b - a);
  let s = 0;
  for (let t = 0; t < Math.min(k, sorted.length); t++) s += sorted[t]!;
  return s;
}

/** KL(p ‖ q) = Σ_{p_j > 0} p_j log(p_j / max(q_j, 1e-30)). */
export function klDivergence(p: ArrayLike<number>, q: ArrayLike<number>): number {
  if (p.length !== q.length) throw new RangeError(`klDivergence: lengths ${p.length} and ${q.length}`);
  let kl = 0;
  for (let j = 0; j < p.length; j++) {
    const x = p[j]!;
    if (x > 0) kl += x * (Math.log(x) - Math.log(Math.max(q[j]!, KL_FLOOR)));
  }
  return kl;
}

export interface RowStatsSummary {
  /** ‖Â − A‖_F / ‖A‖_F = sqrt(Σ_i sqErr_i / Σ_i exactSq_i) */
  relErrorA: number;
  /** mean over rows of KL(A_i ‖ Â_i) */
  meanKL: number;
  /** mean over rows of H(A_i) / log(#allowed keys) */
  meanNormEntropyExact: number;
  /** mean over rows of H(Â_i) / log(#allowed keys) */
  meanNormEntropyApprox: number;
}

export function summarizeRowStats(stats: RowStats, causal: boolean): RowStatsSummary {
  const n = stats.sqErr.length;
  let sq = 0;
  let ex = 0;
  let kl = 0;
  let hA = 0;
  let hB = 0;
  for (let i = 0; i < n; i++) {
    const keys = causal ? i + 1 : n;
    sq += stats.sqErr[i]!;
    ex += stats.exactSq[i]!;
    kl += stats.kl[i]!;
    hA += normalizedEntropy(stats.exactEntropy[i]!, keys);
    hB += normalizedEntropy(stats.approxEntropy[i]!, keys);
  }
  const rows = Math.max(n, 1);
  return {
    relErrorA: ex === 0 ? (sq === 0 ? 0 : Infinity) : Math.sqrt(sq / ex),
    meanKL: kl / rows,
    meanNormEntropyExact: hA / rows,
    meanNormEntropyApprox: hB / rows,
  };
}
