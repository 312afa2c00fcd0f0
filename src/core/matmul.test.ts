import { describe, expect, it } from 'vitest';
import { matmulExtents, matmulFlops, matmulInto } from './matmul';
import { createRng } from './rng';

function naive(m: number, n: number, k: number, a: Float32Array, b: Float32Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < m; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let t = 0; t < k; t++) s += a[i * k + t]! * b[t * n + j]!;
      out.push(s);
    }
  return out;
}

describe('matmul twin', () => {
  it('equals the textbook triple loop on awkward shapes (1×1×1, 7×3×5, 65×129×33)', () => {
    const rng = createRng(3);
    for (const [m, n, k] of [
      [1, 1, 1],
      [7, 3, 5],
      [65, 129, 33],
    ] as const) {
      const a = rng.fillNormal(new Float32Array(m * k), 1);
      const b = rng.fillNormal(new Float32Array(k * n), 1);
      const c = matmulInto({ m, n, k }, a, b, new Float32Array(m * n));
      const ref = naive(m, n, k, a, b);
      ref.forEach((r, i) => expect(c[i]).toBeCloseTo(r, 4));
    }
  });

  it('reads a column slice of B through ldb/offB, writes a strided C, adds with accumulate and clamps with relu', () => {
    // A 2×2, B = columns 1..2 of a 2×4 matrix, C = columns 1..2 of a 2×3 matrix preset to 10
    const a = new Float32Array([1, 2, 3, 4]);
    const b = new Float32Array([9, 1, -1, 9, 9, 2, -3, 9]);
    const c = new Float32Array([10, 10, 10, 10, 10, 10]);
    matmulInto({ m: 2, n: 2, k: 2, ldb: 4, offB: 1, ldc: 3, offC: 1, accumulate: true, relu: true }, a, b, c);
    // A·B_slice = [[1+4, -1-6], [3+8, -3-12]] = [[5, -7], [11, -15]]; relu → [[5, 0], [11, 0]]; + 10
    expect(Array.from(c)).toEqual([10, 15, 10, 10, 21, 10]);
  });

  it('refuses buffers too small for the shape and negative or fractional sizes', () => {
    expect(() =>
      matmulInto({ m: 2, n: 2, k: 2 }, new Float32Array(3), new Float32Array(4), new Float32Array(4)),
    ).toThrow(/needs 4, 4, 4/);
    expect(() =>
      matmulInto({ m: 1.5, n: 1, k: 1 }, new Float32Array(2), new Float32Array(1), new Float32Array(2)),
    ).toThrow(/m = 1.5/);
    expect(matmulExtents({ m: 0, n: 5, k: 5 }).c).toBe(0);
  });

  it('counts 2·m·n·k FLOPs', () => {
    expect(matmulFlops(7, 3, 5)).toBe(210);
  });
});
