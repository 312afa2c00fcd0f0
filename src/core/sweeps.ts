/**
 * Building blocks of the panels' sweeps (error vs m, vs norm scale, vs d; entropy vs n): attention
 * rows on a subset of query rows, errors and entropies over those rows, spreads over seeds, and the
 * second-moment theory of the random-feature estimators.
 *
 * Row subsets. Errors and entropies are averages over rows, so a few dozen evenly spaced query rows
 * (against all keys) estimate them well at a fraction of the O(n²) cost; every sweep states how many
 * rows it used.
 *
 * Theory (iid ω ~ N(0, I_d), m projections). Write K_j = exp(x·y_j) for one query x, K̂_j its
 * estimate, A_j = K_j / Σ_l K_l. The second moments are closed-form (Performer paper, Lemma 2, and
 * the same Gaussian integrals for pairs of keys sharing the ω's):
 *   Cov(K̂_j, K̂_l) = K_j K_l ρ_jl / m,  with t_jl = ‖x‖² + x·y_j + x·y_l + y_j·y_l and
 *     positive    ρ = e^{t} − 1
 *     hyperbolic  ρ = cosh t − 1
 *     trig        ρ = cosh(‖x‖² + y_j·y_l − x·y_j − x·y_l) − 1
 *   (ρ_jj reproduces Lemma 2: e^{‖x+y‖²} − 1, cosh‖x+y‖² − 1, cosh‖x−y‖² − 1, all over m.)
 * "Per entry" ignores the normalizer: Σ_j A_j² ρ_jj / m — Lemma 2 applied to every entry of A.
 * "Normalized" adds the normalizer to first order (delta method): δÂ_j ≈ (δK̂_j − A_j δẐ)/Z, so
 *   Σ_j Var Â_j ≈ (1/m)[Σ_j A_j² ρ_jj − 2 Σ_j A_j² u_j + (Σ_j A_j²)(Σ_j A_j u_j)],  u_j = Σ_l A_l ρ_jl.
 * Both shrink like 1/√m in relative Frobenius error; neither applies to orthogonal features (lower).
 */
import { exactAttentionRow } from './exact-attention';
import { addSquaredError, normalizedEntropy, relErrorOf, rowEntropy } from './metrics';
import type { Matrix } from './types';

/** `count` query rows spread evenly over 0 … n−1 (all rows if count ≥ n). */
export function evenRows(n: number, count: number): number[] {
  if (count >= n) return Array.from({ length: n }, (_, i) => i);
  const out: number[] = [];
  for (let t = 0; t < count; t++) out.push(Math.min(n - 1, Math.floor(((t + 0.5) * n) / count)));
  return [...new Set(out)];
}

/** The given rows of `m` as a new matrix (features are per row, so φ(subRows(x)) = subRows(φ(x))). */
export function subRows(m: Matrix, rows: readonly number[]): Matrix {
  const out = new Float32Array(rows.length * m.cols);
  rows.forEach((i, t) => out.set(m.data.subarray(i * m.cols, (i + 1) * m.cols), t * m.cols));
  return { rows: rows.length, cols: m.cols, data: out };
}

/** The first n rows of m (inputs of a shorter sequence). */
export function firstRows(m: Matrix, n: number): Matrix {
  return { rows: Math.min(n, m.rows), cols: m.cols, data: m.data.subarray(0, Math.min(n, m.rows) * m.cols) };
}

/** Exact attention rows A_i (each length n_k) for the given query rows. */
export function exactRowsOf(q: Matrix, k: Matrix, rows: readonly number[], causal: boolean): Float32Array[] {
  const scratch = new Float64Array(k.rows);
  return rows.map((i) => exactAttentionRow(q, k, i, causal, new Float32Array(k.rows), scratch));
}

/** q · kd[ko … ko + p) with four partial sums combined as (s0 + s1) + (s2 + s3): approxRowsOf's order. */
function dot4(q: Float64Array, kd: Matrix['data'], ko: number, p: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let r = 0;
  for (; r + 3 < p; r += 4) {
    s0 += q[r]! * kd[ko + r]!;
    s1 += q[r + 1]! * kd[ko + r + 1]!;
    s2 += q[r + 2]! * kd[ko + r + 2]!;
    s3 += q[r + 3]! * kd[ko + r + 3]!;
  }
  for (; r < p; r++) s0 += q[r]! * kd[ko + r]!;
  return s0 + s1 + (s2 + s3);
}

