import { describe, expect, it } from 'vitest';
import { orthonormalGaussianBlock } from './projections';
import { createRng } from './rng';
import {
  bidiagonalSingularValues,
  bidiagonalizeSteps,
  singularValues,
  singularValuesSteps,
  sturmCountsBelow4,
} from './svd';

/** U diag(σ) Vᵀ with Haar-random orthogonal U (r×r) and V (c×c), row-major f64. */
function withSpectrum(r: number, c: number, sigma: number[], seed: number): Float64Array {
  const rng = createRng(seed);
  const u = orthonormalGaussianBlock(r, rng);
  const v = orthonormalGaussianBlock(c, rng);
  const a = new Float64Array(r * c);
  for (let i = 0; i < r; i++) {
    for (let j = 0; j < c; j++) {
      let s = 0;
      for (let k = 0; k < sigma.length; k++) s += u[i * r + k]! * sigma[k]! * v[j * c + k]!;
      a[i * c + j] = s;
    }
  }
  return a;
}

describe('singularValues', () => {
  it('returns |diagonal entries|, sorted descending, for a diagonal matrix', () => {
    const a = new Float64Array([0, 0, 0, 0, -3, 0, 0, 0, 0.5]);
    a[0] = 2;
    expect(Array.from(singularValues({ rows: 3, cols: 3, data: a }))).toEqual(
      [3, 2, 0.5].map((x) => expect.closeTo(x, 14)),
    );
  });

  it('solves a 2×2 by hand: [[3, 0], [4, 5]] has AᵀA eigenvalues 45 and 5', () => {
    const s = singularValues({ rows: 2, cols: 2, data: [3, 0, 4, 5] });
    expect(s[0]).toBeCloseTo(Math.sqrt(45), 13);
    expect(s[1]).toBeCloseTo(Math.sqrt(5), 13);
  });

  it('recovers a prescribed spectrum spanning 12 decades to high relative accuracy', () => {
    const sigma = Array.from({ length: 40 }, (_, k) => 10 ** (-12 * (k / 39)));
    const s = singularValues({ rows: 40, cols: 40, data: withSpectrum(40, 40, sigma, 7) });
    for (let k = 0; k < 40; k++) {
      // down to 1e-7 relative the error is far below 1e-6 of each σ; below that it is ≲ 1e-13 of σ₁
      const tol = Math.max(1e-6 * sigma[k]!, 1e-13);
      expect(Math.abs(s[k]! - sigma[k]!)).toBeLessThan(tol);
    }
  });

  it('treats tall and wide matrices alike: σ(A) = σ(Aᵀ), min(rows, cols) values', () => {
    const sigma = [5, 2, 1, 0.25];
    const a = withSpectrum(9, 4, sigma, 3);
    const at = new Float64Array(36);
    for (let i = 0; i < 9; i++) for (let j = 0; j < 4; j++) at[j * 9 + i] = a[i * 4 + j]!;
    const tall = singularValues({ rows: 9, cols: 4, data: a });
    const wide = singularValues({ rows: 4, cols: 9, data: at });
    expect(tall.length).toBe(4);
    expect(wide.length).toBe(4);
    for (let k = 0; k < 4; k++) {
      expect(tall[k]).toBeCloseTo(sigma[k]!, 12);
      expect(wide[k]).toBeCloseTo(sigma[k]!, 12);
    }
  });

  it('sees that a product B·C of inner dimension r has only r nonzero singular values', () => {
    const rng = createRng(11);
    const n = 60;
    const r = 7;
    const b = rng.fillNormal(new Float32Array(n * r));
    const c = rng.fillNormal(new Float32Array(r * n));
    const a = new Float64Array(n * n);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let k = 0; k < r; k++) s += b[i * r + k]! * c[k * n + j]!;
        a[i * n + j] = s;
      }
    const s = singularValues({ rows: n, cols: n, data: a });
    expect(s[r - 1]! / s[0]!).toBeGreaterThan(1e-3);
    for (let k = r; k < n; k++) expect(s[k]! / s[0]!).toBeLessThan(1e-13);
  });

  it('preserves the Frobenius norm: Σσ² = Σ a_ij²', () => {
    const rng = createRng(5);
    const a = rng.fillNormal(new Float32Array(30 * 17));
    const s = singularValues({ rows: 30, cols: 17, data: a });
    let f = 0;
    for (const x of a) f += x * x;
    let g = 0;
    for (const x of s) g += x * x;
    expect(g / f).toBeCloseTo(1, 12);
  });

  it('skips a reflector with nothing to reflect (a zero column) and still finds the rest: diag(2, 0, −3, 0, 0.5) and [0 | B]', () => {
    const diag = new Float64Array(25);
    [2, 0, -3, 0, 0.5].forEach((x, i) => (diag[i * 5 + i] = x));
    expect(Array.from(singularValues({ rows: 5, cols: 5, data: diag }))).toEqual(
      [3, 2, 0.5, 0, 0].map((x) => expect.closeTo(x, 14)),
    );
    // B = [[1, 2], [3, 4], [5, 6]]: σ² are the eigenvalues of BᵀB = [[35, 44], [44, 56]], 91/2 ± √(91²/4 − 24)
    const s = singularValues({ rows: 3, cols: 3, data: [0, 1, 2, 0, 3, 4, 0, 5, 6] });
    const mid = 91 / 2;
    const rad = Math.sqrt(mid * mid - 24);
    expect(s[0]).toBeCloseTo(Math.sqrt(mid + rad), 13);
    expect(s[1]).toBeCloseTo(Math.sqrt(mid - rad), 13);
    expect(s[2]).toBeCloseTo(0, 13);
  });

  it('handles the zero matrix, 1×1 and empty inputs, and rejects a bad shape', () => {
    expect(Array.from(singularValues({ rows: 3, cols: 2, data: new Float64Array(6) }))).toEqual([0, 0]);
    expect(Array.from(singularValues({ rows: 1, cols: 1, data: [-4] }))).toEqual([4]);
    expect(singularValues({ rows: 0, cols: 5, data: [] }).length).toBe(0);
    expect(() => singularValues({ rows: 2, cols: 2, data: [1, 2, 3] })).toThrow(RangeError);
  });

  it('reports progress step by step through the generator form', () => {
    const steps: number[] = [];
    const it = singularValuesSteps({ rows: 5, cols: 5, data: withSpectrum(5, 5, [1, 1, 1, 1, 1], 2) });
    let step = it.next();
    while (!step.done) {
      steps.push(step.value.done);
      expect(step.value.total).toBe(6);
      step = it.next();
    }
    expect(steps).toEqual([1, 2, 3, 4, 5, 6]);
    for (const s of step.value) expect(s).toBeCloseTo(1, 12);
  });
});

