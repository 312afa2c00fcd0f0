import { describe, expect, it } from 'vitest';
import { exactAttentionMatrix, exactAttentionOutput, exactRowNormalizers } from './exact-attention';
import { EngineError } from './errors';
import { matmul, matrix, maxAbsDiff } from './matrix';
import { createRng } from './rng';
import type { Matrix } from './types';

function gaussian(rows: number, cols: number, std: number, seed: number): Matrix {
  return matrix(rows, cols, createRng(seed).fillNormal(new Float32Array(rows * cols), std));
}

describe('exactAttentionMatrix', () => {
  it('is the row-softmax of q·k/√d (hand-checked 2×2, d = 4)', () => {
    const q = matrix(2, 4, [1, 0, 0, 0, 0, 2, 0, 0]);
    const k = matrix(2, 4, [2, 0, 0, 0, 0, 0, 0, 0]);
    const a = exactAttentionMatrix(q, k, false);
    // row 0: scores [1, 0] → [e/(e+1), 1/(e+1)]; row 1: scores [0, 0] → [½, ½]
    expect(a.data[0]).toBeCloseTo(Math.E / (Math.E + 1), 6);
    expect(a.data[1]).toBeCloseTo(1 / (Math.E + 1), 6);
    expect(Array.from(a.data.subarray(2))).toEqual([0.5, 0.5]);
  });

  it('rows sum to 1; causal rows are 0 above the diagonal', () => {
    const q = gaussian(9, 5, 1, 1);
    const k = gaussian(9, 5, 1, 2);
    for (const causal of [false, true]) {
      const a = exactAttentionMatrix(q, k, causal);
      for (let i = 0; i < 9; i++) {
        let s = 0;
        for (let j = 0; j < 9; j++) {
          const p = a.data[i * 9 + j]!;
          if (causal && j > i) expect(p).toBe(0);
          else expect(p).toBeGreaterThan(0);
          s += p;
        }
        expect(s).toBeCloseTo(1, 6);
      }
      if (causal) expect(a.data[0]).toBe(1); // row 0 attends only to key 0
    }
  });

  it('is stable at large scores (no overflow: max subtraction)', () => {
    const q = matrix(1, 1, [1000]);
    const k = matrix(2, 1, [1, 0.99]);
    const a = exactAttentionMatrix(q, k, false);
    expect(a.data.every(Number.isFinite)).toBe(true);
    expect(a.data[0]! + a.data[1]!).toBeCloseTo(1, 6);
  });

  it('throws shape-mismatch when d differs', () => {
    expect(() => exactAttentionMatrix(matrix(1, 2), matrix(1, 3), false)).toThrow(EngineError);
  });
});

describe('exactAttentionOutput (streaming online softmax, the CPU twin of the fused kernel)', () => {
  for (const causal of [false, true]) {
    it(`equals dense A V (causal=${causal})`, () => {
      const n = 37;
      const d = 6;
      const q = gaussian(n, d, 1.5, 3);
      const k = gaussian(n, d, 1.5, 4);
      const v = gaussian(n, d, 1, 5);
      const dense = matmul(exactAttentionMatrix(q, k, causal), v);
      const out = exactAttentionOutput(q, k, v, causal);
      expect([out.rows, out.cols]).toEqual([n, d]);
      expect(maxAbsDiff(out, dense)).toBeLessThan(1e-5);
    });
  }

  it('n = 1, d = 1: the output is v itself', () => {
    const out = exactAttentionOutput(matrix(1, 1, [3]), matrix(1, 1, [-2]), matrix(1, 1, [0.25]), true);
    expect(out.data[0]).toBe(0.25);
  });

  it('handles increasing scores (every key a new max) without overflow', () => {
    const n = 50;
    const q = matrix(1, 1, [100]);
    const k = matrix(
      n,
      1,
      Array.from({ length: n }, (_, j) => j),
    );
    const v = matrix(
      n,
      1,
      Array.from({ length: n }, (_, j) => j),
    );
    const out = exactAttentionOutput(q, k, v, false);
    expect(out.data[0]).toBeCloseTo(n - 1, 3); // essentially all mass on the last key
  });
});

describe('exactRowNormalizers', () => {
  it('max_j s_ij and Σ exp(s_ij − max) over allowed keys', () => {
    const q = gaussian(5, 3, 1, 6);
    const k = gaussian(5, 3, 1, 7);
    for (const causal of [false, true]) {
      const { max, sum } = exactRowNormalizers(q, k, causal);
      for (let i = 0; i < 5; i++) {
        const s: number[] = [];
        for (let j = 0; j <= (causal ? i : 4); j++) {
          let t = 0;
          for (let c = 0; c < 3; c++) t += q.data[i * 3 + c]! * k.data[j * 3 + c]!;
          s.push(t / Math.sqrt(3));
        }
        const mx = Math.max(...s);
        expect(max[i]).toBeCloseTo(mx, 5);
        expect(sum[i]).toBeCloseTo(
          s.reduce((a, x) => a + Math.exp(x - mx), 0),
          5,
        );
        expect(sum[i]).toBeGreaterThanOrEqual(1);
      }
    }
  });
});