/**
 * Linear-attention rows Â_i for the given query rows, from query features of those rows only
 * (`qfRows` row t belongs to query rows[t]) and the key features of all keys.
 */
export function approxRowsOf(qfRows: Matrix, kf: Matrix, rows: readonly number[], causal: boolean): Float32Array[] {
  const p = qfRows.cols;
  const n = kf.rows;
  const qd = qfRows.data;
  const kd = kf.data;
  // the rows are views of one buffer and share one scratch row: a sweep calls this for every
  // variant of every grid point, and two buffers per row kept the workers' GC busy
  const all = new Float32Array(rows.length * n);
  const num = new Float64Array(n);
  const q = new Float64Array(p);
  return rows.map((i, t) => {
    const out = all.subarray(t * n, (t + 1) * n);
    const last = causal ? Math.min(i, n - 1) : n - 1;
    let den = 0;
    for (let r = 0; r < p; r++) q[r] = qd[t * p + r]!;
    // the sweeps' hot spot. Two keys at a time share each load of the query row (widened once, above);
    // each dot keeps four partial sums combined in a fixed order, so every entry is the one-key-at-a-time
    // value bit for bit (and the twins' results do not depend on this blocking)
    let j = 0;
    for (; j + 1 <= last; j += 2) {
      const ka = j * p;
      const kb = ka + p;
      let a0 = 0;
      let a1 = 0;
      let a2 = 0;
      let a3 = 0;
      let b0 = 0;
      let b1 = 0;
      let b2 = 0;
      let b3 = 0;
      let r = 0;
      for (; r + 3 < p; r += 4) {
        const q0 = q[r]!;
        const q1 = q[r + 1]!;
        const q2 = q[r + 2]!;
        const q3 = q[r + 3]!;
        a0 += q0 * kd[ka + r]!;
        a1 += q1 * kd[ka + r + 1]!;
        a2 += q2 * kd[ka + r + 2]!;
        a3 += q3 * kd[ka + r + 3]!;
        b0 += q0 * kd[kb + r]!;
        b1 += q1 * kd[kb + r + 1]!;
        b2 += q2 * kd[kb + r + 2]!;
        b3 += q3 * kd[kb + r + 3]!;
      }
      for (; r < p; r++) {
        a0 += q[r]! * kd[ka + r]!;
        b0 += q[r]! * kd[kb + r]!;
      }
      const sa = a0 + a1 + (a2 + a3);
      const sb = b0 + b1 + (b2 + b3);
      num[j] = sa;
      num[j + 1] = sb;
      den += sa;
      den += sb;
    }
    if (j === last) {
      // the odd key out
      const s = dot4(q, kd, j * p, p);
      num[j] = s;
      den += s;
    }
    for (let jj = 0; jj <= last; jj++) out[jj] = num[jj]! / den;
    return out;
  });
}

/** ‖Â − A‖_F / ‖A‖_F over the given rows. */
export function relErrorOverRows(approx: readonly Float32Array[], exact: readonly Float32Array[]): number {
  const sums = { num: 0, den: 0 };
  for (let t = 0; t < exact.length; t++) addSquaredError(sums, approx[t]!, exact[t]!);
  // an overflowing map (trig at large norms) gives ∞ − ∞: off the chart rather than NaN
  if (!Number.isFinite(sums.num)) return Infinity;
  return relErrorOf(sums);
}

/** Normalized entropy H(row)/log(#allowed keys) of each row. */
export function normEntropies(rowsData: readonly Float32Array[], rows: readonly number[], causal: boolean): number[] {
  return rowsData.map((r, t) => normalizedEntropy(rowEntropy(r), causal ? rows[t]! + 1 : r.length));
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}

