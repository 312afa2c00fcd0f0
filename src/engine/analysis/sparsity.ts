/** The sparsity panel's analyses: row entropies and top-k mass, entropy vs n, Su's local truncation. */
import { fittedMapW } from '../hedgehog-op';
import { EngineError } from '../../core/errors';
import { localWindow } from '../../core/inputs';
import { truncationCurveOf, windowGrid } from '../../core/local-window';
import { evenRows, firstRows, mean, powersOfTwo } from '../../core/sweeps';
import {
  normalizedEntropies,
  type FeatureVariant,
  type VariantRowStats,
  type WindowVariant,
} from '../../core/analysis-backend';
import { LIMITS } from '../../core/limits';
import { externalInputs, readExternal } from '../external-inputs';
import { memoProjection, memoQK } from './input-memo';
import { pipelinedSweep, startRowStats } from './pipeline';
import {
  DENSE_ANALYSIS_MAX_N,
  step,
  readParams,
  clampInt,
  cleanGrid,
  uploadedGrid,
  prepared,
  preparedQK,
  backendOf,
  problemOf,
} from './helpers';
import type {
  AnalysisContext,
  RowEntropiesPayload,
  RowEntropiesResult,
  EntropyVsNPayload,
  EntropyVsNResult,
  LocalTruncationPayload,
  LocalTruncationResult,
} from './types';

export async function rowEntropies(payload: RowEntropiesPayload, ctx: AnalysisContext): Promise<RowEntropiesResult> {
  const p = readParams(payload);
  const maxRows = clampInt(payload.maxRows, 8, 1024, p.n > 4096 ? 64 : 256);
  const rows = evenRows(p.n, maxRows);
  // Q, K and W: no V (the statistics do not read it; drawing it was most of this op's host time on the GPU)
  const { inputs } = preparedQK(p, p.n, readExternal(payload));
  const w = memoProjection(p);
  // one batch: the experiment's map and 1 + elu, their entropies and top-k masses per row (on the GPU
  // backend reduced there: the rows never reach the host)
  const b = await backendOf(ctx).rowStats(
    problemOf(inputs, rows, p.causal),
    [
      { map: p.featureMap, w: fittedMapW(payload, p, w), stabilizer: p.stabilizer },
      { map: 'elu1', w, stabilizer: p.stabilizer },
    ],
    { entropy: true, topMass: true },
  );
  await step(ctx, 1, 3, 'exact');
  const [performer, elu] = b.variants as [VariantRowStats, VariantRowStats];
  await step(ctx, 2, 3, p.featureMap);
  const ks = powersOfTwo(1, p.n);
  // the mean over rows of each k's mass (levels: ks.length per row)
  const topK = (mass: Float64Array) => ks.map((_, l) => mean(rows.map((_, t) => mass[t * ks.length + l]!)));
  const h = (e: Float64Array) => normalizedEntropies(e, rows, p.causal, p.n);
  const result: RowEntropiesResult = {
    n: p.n,
    map: p.featureMap,
    rows,
    exact: h(b.exactEntropy),
    performer: h(performer.entropy!),
    elu1: h(elu.entropy!),
    topK: { k: ks, exact: topK(b.exactTopMass!), performer: topK(performer.topMass!), elu1: topK(elu.topMass!) },
  };
  await step(ctx, 3, 3, '1+elu');
  return result;
}

