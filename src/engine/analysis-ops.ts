/**
 * The panels' heavy analyses, run by src/engine/analysis-worker.ts off the main thread (and away
 * from the live compute). Every op takes a structured-cloneable payload carrying the experiment's
 * `params` (inputs are regenerated here from the seeds, so nothing big crosses postMessage — unless
 * the user uploaded Q and K: then the payload's `external` carries them, see external-inputs.ts), checks
 * `ctx.cancelled()` between steps (throwing EngineError 'cancelled'), reports progress, and returns
 * plain objects and typed arrays.
 *
 * Costs are bounded by the payload's budgets (rows sampled, keys used, seeds), which the ops clamp;
 * each result states the sizes it actually used so the panels can say so.
 */
import { EngineError } from '../core/errors';
import { featureDim, keyFeatures, mapContext, queryFeatures, scaleInputs } from '../core/feature-maps';
import { generateInputs, localWindow } from '../core/inputs';
import { exactAttentionMatrix } from '../core/exact-attention';
import { linearAttentionMatrix, performerFeatures } from '../core/linear-attention';
import { localTruncationCurve, windowGrid } from '../core/local-window';
import { klDivergence, relativeError, rowEntropy, normalizedEntropy } from '../core/metrics';
import {
  causalLinearAttentionF64,
  exactAttentionF64,
  lowRankProductCore,
  normalizedQueryFeatures,
  spectrumSteps,
  type SpectrumMatrix,
} from '../core/spectra';
import {
  approxRowsOf,
  estimatorTheory,
  evenRows,
  exactRowsOf,
  firstRows,
  mean,
  normEntropies,
  powersOfTwo,
  predictedRelError,
  relErrorOverRows,
  spread,
  subRows,
  topMassCurve,
  type EstimatorKind,
} from '../core/sweeps';
import { FEATURE_MAPS, STABILIZERS, type AttentionInputs, type AttentionParams, type FeatureMapKind, type Matrix, type ProjectionKind, type Stabilizer } from '../core/types';
import { validateParams } from '../core/validate';
import { LIMITS } from '../core/limits';
import { oprfParameter, oprfRho } from '../core/feature-maps-beyond';
import { externalInputs, externalRms, readExternal, rescaledInputs, type ExternalInputs } from './external-inputs';
import { fittedMapW, hedgehogFit } from './hedgehog-op';

export interface AnalysisContext {
  progress(done: number, total: number, label?: string, detail?: unknown): void;
  cancelled(): boolean;
  /** yields to the worker's event loop (so cancel messages arrive); optional outside a worker */
  breathe?(): Promise<void>;
}

export type AnalysisOp = (payload: any, ctx: AnalysisContext) => unknown | Promise<unknown>; // eslint-disable-line @typescript-eslint/no-explicit-any

// ---------------------------------------------------------------------------------------------
// payloads and results (the store re-exports these for the panels)

/** Sizes every sweep may be given; all optional, all clamped. */
export interface SweepBudget {
  /** query rows sampled (evenly spaced) */
  rows?: number;
  /** keys used: the sweep runs on the first min(n, nCap) positions */
  nCap?: number;
  /** feature seeds (featureSeed, featureSeed + 1, …) */
  seeds?: number;
}

export interface ErrorVsMPayload extends SweepBudget {
  params: AttentionParams;
  mGrid?: number[];
}
export interface SpreadSeries {
  mean: number[];
  lo: number[];
  hi: number[];
  std: number[];
}
export interface ErrorVsMResult {
  mGrid: number[];
  n: number;
  rows: number;
  seeds: number;
  series: (SpreadSeries & { map: EstimatorKind; projection: ProjectionKind })[];
  /** Lemma 2 second moments through the row normalization (iid features), per map */
  theory: { map: EstimatorKind; values: number[] }[];
}

