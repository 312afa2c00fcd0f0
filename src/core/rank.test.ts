import { describe, expect, it } from 'vitest';
import { exactAttentionMatrix } from './exact-attention';
import { effectiveRank, numericalRank } from './rank';
import { createRng } from './rng';
import { singularValues } from './svd';

describe('numericalRank', () => {
  it('counts singular values above τ·σ₁', () => {
    expect(numericalRank([10, 1, 1e-3, 1e-8], 1e-6)).toBe(3);
    expect(numericalRank([10, 1, 1e-3, 1e-8], 1e-2)).toBe(2);
    expect(numericalRank([10, 1, 1e-3, 1e-8], 0)).toBe(4);
  });

  it('is 0 for an all-zero or empty spectrum, and rejects invalid input', () => {
    expect(numericalRank([0, 0, 0])).toBe(0);
    expect(numericalRank([])).toBe(0);
    expect(() => numericalRank([1, NaN])).toThrow(RangeError);
    expect(() => numericalRank([1, -1])).toThrow(RangeError);
    expect(() => numericalRank([1], -1)).toThrow(RangeError);
  });

  it('a causal (lower-triangular) softmax attention matrix has a nonzero diagonal, so it is full rank', () => {
    // det A = Π A_ii > 0. Numerically the smallest σ of a triangular matrix can still be tiny (it
    // shrinks as rows get peaked), which is why every rank the panel shows names its tolerance.
    const rng = createRng(3);
    const n = 48;
    const d = 16;
    const q = { rows: n, cols: d, data: rng.fillNormal(new Float32Array(n * d), 0.5) };
    const k = { rows: n, cols: d, data: rng.fillNormal(new Float32Array(n * d), 0.5) };
    const a = exactAttentionMatrix(q, k, true);
    for (let i = 0; i < n; i++) expect(a.data[i * n + i]!).toBeGreaterThan(0);
    expect(numericalRank(singularValues(a), 1e-9)).toBe(n);
  });
});

describe('effectiveRank', () => {
  it('is n for the identity (all σ equal) and 1 for a rank-one spectrum', () => {
    expect(effectiveRank(new Array(17).fill(2))).toBeCloseTo(17, 12);
    expect(effectiveRank([5, 0, 0, 0])).toBeCloseTo(1, 12);
  });

  it('lies between 1 and the number of nonzero σ, and is 0 for a zero spectrum', () => {
    const e = effectiveRank([4, 2, 1, 0.5, 0]);
    expect(e).toBeGreaterThan(1);
    expect(e).toBeLessThan(4);
    expect(effectiveRank([0, 0])).toBe(0);
  });
});
