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

/** Windows 0, 1, 2, 4, …, up to and including n − 1 (w = n − 1 keeps the whole matrix). */
export function windowGrid(n: number): number[] {
  const out = [0];
  for (let w = 1; w < n - 1; w *= 2) out.push(w);
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
  return windows.map((w) => {
    const ta = truncateToWindow(approx, w);
    const te = truncateToWindow(exact, w);
    return {
      w,
      errorApprox: relFro(ta.matrix.data, exact.data),
      errorExact: relFro(te.matrix.data, exact.data),
      errorOutApprox: v && exactOut ? relFro(multiply(ta.matrix, v), exactOut) : null,
      degenerateRows: ta.degenerateRows,
    };
  });
}