export interface NormSweepPayload extends SweepBudget {
  params: AttentionParams;
  scales?: number[];
}
export interface NormSweepResult {
  scales: number[];
  n: number;
  rows: number;
  seeds: number;
  m: number;
  projection: ProjectionKind;
  error: (SpreadSeries & { map: EstimatorKind })[];
  theory: { map: EstimatorKind; values: number[] }[];
  entropyExact: number[];
  /** mean normalized entropy of Â with positive features (the experiment's stabilizer) */
  entropyPerformer: number[];
  /**
   * Positive features under each stabilizer (mean over seeds): the estimator itself ('shift') and
   * the reference implementation's ε = 1e-6 ('ref'), which flattens Â at large s.
   */
  stabilizers: { stabilizer: Stabilizer; entropy: number[]; error: number[] }[];
}

export interface ErrorVsDPayload extends SweepBudget {
  params: AttentionParams;
  dGrid?: number[];
}
export interface ErrorVsDResult extends SpreadSeries {
  dGrid: number[];
  n: number;
  rows: number;
  seeds: number;
  theory: number[];
}

export interface EntryErrorsPayload extends SweepBudget {
  params: AttentionParams;
  bins?: number;
}
export interface BinnedErrors {
  median: number[];
  q10: number[];
  q90: number[];
  count: number[];
}
export interface EntryErrorsResult {
  /** bin centres (geometric) of the exact entry A_ij */
  centers: number[];
  edges: number[];
  n: number;
  rows: number;
  positive: BinnedErrors;
  trig: BinnedErrors;
}

export interface RowEntropiesPayload {
  params: AttentionParams;
  maxRows?: number;
}
export interface RowEntropiesResult {
  n: number;
  map: FeatureMapKind;
  rows: number[];
  exact: number[];
  performer: number[];
  elu1: number[];
  topK: { k: number[]; exact: number[]; performer: number[]; elu1: number[] };
}

export interface EntropyVsNPayload {
  params: AttentionParams;
  nGrid?: number[];
  rows?: number;
}
export interface EntropyVsNResult {
  nGrid: number[];
  rows: number;
  map: FeatureMapKind;
  exact: number[];
  performer: number[];
  elu1: number[];
}

export interface LocalTruncationPayload {
  params: AttentionParams;
  nMax?: number;
}
export interface LocalTruncationResult {
  n: number;
  map: FeatureMapKind;
  windows: number[];
  errorApprox: number[];
  errorExact: number[];
  errorOut: number[];
  degenerateRows: number[];
  /** ‖out − out_exact‖ / ‖out_exact‖ without truncation */
  fullErrorOut: number;
  /** the 'local' inputs' band width (positions), for reference */
  inputBand: number;
  /**
   * errorApprox of 1 + elu on the same inputs (Su's case: the map that spreads out where softmax is
   * local, which truncation helps); equals errorApprox when the current map is elu1
   */
  errorElu1: number[];
}

export interface SpectraPayload {
  params: AttentionParams;
  nMax?: number;
}
export interface SpectraResult {
  n: number;
  d: number;
  m: number;
  mPrime: number;
  map: FeatureMapKind;
  causal: boolean;
  /** singular values, descending, each of length n (structural zeros included) */
  exact: Float64Array;
  approx: Float64Array;
  scores: Float64Array;
  /** min_i A_ii and min_i Â_ii (causal: a triangular matrix is invertible iff its diagonal is nonzero) */
  minDiagExact: number | null;
  minDiagApprox: number | null;
}

export interface MapRowsPayload {
  params: AttentionParams;
  row: number;
}
export interface MapRowsResult {
  row: number;
  n: number;
  causal: boolean;
  exact: Float32Array;
  maps: { map: FeatureMapKind; values: Float32Array; relError: number; kl: number; entropy: number }[];
  /** seed 000's λ-invariance, measured on this row against the positive map's Â row */
  lambda: {
    /** query features without exp(−‖x‖²/2): identical up to rounding */
    queryNormDropped: number;
    /** both norm factors dropped (the e^x map): differs as much as key norms vary */
    bothNormsDropped: number;
    /** coefficient of variation of ‖y_j‖² over the keys */
    keyNormSpread: number;
  };
  /** FAVOR++'s variance-optimal parameter for these Q, K: ρ = mean ‖x_i + y_j‖²/d and A*(ρ) */
  oprf: { rho: number; a: number };
}

