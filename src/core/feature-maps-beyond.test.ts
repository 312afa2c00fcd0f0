import { describe, expect, it } from 'vitest';
import { estimatorStats, meanMse, type EstimatorSpec } from './estimator-stats';
import { exactAttentionMatrix } from './exact-attention';
import {
  featureDim,
  keyFeatures,
  mapContext,
  queryFeatures,
  rawFeatures,
  scaleInputs,
  usesProjection,
} from './feature-maps';
import { cosformerAngle, oprfA, oprfParameter, oprfRho, taylor2Curve, taylor2Dim } from './feature-maps-beyond';
import { linearAttentionMatrix, linearAttentionOutput, performerFeatures } from './linear-attention';
import { relativeError } from './metrics';
import { randomProjection } from './projections';
import { createRng } from './rng';
import type { Matrix } from './types';
import { validateParams } from './validate';
import { DEFAULT_PARAMS } from './default-params';
import { isEngineError } from './errors';

/** n pairs of scaled inputs x = q·d^{-1/4} with q ~ N(0, s²). */
function pairs(n: number, d: number, s: number, seed: number): { x: Matrix; y: Matrix } {
  const r = createRng(seed);
  const f = Math.pow(d, -0.25) * s;
  const x = new Float32Array(n * d).map(() => r.normal() * f);
  const y = new Float32Array(n * d).map(() => r.normal() * f);
  return { x: { rows: n, cols: d, data: x }, y: { rows: n, cols: d, data: y } };
}
function gaussian(n: number, d: number, s: number, seed: number): Matrix {
  const r = createRng(seed);
  return { rows: n, cols: d, data: new Float32Array(n * d).map(() => r.normal() * s) };
}

// The Monte-Carlo setting of the unbiasedness and MSE tests: 16 pairs, d = 16, m = 16 (one full
// block), N = 2000 independent W. q, k entries ~ N(0, 0.5²): ‖x‖² ≈ 1, where the estimators'
// tails are light enough for N draws to measure a variance (at s ≳ 1.5 FAVOR+'s rare huge
// estimates dominate its MSE and a finite sample underestimates it).
const N = 2000;
const SPECS: EstimatorSpec[] = [
  { map: 'positive', projection: 'iid' },
  { map: 'positive', projection: 'orthogonal-chi' },
  { map: 'positive', projection: 'simplex' },
  { map: 'oprf', projection: 'iid' },
  { map: 'oprf', projection: 'orthogonal-chi' },
  { map: 'oprf', projection: 'simplex' },
];
const { x: PX, y: PY } = pairs(16, 16, 0.5, 3);
const STATS = estimatorStats(SPECS, PX, PY, 16, N, 1);
const mseOf = (map: EstimatorSpec['map'], projection: EstimatorSpec['projection']): number =>
  meanMse(STATS[SPECS.findIndex((s) => s.map === map && s.projection === projection)]!);