/** Mean, standard deviation and range of a set of runs (over seeds). Non-finite runs make it non-finite. */
export interface Spread {
  mean: number;
  std: number;
  lo: number;
  hi: number;
}

export function spread(values: readonly number[]): Spread {
  const mu = mean(values);
  let v = 0;
  for (const x of values) v += (x - mu) ** 2;
  return {
    mean: mu,
    std: values.length > 1 ? Math.sqrt(v / (values.length - 1)) : 0,
    lo: values.length ? Math.min(...values) : NaN,
    hi: values.length ? Math.max(...values) : NaN,
  };
}

/** from, 2·from, 4·from, … ≤ to. */
export function powersOfTwo(from: number, to: number): number[] {
  const out: number[] = [];
  for (let v = from; v <= to; v *= 2) out.push(v);
  return out;
}

/** The k of the top-k mass curves: 1, 2, 4, … ≤ n (powersOfTwo(1, n)); their count is ⌊log₂ n⌋ + 1. */
export function topMassLevels(n: number): number {
  return n >= 1 ? Math.floor(Math.log2(n)) + 1 : 0;
}

/**
 * The top-k mass of one attention row at k = 1, 2, 4, … (`levels` values): the mass of its k largest
 * entries among the `keys` keys the row sees (a causal row r sees r + 1: the masked positions are not
 * entries of the row), the whole row's mass once k ≥ keys. The CPU twin of
 * attention-row-top-mass.wgsl (there by nested selection in f32, here by sorting in f64).
 */
export function topMassAt(row: ArrayLike<number>, keys: number, levels: number): Float64Array {
  const seen = new Float64Array(keys);
  for (let j = 0; j < keys; j++) seen[j] = row[j]!;
  seen.sort().reverse();
  const out = new Float64Array(levels);
  let s = 0;
  let at = 0;
  for (let l = 0; l < levels; l++) {
    for (const end = Math.min(2 ** l, keys); at < end; at++) s += seen[at]!;
    out[l] = s;
  }
  return out;
}

export type EstimatorKind = 'positive' | 'hyperbolic' | 'trig';

export interface EstimatorTheory {
  /** Σ over the rows of Σ_j A_ij² ρ_jj (per-entry Lemma 2, normalizer exact), at m = 1 */
  perEntry: number;
  /** Σ over the rows of the delta-method variance of the normalized rows, at m = 1 */
  normalized: number;
  /** Σ over the rows of Σ_j A_ij² */
  exactSq: number;
}

/** Pair factor ρ_jl of the estimator (see the file comment). */
export function pairRho(kind: EstimatorKind, xx: number, sj: number, sl: number, gjl: number): number {
  if (kind === 'trig') return Math.cosh(xx + gjl - sj - sl) - 1;
  const t = xx + sj + sl + gjl;
  return kind === 'positive' ? Math.expm1(t) : Math.cosh(t) - 1;
}

/**
 * Second-moment theory over the given query rows for inputs already scaled by d^{-1/4} (x = q·d^{-1/4},
 * y = k·d^{-1/4}). O(rows · n² + n² d) time, O(n²) memory for the key Gram matrix.
 */
