/**
 * The three matrices of the rank argument (Su Jianlin, kexue.fm/archives/8338) and their singular values:
 *   scores S = QKᵀ/√d            rank ≤ d (product of n×d factors; shown without the causal mask)
 *   exact  A = softmax(S)         elementwise exp can raise the rank up to n; causal A is lower
 *                                 triangular with a positive diagonal, hence invertible
 *   linear Â = D⁻¹ Q'K'ᵀ          rank ≤ m' (bidirectional); causal Â is triangular again
 *
 * A is built in f64 here (not from the f32 CPU twin) so its spectrum is trustworthy far below f32
 * precision. Low-rank products are never formed densely: for B Cᵀ with n×p factors (p < n),
 * B = Q_B R_B and C = Q_C R_C (Householder QR) give σ(B Cᵀ) = σ(R_B R_Cᵀ), a p×p problem; with p ≥ n
 * the dense n×n matrix is cheaper.
 */
import { singularValuesSteps, type SvdProgress } from './svd';
import type { Matrix } from './types';

/** Dense exact attention A (n×n, f64) from Q, K: s_ij = q_i·k_j/√d, row softmax, causal mask j > i. */
export function exactAttentionF64(q: Matrix, k: Matrix, causal: boolean): Float64Array {
  const n = q.rows;
  const nk = k.rows;
  const d = q.cols;
  const inv = 1 / Math.sqrt(d);
  const a = new Float64Array(n * nk);
  for (let i = 0; i < n; i++) {
    const last = causal ? Math.min(i, nk - 1) : nk - 1;
    let mx = -Infinity;
    for (let j = 0; j <= last; j++) {
      let s = 0;
      for (let c = 0; c < d; c++) s += q.data[i * d + c]! * k.data[j * d + c]!;
      s *= inv;
      a[i * nk + j] = s;
      if (s > mx) mx = s;
    }
    let sum = 0;
    for (let j = 0; j <= last; j++) {
      const e = Math.exp(a[i * nk + j]! - mx);
      a[i * nk + j] = e;
      sum += e;
    }
    for (let j = 0; j <= last; j++) a[i * nk + j]! /= sum;
  }
  return a;
}

/** Dense causal Â (n×n, f64) from features: Â_ij = q'_i·k'_j / Σ_{l ≤ i} q'_i·k'_l for j ≤ i. */
export function causalLinearAttentionF64(qf: Matrix, kf: Matrix): Float64Array {
  const n = qf.rows;
  const p = qf.cols;
  const a = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    let den = 0;
    for (let j = 0; j <= i && j < kf.rows; j++) {
      let s = 0;
      for (let r = 0; r < p; r++) s += qf.data[i * p + r]! * kf.data[j * p + r]!;
      a[i * n + j] = s;
      den += s;
    }
    for (let j = 0; j <= i && j < kf.rows; j++) a[i * n + j]! /= den;
  }
  return a;
}

/** Upper-triangular R (p×p, row-major f64) of a Householder QR of the n×p matrix `a` (n ≥ p). */
export function householderR(a: { rows: number; cols: number; data: ArrayLike<number> }): Float64Array {
  const { rows: n, cols: p } = a;
  if (n < p) throw new RangeError(`householderR: ${n}×${p} is wide`);
  const m = Float64Array.from(a.data as ArrayLike<number>);
  const w = new Float64Array(p);
  for (let k = 0; k < p; k++) {
    let norm2 = 0;
    for (let i = k; i < n; i++) norm2 += m[i * p + k]! ** 2;
    let alpha = Math.sqrt(norm2);
    if (alpha === 0) continue;
    const x0 = m[k * p + k]!;
    if (x0 > 0) alpha = -alpha;
    const v0 = x0 - alpha;
    const vnorm2 = norm2 - x0 * x0 + v0 * v0;
    // v = (v0, m[k+1.., k]); apply H = I − 2vvᵀ/vᵀv to columns k+1..p−1
    if (vnorm2 > 0) {
      const tau = 2 / vnorm2;
      for (let j = k + 1; j < p; j++) w[j] = v0 * m[k * p + j]!;
      for (let i = k + 1; i < n; i++) {
        const vi = m[i * p + k]!;
        if (vi === 0) continue;
        for (let j = k + 1; j < p; j++) w[j]! += vi * m[i * p + j]!;
      }
      for (let j = k + 1; j < p; j++) m[k * p + j]! -= tau * v0 * w[j]!;
      for (let i = k + 1; i < n; i++) {
        const f = tau * m[i * p + k]!;
        if (f === 0) continue;
        for (let j = k + 1; j < p; j++) m[i * p + j]! -= f * w[j]!;
      }
    }
    m[k * p + k] = alpha;
  }
  const r = new Float64Array(p * p);
  for (let i = 0; i < p; i++) for (let j = i; j < p; j++) r[i * p + j] = m[i * p + j]!;
  return r;
}

