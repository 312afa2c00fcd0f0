import { describe, expect, it } from 'vitest';
import { cpuAnalysisBackend, variantFeatures, type AnalysisBackend } from '../../core/analysis-backend';
import { linearAttention } from '../../core/linear-attention';
import { DEFAULT_PARAMS } from '../../core/default-params';
import { exactAttentionF64, spectrumSteps } from '../../core/spectra';
import { generateInputs } from '../../core/inputs';
import { clearAnalysisMemos } from './input-memo';
import { spectra } from './spectra';
import type { AnalysisContext } from './types';

/** The twins, counting the dense attention they are asked for (and whether with a Â). */
function counting() {
  const asked: string[] = [];
  const backend: AnalysisBackend = {
    ...cpuAnalysisBackend,
    denseAttention(problem, variant) {
      asked.push(variant ? 'A+Â' : 'A');
      return cpuAnalysisBackend.denseAttention(problem, variant);
    },
  };
  const ctx: AnalysisContext = { progress: () => {}, cancelled: () => false, backend };
  return { asked, ctx };
}

describe('spectra: A’s spectrum remembered by what A depends on', () => {
  it('a step of m reuses A’s spectrum (no dense A formed when Â is low-rank) and equals a fresh computation', async () => {
    const p = { ...DEFAULT_PARAMS, n: 96, d: 8, m: 16, seed: 9101 };
    const { asked, ctx } = counting();
    const first = await spectra({ params: p }, ctx);
    expect(asked).toEqual(['A']);
    const stepped = await spectra({ params: { ...p, m: 24 } }, ctx);
    expect(asked).toEqual(['A']); // nothing dense for the stepped m: A known, Â from its low-rank core
    // what a fresh computation gives for the stepped parameters: A's spectrum from scratch
    const { q, k } = generateInputs({ ...p, m: 24 });
    const fresh = spectrumSteps({ rows: p.n, cols: p.n, data: exactAttentionF64(q, k, false) }, p.n);
    let s = fresh.next();
    while (!s.done) s = fresh.next();
    expect(stepped.exact).toEqual(s.value);
    // another seed's A is not reused
    clearAnalysisMemos();
    const { asked: freshAsked, ctx: freshCtx } = counting();
    const other = await spectra({ params: { ...p, seed: p.seed + 1 } }, freshCtx);
    expect(freshAsked).toEqual(['A']);
    expect(other.exact).not.toEqual(first.exact);
    expect(stepped.approx).not.toEqual(first.approx); // Â did change with m
  });

  it('causal: the triangular checks of A come back with the remembered spectrum; a dense Â is still formed', async () => {
    const p = { ...DEFAULT_PARAMS, n: 64, d: 8, m: 8, causal: true, seed: 9202 };
    const { asked, ctx } = counting();
    const first = await spectra({ params: p }, ctx);
    const stepped = await spectra({ params: { ...p, m: 12 } }, ctx);
    expect(asked).toEqual(['A+Â', 'A+Â']);
    expect(stepped.exact).toEqual(first.exact);
    expect(stepped.minDiagExact).toBe(first.minDiagExact);
    expect(stepped.aboveDiagExact).toBe(0);
    expect(stepped.minDiagExact!).toBeGreaterThan(0);
  });

  it('causal and non-causal A are different entries', async () => {
    const p = { ...DEFAULT_PARAMS, n: 48, d: 4, m: 8, seed: 9303 };
    const { ctx } = counting();
    const bi = await spectra({ params: p }, ctx);
    const causal = await spectra({ params: { ...p, causal: true } }, ctx);
    expect(causal.exact).not.toEqual(bi.exact);
    expect(causal.minDiagExact).not.toBeNull();
    expect(bi.minDiagExact).toBeNull();
  });
});

describe('spectra: rows of Â whose normalizer is exactly 0', () => {
  // cosFormer at d = 1: φ(q_i) = relu(q_i)·[cos θ_i | sin θ_i] vanishes for every q_i ≤ 0 (about half the rows)
  it.each([
    ['bidirectional (Â from its low-rank core)', false],
    ['causal (dense Â)', true],
  ])(
    '%s: cosFormer at d = 1 gives a finite spectrum with those rows as zero rows, as many as the main comparison counts',
    async (_, causal) => {
      const p = { ...DEFAULT_PARAMS, n: 64, d: 1, m: 16, featureMap: 'cosformer' as const, causal, seed: 31 };
      const { ctx } = counting();
      const r = await spectra({ params: p }, ctx);
      // the main comparison's rule (linear attention: a normalizer of exactly 0 leaves a zero row, counted)
      const { q, k, v } = generateInputs(p);
      const problem = { q, k, causal };
      const { qf, kf } = variantFeatures(problem, {
        map: 'cosformer',
        w: { rows: 0, cols: 1, data: new Float32Array(0) },
        stabilizer: 'shift',
      });
      const { zeroNormalizerRows } = linearAttention(qf, kf, v, causal);
      expect(zeroNormalizerRows).toBeGreaterThan(10);
      expect(r.zeroNormalizerRows).toBe(zeroNormalizerRows);
      for (const s of [r.exact, r.approx, r.scores]) expect(s.every(Number.isFinite)).toBe(true);
      // zero rows take rank away: at most n − (zero rows) nonzero singular values of Â
      const nonzero = r.approx.filter((s) => s > 1e-12 * r.approx[0]!).length;
      expect(nonzero).toBeLessThanOrEqual(p.n - zeroNormalizerRows);
    },
  );

  it('none at the defaults', async () => {
    const { ctx } = counting();
    const r = await spectra({ params: { ...DEFAULT_PARAMS, n: 64 } }, ctx);
    expect(r.zeroNormalizerRows).toBe(0);
  });
});