export function estimatorTheory(
  kind: EstimatorKind,
  x: Matrix,
  y: Matrix,
  rows: readonly number[],
  causal: boolean,
): EstimatorTheory {
  const n = y.rows;
  const d = y.cols;
  const gram = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    for (let l = j; l < n; l++) {
      let g = 0;
      for (let c = 0; c < d; c++) g += y.data[j * d + c]! * y.data[l * d + c]!;
      gram[j * n + l] = g;
      gram[l * n + j] = g;
    }
  }
  let gMax = 0;
  for (let e = 0; e < n * n; e++) gMax = Math.max(gMax, Math.abs(gram[e]!));
  const eGram = gMax < 300 ? gram.map(Math.exp) : gram;
  const eGramInv = gMax < 300 && kind !== 'positive' ? eGram.map((v) => 1 / v) : null;
  const s = new Float64Array(n);
  const a = new Float64Array(n);
  const u = new Float64Array(n);
  const eS = new Float64Array(n);
  const bS = new Float64Array(n);
  const bInv = new Float64Array(n);
  let perEntry = 0;
  let normalized = 0;
  let exactSq = 0;
  for (const i of rows) {
    const last = causal ? Math.min(i, n - 1) : n - 1;
    let xx = 0;
    for (let c = 0; c < d; c++) xx += x.data[i * d + c]! ** 2;
    let mx = -Infinity;
    for (let j = 0; j <= last; j++) {
      let t = 0;
      for (let c = 0; c < d; c++) t += x.data[i * d + c]! * y.data[j * d + c]!;
      s[j] = t;
      mx = Math.max(mx, t);
    }
    let z = 0;
    for (let j = 0; j <= last; j++) {
      a[j] = Math.exp(s[j]! - mx);
      z += a[j]!;
    }
    let a2 = 0;
    for (let j = 0; j <= last; j++) {
      a[j]! /= z;
      a2 += a[j]! * a[j]!;
    }
    let diag = 0;
    let cross = 0;
    let total = 0;
    // ρ_jl is a function of e^t, and e^t = c_j·E_l·G_jl with E_l = e^{±s_l}, G_jl = e^{g_jl} (eGram
    // once per call), c_j = e^{xx}·E_j. So Σ_l a_l ρ_jl is one or two dot products per j over
    // b_l = a_l·E_l and b'_l = a_l/E_l — no transcendental call in the n² loop:
    //   positive   ρ = e^t − 1                      →  c_j Σ b_l G_jl − Σ a_l
    //   hyperbolic ρ = cosh t − 1, t = xx+s_j+s_l+g  →  ½(c_j Σ b_l G_jl + c_j⁻¹ Σ b'_l / G_jl) − Σ a_l
    //   trig       ρ = cosh t − 1, t = xx+g−s_j−s_l  →  the same with E_l = e^{−s_l}
    // pairRho term by term where a factor could overflow or underflow.
    let sMax = 0;
    let aSum = 0;
    for (let j = 0; j <= last; j++) {
      sMax = Math.max(sMax, Math.abs(s[j]!));
      aSum += a[j]!;
    }
    const products = gMax < 300 && xx + 2 * sMax + gMax < 600;
    if (products) {
      const sign = kind === 'trig' ? -1 : 1;
      for (let l = 0; l <= last; l++) {
        eS[l] = Math.exp(sign * s[l]!);
        bS[l] = a[l]! * eS[l]!;
        bInv[l] = a[l]! / eS[l]!;
      }
    }
    const exx = Math.exp(xx);
    for (let j = 0; j <= last; j++) {
      let uj = 0;
      if (products) {
        const cj = exx * eS[j]!;
        const row = j * n;
        let up = 0;
        for (let l = 0; l <= last; l++) up += bS[l]! * eGram[row + l]!;
        if (kind === 'positive') {
          uj = cj * up - aSum;
        } else {
          let dn = 0;
          for (let l = 0; l <= last; l++) dn += bInv[l]! * eGramInv![row + l]!;
          uj = (cj * up + dn / cj) / 2 - aSum;
        }
      } else {
        for (let l = 0; l <= last; l++) uj += a[l]! * pairRho(kind, xx, s[j]!, s[l]!, gram[j * n + l]!);
      }
      u[j] = uj;
      diag += a[j]! * a[j]! * pairRho(kind, xx, s[j]!, s[j]!, gram[j * n + j]!);
      cross += a[j]! * a[j]! * uj;
      total += a[j]! * uj;
    }
    perEntry += diag;
    normalized += Math.max(0, diag - 2 * cross + a2 * total);
    exactSq += a2;
  }
  if (!Number.isFinite(perEntry)) perEntry = Infinity;
  if (!Number.isFinite(normalized)) normalized = Infinity;
  return { perEntry, normalized, exactSq };
}

/** Predicted relative Frobenius error of A at m projections from `estimatorTheory`. */
export function predictedRelError(
  t: EstimatorTheory,
  m: number,
  which: 'perEntry' | 'normalized' = 'normalized',
): number {
  if (t.exactSq === 0) return NaN;
  return Math.sqrt(t[which] / t.exactSq / m);
}
