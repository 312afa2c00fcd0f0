/**
 * Singular value spectra of A, Â and the score matrix (the rank panel). The dense matrices come from
 * the analysis backend (ctx.backend: the CPU twins in f64, or the GPU kernels in f32 — singular
 * values then agree within ≈ 1e-6·σ₁, e2e/analysis-kernels.spec.mjs); the SVD runs here, in f64.
 */
import { fittedMapW } from '../hedgehog-op';
import { EngineError } from '../../core/errors';
import { featureDim, scaleInputs } from '../../core/feature-maps';
import { generateInputs } from '../../core/inputs';
import { variantFeatures } from '../../core/analysis-backend';
import { lowRankProductCore, normalizedQueryFeatures, spectrumSteps, type SpectrumMatrix } from '../../core/spectra';
import { externalInputs, readExternal } from '../external-inputs';
import { DENSE_ANALYSIS_MAX_N, backendOf, step, readParams, clampInt } from './helpers';
import type { AnalysisContext, SpectraPayload, SpectraResult } from './types';

export async function spectra(payload: SpectraPayload, ctx: AnalysisContext): Promise<SpectraResult> {
  const p = readParams(payload);
  const nMax = clampInt(payload.nMax, 16, 2048, DENSE_ANALYSIS_MAX_N);
  if (p.n > nMax)
    throw new EngineError('exceeds-limit', `spectra need an n×n SVD: n ≤ ${nMax}`, { n: p.n, limit: nMax });
  const n = p.n;
  const ext = readExternal(payload);
  const inputs = ext ? externalInputs(p, ext) : generateInputs(p);
  const x = scaleInputs(inputs.q);
  const y = scaleInputs(inputs.k);
  const variant = { map: p.featureMap, w: fittedMapW(payload, p, inputs.w), stabilizer: p.stabilizer };
  const mPrime = featureDim(p.featureMap, p.m, p.d);
  const problem = { q: inputs.q, k: inputs.k, causal: p.causal };
  // Â is dense when causal (triangular) or when m′ ≥ n; else its p×p core (QR of the n×m′ factors, O(n·m′²))
  const denseApprox = p.causal || mPrime >= n;
  // the O(n²·(d + m′)) part: on the GPU where the backend has one, A and Â in f32 (the SVD stays here, in f64).
  // Asked first, so that the GPU forms it while the host forms the low-rank cores (the twins compute it
  // inside the call, so there the order changes nothing)
  const pending = backendOf(ctx).denseAttention(problem, denseApprox ? variant : undefined);
  pending.catch(() => undefined); // a failure is thrown by the await below, not reported unhandled
  let approxCore: SpectrumMatrix | null = null;
  if (!denseApprox) {
    const { qf, kf } = variantFeatures(problem, variant);
    approxCore = lowRankProductCore(normalizedQueryFeatures(qf, kf), kf);
  }
  const scoresM = lowRankProductCore(x, y);
  const dense = await pending;
  await step(ctx, 0, 1, 'A');
  const exactDense = dense.exact;
  const exactM: SpectrumMatrix = { rows: n, cols: n, data: exactDense };
  const approxM: SpectrumMatrix = approxCore ?? { rows: n, cols: n, data: dense.approx! };
  const jobs: [string, SpectrumMatrix][] = [
    ['A', exactM],
    ['Â', approxM],
    ['QKᵀ', scoresM],
  ];
  const total = jobs.reduce((s, [, m]) => s + Math.min(m.rows, m.cols) + 1, 0);
  let done = 0;
  const out: Float64Array[] = [];
  for (const [label, m] of jobs) {
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
    out.push(s.value);
  }
  const minDiag = (a: ArrayLike<number>) => {
    let mn = Infinity;
    for (let i = 0; i < n; i++) mn = Math.min(mn, a[i * n + i]!);
    return mn;
  };
  const maxAboveDiag = (a: ArrayLike<number>) => {
    let mx = 0;
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) mx = Math.max(mx, Math.abs(a[i * n + j]!));
    return mx;
  };
  await step(ctx, total, total, 'done');
  return {
    n,
    d: p.d,
    m: p.m,
    mPrime,
    map: p.featureMap,
    causal: p.causal,
    exact: out[0]!,
    approx: out[1]!,
    scores: out[2]!,
    minDiagExact: p.causal ? minDiag(exactDense) : null,
    minDiagApprox: p.causal ? minDiag(approxM.data) : null,
    aboveDiagExact: p.causal ? maxAboveDiag(exactDense) : null,
    aboveDiagApprox: p.causal ? maxAboveDiag(approxM.data) : null,
  };
}