// ---------------------------------------------------------------------------------------------
// helpers

const ESTIMATORS: readonly EstimatorKind[] = ['positive', 'hyperbolic', 'trig'];

function cancelledError(): EngineError {
  return new EngineError('cancelled', 'analysis cancelled');
}

/** Checks for cancellation, reports progress and lets the worker breathe. */
async function step(ctx: AnalysisContext, done: number, total: number, label?: string): Promise<void> {
  if (ctx.cancelled()) throw cancelledError();
  ctx.progress(done, total, label);
  if (ctx.breathe) await ctx.breathe();
  if (ctx.cancelled()) throw cancelledError();
}

function readParams(payload: unknown): AttentionParams {
  const p = (payload as { params?: AttentionParams } | null)?.params;
  if (!p) throw new EngineError('invalid-size', 'analysis payload has no params');
  validateParams(p);
  return p;
}

function clampInt(v: unknown, lo: number, hi: number, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.max(lo, Math.min(hi, Math.round(v))) : fallback;
}

function cleanGrid(v: unknown, lo: number, hi: number, fallback: number[], integer = true, maxLen = 24): number[] {
  if (!Array.isArray(v)) return fallback;
  const g = v
    .filter((x): x is number => typeof x === 'number' && Number.isFinite(x) && x >= lo && x <= hi)
    .map((x) => (integer ? Math.round(x) : x));
  const out = [...new Set(g)].sort((a, b) => a - b).slice(0, maxLen);
  return out.length ? out : fallback;
}

/** The n grid cut to an uploaded sequence of length n (which it always ends with). */
function uploadedGrid(grid: number[], n: number): number[] {
  const g = grid.filter((x) => x < n);
  return [...g, n];
}

/** W for (m, projection, featureSeed) exactly as the engine draws it (generateInputs' seed contract). */
function projectionFor(p: AttentionParams, m: number, projection: ProjectionKind, featureSeed: number): Matrix {
  return generateInputs({ ...p, n: 1, m, projection, featureSeed, featureMap: 'positive' }).w;
}

function featureSeedAt(p: AttentionParams, s: number): number {
  return (p.featureSeed + s) % 4_294_967_296;
}

/** Inputs truncated to their first nUse positions, scaled for the feature maps. */
function prepared(p: AttentionParams, nUse: number, ext: ExternalInputs | null = null): { inputs: AttentionInputs; x: Matrix; y: Matrix } {
  const inputs = ext ? externalInputs(p, ext, nUse) : generateInputs({ ...p, n: nUse });
  return { inputs, x: scaleInputs(inputs.q), y: scaleInputs(inputs.k) };
}

function withScaled(inputs: AttentionInputs): { inputs: AttentionInputs; x: Matrix; y: Matrix } {
  return { inputs, x: scaleInputs(inputs.q), y: scaleInputs(inputs.k) };
}

function approxRowsFor(kind: FeatureMapKind, x: Matrix, y: Matrix, w: Matrix, rows: number[], causal: boolean, stab: Stabilizer): Float32Array[] {
  const mc = mapContext(kind, x, y); // full-sequence statistics; the query subset keeps its positions
  return approxRowsOf(queryFeatures(kind, subRows(x, rows), w, stab, { ...mc, positions: rows }), keyFeatures(kind, y, w, stab, mc), rows, causal);
}

function pushSpread(target: SpreadSeries, values: number[]): void {
  const s = spread(values);
  target.mean.push(s.mean);
  target.lo.push(s.lo);
  target.hi.push(s.hi);
  target.std.push(s.std);
}

