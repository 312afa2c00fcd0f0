import { describe, expect, it } from 'vitest';
import {
  allFinite,
  at,
  frobeniusNorm,
  matmul,
  matmulABt,
  matrix,
  maxAbsDiff,
  relFrobeniusError,
  rowView,
  scale,
  transpose,
  zeros,
} from './matrix';

const A = matrix(2, 3, [1, 2, 3, 4, 5, 6]);
const B = matrix(3, 2, [7, 8, 9, 10, 11, 12]);

describe('matrix construction', () => {
  it('validates the data length against the shape', () => {
    expect(() => matrix(2, 2, [1, 2, 3])).toThrow(RangeError);
    expect(() => matrix(-1, 2)).toThrow(RangeError);
    expect(() => matrix(1.5, 2)).toThrow(RangeError);
    expect(matrix(2, 2, [1, 2, 3, 4]).data).toBeInstanceOf(Float32Array);
  });

  it('reuses a Float32Array without copying', () => {
    const data = new Float32Array(4);
    expect(matrix(2, 2, data).data).toBe(data);
  });

  it('zeros is all zeros, and 0-row matrices are allowed (W for maps without projection)', () => {
    expect(Array.from(zeros(2, 3).data)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(zeros(0, 4).data.length).toBe(0);
  });

  it('rowView is a live view of one row', () => {
    const m = matrix(2, 3, [1, 2, 3, 4, 5, 6]);
    const r = rowView(m, 1);
    expect(Array.from(r)).toEqual([4, 5, 6]);
    r[0] = 40;
    expect(at(m, 1, 0)).toBe(40);
  });
});

describe('products', () => {
  it('transpose swaps indices', () => {
    const t = transpose(A);
    expect([t.rows, t.cols]).toEqual([3, 2]);
    expect(Array.from(t.data)).toEqual([1, 4, 2, 5, 3, 6]);
  });

  it('matmul multiplies (hand-checked 2×3 · 3×2)', () => {
    const c = matmul(A, B);
    expect([c.rows, c.cols]).toEqual([2, 2]);
    expect(Array.from(c.data)).toEqual([58, 64, 139, 154]);
    expect(() => matmul(A, A)).toThrow(RangeError);
  });

  it('matmulABt(a, b) equals matmul(a, transpose(b))', () => {
    const c = matmulABt(A, transpose(B));
    expect(Array.from(c.data)).toEqual([58, 64, 139, 154]);
    expect(() => matmulABt(A, B)).toThrow(RangeError);
  });

  it('accumulates in f64: a sum that loses everything in f32 is exact', () => {
    // 1e8 + 1 − 1e8 in f32 arithmetic gives 0; in f64 it gives 1.
    const a = matrix(1, 3, [1e8, 1, -1e8]);
    const b = matrix(3, 1, [1, 1, 1]);
    expect(matmul(a, b).data[0]).toBe(1);
    expect(matmulABt(a, matrix(1, 3, [1, 1, 1])).data[0]).toBe(1);
  });

  it('scale multiplies every entry into a new matrix', () => {
    const s = scale(A, 2);
    expect(Array.from(s.data)).toEqual([2, 4, 6, 8, 10, 12]);
    expect(A.data[0]).toBe(1);
  });
});

describe('norms and errors', () => {
  it('frobeniusNorm', () => {
    expect(frobeniusNorm(matrix(1, 2, [3, 4]))).toBeCloseTo(5, 12);
  });

  it('relFrobeniusError = ‖approx − exact‖_F / ‖exact‖_F', () => {
    const exact = matrix(1, 2, [3, 4]);
    const approx = matrix(1, 2, [3, 5]);
    expect(relFrobeniusError(approx, exact)).toBeCloseTo(1 / 5, 7);
    expect(relFrobeniusError(exact, exact)).toBe(0);
    expect(relFrobeniusError(zeros(1, 2), zeros(1, 2))).toBe(0);
    expect(relFrobeniusError(exact, zeros(1, 2))).toBe(Infinity);
    expect(() => relFrobeniusError(exact, zeros(2, 1))).toThrow(RangeError);
  });

  it('maxAbsDiff, with NaN propagating', () => {
    expect(maxAbsDiff(matrix(1, 3, [1, 2, 3]), matrix(1, 3, [1, -2, 3.5]))).toBe(4);
    expect(maxAbsDiff(matrix(1, 2, [NaN, 0]), matrix(1, 2, [0, 5]))).toBeNaN();
  });

  it('allFinite detects NaN and ±Infinity', () => {
    expect(allFinite(A)).toBe(true);
    expect(allFinite(matrix(1, 2, [0, NaN]))).toBe(false);
    expect(allFinite(matrix(1, 2, [-Infinity, 0]))).toBe(false);
  });
});
