import { describe, expect, it } from 'vitest';
import { keyFeatures, queryFeatures, scaleInputs } from './feature-maps';
import { generateInputs } from './inputs';
import { linearAttentionRow } from './linear-attention';
import { topKMass } from './metrics';
import { randomProjection } from './projections';
import { createRng } from './rng';
import {
  approxRowsOf,
  estimatorTheory,
  evenRows,
  exactRowsOf,
  pairRho,
  powersOfTwo,
  predictedRelError,
  relErrorOverRows,
  spread,
  subRows,
  topMassAt,
  topMassLevels,
} from './sweeps';
import { hyperbolicRelativeMse, positiveRelativeMse, trigRelativeMse } from './theory';
import { DEFAULT_PARAMS } from './default-params';
import type { Matrix } from './types';

describe('row subsets', () => {
  it('evenRows spreads distinct rows over 0 … n−1', () => {
    expect(evenRows(8, 4)).toEqual([1, 3, 5, 7]);
    expect(evenRows(3, 10)).toEqual([0, 1, 2]);
  });

  it('approxRowsOf on a subset equals the full linear-attention rows, causal or not', () => {
    const inputs = generateInputs({ ...DEFAULT_PARAMS, n: 40 });
    const x = scaleInputs(inputs.q);
    const y = scaleInputs(inputs.k);
    const qf = queryFeatures('positive', x, inputs.w);
    const kf = keyFeatures('positive', y, inputs.w);
    const rows = [0, 7, 39];
    for (const causal of [false, true]) {
      const sub = approxRowsOf(queryFeatures('positive', subRows(x, rows), inputs.w), kf, rows, causal);
      rows.forEach((i, t) => {
        const ref = linearAttentionRow(qf, kf, i, causal, new Float32Array(40));
        for (let j = 0; j < 40; j++) expect(sub[t]![j]).toBeCloseTo(ref[j]!, 7);
      });
    }
  });

  it('approxRowsOf gives every entry bit for bit as one key at a time would, on odd n, odd p and causal rows', () => {
    const rng = createRng(12);
    for (const [n, p] of [
      [1, 1],
      [7, 5],
      [33, 18],
      [64, 67],
    ] as const) {
      const rows = [0, Math.floor(n / 2), n - 1];
      const qf: Matrix = {
        rows: rows.length,
        cols: p,
        data: Float32Array.from({ length: rows.length * p }, () => rng.uniform()),
      };
      const kf: Matrix = { rows: n, cols: p, data: Float32Array.from({ length: n * p }, () => rng.uniform()) };
      for (const causal of [false, true]) {
        const got = approxRowsOf(qf, kf, rows, causal);
        rows.forEach((i, t) => {
          // the reference: one key at a time, four partial sums combined as (s0 + s1) + (s2 + s3)
          const last = causal ? Math.min(i, n - 1) : n - 1;
          const num: number[] = [];
          let den = 0;
          for (let j = 0; j <= last; j++) {
            const acc = [0, 0, 0, 0];
            let r = 0;
            for (; r + 3 < p; r += 4)
              for (let l = 0; l < 4; l++) acc[l]! += qf.data[t * p + r + l]! * kf.data[j * p + r + l]!;
            for (; r < p; r++) acc[0]! += qf.data[t * p + r]! * kf.data[j * p + r]!;
            const s = acc[0]! + acc[1]! + (acc[2]! + acc[3]!);
            num.push(s);
            den += s;
          }
          const want = new Float32Array(n);
          num.forEach((s, j) => (want[j] = s / den));
          expect(Array.from(got[t]!)).toEqual(Array.from(want));
        });
      }
    }
  });

  it('relErrorOverRows is 0 for identical rows and scale-free', () => {
    const a = [Float32Array.from([0.5, 0.5])];
    expect(relErrorOverRows(a, a)).toBe(0);
    expect(relErrorOverRows([Float32Array.from([1, 0])], a)).toBeCloseTo(1, 6);
  });
});

