import { describe, expect, it } from 'vitest';
import {
  columnLogSums,
  elu1,
  expCurve,
  FEATURE_EPS,
  featureDim,
  keyFeatures,
  mapContext,
  queryFeatures,
  rawFeatures,
  relu,
  RELU_EPS,
  rowComparisonMaps,
  scaleInputs,
  stabilizerEps,
  usesProjection,
  zeroNormalizerCause,
} from './feature-maps';
import { DEFAULT_PARAMS } from './default-params';
import { LIMITS } from './limits';
import { linearAttentionMatrix } from './linear-attention';
import { matrix } from './matrix';
import { randomProjection } from './projections';
import type { Stabilizer } from './types';
import { createRng } from './rng';
import { FEATURE_MAPS, type FeatureMapKind, type Matrix } from './types';

const X = matrix(2, 2, [0.5, -0.2, 0.1, 0.3]); // two "queries" (already scaled)
const W = matrix(3, 2, [1, 0, 0, 1, 1, 1]); // m = 3
const u = (i: number, r: number): number => X.data[i * 2]! * W.data[r * 2]! + X.data[i * 2 + 1]! * W.data[r * 2 + 1]!;
const nrm2 = (i: number): number => X.data[i * 2]! ** 2 + X.data[i * 2 + 1]! ** 2;

function gaussian(rows: number, cols: number, std: number, seed: number): Matrix {
  return matrix(rows, cols, createRng(seed).fillNormal(new Float32Array(rows * cols), std));
}

describe('feature dimension and projection use', () => {
  it("m' = m (positive, relu, exp, oprf), 2m (hyperbolic, trig, hedgehog), d (elu1, double-softmax), 1 + d + d² (taylor2), 2d (cosformer)", () => {
    expect(FEATURE_MAPS.map((k) => featureDim(k, 5, 3))).toEqual([5, 10, 10, 5, 3, 5, 3, 5, 13, 6, 10]);
    expect(FEATURE_MAPS.filter((k) => !usesProjection(k))).toEqual(['elu1', 'double-softmax', 'taylor2', 'cosformer']);
  });

  it('the per-map rows show every map but hedgehog at the defaults, and leave out a map whose feature dimension passes the limit (taylor2 at large d)', () => {
    expect(rowComparisonMaps(DEFAULT_PARAMS.m, DEFAULT_PARAMS.d)).toEqual(FEATURE_MAPS.filter((k) => k !== 'hedgehog'));
    // the largest d whose 1 + d + d² fits, and the next
    let d = 1;
    while (featureDim('taylor2', 256, d + 1) <= LIMITS.featureDimMax) d++;
    expect(rowComparisonMaps(256, d)).toContain('taylor2');
    expect(rowComparisonMaps(256, d + 1)).not.toContain('taylor2');
    expect(rowComparisonMaps(256, d + 1)).toContain('elu1');
  });

  it('every map returns an n × m′ matrix of finite values (n = 1, d = 1, m = 1 included)', () => {
    for (const kind of FEATURE_MAPS) {
      for (const [n, d, m] of [
        [4, 3, 5],
        [1, 1, 1],
        [3, 4, 6],
      ] as const) {
        const x = gaussian(n, d, 0.5, 1);
        const w = usesProjection(kind) ? randomProjection('orthogonal-chi', m, d, createRng(2)) : matrix(0, d);
        const ctx = mapContext(kind, x, x);
        for (const f of [queryFeatures(kind, x, w, 'shift', ctx), keyFeatures(kind, x, w, 'shift', ctx)]) {
          expect([f.rows, f.cols]).toEqual([n, featureDim(kind, m, d)]);
          expect(f.data.every(Number.isFinite)).toBe(true);
        }
      }
    }
  });
});

describe('scaleInputs', () => {
  it('multiplies by d^{-1/4} so that x·y = q·k/√d', () => {
    const q = matrix(1, 16, new Float32Array(16).fill(2));
    expect(scaleInputs(q).data[0]).toBeCloseTo(1, 7);
  });
});

/** (stabilizer, ε it adds) */
const EPS_OF: [Stabilizer, number][] = [
  ['shift', 0],
  ['ref', FEATURE_EPS],
];