const emptySpread = (): SpreadSeries => ({ mean: [], lo: [], hi: [], std: [] });

function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

// ---------------------------------------------------------------------------------------------
// the ops

async function errorVsM(payload: ErrorVsMPayload, ctx: AnalysisContext): Promise<ErrorVsMResult> {
  const p = readParams(payload);
  const seeds = clampInt(payload.seeds, 2, 32, 8);
  const n = Math.min(p.n, clampInt(payload.nCap, 16, 2048, 256));
  const rows = evenRows(n, clampInt(payload.rows, 4, 256, 32));
  const mGrid = cleanGrid(payload.mGrid, 1, LIMITS.mMax, powersOfTwo(4, 512));
  const { inputs, x, y } = prepared(p, n, readExternal(payload));
  const exact = exactRowsOf(inputs.q, inputs.k, rows, p.causal);
  const projections: ProjectionKind[] = ['orthogonal-chi', 'iid'];
  const errs = new Map<string, number[][]>(); // key map|proj → [mIndex][seed]
  for (const map of ESTIMATORS) for (const proj of projections) errs.set(`${map}|${proj}`, mGrid.map(() => []));
  const total = seeds * projections.length * mGrid.length + 1;
  let done = 0;
  for (let s = 0; s < seeds; s++) {
    for (const proj of projections) {
      for (let mi = 0; mi < mGrid.length; mi++) {
        const w = projectionFor(p, mGrid[mi]!, proj, featureSeedAt(p, s));
        for (const map of ESTIMATORS) {
          errs.get(`${map}|${proj}`)![mi]!.push(relErrorOverRows(approxRowsFor(map, x, y, w, rows, p.causal, p.stabilizer), exact));
        }
        await step(ctx, ++done, total, `seed ${s + 1}/${seeds}`);
      }
    }
  }
  const series: ErrorVsMResult['series'] = [];
  for (const map of ESTIMATORS) {
    for (const projection of projections) {
      const sp = emptySpread();
      for (const values of errs.get(`${map}|${projection}`)!) pushSpread(sp, values);
      series.push({ map, projection, ...sp });
    }
  }
  const theory = ESTIMATORS.map((map) => {
    const t = estimatorTheory(map, x, y, rows, p.causal);
    return { map, values: mGrid.map((m) => predictedRelError(t, m)) };
  });
  await step(ctx, total, total, 'theory');
  return { mGrid, n, rows: rows.length, seeds, series, theory };
}

export const DEFAULT_SCALES = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1, 1.25, 1.5, 1.75, 2];

async function normSweep(payload: NormSweepPayload, ctx: AnalysisContext): Promise<NormSweepResult> {
  const p = readParams(payload);
  const seeds = clampInt(payload.seeds, 1, 32, 4);
  const n = Math.min(p.n, clampInt(payload.nCap, 16, 2048, 256));
  const rows = evenRows(n, clampInt(payload.rows, 4, 256, 32));
  const scales = cleanGrid(payload.scales, 0.01, 4, DEFAULT_SCALES, false);
  const error = ESTIMATORS.map((map) => ({ map, ...emptySpread() }));
  const theory = ESTIMATORS.map((map) => ({ map, values: [] as number[] }));
  const entropyExact: number[] = [];
  const entropyPerformer: number[] = [];
  const stabilizers = STABILIZERS.map((stabilizer) => ({ stabilizer, entropy: [] as number[], error: [] as number[] }));
  const ws = Array.from({ length: seeds }, (_, s) => projectionFor(p, p.m, p.projection, featureSeedAt(p, s)));
  // uploaded Q, K: the sweep rescales them so that their entries' RMS is each grid scale
  const ext = readExternal(payload);
  const extRms = ext ? externalRms(ext) : 1;
  for (let si = 0; si < scales.length; si++) {
    const { inputs, x, y } = ext
      ? withScaled(rescaledInputs(externalInputs(p, ext, n), scales[si]! / (extRms || 1)))
      : prepared({ ...p, scale: scales[si]! }, n);
    const exact = exactRowsOf(inputs.q, inputs.k, rows, p.causal);
    entropyExact.push(mean(normEntropies(exact, rows, p.causal)));
    const hPerf: number[] = [];
    ESTIMATORS.forEach((map, k) => {
      const runs = ws.map((w) => {
        const approx = approxRowsFor(map, x, y, w, rows, p.causal, p.stabilizer);
        if (map === 'positive') hPerf.push(mean(normEntropies(approx, rows, p.causal)));
        return relErrorOverRows(approx, exact);
      });
      pushSpread(error[k]!, runs);
      theory[k]!.values.push(predictedRelError(estimatorTheory(map, x, y, rows, p.causal), p.m));
    });
    entropyPerformer.push(mean(hPerf));
    for (const st of stabilizers) {
      const approx = ws.map((w) => approxRowsFor('positive', x, y, w, rows, p.causal, st.stabilizer));
      st.entropy.push(mean(approx.map((a) => mean(normEntropies(a, rows, p.causal)))));
      st.error.push(mean(approx.map((a) => relErrorOverRows(a, exact))));
    }
    await step(ctx, si + 1, scales.length, `scale ${scales[si]}`);
  }
  return { scales, n, rows: rows.length, seeds, m: p.m, projection: p.projection, error, theory, entropyExact, entropyPerformer, stabilizers };
}