describe('OPRF / FAVOR++ (Likhosherstov et al. 2022)', () => {
  it('A*(ρ) solves 16A² − (2 − 4ρ)A − ρ = 0 below 1/8, is 0 at ρ = 0 (FAVOR+) and negative otherwise', () => {
    expect(oprfA(0)).toBe(0);
    for (const rho of [0.01, 0.3, 1, 4, 50]) {
      const a = oprfA(rho);
      expect(a).toBeLessThan(0);
      expect(16 * a * a - (2 - 4 * rho) * a - rho).toBeCloseTo(0, 9);
    }
  });

  it('A* minimizes the log second moment averaged over all pairs (grid check)', () => {
    const { x, y } = pairs(12, 8, 1, 5);
    const d = 8;
    const rho = oprfRho(x, y);
    // mean over pairs of log E f⁴-term = d log(1−4A) − (d/2) log(1−8A) + 2(1−4A)/(1−8A)·‖x+y‖² − ‖x‖² − ‖y‖²;
    // only the A-dependent part matters: d log(1−4A) − (d/2) log(1−8A) + 2(1−4A)/(1−8A)·dρ.
    const L = (a: number): number =>
      d * Math.log(1 - 4 * a) - (d / 2) * Math.log(1 - 8 * a) + ((2 * (1 - 4 * a)) / (1 - 8 * a)) * d * rho;
    const best = oprfParameter(x, y);
    for (let a = -2; a < 0.124; a += 0.01) expect(L(best)).toBeLessThanOrEqual(L(a) + 1e-12);
  });

  it('ρ equals the brute-force mean of ‖x_i + y_j‖²/d over all n² pairs', () => {
    const { x, y } = pairs(7, 5, 1.2, 9);
    let s = 0;
    for (let i = 0; i < 7; i++)
      for (let j = 0; j < 7; j++) for (let c = 0; c < 5; c++) s += (x.data[i * 5 + c]! + y.data[j * 5 + c]!) ** 2;
    expect(oprfRho(x, y)).toBeCloseTo(s / (49 * 5), 10);
  });

  it('is unbiased: the mean of φ(x)·φ(y) over 2000 draws of W is within 4σ/√N of e^{x·y} for every pair (iid, orthogonal, simplex)', () => {
    for (const proj of ['iid', 'orthogonal-chi', 'simplex'] as const) {
      const st = STATS[SPECS.findIndex((s) => s.map === 'oprf' && s.projection === proj)]!;
      for (const p of st) expect(Math.abs(p.mean - p.target)).toBeLessThanOrEqual((4 * p.std) / Math.sqrt(N));
    }
  });

  it('has a lower MSE per entry than FAVOR+ on the same pairs and the same W (iid: ratio < 0.8; orthogonal: < 0.8)', () => {
    const iid = mseOf('oprf', 'iid') / mseOf('positive', 'iid');
    const orth = mseOf('oprf', 'orthogonal-chi') / mseOf('positive', 'orthogonal-chi');
    console.info(
      `MSE ratio OPRF / FAVOR+ (s = 0.5, d = m = 16, N = ${N}): iid ${iid.toFixed(3)}, orthogonal ${orth.toFixed(3)}`,
    );
    expect(iid).toBeLessThan(0.8);
    expect(orth).toBeLessThan(0.8);
  });

  it('features are positive and bounded by m^{-1/2}(1−4A)^{d/4} exp(−(1−4A)‖x‖²/(4A) − ‖x‖²/2) (the max over ω)', () => {
    const { x, y } = pairs(20, 6, 1.5, 2);
    const w = randomProjection('iid', 32, 6, createRng(4));
    const ctx = mapContext('oprf', x, y);
    const a = ctx.oprfA!;
    const f = rawFeatures('oprf', x, w, 'query', ctx);
    for (let i = 0; i < 20; i++) {
      let n2 = 0;
      for (let c = 0; c < 6; c++) n2 += x.data[i * 6 + c]! ** 2;
      const bound = (Math.pow(1 - 4 * a, 1.5) * Math.exp((-(1 - 4 * a) * n2) / (4 * a) - n2 / 2)) / Math.sqrt(32);
      for (let r = 0; r < 32; r++) {
        const v = f.data[i * 32 + r]!;
        expect(v).toBeGreaterThan(0);
        expect(v).toBeLessThanOrEqual(bound * (1 + 1e-6));
      }
    }
  });

  it('the max shifts and the dropped constant (1−4A)^{d/4} cancel in Â (stabilized Â = raw Â), both modes', () => {
    const q = gaussian(24, 8, 0.9, 11);
    const k = gaussian(24, 8, 0.9, 12);
    const x = scaleInputs(q);
    const y = scaleInputs(k);
    const w = randomProjection('orthogonal-chi', 16, 8, createRng(3));
    const ctx = mapContext('oprf', x, y);
    for (const causal of [false, true]) {
      const st = linearAttentionMatrix(
        queryFeatures('oprf', x, w, 'shift', ctx),
        keyFeatures('oprf', y, w, 'shift', ctx),
        causal,
      );
      const raw = linearAttentionMatrix(
        rawFeatures('oprf', x, w, 'query', ctx),
        rawFeatures('oprf', y, w, 'key', ctx),
        causal,
      );
      expect(relativeError(st.data, raw.data)).toBeLessThan(1e-5);
    }
  });

  it('refuses to compute without its parameter A (a typed error, not FAVOR+ in disguise)', () => {
    const x = gaussian(4, 4, 1, 1);
    const w = randomProjection('iid', 4, 4, createRng(1));
    expect(() => queryFeatures('oprf', x, w)).toThrow(/parameter A/);
  });
});

