/**
 * Lemma 2's second-moment sums (`estimatorTheory`) remembered by what they depend on: the estimator,
 * the scaled inputs x and y (by content), the query rows and causality — not m, the projection, the
 * feature seed or the stabilizer. A step of m or a redraw of W re-runs the error sweeps, whose Â
 * changes, but these O(rows·n² + n²d) sums do not: at the defaults they are 40 % of the norm sweep
 * (13 scales × 3 estimators). Only the predicted error, `predictedRelError(t, m)`, is per m.
 *
 * Keys hold two independent 32-bit hashes of each matrix's bits (and its shape), so a collision
 * needs both to collide; the memo keeps the most recently used THEORY_MEMO_SIZE results (three
 * numbers each) per worker.
 */
import { estimatorTheory, type EstimatorKind, type EstimatorTheory } from '../../core/sweeps';
import type { Matrix } from '../../core/types';
import { registerAnalysisMemo } from './input-memo';

export const THEORY_MEMO_SIZE = 512;

/** Two 32-bit hashes (FNV-1a and a multiply–rotate mix) of the matrix's float bits, with its shape. */
export function matrixFingerprint(m: Matrix): string {
  const words = new Uint32Array(m.data.buffer, m.data.byteOffset, m.data.length);
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    a = Math.imul(a ^ w, 0x01000193);
    b = Math.imul(b ^ w, 0x85ebca6b);
    b = (b << 13) | (b >>> 19);
  }
  return `${m.rows}x${m.cols}:${(a >>> 0).toString(36)}.${(b >>> 0).toString(36)}`;
}

export type TheoryFn = typeof estimatorTheory;

/** A memoized `estimatorTheory` (same arguments, same result); `compute` is the function it remembers. */
export function createTheoryMemo(
  compute: TheoryFn = estimatorTheory,
  size = THEORY_MEMO_SIZE,
): TheoryFn & { clear(): void } {
  const memo = new Map<string, EstimatorTheory>();
  const fn = (kind: EstimatorKind, x: Matrix, y: Matrix, rows: readonly number[], causal: boolean) => {
    const key = `${kind}|${causal ? 1 : 0}|${rows.join(',')}|${matrixFingerprint(x)}|${matrixFingerprint(y)}`;
    const hit = memo.get(key);
    if (hit) {
      // most recently used last: the first key is the one to drop
      memo.delete(key);
      memo.set(key, hit);
      return hit;
    }
    const t = compute(kind, x, y, rows, causal);
    memo.set(key, t);
    if (memo.size > size) memo.delete(memo.keys().next().value!);
    return t;
  };
  return Object.assign(fn, { clear: () => memo.clear() });
}

/** The worker's memo (one per worker: the analysis pool's and the engine's). */
export const theoryOf = createTheoryMemo();
registerAnalysisMemo(theoryOf.clear);