async function errorVsD(payload: ErrorVsDPayload, ctx: AnalysisContext): Promise<ErrorVsDResult> {
  const p = readParams(payload);
  const seeds = clampInt(payload.seeds, 1, 32, 4);
  const n = Math.min(p.n, clampInt(payload.nCap, 16, 2048, 256));
  const rows = evenRows(n, clampInt(payload.rows, 4, 256, 32));
  const dGrid = cleanGrid(payload.dGrid, 1, LIMITS.dMax, [2, 4, 8, 16, 32, 64, 128, 256]);
  const out: ErrorVsDResult = { dGrid, n, rows: rows.length, seeds, theory: [], ...emptySpread() };
  for (let di = 0; di < dGrid.length; di++) {
    const pd = { ...p, d: dGrid[di]! };
    const { inputs, x, y } = prepared(pd, n);
    const exact = exactRowsOf(inputs.q, inputs.k, rows, p.causal);
    const runs: number[] = [];
    for (let s = 0; s < seeds; s++) {
      const w = projectionFor(pd, p.m, p.projection, featureSeedAt(p, s));
      runs.push(relErrorOverRows(approxRowsFor('positive', x, y, w, rows, p.causal, p.stabilizer), exact));
    }
    pushSpread(out, runs);
    out.theory.push(predictedRelError(estimatorTheory('positive', x, y, rows, p.causal), p.m));
    await step(ctx, di + 1, dGrid.length, `d = ${dGrid[di]}`);
  }
  return out;
}