/**
 * The matrix whose singular values are those of B Cᵀ·s (B, C: n×p, s a scalar): R_B R_Cᵀ·s (p×p)
 * when p < n, else the dense product (n×n).
 */
export function lowRankProductCore(
  b: Matrix | { rows: number; cols: number; data: Float64Array },
  c: Matrix,
  s = 1,
): { rows: number; cols: number; data: Float64Array } {
  const n = b.rows;
  const p = b.cols;
  if (c.cols !== p) throw new RangeError(`lowRankProductCore: ${b.rows}×${b.cols} and ${c.rows}×${c.cols}`);
  if (p < n && p < c.rows) {
    const rb = householderR(b);
    const rc = householderR(c);
    const out = new Float64Array(p * p);
    for (let i = 0; i < p; i++) {
      for (let j = 0; j < p; j++) {
        let t = 0;
        // R_B[i, k] R_C[j, k]: both upper triangular, so k ≥ max(i, j)
        for (let k = Math.max(i, j); k < p; k++) t += rb[i * p + k]! * rc[j * p + k]!;
        out[i * p + j] = t * s;
      }
    }
    return { rows: p, cols: p, data: out };
  }
  return denseProductF64(b, c, s);
}

/** B Cᵀ·s densely (n × c.rows, f64): the n×n product when the factors are not thin. */
export function denseProductF64(
  b: Matrix | { rows: number; cols: number; data: Float64Array },
  c: Matrix,
  s = 1,
): { rows: number; cols: number; data: Float64Array } {
  const n = b.rows;
  const p = b.cols;
  const nc = c.rows;
  const out = new Float64Array(n * nc);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < nc; j++) {
      let t = 0;
      for (let k = 0; k < p; k++) t += b.data[i * p + k]! * c.data[j * p + k]!;
      out[i * nc + j] = t * s;
    }
  }
  return { rows: n, cols: nc, data: out };
}

/**
 * D⁻¹Q' (rows of the query features divided by their denominators q'_i·Σ_j k'_j), f64, and how many
 * denominators are exactly 0: those rows are 0/0 (NaN, the twin of the GPU's dense Â) or, with
 * `zeroRows: 'zero'`, 0 — as linear attention leaves its output row.
 */
export function normalizedQueryFeatures(
  qf: Matrix,
  kf: Matrix,
  zeroRows: 'nan' | 'zero' = 'nan',
): { rows: number; cols: number; data: Float64Array; zeroNormalizerRows: number } {
  const p = qf.cols;
  const z = new Float64Array(p);
  for (let j = 0; j < kf.rows; j++) for (let r = 0; r < p; r++) z[r]! += kf.data[j * p + r]!;
  const out = new Float64Array(qf.rows * p);
  let zeroNormalizerRows = 0;
  for (let i = 0; i < qf.rows; i++) {
    let den = 0;
    for (let r = 0; r < p; r++) den += qf.data[i * p + r]! * z[r]!;
    if (den === 0) {
      zeroNormalizerRows++;
      if (zeroRows === 'zero') continue; // the row stays 0, as linear attention leaves its output row
    }
    for (let r = 0; r < p; r++) out[i * p + r] = qf.data[i * p + r]! / den;
  }
  return { rows: qf.rows, cols: p, data: out, zeroNormalizerRows };
}

/**
 * A dense Â (n×n) as the outputs treat it: a row whose normalizer was exactly 0 came out 0/0 — NaN
 * wherever a product was formed, 0 where the causal mask left it — and becomes a zero row (counted),
 * in place. A row with any other non-finite entry (±∞, or NaN beside finite values) is left alone:
 * that is an overflow, not an empty row.
 */
export function zeroNormalizerRowsToZero(a: Float32Array | Float64Array, n: number): number {
  let count = 0;
  for (let i = 0; i < n; i++) {
    const row = a.subarray(i * n, (i + 1) * n);
    let nan = false;
    let other = false;
    for (let j = 0; j < n; j++) {
      const v = row[j]!;
      if (Number.isNaN(v)) nan = true;
      else if (v !== 0) other = true;
    }
    if (nan && !other) {
      row.fill(0);
      count++;
    }
  }
  return count;
}

export type SpectrumMatrix = { rows: number; cols: number; data: ArrayLike<number> };

/** σ of `m`, padded with zeros to length `padTo` (a p×p core of an n×n rank-p matrix has n − p zero σ). */
export function* spectrumSteps(m: SpectrumMatrix, padTo: number): Generator<SvdProgress, Float64Array> {
  const s = yield* singularValuesSteps(m);
  if (s.length >= padTo) return s;
  const out = new Float64Array(padTo);
  out.set(s);
  return out;
}