describe('spread and grids', () => {
  it('summarizes runs over seeds', () => {
    expect(spread([1, 2, 3])).toEqual({ mean: 2, std: 1, lo: 1, hi: 3 });
    expect(powersOfTwo(4, 40)).toEqual([4, 8, 16, 32]);
  });
  it('topMassAt: the mass of the 2^l largest seen keys, the whole row once 2^l ≥ keys', () => {
    const row = Float32Array.of(0.1, 0.4, 0.2, 0.3, 9, 9); // the last two are past the row's 4 keys
    expect([...topMassAt(row, 4, 3)].map((v) => +v.toFixed(6))).toEqual([0.4, 0.7, 1]);
    expect([...topMassAt(row, 4, 4)].map((v) => +v.toFixed(6))).toEqual([0.4, 0.7, 1, 1]);
    expect([...topMassAt(row, 1, 2)].map((v) => +v.toFixed(6))).toEqual([0.1, 0.1]);
    expect(topMassLevels(256)).toBe(9);
    expect(topMassLevels(47)).toBe(6);
    expect(topMassLevels(1)).toBe(1);
  });
  it('topMassAt gives topKMass at every power of two at once', () => {
    const row = [0.1, 0.4, 0.2, 0.3, 0.05, 0.6, 0.01, 0.2, 0.3];
    const mass = topMassAt(row, row.length, 4);
    for (let l = 0; l < 4; l++) expect(mass[l]).toBeCloseTo(topKMass(row, 2 ** l), 12);
  });
});

