import { describe, expect, it } from 'vitest';
import { cpuAnalysisBackend, type AnalysisBackend } from '../../core/analysis-backend';
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
