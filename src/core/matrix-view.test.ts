import { describe, expect, it } from 'vitest';
import { EngineError } from './errors';
import { exactAttentionMatrix } from './exact-attention';
import { matrix } from './matrix';
import { KL_FLOOR, matrixView, rowStatsFromMatrices, viewGeometry } from './matrix-view';
import { createRng } from './rng';

describe('viewGeometry', () => {
  it('full resolution while n ≤ maxCells, else blocks of ⌈n / maxCells⌉ and cells = ⌈n / block⌉', () => {
    expect(viewGeometry(3, 512)).toEqual({ cells: 3, block: 1 });
    expect(viewGeometry(512, 512)).toEqual({ cells: 512, block: 1 });
    expect(viewGeometry(513, 512)).toEqual({ cells: 257, block: 2 });
    expect(viewGeometry(1000, 512)).toEqual({ cells: 500, block: 2 });
    expect(viewGeometry(65536, 512)).toEqual({ cells: 512, block: 128 });
    expect(viewGeometry(5, 2)).toEqual({ cells: 2, block: 3 });
    expect(viewGeometry(1, 1)).toEqual({ cells: 1, block: 1 });
  });

  it('rejects n < 1 or maxCells < 1', () => {
    expect(() => viewGeometry(0, 4)).toThrow(EngineError);
    expect(() => viewGeometry(4, 0)).toThrow(EngineError);
  });
});

describe('matrixView', () => {
  it('block means, hand-checked on 5×5 with 2 cells (blocks of 3 and a partial block of 2)', () => {
    const exact = matrix(
      5,
      5,
      Array.from({ length: 25 }, (_, t) => t),
    ); // entry (i, j) = 5i + j
    const approx = matrix(5, 5);
    const v = matrixView(exact, approx, 2);
    expect([v.cells, v.block, v.aggregation]).toEqual([2, 3, 'mean']);
    // (0,0): rows 0–2 × cols 0–2 → 54/9; (0,1): rows 0–2 × cols 3–4 → 51/6;
    // (1,0): rows 3–4 × cols 0–2 → 111/6; (1,1): rows 3–4 × cols 3–4 → 84/4.
    expect(Array.from(v.exact)).toEqual([6, 8.5, 18.5, 21]);
    expect(Array.from(v.approx)).toEqual([0, 0, 0, 0]);
    expect(Array.from(v.absDiff)).toEqual([6, 8.5, 18.5, 21]);
  });

  it('|A − Â| is averaged per entry (not |mean A − mean Â|)', () => {
    const a = matrix(2, 2, [1, 0, 0, 1]);
    const b = matrix(2, 2, [0, 1, 1, 0]);
    const v = matrixView(a, b, 1);
    expect(v.exact[0]).toBe(0.5);
    expect(v.approx[0]).toBe(0.5);
    expect(v.absDiff[0]).toBe(1);
  });

  it('at full resolution the view is the matrix itself', () => {
    const a = matrix(3, 3, [0.1, 0.2, 0.7, 0.3, 0.3, 0.4, 1, 0, 0]);
    const v = matrixView(a, a, 8);
    expect(v.block).toBe(1);
    expect(Array.from(v.exact)).toEqual(Array.from(a.data));
    expect(Array.from(v.absDiff).every((x) => x === 0)).toBe(true);
  });

  it('a uniform attention matrix stays uniform, even with partial blocks', () => {
    const n = 7;
    const a = matrix(n, n, new Float32Array(n * n).fill(1 / n));
    const v = matrixView(a, a, 3); // block 3: sizes 3, 3, 1
    for (const x of v.exact) expect(x).toBeCloseTo(1 / n, 7);
  });

  it('throws shape-mismatch for non-square or mismatched inputs', () => {
    expect(() => matrixView(matrix(2, 3), matrix(2, 3), 2)).toThrow(EngineError);
  });
});

describe('rowStatsFromMatrices', () => {
  it('matches direct computation of entropies, squared errors and KL', () => {
    const A = matrix(2, 3, [0.5, 0.25, 0.25, 1, 0, 0]);
    const B = matrix(2, 3, [0.25, 0.25, 0.5, 0.5, 0.5, 0]);
    // make them square (n = 3) with a third row
    const exact = matrix(3, 3, [...A.data, 0.2, 0.3, 0.5]);
    const approx = matrix(3, 3, [...B.data, 0.2, 0.3, 0.5]);
    const s = rowStatsFromMatrices(exact, approx, false);
    const H = (p: number[]): number => -p.filter((x) => x > 0).reduce((t, x) => t + x * Math.log(x), 0);
    expect(s.exactEntropy[0]).toBeCloseTo(H([0.5, 0.25, 0.25]), 6);
    expect(s.approxEntropy[0]).toBeCloseTo(H([0.25, 0.25, 0.5]), 6);
    expect(s.exactEntropy[1]).toBe(0); // one-hot row
    expect(s.sqErr[0]).toBeCloseTo(0.0625 + 0 + 0.0625, 7);
    expect(s.exactSq[0]).toBeCloseTo(0.375, 7);
    expect(s.kl[0]).toBeCloseTo(0.5 * Math.log(2) + 0.25 * Math.log(0.5), 6);
    expect(s.kl[1]).toBeCloseTo(Math.log(2), 6);
    expect([s.sqErr[2], s.kl[2]]).toEqual([0, 0]);
  });

  it('causal: only keys j ≤ i count', () => {
    const exact = matrix(2, 2, [1, 0, 0.5, 0.5]);
    const approx = matrix(2, 2, [1, 0.9, 0.5, 0.5]); // the masked (0, 1) entry must be ignored
    const s = rowStatsFromMatrices(exact, approx, true);
    expect(s.sqErr[0]).toBe(0);
    expect(s.approxEntropy[0]).toBe(0);
    expect(s.exactEntropy[1]).toBeCloseTo(Math.log(2), 6);
  });

  it('clamps Â at 1e-30 in the KL (zero or negative Â entries give a large but finite KL)', () => {
    const exact = matrix(2, 2, [0.5, 0.5, 0.5, 0.5]);
    const approx = matrix(2, 2, [1.2, -0.2, 1, 0]);
    const s = rowStatsFromMatrices(exact, approx, false);
    expect(s.kl[0]).toBeCloseTo(0.5 * Math.log(0.5 / 1.2) + 0.5 * Math.log(0.5 / KL_FLOOR), 4);
    expect(Number.isFinite(s.kl[1]!)).toBe(true);
    expect(s.approxEntropy[0]).toBeCloseTo(-1.2 * Math.log(1.2), 6); // negative entry skipped
  });

  it('uniform exact attention has entropy log n in every row', () => {
    const n = 6;
    const q = matrix(n, 2);
    const k = matrix(n, 2, createRng(1).fillNormal(new Float32Array(2 * n)));
    const a = exactAttentionMatrix(q, k, false); // q = 0 ⇒ all scores 0 ⇒ uniform rows
    const s = rowStatsFromMatrices(a, a, false);
    for (const h of s.exactEntropy) expect(h).toBeCloseTo(Math.log(n), 6);
  });
});