async function entryErrors(payload: EntryErrorsPayload, ctx: AnalysisContext): Promise<EntryErrorsResult> {
  const p = readParams(payload);
  const n = Math.min(p.n, clampInt(payload.nCap, 16, 2048, 256));
  const rows = evenRows(n, clampInt(payload.rows, 4, 256, 32));
  const nb = clampInt(payload.bins, 4, 64, 14);
  const { inputs, x, y } = prepared(p, n, readExternal(payload));
  const exact = exactRowsOf(inputs.q, inputs.k, rows, p.causal);
  const w = projectionFor(p, p.m, p.projection, p.featureSeed);
  await step(ctx, 1, 3, 'exact');
  let lo = Infinity;
  let hi = 0;
  for (const r of exact) for (const a of r) if (a > 0) {
    lo = Math.min(lo, a);
    hi = Math.max(hi, a);
  }
  if (!(hi > 0)) throw new EngineError('non-finite-result', 'exact attention has no positive entries');
  lo = Math.max(lo, hi * 1e-12);
  const logLo = Math.log10(lo);
  const width = (Math.log10(hi) - logLo) / nb || 1;
  const edges = Array.from({ length: nb + 1 }, (_, b) => 10 ** (logLo + b * width));
  const centers = Array.from({ length: nb }, (_, b) => 10 ** (logLo + (b + 0.5) * width));
  const binOf = (a: number) => Math.min(nb - 1, Math.max(0, Math.floor((Math.log10(a) - logLo) / width)));
  const binned = (kind: 'positive' | 'trig'): BinnedErrors => {
    const approx = approxRowsFor(kind, x, y, w, rows, p.causal, p.stabilizer);
    const buckets: number[][] = centers.map(() => []);
    exact.forEach((r, t) => {
      for (let j = 0; j < r.length; j++) {
        const a = r[j]!;
        if (a < lo) continue;
        buckets[binOf(a)]!.push(Math.abs(approx[t]![j]! - a) / a);
      }
    });
    const out: BinnedErrors = { median: [], q10: [], q90: [], count: [] };
    for (const b of buckets) {
      b.sort((u, v) => u - v);
      out.median.push(quantile(b, 0.5));
      out.q10.push(quantile(b, 0.1));
      out.q90.push(quantile(b, 0.9));
      out.count.push(b.length);
    }
    return out;
  };
  const positive = binned('positive');
  await step(ctx, 2, 3, 'positive');
  const trig = binned('trig');
  await step(ctx, 3, 3, 'trig');
  return { centers, edges, n, rows: rows.length, positive, trig };
}

async function rowEntropies(payload: RowEntropiesPayload, ctx: AnalysisContext): Promise<RowEntropiesResult> {
  const p = readParams(payload);
  const maxRows = clampInt(payload.maxRows, 8, 1024, p.n > 4096 ? 64 : 256);
  const rows = evenRows(p.n, maxRows);
  const { inputs, x, y } = prepared(p, p.n, readExternal(payload));
  const exact = exactRowsOf(inputs.q, inputs.k, rows, p.causal);
  await step(ctx, 1, 3, 'exact');
  const performer = approxRowsFor(p.featureMap, x, y, fittedMapW(payload, p, inputs.w), rows, p.causal, p.stabilizer);
  await step(ctx, 2, 3, p.featureMap);
  const elu = approxRowsFor('elu1', x, y, inputs.w, rows, p.causal, p.stabilizer);
  const ks = powersOfTwo(1, p.n);
  const topK = (rs: Float32Array[]) => {
    const curves = rs.map(topMassCurve);
    return ks.map((k) => mean(curves.map((c) => c[Math.min(k, c.length) - 1]!)));
  };
  const result: RowEntropiesResult = {
    n: p.n,
    map: p.featureMap,
    rows,
    exact: normEntropies(exact, rows, p.causal),
    performer: normEntropies(performer, rows, p.causal),
    elu1: normEntropies(elu, rows, p.causal),
    topK: { k: ks, exact: topK(exact), performer: topK(performer), elu1: topK(elu) },
  };
  await step(ctx, 3, 3, '1+elu');
  return result;
}

