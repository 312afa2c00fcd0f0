import { describe, expect, it } from 'vitest';
import { orthonormalGaussianBlock, randomProjection } from './projections';
import { createRng } from './rng';
import { chiMeanLength } from './theory';
import type { Matrix } from './types';

function rowNorm(w: Matrix, r: number): number {
  let s = 0;
  for (let c = 0; c < w.cols; c++) s += w.data[r * w.cols + c]! ** 2;
  return Math.sqrt(s);
}
function rowDot(w: Matrix, a: number, b: number): number {
  let s = 0;
  for (let c = 0; c < w.cols; c++) s += w.data[a * w.cols + c]! * w.data[b * w.cols + c]!;
  return s;
}

describe('orthonormalGaussianBlock', () => {
  it('has orthonormal rows (Q Qᵀ = I to f64 precision)', () => {
    const d = 24;
    const q = orthonormalGaussianBlock(d, createRng(1));
    for (let a = 0; a < d; a++) {
      for (let b = 0; b < d; b++) {
        let s = 0;
        for (let c = 0; c < d; c++) s += q[a * d + c]! * q[b * d + c]!;
        expect(Math.abs(s - (a === b ? 1 : 0))).toBeLessThan(1e-12);
      }
    }
  });
  it("a partial block (its first rows only) has the full block's bits in those rows and consumes the same draws", () => {
    for (const [d, rows] of [
      [24, 5],
      [7, 7],
      [16, 1],
    ] as const) {
      const fullRng = createRng(3);
      const partRng = createRng(3);
      const full = orthonormalGaussianBlock(d, fullRng);
      const part = orthonormalGaussianBlock(d, partRng, rows);
      expect(Array.from(part.subarray(0, rows * d))).toEqual(Array.from(full.subarray(0, rows * d)));
      expect(partRng.normal()).toBe(fullRng.normal());
    }
  });
});

describe('randomProjection', () => {
  it('has shape m×d for every kind, including m not a multiple of d, m < d, m = 1, d = 1', () => {
    for (const kind of ['iid', 'orthogonal-chi', 'orthogonal-sqrtd'] as const) {
      for (const [m, d] of [
        [10, 4],
        [3, 8],
        [1, 1],
        [1, 5],
        [7, 1],
        [0, 3],
      ] as const) {
        const w = randomProjection(kind, m, d, createRng(2));
        expect([w.rows, w.cols, w.data.length]).toEqual([m, d, m * d]);
        expect(w.data.every(Number.isFinite)).toBe(true);
      }
    }
  });

  it('is deterministic in the rng seed', () => {
    const a = randomProjection('orthogonal-chi', 20, 8, createRng(3));
    const b = randomProjection('orthogonal-chi', 20, 8, createRng(3));
    const c = randomProjection('orthogonal-chi', 20, 8, createRng(4));
    expect(Array.from(a.data)).toEqual(Array.from(b.data));
    expect(Array.from(a.data)).not.toEqual(Array.from(c.data));
  });

  it('orthogonal kinds: rows within one block are orthogonal (W Wᵀ is diagonal with the squared norms), across blocks not', () => {
    const d = 8;
    const m = 20; // blocks of 8, 8 and a partial block of 4
    for (const kind of ['orthogonal-chi', 'orthogonal-sqrtd'] as const) {
      const w = randomProjection(kind, m, d, createRng(5));
      for (let a = 0; a < m; a++) {
        for (let b = 0; b < m; b++) {
          if (Math.floor(a / d) !== Math.floor(b / d)) continue;
          const expected = a === b ? rowNorm(w, a) ** 2 : 0;
          expect(Math.abs(rowDot(w, a, b) - expected)).toBeLessThan(1e-4 * Math.max(1, expected));
        }
      }
      // Rows of different blocks are independent, hence not orthogonal.
      let maxCross = 0;
      for (let a = 0; a < d; a++) maxCross = Math.max(maxCross, Math.abs(rowDot(w, a, d + a)));
      expect(maxCross).toBeGreaterThan(1e-2);
    }
  });

  it("'orthogonal-sqrtd' rows all have length √d", () => {
    const w = randomProjection('orthogonal-sqrtd', 13, 5, createRng(6));
    for (let r = 0; r < 13; r++) expect(rowNorm(w, r)).toBeCloseTo(Math.sqrt(5), 5);
  });

  it("'orthogonal-chi' row lengths are χ_d distributed: mean ≈ chiMeanLength(d)", () => {
    const d = 16;
    const m = 4096;
    const w = randomProjection('orthogonal-chi', m, d, createRng(7));
    let s = 0;
    for (let r = 0; r < m; r++) s += rowNorm(w, r);
    const mean = s / m;
    const mu = chiMeanLength(d);
    // Var χ_d = d − μ², so sd(mean) = sqrt((d − μ²)/m); allow 4 sd.
    expect(Math.abs(mean - mu)).toBeLessThan(4 * Math.sqrt((d - mu * mu) / m));
  });

  it("'iid' entries are N(0, 1) and rows are not orthogonal", () => {
    const w = randomProjection('iid', 500, 8, createRng(8));
    let s2 = 0;
    for (const x of w.data) s2 += x * x;
    const N = w.data.length;
    expect(Math.abs(s2 / N - 1)).toBeLessThan(4 * Math.sqrt(2 / N));
    expect(Math.abs(rowDot(w, 0, 1))).toBeGreaterThan(1e-3);
  });

  it('every orthogonal-chi row is marginally N(0, I_d): per-coordinate variance ≈ 1', () => {
    const d = 4;
    const m = 4000;
    const w = randomProjection('orthogonal-chi', m, d, createRng(9));
    for (let c = 0; c < d; c++) {
      let s2 = 0;
      for (let r = 0; r < m; r++) s2 += w.data[r * d + c]! ** 2;
      // coordinates within a block are dependent; use a loose 5-sd bound of the iid case
      expect(Math.abs(s2 / m - 1)).toBeLessThan(5 * Math.sqrt(2 / m));
    }
  });
});
