import { describe, expect, it } from 'vitest';
import { estimatorTheory, evenRows } from '../../core/sweeps';
import type { Matrix } from '../../core/types';
import { createTheoryMemo, matrixFingerprint, type TheoryFn } from './theory-memo';

const mat = (rows: number, cols: number, seed: number): Matrix => ({
  rows,
  cols,
  data: Float32Array.from({ length: rows * cols }, (_, i) => Math.sin(seed * 13.1 + i * 0.7) * 0.8),
});

describe('theory memo', () => {
  it('returns estimatorTheory’s result and computes each (estimator, x, y, rows, causal) once', () => {
    let calls = 0;
    const counted: TheoryFn = (...a) => {
      calls++;
      return estimatorTheory(...a);
    };
    const theory = createTheoryMemo(counted);
    const x = mat(32, 8, 1);
    const y = mat(32, 8, 2);
    const rows = evenRows(32, 8);
    const first = theory('positive', x, y, rows, false);
    expect(first).toEqual(estimatorTheory('positive', x, y, rows, false));
    // equal content in other arrays is the same key
    expect(theory('positive', mat(32, 8, 1), mat(32, 8, 2), [...rows], false)).toBe(first);
    expect(calls).toBe(1);
    // every argument it depends on makes a new key
    theory('hyperbolic', x, y, rows, false);
    theory('positive', x, y, rows, true);
    theory('positive', x, y, evenRows(32, 4), false);
    theory('positive', x, mat(32, 8, 3), rows, false);
    expect(calls).toBe(5);
  });

  it('one changed entry, or the same numbers in another shape, changes the fingerprint', () => {
    const x = mat(16, 4, 1);
    const y = { ...x, data: x.data.slice() };
    expect(matrixFingerprint(y)).toBe(matrixFingerprint(x));
    y.data[37] = Math.fround(y.data[37]! + 1e-7);
    expect(matrixFingerprint(y)).not.toBe(matrixFingerprint(x));
    expect(matrixFingerprint({ rows: 4, cols: 16, data: x.data })).not.toBe(matrixFingerprint(x));
  });

  it('keeps the most recently used results up to its size', () => {
    let calls = 0;
    const theory = createTheoryMemo((...a) => (calls++, estimatorTheory(...a)), 2);
    const [a, b, c] = [mat(8, 2, 1), mat(8, 2, 2), mat(8, 2, 3)];
    const rows = [0, 4];
    theory('positive', a, a, rows, false);
    theory('positive', b, b, rows, false);
    theory('positive', a, a, rows, false); // a is now the most recent
    theory('positive', c, c, rows, false); // drops b
    expect(calls).toBe(3);
    theory('positive', a, a, rows, false);
    expect(calls).toBe(3);
    theory('positive', b, b, rows, false);
    expect(calls).toBe(4);
  });
});