async function entropyVsN(payload: EntropyVsNPayload, ctx: AnalysisContext): Promise<EntropyVsNResult> {
  const p = readParams(payload);
  const ext = readExternal(payload);
  // uploaded inputs: prefixes of the uploaded sequence, up to its length
  const grid = cleanGrid(payload.nGrid, 2, LIMITS.nMax, powersOfTwo(16, 16_384));
  const nGrid = ext ? uploadedGrid(grid, p.n) : grid;
  const rowCount = clampInt(payload.rows, 4, 256, 32);
  // One draw at the largest n; shorter sequences are its prefixes (the same tokens, fewer of them).
  const nMax = nGrid.at(-1)!;
  const big = ext ? null : generateInputs({ ...p, n: nMax });
  const out: EntropyVsNResult = { nGrid, rows: rowCount, map: p.featureMap, exact: [], performer: [], elu1: [] };
  for (let t = 0; t < nGrid.length; t++) {
    const n = nGrid[t]!;
    // structured inputs depend on n (e.g. the local band ∝ √n), so those are regenerated per n
    const inputs = ext ? externalInputs({ ...p, n }, ext, n) : p.input === 'gaussian' && big ? { ...big, q: firstRows(big.q, n), k: firstRows(big.k, n) } : generateInputs({ ...p, n });
    const x = scaleInputs(inputs.q);
    const y = scaleInputs(inputs.k);
    const rows = evenRows(n, rowCount);
    const h = (r: Float32Array[]) => mean(normEntropies(r, rows, p.causal));
    out.exact.push(h(exactRowsOf(inputs.q, inputs.k, rows, p.causal)));
    out.performer.push(h(approxRowsFor(p.featureMap, x, y, fittedMapW(payload, p, inputs.w), rows, p.causal, p.stabilizer)));
    out.elu1.push(h(approxRowsFor('elu1', x, y, inputs.w, rows, p.causal, p.stabilizer)));
    await step(ctx, t + 1, nGrid.length, `n = ${n}`);
  }
  return out;
}

/** Dense n×n analyses (local truncation, spectra) are offered up to this n. */
export const DENSE_ANALYSIS_MAX_N = 1_024;

