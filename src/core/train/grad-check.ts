/**
 * Test support for the twins' gradient checks (used by the *.test.ts files only): central finite
 * differences in f64, (f(x + h eᵢ) − f(x − h eᵢ)) / 2h with h = 1e-5 (truncation error ~h² ≈ 1e-10,
 * round-off ~1e-16·|f|/h ≈ 1e-11), compared to the analytic gradient by the relative error
 * |a − n| / max(|a|, |n|, 1e-3·max|a|, 1e-4). The floor keeps entries that are exactly 0 in both (a
 * dead ReLU) or tiny beside the tensor's largest entry from turning round-off into a large ratio.
 */
import { createRng } from '../rng';

export function randArr(n: number, seed: number, scale = 1, offset = 0): Float64Array {
  const rng = createRng(seed);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = offset + scale * rng.normal();
  return out;
}

/** Σ r_i y_i: a scalar whose gradient w.r.t. y is r (every output contributes). */
export function dotLoss(y: ArrayLike<number>, r: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < y.length; i++) s += y[i] * r[i];
  return s;
}

/**
 * Max relative error between `analytic` and the finite differences of f at x over `indices`
 * (all entries when omitted). x is perturbed in place and restored.
 */
export function gradCheck(
  f: () => number,
  x: Float64Array,
  analytic: ArrayLike<number>,
  indices?: readonly number[],
  h = 1e-5,
): number {
  let worst = 0;
  let scale = 0;
  for (let i = 0; i < analytic.length; i++) scale = Math.max(scale, Math.abs(analytic[i]));
  const floor = Math.max(1e-3 * scale, 1e-4);
  const idx = indices ?? Array.from({ length: x.length }, (_, i) => i);
  for (const i of idx) {
    const x0 = x[i];
    x[i] = x0 + h;
    const fp = f();
    x[i] = x0 - h;
    const fm = f();
    x[i] = x0;
    const num = (fp - fm) / (2 * h);
    const a = analytic[i];
    const rel = Math.abs(a - num) / Math.max(Math.abs(a), Math.abs(num), floor);
    if (rel > worst) worst = rel;
  }
  return worst;
}

/** A few indices of an array of length n (seeded), all when n ≤ count. */
export function someIndices(n: number, count: number, seed: number): number[] {
  if (n <= count) return Array.from({ length: n }, (_, i) => i);
  const rng = createRng(seed);
  const out = new Set<number>();
  while (out.size < count) out.add(Math.floor(rng.uniform() * n));
  return [...out];
}

/** Max |a − n| over the entries, relative to the largest |a| (for checks whose error is absolute). */
export function gradCheckScaled(f: () => number, x: Float64Array, analytic: ArrayLike<number>, h = 1e-5): number {
  let worst = 0;
  let scale = 1e-12;
  for (let i = 0; i < analytic.length; i++) scale = Math.max(scale, Math.abs(analytic[i]));
  for (let i = 0; i < x.length; i++) {
    const x0 = x[i];
    x[i] = x0 + h;
    const fp = f();
    x[i] = x0 - h;
    const fm = f();
    x[i] = x0;
    worst = Math.max(worst, Math.abs(analytic[i] - (fp - fm) / (2 * h)));
  }
  return worst / scale;
}