describe('the maps, entry by entry (ARCHITECTURE.md formulas)', () => {
  it.each(EPS_OF)('positive query (%s): m^{-1/2}(exp(u_r − ‖x‖²/2 − max_r u) + ε), ε = %s', (stab, eps) => {
    const f = queryFeatures('positive', X, W, stab);
    for (let i = 0; i < 2; i++) {
      const mx = Math.max(u(i, 0), u(i, 1), u(i, 2));
      for (let r = 0; r < 3; r++) {
        expect(f.data[i * 3 + r]).toBeCloseTo((Math.exp(u(i, r) - nrm2(i) / 2 - mx) + eps) / Math.sqrt(3), 7);
      }
    }
  });

  it.each(EPS_OF)('positive key (%s): one max over all keys and features, plus ε = %s', (stab, eps) => {
    const f = keyFeatures('positive', X, W, stab);
    let mk = -Infinity;
    for (let i = 0; i < 2; i++) for (let r = 0; r < 3; r++) mk = Math.max(mk, u(i, r));
    for (let i = 0; i < 2; i++) {
      for (let r = 0; r < 3; r++) {
        expect(f.data[i * 3 + r]).toBeCloseTo((Math.exp(u(i, r) - nrm2(i) / 2 - mk) + eps) / Math.sqrt(3), 7);
      }
    }
  });

  it('the default stabilizer is the max shift alone (no ε)', () => {
    expect(Array.from(queryFeatures('positive', X, W).data)).toEqual(
      Array.from(queryFeatures('positive', X, W, 'shift').data),
    );
    expect(Array.from(keyFeatures('exp', X, W).data)).toEqual(Array.from(keyFeatures('exp', X, W, 'shift').data));
    expect(stabilizerEps('shift')).toBe(0);
    expect(stabilizerEps('ref')).toBe(FEATURE_EPS);
  });

  it.each(EPS_OF)(
    'hyperbolic (%s): [exp(+u − ‖x‖²/2 − c) + ε | exp(−u − ‖x‖²/2 − c) + ε] (2m)^{-1/2}, ε = %s, c = max |u| (query: per row; key: global)',
    (stab, eps) => {
      const fq = queryFeatures('hyperbolic', X, W, stab);
      const fk = keyFeatures('hyperbolic', X, W, stab);
      let ck = 0;
      for (let i = 0; i < 2; i++) for (let r = 0; r < 3; r++) ck = Math.max(ck, Math.abs(u(i, r)));
      for (let i = 0; i < 2; i++) {
        const cq = Math.max(...[0, 1, 2].map((r) => Math.abs(u(i, r))));
        for (let r = 0; r < 3; r++) {
          for (const [f, c] of [
            [fq, cq],
            [fk, ck],
          ] as const) {
            expect(f.data[i * 6 + r]).toBeCloseTo((Math.exp(u(i, r) - nrm2(i) / 2 - c) + eps) / Math.sqrt(6), 7);
            expect(f.data[i * 6 + 3 + r]).toBeCloseTo((Math.exp(-u(i, r) - nrm2(i) / 2 - c) + eps) / Math.sqrt(6), 7);
          }
        }
      }
    },
  );

  it('trig: m^{-1/2} exp(‖x‖²/2) [sin u | cos u], identical for queries and keys', () => {
    const f = queryFeatures('trig', X, W);
    expect(Array.from(keyFeatures('trig', X, W).data)).toEqual(Array.from(f.data));
    for (let i = 0; i < 2; i++) {
      const a = Math.exp(nrm2(i) / 2) / Math.sqrt(3);
      for (let r = 0; r < 3; r++) {
        expect(f.data[i * 6 + r]).toBeCloseTo(a * Math.sin(u(i, r)), 6);
        expect(f.data[i * 6 + 3 + r]).toBeCloseTo(a * Math.cos(u(i, r)), 6);
      }
    }
  });

  it('relu: max(m^{-1/2} u, 0) + 0.001', () => {
    const f = queryFeatures('relu', X, W);
    for (let i = 0; i < 2; i++) {
      for (let r = 0; r < 3; r++)
        expect(f.data[i * 3 + r]).toBeCloseTo(Math.max(u(i, r) / Math.sqrt(3), 0) + RELU_EPS, 6);
    }
  });

  it.each(EPS_OF)('exp (%s): exp(u − max) + ε, ε = %s, no norms and no m^{-1/2}', (stab, eps) => {
    const f = queryFeatures('exp', X, W, stab);
    const mx = Math.max(u(0, 0), u(0, 1), u(0, 2));
    expect(f.data[1]).toBeCloseTo(Math.exp(u(0, 1) - mx) + eps, 7);
  });

  it('elu1: elu(x) + 1 per coordinate, ignoring W', () => {
    const f = queryFeatures('elu1', X, matrix(0, 2));
    expect(Array.from(f.data).map((v) => +v.toFixed(6))).toEqual([1.5, +Math.exp(-0.2).toFixed(6), 1.1, 1.3]);
  });

  it('double-softmax: queries softmax over coordinates, keys softmax over positions', () => {
    const fq = queryFeatures('double-softmax', X, matrix(0, 2));
    const fk = keyFeatures('double-softmax', X, matrix(0, 2));
    expect(fq.data[0]! + fq.data[1]!).toBeCloseTo(1, 6);
    expect(fq.data[0]).toBeCloseTo(Math.exp(0.5) / (Math.exp(0.5) + Math.exp(-0.2)), 6);
    expect(fk.data[0]! + fk.data[2]!).toBeCloseTo(1, 6); // column 0 over the two positions
    expect(fk.data[1]).toBeCloseTo(Math.exp(-0.2) / (Math.exp(-0.2) + Math.exp(0.3)), 6);
  });

  it('stabilized features never overflow where the raw map would', () => {
    const big = matrix(1, 2, [30, 30]);
    const w = matrix(1, 2, [20, 20]);
    expect(rawFeatures('exp', big, w, 'query').data[0]).toBe(Infinity);
    expect(queryFeatures('exp', big, w).data[0]).toBeCloseTo(1, 6);
    expect(queryFeatures('exp', big, w, 'ref').data[0]).toBeCloseTo(1 + FEATURE_EPS, 6);
    expect(keyFeatures('positive', big, w).data.every(Number.isFinite)).toBe(true);
  });
});

