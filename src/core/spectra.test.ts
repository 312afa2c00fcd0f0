import { describe, expect, it } from 'vitest';
import { exactAttentionMatrix } from './exact-attention';
import { featureDim, scaleInputs } from './feature-maps';
import { generateInputs } from './inputs';
import { linearAttentionMatrix, performerFeatures } from './linear-attention';
import { numericalRank } from './rank';
import { createRng } from './rng';
import {
  causalLinearAttentionF64,
  exactAttentionF64,
  householderR,
  lowRankProductCore,
  normalizedQueryFeatures,
  zeroNormalizerRowsToZero,
} from './spectra';
import { singularValues } from './svd';
import { DEFAULT_PARAMS } from './default-params';

const params = { ...DEFAULT_PARAMS, n: 96, d: 8, m: 12 };
const inputs = generateInputs(params);

describe('exactAttentionF64', () => {
  it('agrees with the f32 CPU twin and has rows summing to 1 (causal rows masked)', () => {
    for (const causal of [false, true]) {
      const a = exactAttentionF64(inputs.q, inputs.k, causal);
      const ref = exactAttentionMatrix(inputs.q, inputs.k, causal).data;
      for (let t = 0; t < a.length; t++) expect(Math.abs(a[t]! - ref[t]!)).toBeLessThan(1e-7);
      for (let i = 0; i < 96; i++) {
        let s = 0;
        for (let j = 0; j < 96; j++) s += a[i * 96 + j]!;
        expect(s).toBeCloseTo(1, 12);
        if (causal && i < 95) expect(a[i * 96 + 95]).toBe(0);
      }
    }
  });
});

describe('householderR', () => {
  it('RᵀR = AᵀA for a tall matrix', () => {
    const rng = createRng(1);
    const a = { rows: 20, cols: 5, data: rng.fillNormal(new Float32Array(100)) };
    const r = householderR(a);
    for (let i = 0; i < 5; i++)
      for (let j = 0; j < 5; j++) {
        let rr = 0;
        let aa = 0;
        for (let k = 0; k < 5; k++) rr += r[k * 5 + i]! * r[k * 5 + j]!;
        for (let k = 0; k < 20; k++) aa += a.data[k * 5 + i]! * a.data[k * 5 + j]!;
        expect(rr).toBeCloseTo(aa, 10);
      }
  });
});

describe('spectra of the three matrices (Su Jianlin’s rank argument)', () => {
  it('σ(B Cᵀ) from the p×p core equals σ of the dense product', () => {
    const { qf, kf } = performerFeatures(inputs, 'positive');
    const core = lowRankProductCore(normalizedQueryFeatures(qf, kf), kf);
    expect(core.rows).toBe(12);
    const dense = linearAttentionMatrix(qf, kf, false);
    const a = singularValues(core);
    const b = singularValues(dense);
    for (let k = 0; k < 12; k++) expect(a[k]).toBeCloseTo(b[k]!, 5);
    for (let k = 12; k < 96; k++) expect(b[k]! / b[0]!).toBeLessThan(1e-5); // f32 dense: only rounding noise left
  });

  it('rank(Â) ≤ m′ for every map with a projection, and rank(QKᵀ) ≤ d', () => {
    for (const kind of ['positive', 'hyperbolic', 'trig', 'relu'] as const) {
      const { qf, kf } = performerFeatures(inputs, kind);
      const mp = featureDim(kind, params.m, params.d);
      const s = singularValues(lowRankProductCore(normalizedQueryFeatures(qf, kf), kf));
      expect(s.length).toBeLessThanOrEqual(mp);
      expect(numericalRank(s, 1e-12)).toBeLessThanOrEqual(mp);
    }
    const x = scaleInputs(inputs.q);
    const y = scaleInputs(inputs.k);
    const scores = singularValues(lowRankProductCore(x, y));
    expect(scores.length).toBe(params.d);
  });

  it('exact A has a higher numerical rank than the rank-d scores it exponentiates', () => {
    const p = { ...params, scale: 1 };
    const inp = generateInputs(p);
    const sA = singularValues({ rows: 96, cols: 96, data: exactAttentionF64(inp.q, inp.k, false) });
    expect(numericalRank(sA, 1e-6)).toBeGreaterThan(p.d);
  });

  it('causal Â is lower triangular with a positive diagonal: full rank', () => {
    const { qf, kf } = performerFeatures(inputs, 'positive');
    const a = causalLinearAttentionF64(qf, kf);
    for (let i = 0; i < 96; i++) expect(a[i * 96 + i]).toBeGreaterThan(0);
    expect(numericalRank(singularValues({ rows: 96, cols: 96, data: a }), 1e-12)).toBe(96);
  });
});

describe('zero normalizers', () => {
  const qf = { rows: 3, cols: 2, data: new Float32Array([1, 2, 0, 0, 3, 1]) };
  const kf = { rows: 2, cols: 2, data: new Float32Array([1, 0, 0, 1]) };
  it('normalizedQueryFeatures counts the rows whose normalizer is exactly 0: NaN (0/0) by default, zero rows when asked', () => {
    const nan = normalizedQueryFeatures(qf, kf);
    expect(nan.zeroNormalizerRows).toBe(1);
    expect([...nan.data.subarray(2, 4)].every(Number.isNaN)).toBe(true);
    const zero = normalizedQueryFeatures(qf, kf, 'zero');
    expect(zero.zeroNormalizerRows).toBe(1);
    expect([...zero.data]).toEqual([1 / 3, 2 / 3, 0, 0, 3 / 4, 1 / 4]);
  });
  it('zeroNormalizerRowsToZero zeroes the rows of NaN (and masked zeros) only: an overflow stays', () => {
    const a = new Float64Array([0.5, 0.5, 0, NaN, NaN, 0, NaN, 0, Infinity, NaN, 0, 0, 0.1, 0.2, 0.7, 0]);
    const n = 4;
    expect(zeroNormalizerRowsToZero(a, n)).toBe(1);
    expect([...a.subarray(4, 8)]).toEqual([0, 0, 0, 0]);
    expect([...a.subarray(0, 4)]).toEqual([0.5, 0.5, 0, NaN]); // a NaN beside finite values: not an empty row
    expect(a[8]).toBe(Infinity); // an overflow
    expect([...a.subarray(12, 16)]).toEqual([0.1, 0.2, 0.7, 0]);
  });
});
