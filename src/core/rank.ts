/**
 * Rank measures of a spectrum σ₁ ≥ σ₂ ≥ … ≥ 0 (from `singularValues`).
 *
 * - numerical rank at relative tolerance τ: #{ i : σ_i > τ·σ₁ }. A tolerance must always be stated:
 *   an n×n attention matrix is almost never exactly singular, but its spectrum may fall off so fast
 *   that only a few directions matter at the precision one cares about.
 * - effective rank (Roy & Vetterli 2007): exp(H(p)) with p_i = σ_i / Σσ — a smooth count of how
 *   many singular values carry the mass (n for the identity, 1 for a rank-one matrix).
 */

/** Tolerances the rank panel offers; 1e-6 is the default (well above the f32 noise of inputs). */
export const RANK_TOLERANCES = [1e-3, 1e-6, 1e-9, 1e-12] as const;
export const DEFAULT_RANK_TOL = 1e-6;

function checkSpectrum(sigma: ArrayLike<number>): void {
  for (let i = 0; i < sigma.length; i++) {
    const s = sigma[i]!;
    if (!(s >= 0) || !Number.isFinite(s))
      throw new RangeError(`spectrum entry ${i} is ${s}; singular values are finite and ≥ 0`);
  }
}

function maxOf(sigma: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < sigma.length; i++) m = Math.max(m, sigma[i]!);
  return m;
}

/** #{σ_i > relTol·σ_max}; 0 for an all-zero (or empty) spectrum. */
export function numericalRank(sigma: ArrayLike<number>, relTol: number = DEFAULT_RANK_TOL): number {
  if (!(relTol >= 0) || !Number.isFinite(relTol))
    throw new RangeError(`tolerance ${relTol} must be a finite number ≥ 0`);
  checkSpectrum(sigma);
  const top = maxOf(sigma);
  if (top === 0) return 0;
  const cut = relTol * top;
  let r = 0;
  for (let i = 0; i < sigma.length; i++) if (sigma[i]! > cut) r++;
  return r;
}

/** exp(−Σ p_i log p_i), p_i = σ_i / Σ_j σ_j (zero entries contribute nothing); 0 for an all-zero spectrum. */
export function effectiveRank(sigma: ArrayLike<number>): number {
  checkSpectrum(sigma);
  let total = 0;
  for (let i = 0; i < sigma.length; i++) total += sigma[i]!;
  if (total === 0) return 0;
  let h = 0;
  for (let i = 0; i < sigma.length; i++) {
    const p = sigma[i]! / total;
    if (p > 0) h -= p * Math.log(p);
  }
  return Math.exp(h);
}