/** The one-point count, the reference of the fused one: number of eigenvalues < x of the symmetric tridiagonal with zero diagonal and off-diagonal b (squares b2). */
function sturmCountBelow(b2: Float64Array, size: number, x: number, pivmin: number): number {
  let count = 0;
  let q = -x;
  if (Math.abs(q) < pivmin) q = -pivmin;
  if (q < 0) count++;
  for (let i = 1; i < size; i++) {
    q = -x - b2[i - 1]! / q;
    if (Math.abs(q) < pivmin) q = -pivmin;
    if (q < 0) count++;
  }
  return count;
}

describe('bisection on the Golub–Kahan matrix, four values side by side', () => {
  const EPS = 2.220446049250313e-16;

  it('the fused four-point Sturm count equals four single counts, at zero, tiny, interior and outer points', () => {
    const rng = createRng(31);
    const size = 23;
    const b2 = Float64Array.from({ length: size - 1 }, () => rng.normal() ** 2);
    b2[5] = 0; // a split: the recurrence meets a zero off-diagonal
    const pivmin = 1e-300;
    const points = [0, 1e-310, 1e-9, 0.3, 0.7, 1.5, 2.9, 40];
    const out = new Int32Array(4);
    for (let a = 0; a < points.length; a += 4) {
      const xs = Float64Array.from(points.slice(a, a + 4));
      sturmCountsBelow4(b2, size, xs, pivmin, out);
      expect(Array.from(out)).toEqual(Array.from(xs, (x) => sturmCountBelow(b2, size, x, pivmin)));
    }
  });

  it('gives each value of a bidiagonal within 4ε of that value bisected alone, for every size 1…9 and one of 37', () => {
    // the reference: one value at a time, its bracket [0, previous value], only its own counts
    const alone = (d: Float64Array, e: Float64Array): number[] => {
      const c = d.length;
      const size = 2 * c;
      const b2 = new Float64Array(size - 1);
      for (let i = 0; i < c; i++) {
        b2[2 * i] = d[i]! ** 2;
        if (i < c - 1) b2[2 * i + 1] = e[i]! ** 2;
      }
      const out: number[] = [];
      for (let k = 0; k < c; k++) {
        let lo = 0;
        let hi = k === 0 ? 1e3 : out[k - 1]! * (1 + 4 * EPS);
        while (hi - lo > 2 * EPS * hi) {
          const mid = 0.5 * (lo + hi);
          if (mid <= lo || mid >= hi) break;
          if (sturmCountBelow(b2, size, mid, 1e-300) > size - 1 - k) hi = mid;
          else lo = mid;
        }
        out.push(0.5 * (lo + hi));
      }
      return out;
    };
    for (const c of [1, 2, 3, 4, 5, 6, 7, 8, 9, 37]) {
      // a spectrum over 10 decades with a repeated value in it
      const sigma = Array.from({ length: c }, (_, k) => (k === 1 ? 1 : 10 ** (-10 * (k / Math.max(1, c - 1)))));
      const m = withSpectrum(c, c, sigma, 40 + c);
      const it = bidiagonalizeSteps(m, c, c);
      let step = it.next();
      while (!step.done) step = it.next();
      const got = bidiagonalSingularValues(step.value);
      const ref = alone(step.value.d, step.value.e);
      for (let k = 0; k < c; k++) {
        expect(Math.abs(got[k]! - ref[k]!)).toBeLessThanOrEqual(4 * EPS * ref[k]!);
        if (k > 0) expect(got[k]!).toBeLessThanOrEqual(got[k - 1]!);
      }
    }
  });
});
