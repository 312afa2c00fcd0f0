/**
 * Random projections ω_1..ω_m (rows of W ∈ R^{m×d}) for the random-feature maps.
 *
 * - 'iid': every entry N(0, 1), so each row ω ~ N(0, I_d).
 * - 'orthogonal-chi' / 'orthogonal-sqrtd': ⌊m/d⌋ full d×d blocks whose rows are orthonormal (the Q
 *   of a QR of a Gaussian d×d matrix, i.e. Haar-random), then a partial last block keeping its
 *   first (m mod d) rows; blocks are stacked. Each row is then rescaled: to the length of an
 *   independent N(0, I_d) vector (χ_d-distributed, so each row is marginally N(0, I_d) and the
 *   estimator stays unbiased — the paper's default), or to exactly √d ("regularized").
 *
 * - 'simplex' (simplex random features, Reid et al., ICML 2023): each block of d directions is a
 *   regular simplex — unit vectors with pairwise dot product −1/(d−1), the most negatively
 *   correlated d directions there are — rotated by a Haar-random orthogonal matrix R (the same
 *   Gram–Schmidt block as above), rows rescaled to independent χ_d lengths as for 'orthogonal-chi'.
 *   Each row is still marginally N(0, I_d) (a uniform direction times a χ_d length), so every
 *   estimator stays unbiased; the negative coupling lowers the variance of the positive features
 *   further than orthogonality (the paper proves it has the smallest MSE among such couplings). The simplex used: s_i ∝ e_i − (1/d)·1,
 *   normalized (it lies in the hyperplane ⊥ 1; R then rotates it to a uniform position). d = 1 has
 *   no simplex and falls back to the orthogonal (±1) direction.
 *
 * Orthogonality within a block lowers the estimator's MSE (Performer paper, Theorem 2).
 * The QR is done in f64 by modified Gram–Schmidt over the rows with one re-orthogonalization pass
 * ("twice is enough"), which is accurate to ~1e-15 for the d ≤ 256 used here.
 */
import type { Matrix, ProjectionKind } from './types';
import type { Rng } from './rng';

/**
 * A d×d matrix (f64, row-major) with orthonormal rows: Gram–Schmidt on the rows of a Gaussian
 * matrix. The rows of Q in G = Q R span the same flags as the columns would; the result is
 * Haar-distributed either way because the Gaussian matrix is rotation invariant.
 */
export function orthonormalGaussianBlock(d: number, rng: Rng, rows = d): Float64Array {
  const g = new Float64Array(d * d);
  for (let i = 0; i < g.length; i++) g[i] = rng.normal();
  // Row i depends only on rows < i, so a partial block (`rows` < d: the last block of W when d ∤ m)
  // stops after its rows — the same bits for them, the same draws consumed (the seed contract), and
  // O(rows²·d) instead of O(d³): at d = 256, m = 64 that is 16× less work. Rows ≥ `rows` stay raw.
  for (let i = 0; i < Math.min(rows, d); i++) {
    const ri = i * d;
    // Two passes of projecting out the previous rows (re-orthogonalization).
    for (let pass = 0; pass < 2; pass++) {
      for (let p = 0; p < i; p++) {
        const rp = p * d;
        let dotp = 0;
        for (let c = 0; c < d; c++) dotp += g[ri + c]! * g[rp + c]!;
        for (let c = 0; c < d; c++) g[ri + c]! -= dotp * g[rp + c]!;
      }
    }
    let norm = 0;
    for (let c = 0; c < d; c++) norm += g[ri + c]! * g[ri + c]!;
    norm = Math.sqrt(norm);
    // A Gaussian row lies in the span of the previous ones with probability 0; guard anyway by
    // redrawing the row (deterministic: it consumes the same stream).
    if (!(norm > 1e-10)) {
      for (let c = 0; c < d; c++) g[ri + c] = rng.normal();
      i--;
      continue;
    }
    for (let c = 0; c < d; c++) g[ri + c]! /= norm;
  }
  return g;
}

