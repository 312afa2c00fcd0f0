/**
 * Su Jianlin's local-truncation experiment (kexue.fm/archives/8338): compute the linear-attention matrix Â, keep
 * only a band |i − j| ≤ w around the diagonal, renormalize every row, and compare with exact
 * attention. It is not linear-time any more — a demonstration that sparsity is what linear attention
 * lacks, not a method. The same truncation of the *exact* A is the reference: what truncation alone
 * throws away.
 *
 *   T_w(M)_ij = M_ij·[|i − j| ≤ w] / Σ_{|i − l| ≤ w} M_il     (causal rows already have j ≤ i)
 *
 * A row whose window sum is not positive (only possible with trig features, whose Â can be
 * negative) is left as zeros and counted in `degenerateRows`.
 */
import type { Matrix } from './types';

export interface Truncated {
  matrix: Matrix;
  degenerateRows: number;
}

/** T_w(M) for a square row-stochastic-ish matrix M (n×n), as a new f32 matrix. */
export function truncateToWindow(m: Matrix, w: number): Truncated {
  const n = m.rows;
  if (m.cols !== n) throw new RangeError(`truncateToWindow: matrix is ${m.rows}×${m.cols}, not square`);
  if (!(w >= 0) || !Number.isInteger(w)) throw new RangeError(`truncateToWindow: window ${w} must be an integer ≥ 0`);
  const out = new Float32Array(n * n);
  let degenerateRows = 0;
  for (let i = 0; i < n; i++) {
    const lo = Math.max(0, i - w);
    const hi = Math.min(n - 1, i + w);
    let s = 0;
    for (let j = lo; j <= hi; j++) s += m.data[i * n + j]!;
    if (!(s > 0) || !Number.isFinite(s)) {
      degenerateRows++;
      continue;
    }
    for (let j = lo; j <= hi; j++) out[i * n + j] = m.data[i * n + j]! / s;
  }
  return { matrix: { rows: n, cols: n, data: out }, degenerateRows };
}

/**
 * Windows 0, 1, 2, 4, …, and n − 1 (which keeps the whole matrix). A row's window holds 2w + 1 keys
 * (causal: w + 1), the figure's x; without the mask the doubling stops before 2w + 1 reaches n, where
 * a window holds every key of the middle rows and not of the edge ones, and would be drawn at the
 * full window's x (n) with another value.
 */
export function windowGrid(n: number, causal: boolean): number[] {
  const out = [0];
  for (let w = 1; w < n - 1 && (causal || 2 * w + 1 < n); w *= 2) out.push(w);
  if (n > 1) out.push(n - 1);
  return out;
}

export interface TruncationPoint {
  w: number;
  /** ‖T_w(Â) − A‖_F / ‖A‖_F */
  errorApprox: number;
  /** ‖T_w(A) − A‖_F / ‖A‖_F: the part truncation alone loses */
  errorExact: number;
  /** ‖T_w(Â)V − AV‖_F / ‖AV‖_F (only when V is given) */
  errorOutApprox: number | null;
  degenerateRows: number;
}

function relFro(a: Float32Array, ref: Float32Array): number {
  let num = 0;
  let den = 0;
  for (let t = 0; t < ref.length; t++) {
    const e = ref[t]!;
    num += (a[t]! - e) ** 2;
    den += e * e;
  }
  return den === 0 ? (num === 0 ? 0 : Infinity) : Math.sqrt(num / den);
}

/**
 * A window of n − 1 keys on either side holds every key, and A's rows sum to 1, so T_w(A) = A: its
 * error is 0. Computed, the renormalization leaves f32 rounding (≈ 1e-7), which a log axis would draw
 * as a measured fall of seven decades at the last point.
 */
const keepsEveryKey = (w: number, n: number) => w >= n - 1;

/** M·V (n×n times n×dv), f64 accumulation, skipping zero entries (the band is sparse). */
function multiply(m: Matrix, v: Matrix): Float32Array {
  const n = m.rows;
  const dv = v.cols;
  const out = new Float32Array(n * dv);
  const acc = new Float64Array(dv);
  for (let i = 0; i < n; i++) {
    acc.fill(0);
    for (let j = 0; j < n; j++) {
      const a = m.data[i * n + j]!;
      if (a === 0) continue;
      for (let c = 0; c < dv; c++) acc[c]! += a * v.data[j * dv + c]!;
    }
    out.set(acc, i * dv);
  }
  return out;
}

/** The whole experiment for one pair (A exact, Â approximate), optionally with values V for output errors. */
export function localTruncationCurve(
  exact: Matrix,
  approx: Matrix,
  windows: readonly number[],
  v?: Matrix,
): TruncationPoint[] {
  if (exact.rows !== approx.rows || exact.cols !== approx.cols) {
    throw new RangeError(`localTruncationCurve: A is ${exact.rows}×${exact.cols}, Â is ${approx.rows}×${approx.cols}`);
  }
  const exactOut = v ? multiply(exact, v) : null;
  const n = exact.rows;
  return windows.map((w) => {
    const ta = truncateToWindow(approx, w);
    const te = truncateToWindow(exact, w);
    return {
      w,
      errorApprox: relFro(ta.matrix.data, exact.data),
      errorExact: keepsEveryKey(w, n) ? 0 : relFro(te.matrix.data, exact.data),
      errorOutApprox: v && exactOut ? relFro(multiply(ta.matrix, v), exactOut) : null,
      degenerateRows: ta.degenerateRows,
    };
  });
}