describe('the shifts cancel: default (shift) and raw features give the same Â', () => {
  const n = 12;
  const d = 4;
  const m = 16;
  const q = scaleInputs(gaussian(n, d, 0.7, 10));
  const k = scaleInputs(gaussian(n, d, 0.7, 11));
  const w = randomProjection('orthogonal-chi', m, d, createRng(12));
  for (const kind of ['positive', 'hyperbolic', 'exp', 'double-softmax'] as FeatureMapKind[]) {
    for (const causal of [false, true]) {
      it(`${kind}, causal=${causal}`, () => {
        const ww = usesProjection(kind) ? w : matrix(0, d);
        const stab = linearAttentionMatrix(queryFeatures(kind, q, ww), keyFeatures(kind, k, ww), causal);
        const raw = linearAttentionMatrix(rawFeatures(kind, q, ww, 'query'), rawFeatures(kind, k, ww, 'key'), causal);
        for (let i = 0; i < raw.data.length; i++) {
          expect(Math.abs(stab.data[i]! - raw.data[i]!)).toBeLessThan(1e-4 * Math.max(raw.data[i]!, 1 / n));
        }
      });
    }
  }
});

describe('scalar curves for the feature-map panel', () => {
  it('expCurve, elu1 (= first-order Taylor of e^x for x > 0, e^x below), relu', () => {
    expect(expCurve(1)).toBeCloseTo(Math.E, 12);
    expect(elu1(0.5)).toBe(1.5);
    expect(elu1(-1)).toBeCloseTo(Math.exp(-1), 12);
    expect(elu1(0)).toBe(1);
    expect(relu(-2)).toBe(0);
    expect(relu(2)).toBe(2);
  });
});

describe('the shipped trig and hyperbolic maps estimate SM(x, y) = exp(x·y)', () => {
  const x = [0.3, -0.2, 0.4, 0.1];
  const y = [0.2, 0.1, -0.3, 0.5];
  const sm = Math.exp(x.reduce((s, xi, i) => s + xi * y[i]!, 0));

  it('trig and hyperbolic: the shipped maps give unbiased φ(x)·φ(y), stabilized ones proportional to it', () => {
    // The maps the app runs (rawFeatures / queryFeatures / keyFeatures), not the single-entry helpers.
    const draws = 3000;
    const m = 8;
    const rng = createRng(22);
    const y2 = [-0.1, 0.3, 0.2, -0.4];
    for (const kind of ['trig', 'hyperbolic'] as const) {
      const vals: number[] = [];
      for (let t = 0; t < draws; t++) {
        const w = randomProjection('iid', m, 4, rng);
        const fx = rawFeatures(kind, matrix(1, 4, x), w, 'query').data;
        const fy = rawFeatures(kind, matrix(2, 4, [...y, ...y2]), w, 'key').data;
        let dot = 0;
        for (let r = 0; r < 2 * m; r++) dot += fx[r]! * fy[r]!;
        vals.push(dot);
        if (t < 20 && kind === 'hyperbolic') {
          // stabilized features: the ratio of the two keys' products is the raw one (shifts cancel)
          const qx = queryFeatures(kind, matrix(1, 4, x), w).data;
          const ky = keyFeatures(kind, matrix(2, 4, [...y, ...y2]), w).data;
          let d0 = 0;
          let d1 = 0;
          let r0 = 0;
          let r1 = 0;
          for (let r = 0; r < 2 * m; r++) {
            d0 += qx[r]! * ky[r]!;
            d1 += qx[r]! * ky[2 * m + r]!;
            r0 += fx[r]! * fy[r]!;
            r1 += fx[r]! * fy[2 * m + r]!;
          }
          expect(d0 / d1).toBeCloseTo(r0 / r1, 4);
        }
      }
      const mean = vals.reduce((a, b) => a + b, 0) / draws;
      const sd = Math.sqrt(vals.reduce((a, b) => a + (b - mean) ** 2, 0) / (draws - 1));
      expect(Math.abs(mean - sm)).toBeLessThan((4 * sd) / Math.sqrt(draws));
      // and a wrong kernel is caught: the mean is not exp(x·y) of a sign-flipped y
      const smFlip = Math.exp(-x.reduce((s, xi, i) => s + xi * y[i]!, 0));
      expect(Math.abs(mean - smFlip)).toBeGreaterThan((4 * sd) / Math.sqrt(draws));
    }
  });
});