/** Length of an independent N(0, I_d) vector: one χ_d draw. */
export function chiSample(d: number, rng: Rng): number {
  let s = 0;
  for (let c = 0; c < d; c++) {
    const z = rng.normal();
    s += z * z;
  }
  return Math.sqrt(s);
}

/**
 * W ∈ R^{m×d} of the given kind. Draw order (part of the seed contract): for orthogonal kinds, all
 * blocks first (block b's Gaussian matrix, in row-major order), then the m row lengths for 'chi'.
 */
export function randomProjection(kind: ProjectionKind, m: number, d: number, rng: Rng): Matrix {
  if (!Number.isInteger(m) || !Number.isInteger(d) || m < 0 || d < 0) {
    throw new RangeError(`randomProjection: invalid shape ${m}×${d}`);
  }
  const out = new Float32Array(m * d);
  if (m === 0 || d === 0) return { rows: m, cols: d, data: out };

  if (kind === 'iid') {
    rng.fillNormal(out);
    return { rows: m, cols: d, data: out };
  }

  if (kind === 'simplex') return simplexProjection(m, d, rng);

  if (kind !== 'orthogonal-chi' && kind !== 'orthogonal-sqrtd') {
    throw new RangeError(`randomProjection: unknown kind ${String(kind)}`);
  }

  // Orthogonal directions, block by block (unit rows, f64).
  const dirs = new Float64Array(m * d);
  const blocks = Math.ceil(m / d);
  for (let b = 0; b < blocks; b++) {
    const rowsHere = Math.min(d, m - b * d); // partial last block keeps its first rows
    const block = orthonormalGaussianBlock(d, rng, rowsHere);
    dirs.set(block.subarray(0, rowsHere * d), b * d * d);
  }

  const sqrtD = Math.sqrt(d);
  for (let r = 0; r < m; r++) {
    const len = kind === 'orthogonal-chi' ? chiSample(d, rng) : sqrtD;
    for (let c = 0; c < d; c++) out[r * d + c] = dirs[r * d + c]! * len;
  }
  return { rows: m, cols: d, data: out };
}

/**
 * The d unit vectors of a regular simplex centred at 0, rows of a d×d f64 matrix:
 * s_i = (e_i − (1/d)·1) / ‖e_i − (1/d)·1‖, so s_i·s_j = −1/(d−1) for i ≠ j (d ≥ 2).
 */
export function simplexBlock(d: number): Float64Array {
  const s = new Float64Array(d * d);
  const norm = Math.sqrt(1 - 1 / d);
  for (let i = 0; i < d; i++) for (let c = 0; c < d; c++) s[i * d + c] = ((i === c ? 1 : 0) - 1 / d) / norm;
  return s;
}

/**
 * Simplex random features: per block of d rows, directions s_i R (R Haar-random, one
 * orthonormalGaussianBlock per block), then χ_d lengths. Draw order: all blocks' R, then the m lengths.
 */
function simplexProjection(m: number, d: number, rng: Rng): Matrix {
  const out = new Float32Array(m * d);
  const dirs = new Float64Array(m * d);
  const simplex = d >= 2 ? simplexBlock(d) : null;
  const blocks = Math.ceil(m / d);
  for (let b = 0; b < blocks; b++) {
    const rot = orthonormalGaussianBlock(d, rng);
    const rowsHere = Math.min(d, m - b * d);
    for (let i = 0; i < rowsHere; i++) {
      const o = (b * d + i) * d;
      if (!simplex) {
        dirs[o] = rot[0]!; // d = 1: ±1
        continue;
      }
      // (s_i R)_c = Σ_k s_ik R_kc
      for (let k = 0; k < d; k++) {
        const sik = simplex[i * d + k]!;
        for (let c = 0; c < d; c++) dirs[o + c]! += sik * rot[k * d + c]!;
      }
    }
  }
  for (let r = 0; r < m; r++) {
    const len = chiSample(d, rng);
    for (let c = 0; c < d; c++) out[r * d + c] = dirs[r * d + c]! * len;
  }
  return { rows: m, cols: d, data: out };
}