export async function entropyVsN(payload: EntropyVsNPayload, ctx: AnalysisContext): Promise<EntropyVsNResult> {
  const p = readParams(payload);
  const ext = readExternal(payload);
  // uploaded inputs: prefixes of the uploaded sequence, up to its length
  const grid = cleanGrid(payload.nGrid, 2, LIMITS.nMax, powersOfTwo(16, 16_384));
  const nGrid = ext ? uploadedGrid(grid, p.n) : grid;
  const rowCount = clampInt(payload.rows, 4, 256, 32);
  // Gaussian inputs: one draw at the largest n, shorter sequences its prefixes (the same tokens, fewer
  // of them); structured inputs depend on n (e.g. the local band ∝ √n), so those are drawn per n
  const nMax = nGrid.at(-1)!;
  const big = ext || p.input !== 'gaussian' ? null : memoQK(p, nMax);
  const w = memoProjection(p);
  const variants: FeatureVariant[] = [
    { map: p.featureMap, w: fittedMapW(payload, p, w), stabilizer: p.stabilizer },
    { map: 'elu1', w, stabilizer: p.stabilizer },
  ];
  const out: EntropyVsNResult = { nGrid, rows: rowCount, map: p.featureMap, exact: [], performer: [], elu1: [] };
  // the next n's inputs are drawn while the GPU runs one (pipeline.ts)
  await pipelinedSweep(
    nGrid.length,
    (t) => {
      const n = nGrid[t]!;
      const inputs = ext
        ? externalInputs({ ...p, n }, ext, n)
        : big
          ? { q: firstRows(big.q, n), k: firstRows(big.k, n) }
          : memoQK(p, n);
      const rows = evenRows(n, rowCount);
      return { n, rows, problem: problemOf(inputs, rows, p.causal) };
    },
    (pt) => startRowStats(ctx, pt.problem, variants, { entropy: true }),
    async (b, { n, rows }, t) => {
      const h = (e: Float64Array) => mean(normalizedEntropies(e, rows, p.causal, n));
      out.exact.push(h(b.exactEntropy));
      out.performer.push(h(b.variants[0]!.entropy!));
      out.elu1.push(h(b.variants[1]!.entropy!));
      await step(ctx, t + 1, nGrid.length, `n = ${n}`);
    },
  );
  return out;
}

export async function localTruncation(
  payload: LocalTruncationPayload,
  ctx: AnalysisContext,
): Promise<LocalTruncationResult> {
  const p = readParams(payload);
  const nMax = clampInt(payload.nMax, 16, 2048, DENSE_ANALYSIS_MAX_N);
  if (p.n > nMax)
    throw new EngineError('exceeds-limit', `local truncation needs the dense n×n matrices: n ≤ ${nMax}`, {
      n: p.n,
      limit: nMax,
    });
  const ext = readExternal(payload);
  const { inputs } = prepared(p, p.n, ext);
  const windows = windowGrid(p.n, p.causal);
  // one batch: the experiment's map (with the output error through V) and 1 + elu (Su's case: the
  // figure draws only its matrix error, so its output terms are not computed)
  const variants: WindowVariant[] = [
    { map: p.featureMap, w: fittedMapW(payload, p, inputs.w), stabilizer: p.stabilizer },
  ];
  if (p.featureMap !== 'elu1') variants.push({ map: 'elu1', w: inputs.w, stabilizer: 'shift', output: false });
  await step(ctx, 0, 2, 'A, Â');
  const stats = await backendOf(ctx).windowStats(
    { q: inputs.q, k: inputs.k, v: inputs.v, causal: p.causal },
    variants,
    windows,
  );
  await step(ctx, 1, 2, 'windows');
  const curve = truncationCurveOf(stats[0]!, true);
  const errorElu1 = (stats[1] ? truncationCurveOf(stats[1], false) : curve).map((c) => c.errorApprox);
  await step(ctx, 2, 2, 'done');
  return {
    errorElu1,
    n: p.n,
    map: p.featureMap,
    windows,
    errorApprox: curve.map((c) => c.errorApprox),
    errorExact: curve.map((c) => c.errorExact),
    errorOut: curve.map((c) => c.errorOutApprox ?? NaN),
    degenerateRows: curve.map((c) => c.degenerateRows),
    fullErrorOut: curve.at(-1)?.errorOutApprox ?? NaN,
    inputBand: localWindow(p.n),
  };
}