describe('estimator theory (Lemma 2 and its normalized form)', () => {
  it('the pair factor on the diagonal is Lemma 2’s relative MSE at m = 1', () => {
    const rng = createRng(4);
    const x = rng.fillNormal(new Float32Array(6), 0.4);
    const y = rng.fillNormal(new Float32Array(6), 0.4);
    let xx = 0;
    let yy = 0;
    let xy = 0;
    for (let c = 0; c < 6; c++) {
      xx += x[c]! * x[c]!;
      yy += y[c]! * y[c]!;
      xy += x[c]! * y[c]!;
    }
    expect(pairRho('positive', xx, xy, xy, yy)).toBeCloseTo(positiveRelativeMse(x, y, 1), 12);
    expect(pairRho('hyperbolic', xx, xy, xy, yy)).toBeCloseTo(hyperbolicRelativeMse(x, y, 1), 12);
    expect(pairRho('trig', xx, xy, xy, yy)).toBeCloseTo(trigRelativeMse(x, y, 1), 10);
  });

  it('predicts the measured error of iid positive features within 30% (mean over seeds)', () => {
    const p = { ...DEFAULT_PARAMS, n: 128, d: 8, m: 128, scale: 0.5 };
    const inputs = generateInputs(p);
    const x = scaleInputs(inputs.q);
    const y = scaleInputs(inputs.k);
    const rows = evenRows(128, 24);
    const exact = exactRowsOf(inputs.q, inputs.k, rows, false);
    const errs: number[] = [];
    for (let s = 0; s < 12; s++) {
      const w = randomProjection('iid', p.m, p.d, createRng(1000 + s));
      const approx = approxRowsOf(
        queryFeatures('positive', subRows(x, rows), w),
        keyFeatures('positive', y, w),
        rows,
        false,
      );
      errs.push(relErrorOverRows(approx, exact) ** 2);
    }
    const measured = Math.sqrt(errs.reduce((a, b) => a + b) / errs.length);
    const t = estimatorTheory('positive', x, y, rows, false);
    const predicted = predictedRelError(t, p.m);
    expect(predicted / measured).toBeGreaterThan(0.7);
    expect(predicted / measured).toBeLessThan(1.3);
    // ignoring the normalizer overstates the error: the common factor of a row cancels
    expect(predictedRelError(t, p.m, 'perEntry')).toBeGreaterThan(predicted);
  });

  it('the products of precomputed exponentials give the pairRho sums (every kind, causal or not, at small, default and overflow-prone norms)', () => {
    // the definition, summed term by term with pairRho (one transcendental call per pair)
    const direct = (
      kind: 'positive' | 'hyperbolic' | 'trig',
      x: Matrix,
      y: Matrix,
      rows: number[],
      causal: boolean,
    ) => {
      const { rows: n, cols: d } = y;
      const dot = (a: Matrix, i: number, b: Matrix, j: number) => {
        let t = 0;
        for (let c = 0; c < d; c++) t += a.data[i * d + c]! * b.data[j * d + c]!;
        return t;
      };
      let perEntry = 0;
      let normalized = 0;
      let exactSq = 0;
      for (const i of rows) {
        const last = causal ? i : n - 1;
        const s = Array.from({ length: last + 1 }, (_, j) => dot(x, i, y, j));
        const mx = Math.max(...s);
        const e = s.map((v) => Math.exp(v - mx));
        const z = e.reduce((p, q) => p + q, 0);
        const a = e.map((v) => v / z);
        const a2 = a.reduce((p, q) => p + q * q, 0);
        const xx = dot(x, i, x, i);
        let diag = 0;
        let cross = 0;
        let total = 0;
        for (let j = 0; j <= last; j++) {
          let uj = 0;
          for (let l = 0; l <= last; l++) uj += a[l]! * pairRho(kind, xx, s[j]!, s[l]!, dot(y, j, y, l));
          diag += a[j]! ** 2 * pairRho(kind, xx, s[j]!, s[j]!, dot(y, j, y, j));
          cross += a[j]! ** 2 * uj;
          total += a[j]! * uj;
        }
        perEntry += diag;
        normalized += Math.max(0, diag - 2 * cross + a2 * total);
        exactSq += a2;
      }
      return { perEntry, normalized, exactSq };
    };
    for (const scale of [0.05, 0.5, 1.25, 6, 9]) {
      const p = { ...DEFAULT_PARAMS, n: 40, d: 8, m: 16, scale, input: 'gaussian' as const };
      const inputs = generateInputs(p);
      const x = scaleInputs(inputs.q);
      const y = scaleInputs(inputs.k);
      const rows = evenRows(40, 7);
      for (const kind of ['positive', 'hyperbolic', 'trig'] as const) {
        for (const causal of [false, true]) {
          const got = estimatorTheory(kind, x, y, rows, causal);
          const want = direct(kind, x, y, rows, causal);
          for (const key of ['perEntry', 'normalized', 'exactSq'] as const) {
            const w = want[key];
            if (!Number.isFinite(w)) expect(got[key], `${kind} s=${scale} causal=${causal} ${key}`).toBe(Infinity);
            else
              expect(Math.abs(got[key] - w), `${kind} s=${scale} causal=${causal} ${key}`).toBeLessThanOrEqual(
                1e-9 * Math.abs(w) + 1e-300,
              );
          }
        }
      }
    }
  });

  it('is an RMS over draws: at large norms heavy tails put it far above the typical measured error', () => {
    // positive features at s = 1, d = 16: the second moment e^{‖x+y‖²} is dominated by rare ω, so
    // the RMS prediction explodes while a typical draw (and a probability row) stays near error 1.
    const p = { ...DEFAULT_PARAMS, n: 64, d: 16, m: 64, scale: 1 };
    const inputs = generateInputs(p);
    const x = scaleInputs(inputs.q);
    const y = scaleInputs(inputs.k);
    const rows = evenRows(64, 8);
    const exact = exactRowsOf(inputs.q, inputs.k, rows, false);
    const w = randomProjection('iid', p.m, p.d, createRng(9));
    const measured = relErrorOverRows(
      approxRowsOf(queryFeatures('positive', subRows(x, rows), w), keyFeatures('positive', y, w), rows, false),
      exact,
    );
    expect(predictedRelError(estimatorTheory('positive', x, y, rows, false), p.m)).toBeGreaterThan(10 * measured);
  });

  it('measured: trig features blow up at large norms where positive ones stay bounded', () => {
    const p = { ...DEFAULT_PARAMS, n: 128, d: 16, m: 64, scale: 1 };
    const inputs = generateInputs(p);
    const x = scaleInputs(inputs.q);
    const y = scaleInputs(inputs.k);
    const rows = evenRows(128, 16);
    const exact = exactRowsOf(inputs.q, inputs.k, rows, false);
    const err = (kind: 'positive' | 'trig') => {
      const w = randomProjection('orthogonal-chi', p.m, p.d, createRng(3));
      return relErrorOverRows(
        approxRowsOf(queryFeatures(kind, subRows(x, rows), w), keyFeatures(kind, y, w), rows, false),
        exact,
      );
    };
    expect(err('positive')).toBeLessThan(2);
    expect(err('trig')).toBeGreaterThan(3 * err('positive'));
  });
});
