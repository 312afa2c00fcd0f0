import { describe, expect, it } from 'vitest';
import { matrix } from './matrix';
import { projectRows } from './project-rows';
import { randomProjection } from './projections';
import { createRng } from './rng';
import type { Matrix } from './types';

const gaussian = (rows: number, cols: number, seed: number): Matrix =>
  matrix(rows, cols, createRng(seed).fillNormal(new Float32Array(rows * cols), 0.8));

describe('projectRows', () => {
  it('gives u = W x bit for bit as one row of W at a time would, for m not a multiple of four', () => {
    const rng = createRng(13);
    for (const [n, m, d] of [
      [1, 1, 1],
      [5, 7, 3],
      [9, 66, 16],
    ] as const) {
      const x = gaussian(n, d, n + m);
      const w = randomProjection('iid', m, d, rng);
      const u = projectRows(x, w);
      for (let i = 0; i < n; i++)
        for (let r = 0; r < m; r++) {
          let s = 0;
          for (let c = 0; c < d; c++) s += x.data[i * d + c]! * w.data[r * d + c]!;
          expect(u[i * m + r]).toBe(s);
        }
    }
  });
});