describe('simplex random features (Reid et al. 2023) as the projection of FAVOR+', () => {
  it('each block of d rows is a rotated regular simplex (pairwise cosine −1/(d−1)); rows of different blocks are not coupled so', () => {
    const d = 6;
    const w = randomProjection('simplex', 15, d, createRng(8)); // blocks of 6, 6 and a partial 3
    const unit = (r: number): number[] => {
      const row = Array.from(w.data.subarray(r * d, (r + 1) * d));
      const len = Math.hypot(...row);
      return row.map((v) => v / len);
    };
    const cos = (a: number, b: number): number => unit(a).reduce((s, v, c) => s + v * unit(b)[c]!, 0);
    for (const [b0, rows] of [
      [0, 6],
      [6, 6],
      [12, 3],
    ] as const)
      for (let i = 0; i < rows; i++)
        for (let j = i + 1; j < rows; j++) expect(cos(b0 + i, b0 + j)).toBeCloseTo(-1 / (d - 1), 5);
    expect(Math.abs(cos(0, 6) + 1 / (d - 1))).toBeGreaterThan(1e-3);
  });

  it('are unbiased: mean of φ(x)·φ(y) over 2000 draws within 4σ/√N of e^{x·y} for every pair', () => {
    const st = STATS[SPECS.findIndex((s) => s.map === 'positive' && s.projection === 'simplex')]!;
    for (const p of st) expect(Math.abs(p.mean - p.target)).toBeLessThanOrEqual((4 * p.std) / Math.sqrt(N));
  });

  it('have a lower MSE per entry than orthogonal FAVOR+ (the paper default) on the same pairs (ratio < 0.9)', () => {
    const ratio = mseOf('positive', 'simplex') / mseOf('positive', 'orthogonal-chi');
    const iid = mseOf('positive', 'iid') / mseOf('positive', 'orthogonal-chi');
    const oprf = mseOf('oprf', 'simplex') / mseOf('positive', 'orthogonal-chi');
    console.info(
      `MSE ratio vs orthogonal FAVOR+: simplex ${ratio.toFixed(3)}, iid ${iid.toFixed(3)}, OPRF + simplex ${oprf.toFixed(3)}`,
    );
    expect(ratio).toBeLessThan(0.9);
  });
});

describe('second-order Taylor map (Based, Arora et al. 2024)', () => {
  it('φ(x)·φ(y) = 1 + x·y + (x·y)²/2 exactly (to float32 rounding) and has 1 + d + d² features, no projection', () => {
    const { x, y } = pairs(6, 5, 1.3, 21);
    const fx = queryFeatures('taylor2', x, { rows: 0, cols: 5, data: new Float32Array(0) });
    const fy = keyFeatures('taylor2', y, { rows: 0, cols: 5, data: new Float32Array(0) });
    expect(fx.cols).toBe(31);
    expect(featureDim('taylor2', 0, 5)).toBe(taylor2Dim(5));
    expect(usesProjection('taylor2')).toBe(false);
    for (let i = 0; i < 6; i++) {
      for (let j = 0; j < 6; j++) {
        let t = 0;
        let e = 0;
        for (let c = 0; c < 5; c++) t += x.data[i * 5 + c]! * y.data[j * 5 + c]!;
        for (let f = 0; f < 31; f++) e += fx.data[i * 31 + f]! * fy.data[j * 31 + f]!;
        expect(e).toBeCloseTo(taylor2Curve(t), 5);
      }
    }
  });

  it('1 + t + t²/2 > 0 for every t (so Â is a distribution) and matches eᵗ to third order at 0', () => {
    for (let t = -10; t <= 10; t += 0.01) expect(taylor2Curve(t)).toBeGreaterThanOrEqual(0.5 - 1e-12);
    for (const t of [1e-2, 1e-3]) expect(Math.abs(Math.exp(t) - taylor2Curve(t))).toBeLessThan(t ** 3);
  });

  it('the relative error of A falls towards 0 as the norm scale s → 0 (each halving of s cuts it by > 8×)', () => {
    const errs: number[] = [];
    for (const s of [0.8, 0.4, 0.2, 0.1]) {
      const q = gaussian(32, 8, s, 31);
      const k = gaussian(32, 8, s, 32);
      const inputs = { q, k, v: q, w: { rows: 0, cols: 8, data: new Float32Array(0) } };
      const { qf, kf } = performerFeatures(inputs, 'taylor2');
      errs.push(relativeError(linearAttentionMatrix(qf, kf, false).data, exactAttentionMatrix(q, k, false).data));
    }
    console.info(
      `Taylor-2 relative error of A at s = 0.8, 0.4, 0.2, 0.1: ${errs.map((e) => e.toExponential(2)).join(', ')}`,
    );
    for (let i = 1; i < errs.length; i++) expect(errs[i]!).toBeLessThan(errs[i - 1]! / 8);
    expect(errs[errs.length - 1]!).toBeLessThan(1e-4);
  });

  it('is refused with a typed exceeds-limit error when 1 + d + d² passes the feature limit (d = 64), accepted at d = 44', () => {
    let caught: unknown = null;
    try {
      validateParams({ ...DEFAULT_PARAMS, featureMap: 'taylor2', d: 64 });
    } catch (e) {
      caught = e;
    }
    expect(isEngineError(caught) && caught.code === 'exceeds-limit' && /4161 features/.test(caught.message)).toBe(true);
    expect(() => validateParams({ ...DEFAULT_PARAMS, featureMap: 'taylor2', d: 44 })).not.toThrow();
    expect(() => validateParams({ ...DEFAULT_PARAMS, featureMap: 'positive', d: 64 })).not.toThrow();
  });
});

