import { describe, expect, it } from 'vitest';
import { exactAttentionMatrix } from './exact-attention';
import { EngineError } from './errors';
import { keyFeatures, mapContext, queryFeatures, scaleInputs, usesProjection } from './feature-maps';
import { linearAttention, linearAttentionMatrix, linearAttentionOutput, performerFeatures } from './linear-attention';
import { runAttentionJob } from './cpu-attention';
import { DEFAULT_PARAMS } from './default-params';
import { generateInputs } from './inputs';
import { matmul, matrix, maxAbsDiff, relFrobeniusError } from './matrix';
import { randomProjection } from './projections';
import { createRng } from './rng';
import { FEATURE_MAPS, type AttentionParams, type Matrix } from './types';

function gaussian(rows: number, cols: number, std: number, seed: number): Matrix {
  return matrix(rows, cols, createRng(seed).fillNormal(new Float32Array(rows * cols), std));
}

describe('linearAttentionMatrix', () => {
  it('Â_ij = φ(q_i)·φ(k_j) / Σ_j′ φ(q_i)·φ(k_j′) (hand-checked)', () => {
    const qf = matrix(2, 2, [1, 0, 1, 1]);
    const kf = matrix(2, 2, [1, 2, 3, 1]);
    const a = linearAttentionMatrix(qf, kf, false);
    expect(Array.from(a.data)).toEqual([0.25, 0.75, 3 / 7, 4 / 7].map(Math.fround));
    const c = linearAttentionMatrix(qf, kf, true);
    expect(Array.from(c.data)).toEqual([1, 0, 3 / 7, 4 / 7].map(Math.fround));
  });

  it('rows sum to 1 for every map; causal entries above the diagonal are 0', () => {
    const n = 8;
    const d = 4;
    const x = scaleInputs(gaussian(n, d, 0.5, 1));
    const y = scaleInputs(gaussian(n, d, 0.5, 2));
    const w = randomProjection('orthogonal-chi', 6, d, createRng(3));
    for (const kind of FEATURE_MAPS) {
      const ww = usesProjection(kind) ? w : matrix(0, d);
      for (const causal of [false, true]) {
        const ctx = mapContext(kind, x, y);
        const a = linearAttentionMatrix(
          queryFeatures(kind, x, ww, 'shift', ctx),
          keyFeatures(kind, y, ww, 'shift', ctx),
          causal,
        );
        for (let i = 0; i < n; i++) {
          let s = 0;
          for (let j = 0; j < n; j++) {
            if (causal && j > i) expect(a.data[i * n + j]).toBe(0);
            s += a.data[i * n + j]!;
          }
          // cosFormer's ReLU features can be orthogonal (no coordinate positive in both): such a
          // row's normalizer is exactly 0 and the documented guard makes it all 0
          if (kind === 'cosformer' && s === 0) continue;
          expect(s).toBeCloseTo(1, 4);
        }
      }
    }
  });
});

