/**
 * Singular values of a dense real matrix, in f64, for the rank panel's spectra.
 *
 * Method (Golub & Van Loan §8.6, §5.4):
 *  1. Householder bidiagonalization A = U B Vᵀ (backward stable: the singular values of B are
 *     those of A + E with ‖E‖₂ ≈ c·ε·‖A‖₂). Cost 4·r·c² − 4c³/3 flops for an r×c matrix, r ≥ c.
 *  2. The singular values of the upper-bidiagonal B (diagonal d, superdiagonal e) are the
 *     non-negative eigenvalues of the 2c×2c Golub–Kahan matrix: zero diagonal, off-diagonal
 *     (d₁, e₁, d₂, e₂, …, d_c). Each one is found by bisection with Sturm counts (LDLᵀ pivots),
 *     which on this zero-diagonal tridiagonal is accurate to a few ulps *relative* to each σ
 *     (Demmel & Kahan 1990) — so tiny singular values are resolved down to ≈ ε·σ₁ of step 1.
 *
 * Accuracy: |σ̂_i − σ_i| ≲ 10·ε·c·σ₁ (ε = 2⁻⁵²), i.e. spectra are trustworthy down to ~1e-13
 * relative for the sizes used here (c ≤ 2,048) — far below the 1e-7 the panel needs.
 *
 * `singularValuesSteps` is a generator that yields after every Householder step, so an analysis
 * worker can report progress and see cancellation between steps; `singularValues` runs it to the end.
 */

export interface DenseInput {
  rows: number;
  cols: number;
  /** row-major, rows·cols entries (Float32Array or Float64Array) */
  data: ArrayLike<number>;
}

export interface SvdProgress {
  done: number;
  total: number;
}

/** Upper-bidiagonal form: diagonal d (length c) and superdiagonal e (length c − 1). */
export interface Bidiagonal {
  d: Float64Array;
  e: Float64Array;
}

/** Copies `a` (transposed if it is wide) into a row-major f64 buffer with rows ≥ cols. */
function tallCopy(a: DenseInput): { r: number; c: number; m: Float64Array } {
  const { rows, cols, data } = a;
  if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 0 || cols < 0 || data.length !== rows * cols) {
    throw new RangeError(`singularValues: bad shape ${rows}×${cols} for ${data.length} entries`);
  }
  if (rows >= cols) {
    const m = new Float64Array(rows * cols);
    for (let i = 0; i < m.length; i++) m[i] = data[i]!;
    return { r: rows, c: cols, m };
  }
  const m = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) m[j * rows + i] = data[i * cols + j]!;
  return { r: cols, c: rows, m };
}

/**
 * Householder bidiagonalization of the r×c (r ≥ c) row-major matrix `m`, in place.
 * Yields after each column so long runs can be interrupted.
 */
export function* bidiagonalizeSteps(m: Float64Array, r: number, c: number): Generator<SvdProgress, Bidiagonal> {
  const d = new Float64Array(c);
  const e = new Float64Array(Math.max(0, c - 1));
  const v = new Float64Array(r);
  const w = new Float64Array(Math.max(r, c));
  for (let k = 0; k < c; k++) {
    // ---- left reflector: zero m[k+1.., k] ----
    let norm2 = 0;
    for (let i = k; i < r; i++) norm2 += m[i * c + k]! * m[i * c + k]!;
    let alpha = Math.sqrt(norm2);
    if (alpha > 0) {
      const x0 = m[k * c + k]!;
      if (x0 > 0) alpha = -alpha; // v = x − αe₁ with α of opposite sign: no cancellation
      for (let i = k; i < r; i++) v[i] = m[i * c + k]!;
      v[k] = x0 - alpha;
      const vnorm2 = norm2 - x0 * x0 + v[k]! * v[k]!;
      if (vnorm2 > 0) {
        const tau = 2 / vnorm2;
        // w_j = Σ_i v_i m_ij for the remaining columns (row-major friendly)
        for (let j = k + 1; j < c; j++) w[j] = 0;
        for (let i = k; i < r; i++) {
          const vi = v[i]!;
          if (vi === 0) continue;
          const off = i * c;
          for (let j = k + 1; j < c; j++) w[j]! += vi * m[off + j]!;
        }
        for (let i = k; i < r; i++) {
          const f = tau * v[i]!;
          if (f === 0) continue;
          const off = i * c;
          for (let j = k + 1; j < c; j++) m[off + j]! -= f * w[j]!;
        }
      }
    }
    d[k] = alpha;
    for (let i = k; i < r; i++) m[i * c + k] = 0;

    // ---- right reflector: zero m[k, k+2..] ----
    if (k < c - 1) {
      const off = k * c;
      let n2 = 0;
      for (let j = k + 1; j < c; j++) n2 += m[off + j]! * m[off + j]!;
      let beta = Math.sqrt(n2);
      if (beta > 0 && k < c - 2) {
        const x0 = m[off + k + 1]!;
        if (x0 > 0) beta = -beta;
        for (let j = k + 1; j < c; j++) v[j] = m[off + j]!;
        v[k + 1] = x0 - beta;
        const vnorm2 = n2 - x0 * x0 + v[k + 1]! * v[k + 1]!;
        if (vnorm2 > 0) {
          const tau = 2 / vnorm2;
          for (let i = k + 1; i < r; i++) {
            const ro = i * c;
            let s = 0;
            for (let j = k + 1; j < c; j++) s += m[ro + j]! * v[j]!;
            const f = tau * s;
            if (f === 0) continue;
            for (let j = k + 1; j < c; j++) m[ro + j]! -= f * v[j]!;
          }
        }
      } else if (k === c - 2) {
        // a single entry: nothing to zero, keep its value (sign is irrelevant for σ)
        beta = m[off + k + 1]!;
      }
      e[k] = beta;
    }
    yield { done: k + 1, total: c };
  }
  return { d, e };
}