describe('cosFormer (Qin et al. 2022)', () => {
  /** The quadratic definition: s_ij = relu(x_i)·relu(y_j) cos(π(i − j)/2n), row-normalized over j (≤ i causal). */
  function quadratic(x: Matrix, y: Matrix, causal: boolean): Float64Array {
    const { rows: n, cols: d } = x;
    const a = new Float64Array(n * n);
    for (let i = 0; i < n; i++) {
      let sum = 0;
      for (let j = 0; j < n; j++) {
        if (causal && j > i) continue;
        let s = 0;
        for (let c = 0; c < d; c++) s += Math.max(x.data[i * d + c]!, 0) * Math.max(y.data[j * d + c]!, 0);
        s *= Math.cos((Math.PI * (i - j)) / (2 * n));
        a[i * n + j] = s;
        sum += s;
      }
      for (let j = 0; j < n; j++) a[i * n + j] = sum > 0 ? a[i * n + j]! / sum : 0;
    }
    return a;
  }

  for (const causal of [false, true]) {
    it(`the decomposed linear form (cos·cos + sin·sin features) equals the quadratic definition: Â and the output (${causal ? 'causal' : 'bidirectional'})`, () => {
      const n = 40;
      const d = 6;
      const q = gaussian(n, d, 1, 41);
      const k = gaussian(n, d, 1, 42);
      const v = gaussian(n, d, 1, 43);
      const inputs = { q, k, v, w: { rows: 0, cols: d, data: new Float32Array(0) } };
      const { qf, kf } = performerFeatures(inputs, 'cosformer');
      expect(qf.cols).toBe(2 * d);
      const ref = quadratic(scaleInputs(q), scaleInputs(k), causal);
      const lin = linearAttentionMatrix(qf, kf, causal);
      expect(relativeError(lin.data, ref)).toBeLessThan(1e-5);
      // output: (Â V) from the quadratic definition vs linear attention's prefix / global sums
      const outRef = new Float64Array(n * d);
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++)
          for (let c = 0; c < d; c++) outRef[i * d + c]! += ref[i * n + j]! * v.data[j * d + c]!;
      expect(relativeError(linearAttentionOutput(qf, kf, v, causal).data, outRef)).toBeLessThan(1e-5);
    });
  }

  it('a query subset keeps its positions: the features of rows [3, 17] equal rows 3 and 17 of the full matrix', () => {
    const x = scaleInputs(gaussian(20, 4, 1, 51));
    const full = queryFeatures('cosformer', x, { rows: 0, cols: 4, data: new Float32Array(0) });
    const sub = { rows: 2, cols: 4, data: new Float32Array([...x.data.subarray(12, 16), ...x.data.subarray(68, 72)]) };
    const part = queryFeatures('cosformer', sub, { rows: 0, cols: 4, data: new Float32Array(0) }, 'shift', {
      positions: [3, 17],
      length: 20,
    });
    expect(Array.from(part.data)).toEqual([...full.data.subarray(3 * 8, 4 * 8), ...full.data.subarray(17 * 8, 18 * 8)]);
    expect(cosformerAngle(20, 20)).toBeCloseTo(Math.PI / 2, 12);
  });
});
