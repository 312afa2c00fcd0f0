/** What every analysis op shares: cancellation and progress, payload clamping, inputs and W as the engine draws them. */
import { EngineError } from '../../core/errors';
import { keyFeatures, mapContext, queryFeatures, scaleInputs } from '../../core/feature-maps';
import { memoProjection, memoQK, memoValues } from './input-memo';
import { approxRowsOf, spread, subRows, type EstimatorKind } from '../../core/sweeps';
import { cpuAnalysisBackend, type AnalysisBackend, type RowProblem } from '../../core/analysis-backend';
import { SWEEP_MAPS } from '../../core/estimators';
import {
  type AttentionInputs,
  type AttentionParams,
  type FeatureMapKind,
  type Matrix,
  type ProjectionKind,
  type Stabilizer,
} from '../../core/types';
import { validateParams } from '../../core/validate';
import { externalInputs, externalRms, rescaledInputs, type ExternalInputs } from '../external-inputs';
import type { AnalysisContext, SpreadSeries } from './types';

/** The maps of the error panel's sweeps (MAP_INFO[map].sweeps). */
export const ESTIMATORS: readonly FeatureMapKind[] = SWEEP_MAPS;

/** The maps with a closed-form error prediction (Lemma 2 through the row normalization). */
export function hasTheory(map: FeatureMapKind): map is EstimatorKind {
  return map === 'positive' || map === 'hyperbolic' || map === 'trig';
}

export function cancelledError(): EngineError {
  return new EngineError('cancelled', 'analysis cancelled');
}

/** Checks for cancellation, reports progress and lets the worker breathe. */
export async function step(ctx: AnalysisContext, done: number, total: number, label?: string): Promise<void> {
  if (ctx.cancelled()) throw cancelledError();
  ctx.progress(done, total, label);
  if (ctx.breathe) await ctx.breathe();
  if (ctx.cancelled()) throw cancelledError();
}

export function readParams(payload: unknown): AttentionParams {
  const p = (payload as { params?: AttentionParams } | null)?.params;
  if (!p) throw new EngineError('invalid-size', 'analysis payload has no params');
  validateParams(p);
  return p;
}

export function clampInt(v: unknown, lo: number, hi: number, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.max(lo, Math.min(hi, Math.round(v))) : fallback;
}

export { cleanGrid } from './grids';

/** The n grid cut to an uploaded sequence of length n (which it always ends with). */
export function uploadedGrid(grid: number[], n: number): number[] {
  const g = grid.filter((x) => x < n);
  return [...g, n];
}

/** W for (m, projection, featureSeed) exactly as the engine draws it (generateInputs' seed contract; remembered: input-memo.ts). */
export function projectionFor(p: AttentionParams, m: number, projection: ProjectionKind, featureSeed: number): Matrix {
  return memoProjection({ ...p, m, projection, featureSeed, featureMap: 'positive' });
}

export function featureSeedAt(p: AttentionParams, s: number): number {
  return (p.featureSeed + s) % 4_294_967_296;
}

/** Inputs truncated to their first nUse positions, scaled for the feature maps. */
export function prepared(
  p: AttentionParams,
  nUse: number,
  ext: ExternalInputs | null = null,
): { inputs: AttentionInputs; x: Matrix; y: Matrix } {
  if (ext) return withScaled(externalInputs(p, ext, nUse));
  const { q, k, x, y } = memoQK(p, nUse);
  return { inputs: { q, k, v: memoValues(p, nUse), w: memoProjection(p) }, x, y };
}

/** Q and K alone (what the row statistics take), truncated to their first nUse positions, and x, y. */
export function preparedQK(
  p: AttentionParams,
  nUse: number,
  ext: ExternalInputs | null = null,
): { inputs: QK; x: Matrix; y: Matrix } {
  if (ext) {
    const { q, k } = externalInputs(p, ext, nUse);
    return { inputs: { q, k }, x: scaleInputs(q), y: scaleInputs(k) };
  }
  const { q, k, x, y } = memoQK(p, nUse);
  return { inputs: { q, k }, x, y };
}

/** What a row problem is drawn from. */
export interface QK {
  q: Matrix;
  k: Matrix;
}

export function withScaled(inputs: AttentionInputs): { inputs: AttentionInputs; x: Matrix; y: Matrix } {
  return { inputs, x: scaleInputs(inputs.q), y: scaleInputs(inputs.k) };
}

export function approxRowsFor(
  kind: FeatureMapKind,
  x: Matrix,
  y: Matrix,
  w: Matrix,
  rows: number[],
  causal: boolean,
  stab: Stabilizer,
): Float32Array[] {
  const mc = mapContext(kind, x, y, causal); // full-sequence statistics (causal: the causal variants); the query subset keeps its positions
  return approxRowsOf(
    queryFeatures(kind, subRows(x, rows), w, stab, { ...mc, positions: rows }),
    keyFeatures(kind, y, w, stab, mc),
    rows,
    causal,
  );
}

export function pushSpread(target: SpreadSeries, values: number[]): void {
  const s = spread(values);
  target.mean.push(s.mean);
  target.lo.push(s.lo);
  target.hi.push(s.hi);
  target.std.push(s.std);
}

export const emptySpread = (): SpreadSeries => ({ mean: [], lo: [], hi: [], std: [] });

export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (!sorted.length) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** Dense n×n analyses (local truncation, spectra) are offered up to this n. */
export const DENSE_ANALYSIS_MAX_N = 1_024;

/**
 * The first n positions at norm scale `scale`: regenerated at that scale, or — for uploaded Q, K —
 * the upload rescaled so that its entries' RMS is `scale`.
 */
export function preparedAtScale(
  p: AttentionParams,
  n: number,
  ext: ExternalInputs | null,
  scale: number,
): { inputs: QK; x: Matrix; y: Matrix } {
  if (!ext) return preparedQK({ ...p, scale }, n);
  return withScaled(rescaledInputs(externalInputs(p, ext, n), scale / (externalRms(ext) || 1)));
}

/** The backend the op's row statistics run on. */
export function backendOf(ctx: AnalysisContext): AnalysisBackend {
  return ctx.backend ?? cpuAnalysisBackend;
}

export function problemOf(inputs: QK, rows: readonly number[], causal: boolean): RowProblem {
  return { q: inputs.q, k: inputs.k, rows, causal };
}
