import { describe, expect, it } from 'vitest';
import type { AttentionJob } from './attention-job';
import { runAttentionJob } from './cpu-attention';
import { EngineError } from './errors';
import { exactAttentionMatrix } from './exact-attention';
import { generateInputs } from './inputs';
import { linearAttentionMatrix, performerFeatures } from './linear-attention';
import { matmul, maxAbsDiff, relFrobeniusError } from './matrix';
import { matrixView, rowStatsFromMatrices } from './matrix-view';
import { summarizeRowStats } from './metrics';
import type { AttentionParams, FeatureMapKind } from './types';

const params: AttentionParams = {
  n: 40,
  d: 6,
  m: 15, // not a multiple of d
  seed: 1,
  featureSeed: 2,
  featureMap: 'positive',
  projection: 'orthogonal-chi',
  causal: false,
  input: 'gaussian',
  scale: 0.8,
  stabilizer: 'shift',
};

function jobFor(p: AttentionParams, extra: Partial<AttentionJob> = {}): AttentionJob {
  return {
    inputs: generateInputs(p),
    featureMap: p.featureMap,
    causal: p.causal,
    viewCells: 16,
    rowStats: true,
    rows: [0, 7, p.n - 1],
    ...extra,
  };
}

function closeArrays(a: Float32Array, b: Float32Array, tol: number): void {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i++)
    expect(Math.abs(a[i]! - b[i]!)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(b[i]!)));
}

describe('runAttentionJob matches the dense reference', () => {
  for (const featureMap of ['positive', 'hyperbolic', 'relu', 'elu1', 'double-softmax'] as FeatureMapKind[]) {
    for (const causal of [false, true]) {
      it(`${featureMap}, causal=${causal}`, () => {
        const p = { ...params, featureMap, causal };
        const job = jobFor(p);
        const out = runAttentionJob(job);
        const { q, k, v } = job.inputs;
        const A = exactAttentionMatrix(q, k, causal);
        const { qf, kf } = performerFeatures(job.inputs, featureMap, 'shift', causal);
        const Ahat = linearAttentionMatrix(qf, kf, causal);

        expect(maxAbsDiff(out.exactOut, matmul(A, v))).toBeLessThan(1e-5);
        expect(maxAbsDiff(out.approxOut, matmul(Ahat, v))).toBeLessThan(1e-5);

        // n = 40 > 16 cells: blocks of 3, the last one partial (40 = 13·3 + 1)
        const view = matrixView(A, Ahat, 16);
        expect(out.view).not.toBeNull();
        expect([out.view!.cells, out.view!.block]).toEqual([14, 3]);
        closeArrays(out.view!.exact, view.exact, 1e-6);
        closeArrays(out.view!.approx, view.approx, 1e-6);
        closeArrays(out.view!.absDiff, view.absDiff, 1e-6);

        const stats = rowStatsFromMatrices(A, Ahat, causal);
        for (const key of ['exactEntropy', 'approxEntropy', 'sqErr', 'exactSq', 'kl'] as const) {
          closeArrays(out.rowStats![key], stats[key], 1e-5);
        }
        expect(summarizeRowStats(out.rowStats!, causal).relErrorA).toBeCloseTo(relFrobeniusError(Ahat, A), 5);

        expect(out.rows.map((r) => r.index)).toEqual([0, 7, 39]);
        for (const r of out.rows) {
          closeArrays(r.exact, A.data.subarray(r.index * 40, (r.index + 1) * 40), 1e-6);
          closeArrays(r.approx, Ahat.data.subarray(r.index * 40, (r.index + 1) * 40), 1e-6);
        }
      });
    }
  }
});

