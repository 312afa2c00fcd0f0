/**
 * Closed-form error theory of the random-feature estimators of SM(x, y) = exp(x·y)
 * (Performer paper, Lemma 2; iid ω ~ N(0, I_d), m random projections, one kernel entry):
 *
 *   positive    MSE = (1/m) e^{‖x+y‖²} SM² (1 − e^{−‖x+y‖²})        relative: (e^{‖x+y‖²} − 1)/m
 *   trig        MSE = 1/(2m) e^{‖x+y‖²} SM^{-2} (1 − e^{−‖x−y‖²})²   → ∞ relative to SM² as SM → 0
 *   hyperbolic  MSE = ½ (1 − e^{−‖x+y‖²}) · MSE(positive)          (2m features from m projections)
 *
 * The positive estimator's relative error depends only on ‖x+y‖² — it grows with the norms of q, k
 * (and with d for Gaussian inputs, ‖x+y‖² ≈ 2√d s²), not with n.
 */

function sqNorm(v: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  return s;
}
function sqNormOf(x: ArrayLike<number>, y: ArrayLike<number>, sign: 1 | -1): number {
  if (x.length !== y.length) throw new RangeError(`vectors of length ${x.length} and ${y.length}`);
  let s = 0;
  for (let i = 0; i < x.length; i++) {
    const t = x[i]! + sign * y[i]!;
    s += t * t;
  }
  return s;
}
function dotOf(x: ArrayLike<number>, y: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i]! * y[i]!;
  return s;
}

/** SM(x, y) = exp(x·y). */
export function softmaxKernel(x: ArrayLike<number>, y: ArrayLike<number>): number {
  return Math.exp(dotOf(x, y));
}

export function positiveMse(x: ArrayLike<number>, y: ArrayLike<number>, m: number): number {
  const s2 = sqNormOf(x, y, 1);
  const sm = softmaxKernel(x, y);
  // e^{s2}(1 − e^{−s2}) = e^{s2} − 1, written with expm1 for accuracy at small norms.
  return (Math.expm1(s2) * sm * sm) / m;
}

export function positiveRelativeMse(x: ArrayLike<number>, y: ArrayLike<number>, m: number): number {
  return Math.expm1(sqNormOf(x, y, 1)) / m;
}

export function trigMse(x: ArrayLike<number>, y: ArrayLike<number>, m: number): number {
  const sMinus = sqNormOf(x, y, -1);
  // e^{‖x+y‖²} SM^{-2} = e^{‖x‖² + ‖y‖²}; computed that way it cannot overflow through SM^{-2}.
  const g = -Math.expm1(-sMinus);
  return (Math.exp(sqNorm(x) + sqNorm(y)) * g * g) / (2 * m);
}

export function trigRelativeMse(x: ArrayLike<number>, y: ArrayLike<number>, m: number): number {
  const sm = softmaxKernel(x, y);
  return trigMse(x, y, m) / (sm * sm);
}

export function hyperbolicMse(x: ArrayLike<number>, y: ArrayLike<number>, m: number): number {
  const s2 = sqNormOf(x, y, 1);
  return 0.5 * -Math.expm1(-s2) * positiveMse(x, y, m);
}

export function hyperbolicRelativeMse(x: ArrayLike<number>, y: ArrayLike<number>, m: number): number {
  const s2 = sqNormOf(x, y, 1);
  return 0.5 * -Math.expm1(-s2) * positiveRelativeMse(x, y, m);
}

/**
 * log Γ(z) for z > 0 (Lanczos approximation, g = 7, 9 terms; ~1e-15 relative), with the reflection
 * formula for z < 0.5.
 */
export function logGamma(z: number): number {
  if (z < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * z))) - logGamma(1 - z);
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  const x = z - 1;
  let a = c[0]!;
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += c[i]! / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

/** E‖g‖ for g ~ N(0, I_d): √2 Γ((d+1)/2) / Γ(d/2) (mean of the χ_d distribution; ≈ √(d − ½)). */
export function chiMeanLength(d: number): number {
  return Math.SQRT2 * Math.exp(logGamma((d + 1) / 2) - logGamma(d / 2));
}
