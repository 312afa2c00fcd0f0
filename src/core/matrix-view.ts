/**
 * What the heatmaps and the per-row charts show, computed from attention rows.
 *
 * Matrix view (ARCHITECTURE.md): at most cells × cells heatmap cells. When n > maxCells each cell
 * (I, J) is the **mean** of the entries in its block of `block` = ⌈n / maxCells⌉ rows × columns;
 * the last block row/column may be partial and is averaged over its true size, so a uniform matrix
 * stays uniform in the view. cells = ⌈n / block⌉ (≤ maxCells).
 *
 * Row statistics over the full rows, allowed keys only (causal row i has keys 0..i):
 *   exactEntropy H(A_i) and approxEntropy H(Â_i) = −Σ p log p over entries p > 0 (trig Â can
 *   have negative entries; they are skipped), sqErr Σ_j (A_ij − Â_ij)², exactSq Σ_j A_ij²,
 *   kl = KL(A_i ‖ Â_i) = Σ_{A_ij > 0} A_ij log(A_ij / max(Â_ij, 1e-30)).
 *
 * Both are built one row at a time (accumulators below) so that the CPU job can stream rows and
 * never hold n×n; `matrixView` / `rowStatsFromMatrices` are the dense conveniences.
 */
import { EngineError } from './errors';
import type { MatrixView, RowStats } from './attention-job';
import type { Matrix } from './types';

/** Â is clamped here inside the KL's logarithm. */
export const KL_FLOOR = 1e-30;

export function viewGeometry(n: number, maxCells: number): { cells: number; block: number } {
  if (!Number.isInteger(n) || n < 1 || !Number.isInteger(maxCells) || maxCells < 1) {
    throw new EngineError('invalid-size', `view of n = ${n} with maxCells = ${maxCells}`);
  }
  const block = n <= maxCells ? 1 : Math.ceil(n / maxCells);
  return { cells: Math.ceil(n / block), block };
}

export interface ViewAccumulator {
  readonly n: number;
  readonly cells: number;
  readonly block: number;
  /** f64 sums per cell, row-major cells × cells */
  readonly exact: Float64Array;
  readonly approx: Float64Array;
  readonly absDiff: Float64Array;
}

export function createViewAccumulator(n: number, maxCells: number): ViewAccumulator {
  const { cells, block } = viewGeometry(n, maxCells);
  const size = cells * cells;
  return {
    n,
    cells,
    block,
    exact: new Float64Array(size),
    approx: new Float64Array(size),
    absDiff: new Float64Array(size),
  };
}

/** Adds row i of A and Â (each length n) to the cell sums. */
export function accumulateViewRow(
  acc: ViewAccumulator,
  i: number,
  exactRow: ArrayLike<number>,
  approxRow: ArrayLike<number>,
): void {
  const { n, cells, block } = acc;
  const base = Math.floor(i / block) * cells;
  for (let j = 0; j < n; j++) {
    const cell = base + Math.floor(j / block);
    const a = exactRow[j]!;
    const b = approxRow[j]!;
    acc.exact[cell]! += a;
    acc.approx[cell]! += b;
    acc.absDiff[cell]! += Math.abs(a - b);
  }
}

/** Divides each cell's sums by its true entry count (partial last blocks included). */
export function finishView(acc: ViewAccumulator): MatrixView {
  const { n, cells, block } = acc;
  const size = cells * cells;
  const exact = new Float32Array(size);
  const approx = new Float32Array(size);
  const absDiff = new Float32Array(size);
  const extent = (I: number): number => Math.min(block, n - I * block);
  for (let I = 0; I < cells; I++) {
    for (let J = 0; J < cells; J++) {
      const c = I * cells + J;
      const count = extent(I) * extent(J);
      exact[c] = acc.exact[c]! / count;
      approx[c] = acc.approx[c]! / count;
      absDiff[c] = acc.absDiff[c]! / count;
    }
  }
  return { cells, block, aggregation: 'mean', exact, approx, absDiff };
}

/** Block-mean view of dense A (exact) and Â (approx), both n×n. */
export function matrixView(exact: Matrix, approx: Matrix, maxCells: number): MatrixView {
  const n = exact.rows;
  if (exact.cols !== n || approx.rows !== n || approx.cols !== n) {
    throw new EngineError(
      'shape-mismatch',
      `view needs two n×n matrices, got ${exact.rows}×${exact.cols} and ${approx.rows}×${approx.cols}`,
    );
  }
  const acc = createViewAccumulator(n, maxCells);
  for (let i = 0; i < n; i++) {
    accumulateViewRow(acc, i, exact.data.subarray(i * n, (i + 1) * n), approx.data.subarray(i * n, (i + 1) * n));
  }
  return finishView(acc);
}

export function createRowStats(n: number): RowStats {
  return {
    exactEntropy: new Float32Array(n),
    approxEntropy: new Float32Array(n),
    sqErr: new Float32Array(n),
    exactSq: new Float32Array(n),
    kl: new Float32Array(n),
  };
}

/** Fills entry i of `stats` from row i of A and Â (length n; keys j > i ignored when causal). */
export function writeRowStats(
  stats: RowStats,
  i: number,
  exactRow: ArrayLike<number>,
  approxRow: ArrayLike<number>,
  causal: boolean,
): void {
  const last = causal ? Math.min(i, exactRow.length - 1) : exactRow.length - 1;
  let hA = 0;
  let hB = 0;
  let sqErr = 0;
  let exactSq = 0;
  let kl = 0;
  for (let j = 0; j <= last; j++) {
    const a = exactRow[j]!;
    const b = approxRow[j]!;
    if (a > 0) {
      const la = Math.log(a);
      hA -= a * la;
      kl += a * (la - Math.log(Math.max(b, KL_FLOOR)));
    }
    if (b > 0) hB -= b * Math.log(b);
    sqErr += (a - b) * (a - b);
    exactSq += a * a;
  }
  stats.exactEntropy[i] = hA;
  stats.approxEntropy[i] = hB;
  stats.sqErr[i] = sqErr;
  stats.exactSq[i] = exactSq;
  stats.kl[i] = kl;
}

/** Row statistics of dense A and Â (n×n). */
export function rowStatsFromMatrices(exact: Matrix, approx: Matrix, causal: boolean): RowStats {
  const n = exact.rows;
  if (exact.cols !== n || approx.rows !== n || approx.cols !== n) {
    throw new EngineError(
      'shape-mismatch',
      `row stats need two n×n matrices, got ${exact.rows}×${exact.cols} and ${approx.rows}×${approx.cols}`,
    );
  }
  const stats = createRowStats(n);
  for (let i = 0; i < n; i++) {
    writeRowStats(stats, i, exact.data.subarray(i * n, (i + 1) * n), approx.data.subarray(i * n, (i + 1) * n), causal);
  }
  return stats;
}