describe('linearAttentionOutput', () => {
  const n = 29;
  const d = 5;
  const inputs = {
    q: gaussian(n, d, 0.6, 4),
    k: gaussian(n, d, 0.6, 5),
    v: gaussian(n, d, 1, 6),
    w: randomProjection('orthogonal-chi', 12, d, createRng(7)), // m not a multiple of d
  };
  for (const kind of FEATURE_MAPS) {
    for (const causal of [false, true]) {
      it(`${causal ? 'causal prefix sums' : 'bidirectional D⁻¹Q′(K′ᵀV)'} equal dense Â V (${kind})`, () => {
        const ins = usesProjection(kind) ? inputs : { ...inputs, w: matrix(0, d) };
        const { qf, kf } = performerFeatures(ins, kind);
        const dense = matmul(linearAttentionMatrix(qf, kf, causal), ins.v);
        const out = linearAttentionOutput(qf, kf, ins.v, causal);
        expect([out.rows, out.cols]).toEqual([n, d]);
        // trig rows can have small denominators, which amplify f32 rounding of Â
        expect(maxAbsDiff(out, dense)).toBeLessThan(kind === 'trig' ? 1e-3 : 2e-5);
      });
    }
  }

  it('n = 1: the output is v_0 (causal and not)', () => {
    const qf = matrix(1, 1, [0.7]);
    const kf = matrix(1, 1, [0.2]);
    const v = matrix(1, 2, [3, -1]);
    expect(Array.from(linearAttentionOutput(qf, kf, v, true).data)).toEqual([3, -1]);
    expect(Array.from(linearAttentionOutput(qf, kf, v, false).data)).toEqual([3, -1]);
  });

  it('throws shape-mismatch for mismatched feature dims or value rows', () => {
    expect(() => linearAttentionOutput(matrix(2, 3), matrix(2, 4), matrix(2, 1), false)).toThrow(EngineError);
    expect(() => linearAttentionOutput(matrix(2, 3), matrix(2, 3), matrix(3, 1), false)).toThrow(EngineError);
  });
});

describe('performerFeatures approximates exact attention', () => {
  it('positive features with many projections: Â ≈ A at small norms', () => {
    const n = 32;
    const d = 8;
    const q = gaussian(n, d, 0.4, 8);
    const k = gaussian(n, d, 0.4, 9);
    const w = randomProjection('orthogonal-chi', 512, d, createRng(10));
    const { qf, kf } = performerFeatures({ q, k, v: q, w }, 'positive');
    const err = relFrobeniusError(linearAttentionMatrix(qf, kf, false), exactAttentionMatrix(q, k, false));
    expect(err).toBeLessThan(0.05);
  });
});

describe('all-zero normalizer guard', () => {
  // φ(q_0) and φ(k_j) have disjoint supports: every product is 0, so row 0's normalizer is 0.
  const qf = matrix(2, 2, [1, 0, 0.5, 0.5]);
  const kf = matrix(3, 2, [0, 1, 0, 2, 0, 3]);
  const v = matrix(3, 2, [1, 2, 3, 4, 5, 6]);

  it('a row whose normalizer is exactly 0 is 0 in the output and counted, not 0/0', () => {
    const r = linearAttention(qf, kf, v, false);
    expect(r.zeroNormalizerRows).toBe(1);
    expect(Array.from(r.out.data.subarray(0, 2))).toEqual([0, 0]);
    expect(Array.from(r.out.data.subarray(2)).every(Number.isFinite)).toBe(true);
  });

  it('the same row of Â is all 0 (no NaN)', () => {
    const a = linearAttentionMatrix(qf, kf, false);
    expect(Array.from(a.data.subarray(0, 3))).toEqual([0, 0, 0]);
    expect(a.data[3]! + a.data[4]! + a.data[5]!).toBeCloseTo(1, 6);
  });

  it('a row with a nonzero normalizer is not counted', () => {
    expect(linearAttention(matrix(1, 2, [1, 1]), kf, v, true).zeroNormalizerRows).toBe(0);
  });

  it('at extreme norms (d = 256, s = 4) shift features underflow: the job counts the rows and stays finite; ref’s ε keeps them', () => {
    const p: AttentionParams = { ...DEFAULT_PARAMS, n: 8, d: 256, m: 16, input: 'gaussian', scale: 4 };
    const inputs = generateInputs(p);
    const job = { inputs, featureMap: 'positive' as const, causal: false, viewCells: 8, rowStats: true, rows: [0] };
    const shift = runAttentionJob({ ...job, stabilizer: 'shift' });
    expect(shift.zeroNormalizerRows).toBeGreaterThan(0);
    expect(Array.from(shift.approxOut.data).every(Number.isFinite)).toBe(true);
    expect(Array.from(shift.view!.approx).every(Number.isFinite)).toBe(true);
    expect(runAttentionJob({ ...job, stabilizer: 'ref' }).zeroNormalizerRows).toBe(0);
  });
});