describe('runAttentionJob bookkeeping', () => {
  it('reports wall-clock timings per kernel and the bytes it allocated', () => {
    const out = runAttentionJob(jobFor(params));
    expect(out.timings.map((t) => t.kernel)).toEqual([
      'feature-maps',
      'exact-attention',
      'linear-attention',
      'view-and-row-stats',
      'attention-rows',
    ]);
    for (const t of out.timings) {
      expect(t.source).toBe('wall');
      expect(t.ms).toBeGreaterThanOrEqual(0);
    }
    // at least the two n×d outputs and the two n×m' feature matrices
    expect(out.bytesAllocated).toBeGreaterThanOrEqual(2 * 40 * 6 * 4 + 2 * 40 * 15 * 4);
  });

  it('skips the view, row statistics and rows when not requested', () => {
    const out = runAttentionJob(jobFor(params, { viewCells: 0, rowStats: false, rows: [] }));
    expect(out.view).toBeNull();
    expect(out.rowStats).toBeNull();
    expect(out.rows).toEqual([]);
    expect(out.timings.map((t) => t.kernel)).toEqual(['feature-maps', 'exact-attention', 'linear-attention']);
  });

  it('n = 1, d = 1, m = 1: both outputs are v_0 and the 1×1 view is [1]', () => {
    const job = jobFor({ ...params, n: 1, d: 1, m: 1 }, { rows: [0] });
    const out = runAttentionJob(job);
    // one key: both attentions put weight 1 on it, so both outputs are exactly v_0
    const v0 = job.inputs.v.data[0]!;
    expect(v0).not.toBe(0);
    expect(out.exactOut.data[0]).toBeCloseTo(v0, 6);
    expect(out.approxOut.data[0]).toBeCloseTo(v0, 6);
    expect(Array.from(out.view!.exact)).toEqual([1]);
    expect(out.rowStats!.exactEntropy[0]).toBe(0);
  });

  it('validates the job (typed EngineErrors)', () => {
    const job = jobFor(params);
    job.inputs.k.data[3] = NaN;
    expect(() => runAttentionJob(job)).toThrow(EngineError);
    try {
      runAttentionJob(job);
    } catch (e) {
      expect((e as EngineError).code).toBe('non-finite-input');
    }
  });

  it("reports 'non-finite-result' when trig features overflow at large norms", () => {
    const job = jobFor({ ...params, featureMap: 'trig', scale: 20 });
    try {
      runAttentionJob(job);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(EngineError);
      expect((e as EngineError).code).toBe('non-finite-result');
    }
  });
});

/**
 * Reproduces rows of the "What the numbers look like" table in ARCHITECTURE.md ("Facts the code relies on"; independent
 * float64 reference; n = 256, Q, K ~ N(0, s²), positive features, 4 draws averaged). Bands are
 * generous: each draw's error fluctuates by ~20%.
 */
describe('the reference numbers of ARCHITECTURE.md', () => {
  function averaged(s: number, m: number, projection: AttentionParams['projection']) {
    let err = 0;
    let ent = 0;
    const draws = 4;
    for (let t = 0; t < draws; t++) {
      const p: AttentionParams = {
        ...params,
        n: 256,
        d: 16,
        m,
        scale: s,
        projection,
        seed: 10 + t,
        featureSeed: 20 + t,
      };
      const out = runAttentionJob(jobFor(p, { viewCells: 0, rows: [] }));
      const sum = summarizeRowStats(out.rowStats!, false);
      err += sum.relErrorA;
      ent += sum.meanNormEntropyExact;
    }
    return { err: err / draws, ent: ent / draws };
  }

  it('s = 0.5, d = 16, m = 256, orthogonal: error ≈ 0.145, exact entropy/log n ≈ 0.994', () => {
    const { err, ent } = averaged(0.5, 256, 'orthogonal-chi');
    expect(err).toBeGreaterThan(0.09);
    expect(err).toBeLessThan(0.22);
    expect(ent).toBeGreaterThan(0.985);
    expect(ent).toBeLessThan(0.998);
  });

  it('s = 0.25, d = 16, m = 256: error ≈ 0.035 and attention is uniform (entropy/log n ≈ 1.000)', () => {
    const { err, ent } = averaged(0.25, 256, 'orthogonal-chi');
    expect(err).toBeGreaterThan(0.02);
    expect(err).toBeLessThan(0.055);
    expect(ent).toBeGreaterThan(0.999);
  });
});