describe('maps formed one after another (the projection lives in a kept scratch buffer)', () => {
  it('each result keeps its own values when other maps, of other sizes, are formed after it', () => {
    const x = gaussian(40, 6, 0.6, 1);
    const y = gaussian(40, 6, 0.6, 2);
    const wSmall = randomProjection('iid', 8, 6, createRng(3));
    const wBig = randomProjection('iid', 64, 6, createRng(4));
    const first = FEATURE_MAPS.filter(usesProjection).map((kind) => {
      const ctx = mapContext(kind, x, y);
      return {
        kind,
        ctx,
        q: queryFeatures(kind, x, wSmall, 'shift', ctx),
        k: keyFeatures(kind, y, wSmall, 'shift', ctx),
      };
    });
    const copies = first.map((f) => ({ q: f.q.data.slice(), k: f.k.data.slice() }));
    // a larger projection (the scratch grows), then every map again
    keyFeatures('positive', y, wBig);
    queryFeatures('hyperbolic', x, wBig);
    first.forEach((f, i) => {
      expect(f.q.data, `${f.kind} queries`).toEqual(copies[i]!.q);
      expect(f.k.data, `${f.kind} keys`).toEqual(copies[i]!.k);
      expect(queryFeatures(f.kind, x, wSmall, 'shift', f.ctx).data, `${f.kind} recomputed`).toEqual(copies[i]!.q);
    });
  });
});

describe('columnLogSums', () => {
  it("is log Σ_j exp(y_jc) per column, so that exp(y_jc − o_c) is the twin's softmax over positions", () => {
    const y = scaleInputs(gaussian(13, 6, 0.8, 5));
    const o = columnLogSums(y);
    for (let c = 0; c < y.cols; c++) {
      let s = 0;
      for (let j = 0; j < y.rows; j++) s += Math.exp(y.data[j * y.cols + c]!);
      expect(o[c]).toBeCloseTo(Math.log(s), 5);
    }
    // the twin's bidirectional double-softmax keys (no W: any matrix of width d)
    const kf = keyFeatures('double-softmax', y, gaussian(1, y.cols, 1, 6), 'shift', mapContext('double-softmax', y, y));
    for (let e = 0; e < y.data.length; e++) expect(Math.exp(y.data[e]! - o[e % y.cols]!)).toBeCloseTo(kf.data[e]!, 6);
  });
  it('stays finite where the plain sum would overflow', () => {
    const y = { rows: 2, cols: 1, data: new Float32Array([1000, 999]) };
    expect(columnLogSums(y)[0]).toBeCloseTo(1000 + Math.log(1 + Math.exp(-1)), 3);
  });
});

describe('zeroNormalizerCause', () => {
  it('cosFormer’s rows vanish by its ReLU; the ε maps’ by underflow that ε prevents; the others’ by underflow alone', () => {
    expect(zeroNormalizerCause('cosformer')).toBe('relu');
    for (const map of ['positive', 'hyperbolic', 'exp'] as const)
      expect(zeroNormalizerCause(map)).toBe('underflow-eps');
    for (const map of ['elu1', 'taylor2', 'double-softmax'] as const)
      expect(zeroNormalizerCause(map)).toBe('underflow');
  });
});