/** Number of eigenvalues < x of the symmetric tridiagonal with zero diagonal and off-diagonal b (squares b2). */
function sturmCountBelow(b2: Float64Array, size: number, x: number, pivmin: number): number {
  let count = 0;
  let q = -x;
  if (Math.abs(q) < pivmin) q = -pivmin;
  if (q < 0) count++;
  for (let i = 1; i < size; i++) {
    q = -x - b2[i - 1]! / q;
    if (Math.abs(q) < pivmin) q = -pivmin;
    if (q < 0) count++;
  }
  return count;
}

/** Singular values of the upper-bidiagonal (d, e), descending. */
export function bidiagonalSingularValues(bd: Bidiagonal): Float64Array {
  const c = bd.d.length;
  const out = new Float64Array(c);
  if (c === 0) return out;
  const size = 2 * c;
  const b2 = new Float64Array(size - 1);
  let bmax = 0;
  for (let i = 0; i < c; i++) {
    b2[2 * i] = bd.d[i]! * bd.d[i]!;
    bmax = Math.max(bmax, Math.abs(bd.d[i]!));
    if (i < c - 1) {
      b2[2 * i + 1] = bd.e[i]! * bd.e[i]!;
      bmax = Math.max(bmax, Math.abs(bd.e[i]!));
    }
  }
  if (bmax === 0) return out;
  // Gershgorin: every eigenvalue lies in [−2 bmax, 2 bmax].
  const upper = 2 * bmax * (1 + 1e-15) + Number.MIN_VALUE;
  const pivmin = Number.MIN_VALUE * 1e4 + bmax * bmax * 1e-300;
  const floor = bmax * 1e-30; // below this a singular value is reported as 0
  const eps = 2.220446049250313e-16;
  // The k-th largest eigenvalue (k = 0 … c−1) is the (size − 1 − k)-th smallest; the top c are the σ ≥ 0.
  for (let k = 0; k < c; k++) {
    const target = size - 1 - k; // σ_k is the smallest x with count(< x) > target … bisect on count ≤ target
    let lo = 0;
    let hi = k === 0 ? upper : Math.min(upper, out[k - 1]! * (1 + 4 * eps) + floor);
    for (let it = 0; it < 400; it++) {
      const mid = 0.5 * (lo + hi);
      if (mid <= lo || mid >= hi) break;
      if (sturmCountBelow(b2, size, mid, pivmin) > target) hi = mid;
      else lo = mid;
      if (hi - lo <= 2 * eps * hi || hi < floor) break;
    }
    out[k] = hi < floor ? 0 : 0.5 * (lo + hi);
  }
  return out;
}

/**
 * Generator form: yields progress after each Householder step (`total` = min(rows, cols) + 1; the
 * last step is the bisection) and returns the singular values, descending, length min(rows, cols).
 */
export function* singularValuesSteps(a: DenseInput): Generator<SvdProgress, Float64Array> {
  const { r, c, m } = tallCopy(a);
  if (c === 0) return new Float64Array(0);
  const total = c + 1;
  const it = bidiagonalizeSteps(m, r, c);
  let step = it.next();
  while (!step.done) {
    yield { done: step.value.done, total };
    step = it.next();
  }
  const sigma = bidiagonalSingularValues(step.value);
  yield { done: total, total };
  return sigma;
}

/** Singular values of `a`, descending, length min(rows, cols). */
export function singularValues(a: DenseInput): Float64Array {
  const it = singularValuesSteps(a);
  let step = it.next();
  while (!step.done) step = it.next();
  return step.value;
}