/**
 * Per row i and window w, the sums the truncation errors are made of — the CPU twin of
 * src/shaders/local-window-stats.wgsl (there in f32, here in f64), for dense A and Â (n×n
 * row-major) and optional values V (n × d_v):
 *   exactSq_i    = Σ_j A_ij²                         outExactSq_i = ‖(AV)_i‖²
 *   sqErrApprox  = Σ_j (T_w(Â)_ij − A_ij)²           sqErrExact   = Σ_j (T_w(A)_ij − A_ij)²
 *   outSqErr     = ‖(T_w(Â)V)_i − (AV)_i‖²           degenerate   = 1 when Â's window sum is not a positive finite number
 * Window-major planes: entry [t·n + i] for windows[t]. `truncationCurveOf` turns them into the
 * curve `localTruncationCurve` gives (relative Frobenius errors over all rows).
 */
export interface WindowRowStats {
  n: number;
  windows: number[];
  exactSq: Float64Array;
  outExactSq: Float64Array;
  sqErrApprox: Float64Array;
  sqErrExact: Float64Array;
  outSqErr: Float64Array;
  degenerate: Uint8Array;
}

function windowSum(row: ArrayLike<number>, off: number, lo: number, hi: number): number {
  let s = 0;
  for (let j = lo; j <= hi; j++) s += row[off + j]!;
  return s;
}

export function windowRowStats(
  exact: ArrayLike<number>,
  approx: ArrayLike<number>,
  n: number,
  windows: readonly number[],
  v?: Matrix,
): WindowRowStats {
  if (exact.length !== n * n || approx.length !== n * n)
    throw new RangeError(`windowRowStats: A has ${exact.length} and Â ${approx.length} entries, not ${n}²`);
  const W = windows.length;
  const out: WindowRowStats = {
    n,
    windows: [...windows],
    exactSq: new Float64Array(n),
    outExactSq: new Float64Array(n),
    sqErrApprox: new Float64Array(W * n),
    sqErrExact: new Float64Array(W * n),
    outSqErr: new Float64Array(W * n),
    degenerate: new Uint8Array(W * n),
  };
  const dv = v?.cols ?? 0;
  const o = new Float64Array(dv);
  const acc = new Float64Array(dv);
  for (let i = 0; i < n; i++) {
    const off = i * n;
    let sq = 0;
    for (let j = 0; j < n; j++) sq += exact[off + j]! ** 2;
    out.exactSq[i] = sq;
    if (v) {
      o.fill(0);
      for (let j = 0; j < n; j++) for (let c = 0; c < dv; c++) o[c]! += exact[off + j]! * v.data[j * dv + c]!;
      out.outExactSq[i] = o.reduce((s, x) => s + x * x, 0);
    }
    windows.forEach((w, t) => {
      const lo = Math.max(0, i - w);
      const hi = Math.min(n - 1, i + w);
      const sA = windowSum(approx, off, lo, hi);
      const sE = windowSum(exact, off, lo, hi);
      const degA = !(sA > 0) || !Number.isFinite(sA);
      const degE = !(sE > 0) || !Number.isFinite(sE);
      let errA = 0;
      let errE = 0;
      for (let j = 0; j < n; j++) {
        const a = exact[off + j]!;
        const inside = j >= lo && j <= hi;
        errA += ((inside && !degA ? approx[off + j]! / sA : 0) - a) ** 2;
        errE += ((inside && !degE ? a / sE : 0) - a) ** 2;
      }
      out.sqErrApprox[t * n + i] = errA;
      out.sqErrExact[t * n + i] = errE;
      out.degenerate[t * n + i] = degA ? 1 : 0;
      if (v) {
        acc.fill(0);
        if (!degA)
          for (let j = lo; j <= hi; j++) for (let c = 0; c < dv; c++) acc[c]! += approx[off + j]! * v.data[j * dv + c]!;
        let e = 0;
        for (let c = 0; c < dv; c++) e += ((degA ? 0 : acc[c]! / sA) - o[c]!) ** 2;
        out.outSqErr[t * n + i] = e;
      }
    });
  }
  return out;
}

/** As relFro, from the sums. */
const relOfSums = (num: number, den: number) => (den === 0 ? (num === 0 ? 0 : Infinity) : Math.sqrt(num / den));

/** The truncation curve from per-row sums (errorOutApprox only `withOut`). */
export function truncationCurveOf(s: WindowRowStats, withOut: boolean): TruncationPoint[] {
  const { n } = s;
  const total = (a: ArrayLike<number>, from = 0) => {
    let x = 0;
    for (let i = from; i < from + n; i++) x += a[i]!;
    return x;
  };
  const den = total(s.exactSq);
  const outDen = total(s.outExactSq);
  return s.windows.map((w, t) => ({
    w,
    errorApprox: relOfSums(total(s.sqErrApprox, t * n), den),
    errorExact: keepsEveryKey(w, n) ? 0 : relOfSums(total(s.sqErrExact, t * n), den),
    errorOutApprox: withOut ? relOfSums(total(s.outSqErr, t * n), outDen) : null,
    degenerateRows: total(s.degenerate, t * n),
  }));
}
