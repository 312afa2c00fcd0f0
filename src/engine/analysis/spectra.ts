/**
 * Singular value spectra of A, Â and the score matrix (the rank panel). The dense matrices come from
 * the analysis backend (ctx.backend: the CPU twins in f64, or the GPU kernels in f32 — singular
 * values then agree within ≈ 1e-6·σ₁, e2e/analysis-kernels.spec.mjs); the SVD runs here, in f64.
 */
import { fittedMapW } from '../hedgehog-op';
import { EngineError } from '../../core/errors';
import { featureDim, scaleInputs } from '../../core/feature-maps';
import { variantFeatures } from '../../core/analysis-backend';
import {
  lowRankProductCore,
  normalizedQueryFeatures,
  spectrumSteps,
  zeroNormalizerRowsToZero,
  type SpectrumMatrix,
} from '../../core/spectra';
import { externalInputs, readExternal } from '../external-inputs';
import { DENSE_ANALYSIS_MAX_N, backendOf, step, readParams, clampInt } from './helpers';
import { ByteLru, memoProjection, memoQK, registerAnalysisMemo } from './input-memo';
import { matrixFingerprint } from './theory-memo';
import type { AnalysisContext, SpectraPayload, SpectraResult } from './types';

function minDiag(a: ArrayLike<number>, n: number): number {
  let mn = Infinity;
  for (let i = 0; i < n; i++) mn = Math.min(mn, a[i * n + i]!);
  return mn;
}

function maxAboveDiag(a: ArrayLike<number>, n: number): number {
  let mx = 0;
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) mx = Math.max(mx, Math.abs(a[i * n + j]!));
  return mx;
}

/** A's spectrum and, causal, its diagonal checks. */
interface ExactSpectrum {
  spectrum: Float64Array;
  minDiag: number | null;
  aboveDiag: number | null;
}

/**
 * A's spectrum by what A depends on: Q, K (by content, theory-memo.ts's fingerprints), causality and the
 * backend that formed A (the GPU's f32 A and the twins' f64 one differ in the last digits) — not m, W,
 * the map or the stabilizer. A step of m re-ran the n×n SVD of an unchanged A: at the defaults ~45 ms
 * of the op's ~80, on either backend. Most recently used spectra within 4 MiB per worker.
 */
const exactSpectra = new ByteLru<ExactSpectrum>(4 * 2 ** 20, (e) => e.spectrum.byteLength + 64);
registerAnalysisMemo(() => exactSpectra.clear());

export async function spectra(payload: SpectraPayload, ctx: AnalysisContext): Promise<SpectraResult> {
  const p = readParams(payload);
  const nMax = clampInt(payload.nMax, 16, 2048, DENSE_ANALYSIS_MAX_N);
  if (p.n > nMax)
    throw new EngineError('exceeds-limit', `spectra need an n×n SVD: n ≤ ${nMax}`, { n: p.n, limit: nMax });
  const n = p.n;
  const ext = readExternal(payload);
  const drawn = ext ? null : memoQK(p, n);
  const inputs = drawn ? { q: drawn.q, k: drawn.k, w: memoProjection(p) } : externalInputs(p, ext!);
  const x = drawn?.x ?? scaleInputs(inputs.q);
  const y = drawn?.y ?? scaleInputs(inputs.k);
  const variant = { map: p.featureMap, w: fittedMapW(payload, p, inputs.w), stabilizer: p.stabilizer };
  const mPrime = featureDim(p.featureMap, p.m, p.d);
  const problem = { q: inputs.q, k: inputs.k, causal: p.causal };
  // Â is dense when causal (triangular) or when m′ ≥ n; else its p×p core (QR of the n×m′ factors, O(n·m′²))
  const denseApprox = p.causal || mPrime >= n;
  // the O(n²·(d + m′)) part: on the GPU where the backend has one, A and Â in f32 (the SVD stays here, in f64).
  // Asked first, so that the GPU forms it while the host forms the low-rank cores and their spectra (the
  // twins compute it inside the call, so there the order changes nothing)
  const exactKey = `${backendOf(ctx).kind}|${p.causal ? 1 : 0}|${matrixFingerprint(inputs.q)}|${matrixFingerprint(inputs.k)}`;
  const known = exactSpectra.get(exactKey);
  // A's spectrum known and Â low-rank: nothing dense to form
  const pending =
    !known || denseApprox ? backendOf(ctx).denseAttention(problem, denseApprox ? variant : undefined) : null;
  pending?.catch(() => undefined); // a failure is thrown by the await below, not reported unhandled
  let approxCore: SpectrumMatrix | null = null;
  // rows of Â whose normalizer is exactly 0 (cosFormer's ReLU at small d, underflow at extreme norms):
  // zero rows, as the main comparison shows them, and counted — not a non-finite Â
  let zeroNormalizerRows = 0;
  if (!denseApprox) {
    const { qf, kf } = variantFeatures(problem, variant);
    const normalized = normalizedQueryFeatures(qf, kf, 'zero');
    zeroNormalizerRows = normalized.zeroNormalizerRows;
    approxCore = lowRankProductCore(normalized, kf);
  }
  const scoresM = lowRankProductCore(x, y);
  const side = (m: SpectrumMatrix) => Math.min(m.rows, m.cols);
  const total = (known ? 0 : n + 1) + (approxCore ? side(approxCore) : n) + 1 + side(scoresM) + 1;
  let done = 0;
  const svd = async (label: string, m: SpectrumMatrix): Promise<Float64Array> => {
    for (const v of m.data as ArrayLike<number> as Float64Array | Float32Array) {
      if (!Number.isFinite(v))
        throw new EngineError('non-finite-result', `${label} has non-finite entries (feature map ${p.featureMap})`);
    }
    const it = spectrumSteps(m, n);
    let s = it.next();
    let sinceBreath = 0;
    while (!s.done) {
      done++;
      // report every few Householder steps; each is O(n²)
      if (++sinceBreath >= 8) {
        sinceBreath = 0;
        await step(ctx, done, total, label);
      }
      s = it.next();
    }
    done++;
    return s.value;
  };
  // the host's own matrices first (the cores of QKᵀ and of a low-rank Â), while the GPU forms A
  const scores = await svd('QKᵀ', scoresM);
  const approxOfCore = approxCore ? await svd('Â', approxCore) : null;
  const dense = pending ? await pending : null;
  let exact = known;
  if (!exact) {
    const a = dense!.exact;
    exact = {
      spectrum: await svd('A', { rows: n, cols: n, data: a }),
      minDiag: p.causal ? minDiag(a, n) : null,
      aboveDiag: p.causal ? maxAboveDiag(a, n) : null,
    };
    exactSpectra.set(exactKey, exact);
  }
  if (!approxCore) zeroNormalizerRows = zeroNormalizerRowsToZero(dense!.approx!, n);
  const approxM: SpectrumMatrix = approxCore ?? { rows: n, cols: n, data: dense!.approx! };
  const approx = approxOfCore ?? (await svd('Â', approxM));
  await step(ctx, total, total, 'done');
  return {
    n,
    d: p.d,
    m: p.m,
    mPrime,
    map: p.featureMap,
    causal: p.causal,
    exact: exact.spectrum.slice(),
    approx,
    scores,
    minDiagExact: exact.minDiag,
    minDiagApprox: p.causal ? minDiag(approxM.data, n) : null,
    aboveDiagExact: exact.aboveDiag,
    aboveDiagApprox: p.causal ? maxAboveDiag(approxM.data, n) : null,
    zeroNormalizerRows,
  };
}