async function localTruncation(payload: LocalTruncationPayload, ctx: AnalysisContext): Promise<LocalTruncationResult> {
  const p = readParams(payload);
  const nMax = clampInt(payload.nMax, 16, 2048, DENSE_ANALYSIS_MAX_N);
  if (p.n > nMax) throw new EngineError('exceeds-limit', `local truncation needs the dense n×n matrices: n ≤ ${nMax}`, { n: p.n, limit: nMax });
  const ext = readExternal(payload);
  const inputs = ext ? externalInputs(p, ext) : generateInputs(p);
  const A = exactAttentionMatrix(inputs.q, inputs.k, p.causal);
  await step(ctx, 1, 3, 'A');
  const { qf, kf } = performerFeatures({ ...inputs, w: fittedMapW(payload, p, inputs.w) }, p.featureMap, p.stabilizer);
  const Ahat = linearAttentionMatrix(qf, kf, p.causal);
  await step(ctx, 2, 3, 'Â');
  const windows = windowGrid(p.n);
  const curve = localTruncationCurve(A, Ahat, windows, inputs.v);
  let errorElu1 = curve.map((c) => c.errorApprox);
  if (p.featureMap !== 'elu1') {
    const elu = performerFeatures(inputs, 'elu1');
    errorElu1 = localTruncationCurve(A, linearAttentionMatrix(elu.qf, elu.kf, p.causal), windows).map((c) => c.errorApprox);
  }
  await step(ctx, 3, 3, 'windows');
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

async function spectra(payload: SpectraPayload, ctx: AnalysisContext): Promise<SpectraResult> {
  const p = readParams(payload);
  const nMax = clampInt(payload.nMax, 16, 2048, DENSE_ANALYSIS_MAX_N);
  if (p.n > nMax) throw new EngineError('exceeds-limit', `spectra need an n×n SVD: n ≤ ${nMax}`, { n: p.n, limit: nMax });
  const n = p.n;
  const ext = readExternal(payload);
  const inputs = ext ? externalInputs(p, ext) : generateInputs(p);
  const x = scaleInputs(inputs.q);
  const y = scaleInputs(inputs.k);
  const { qf, kf } = performerFeatures({ ...inputs, w: fittedMapW(payload, p, inputs.w) }, p.featureMap, p.stabilizer);
  const mPrime = featureDim(p.featureMap, p.m, p.d);

  const exactDense = exactAttentionF64(inputs.q, inputs.k, p.causal);
  const exactM: SpectrumMatrix = { rows: n, cols: n, data: exactDense };
  const approxM: SpectrumMatrix = p.causal
    ? { rows: n, cols: n, data: causalLinearAttentionF64(qf, kf) }
    : lowRankProductCore(normalizedQueryFeatures(qf, kf), kf);
  const scoresM = lowRankProductCore(x, y);
  const jobs: [string, SpectrumMatrix][] = [
    ['A', exactM],
    ['Â', approxM],
    ['QKᵀ', scoresM],
  ];
  const total = jobs.reduce((s, [, m]) => s + Math.min(m.rows, m.cols) + 1, 0);
  let done = 0;
  const out: Float64Array[] = [];
  for (const [label, m] of jobs) {
    for (const v of m.data as ArrayLike<number> as Float64Array) {
      if (!Number.isFinite(v)) throw new EngineError('non-finite-result', `${label} has non-finite entries (feature map ${p.featureMap})`);
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
  };
}

async function mapRows(payload: MapRowsPayload, ctx: AnalysisContext): Promise<MapRowsResult> {
  const p = readParams(payload);
  const row = clampInt(payload.row, 0, p.n - 1, 0);
  const ext = readExternal(payload);
  const inputs = ext ? externalInputs({ ...p, featureMap: 'positive' }, ext) : generateInputs({ ...p, featureMap: 'positive' });
  const x = scaleInputs(inputs.q);
  const y = scaleInputs(inputs.k);
  const w = inputs.w;
  const [exact] = exactRowsOf(inputs.q, inputs.k, [row], p.causal);
  const rowOf = (kq: FeatureMapKind, kk: FeatureMapKind = kq) =>
    approxRowsOf(
      queryFeatures(kq, subRows(x, [row]), w, p.stabilizer, { ...mapContext(kq, x, y), positions: [row] }),
      keyFeatures(kk, y, w, p.stabilizer, mapContext(kk, x, y)),
      [row],
      p.causal,
    )[0]!;
  const maps: MapRowsResult['maps'] = [];
  let t = 0;
  const keys = p.causal ? row + 1 : p.n;
  for (const map of FEATURE_MAPS) {
    if (map === 'hedgehog') continue; // needs a fitted W: shown by the Hedgehog training view
    if (featureDim(map, w.rows, x.cols) > LIMITS.featureDimMax) continue; // taylor2 at large d: refused everywhere
    const values = rowOf(map);
    maps.push({
      map,
      values,
      relError: relativeError(values, exact!),
      kl: klDivergence(exact!, values),
      entropy: normalizedEntropy(rowEntropy(values), keys),
    });
    await step(ctx, ++t, FEATURE_MAPS.length + 1, map);
  }
  const positive = maps.find((m) => m.map === 'positive')!.values;
  // 'exp' query features are the positive ones without exp(−‖x‖²/2) (and without m^{-1/2}).
  const queryNormDropped = relativeError(rowOf('exp', 'positive'), positive);
  const bothNormsDropped = relativeError(maps.find((m) => m.map === 'exp')!.values, positive);
  const norms: number[] = [];
  for (let j = 0; j < y.rows; j++) {
    let s = 0;
    for (let c = 0; c < y.cols; c++) s += y.data[j * y.cols + c]! ** 2;
    norms.push(s);
  }
  const sp = spread(norms);
  await step(ctx, FEATURE_MAPS.length + 1, FEATURE_MAPS.length + 1, 'λ');
  return {
    row,
    n: p.n,
    causal: p.causal,
    exact: exact!,
    maps,
    lambda: { queryNormDropped, bothNormsDropped, keyNormSpread: sp.mean > 0 ? sp.std / sp.mean : 0 },
    oprf: { rho: oprfRho(x, y), a: oprfParameter(x, y) },
  };
}

export const ANALYSIS_OPS: Record<string, AnalysisOp> = {
  errorVsM,
  normSweep,
  errorVsD,
  entryErrors,
  rowEntropies,
  entropyVsN,
  localTruncation,
  spectra,
  mapRows,
  hedgehogFit,
};
