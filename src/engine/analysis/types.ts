/**
 * What the analysis ops (src/engine/analysis/*.ts, run by src/engine/analysis-worker.ts) take and
 * give: the context a worker hands every op, each op's payload and result, and the two maps op name →
 * payload / result that type a request from the panel to the value it gets back (`useAnalysisRequest`).
 */
import type { HedgehogFitPayload, HedgehogFitResult } from '../hedgehog-op';
import type { EstimatorKind } from '../../core/sweeps';
import type { AttentionParams, FeatureMapKind, ProjectionKind, Stabilizer } from '../../core/types';
import type { BackendInfo } from '../../core/attention-job';
import type { EstimatorSpec } from '../../core/estimators';
import type { ExternalInputs } from '../external-inputs';
import type { BeyondPayload, BeyondResult } from './beyond';
import type { AnalysisBackend, AnalysisBackendKind } from '../../core/analysis-backend';
import { isSoftwareAdapter } from '../../core/adapters';

/**
 * What an op gets from the analysis worker. Ops are async and call `step` (helpers.ts) between
 * steps: a worker only sees a cancel message when it yields (`breathe`).
 */
export interface AnalysisContext {
  progress(done: number, total: number, label?: string, detail?: unknown): void;
  cancelled(): boolean;
  /** yields to the worker's event loop (so cancel messages arrive); optional outside a worker */
  breathe?(): Promise<void>;
  /** where the row statistics run: the CPU twins unless given (the engine worker gives its WebGPU one) */
  backend?: AnalysisBackend;
}

/** Every payload: the experiment's parameters, and uploaded Q, K (V) when the user gave them. */
export interface AnalysisPayloadBase {
  params: AttentionParams;
  external?: ExternalInputs;
}

/** Sizes every sweep may be given; all optional, all clamped. */
export interface SweepBudget {
  /** query rows sampled (evenly spaced) */
  rows?: number;
  /** keys used: the sweep runs on the first min(n, nCap) positions */
  nCap?: number;
  /** feature seeds (featureSeed, featureSeed + 1, …) */
  seeds?: number;
}

export interface ErrorVsMPayload extends AnalysisPayloadBase, SweepBudget {
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
  /** the norm scale s it ran at (a figure held while the next s computes quotes its own) */
  scale: number;
  n: number;
  rows: number;
  seeds: number;
  series: (SpreadSeries & { map: FeatureMapKind; projection: ProjectionKind })[];
  /** Lemma 2 second moments through the row normalization (iid features), per map */
  theory: { map: EstimatorKind; values: number[] }[];
}

export interface NormSweepPayload extends AnalysisPayloadBase, SweepBudget {
  scales?: number[];
}
export interface NormSweepResult {
  scales: number[];
  n: number;
  rows: number;
  seeds: number;
  m: number;
  projection: ProjectionKind;
  error: (SpreadSeries & { map: FeatureMapKind })[];
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

export interface ErrorVsDPayload extends AnalysisPayloadBase, SweepBudget {
  dGrid?: number[];
}
export interface ErrorVsDResult extends SpreadSeries {
  dGrid: number[];
  /** the norm scale s it ran at */
  scale: number;
  n: number;
  rows: number;
  seeds: number;
  theory: number[];
}

export interface EntryErrorsPayload extends AnalysisPayloadBase, SweepBudget {
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

export interface RowEntropiesPayload extends AnalysisPayloadBase {
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

export interface EntropyVsNPayload extends AnalysisPayloadBase {
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

export interface LocalTruncationPayload extends AnalysisPayloadBase {
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

export interface SpectraPayload extends AnalysisPayloadBase {
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
  /** causal: max_{i<j} |A_ij| and |Â_ij| (0 for a lower-triangular matrix); null when bidirectional */
  aboveDiagExact: number | null;
  aboveDiagApprox: number | null;
  /** query rows of Â whose normalizer is exactly 0: zero rows in its spectrum, as in the main comparison */
  zeroNormalizerRows: number;
}

export interface MapRowsPayload extends AnalysisPayloadBase {
  row: number;
}
export interface MapRowsResult {
  row: number;
  n: number;
  causal: boolean;
  exact: Float32Array;
  maps: { map: FeatureMapKind; values: Float32Array; relError: number; kl: number; entropy: number }[];
  /** Su Jianlin's λ-invariance, measured on this row against the positive map's Â row */
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
// op name → payload, op name → result: a request names its op and gets that op's result type

export interface AnalysisPayloads {
  errorVsM: ErrorVsMPayload;
  normSweep: NormSweepPayload;
  errorVsD: ErrorVsDPayload;
  entryErrors: EntryErrorsPayload;
  rowEntropies: RowEntropiesPayload;
  entropyVsN: EntropyVsNPayload;
  localTruncation: LocalTruncationPayload;
  spectra: SpectraPayload;
  mapRows: MapRowsPayload;
  beyondSweeps: BeyondPayload;
  hedgehogFit: HedgehogFitPayload;
  estimatorTiming: EstimatorTimingPayload;
}

export interface AnalysisResults {
  errorVsM: ErrorVsMResult;
  normSweep: NormSweepResult;
  errorVsD: ErrorVsDResult;
  entryErrors: EntryErrorsResult;
  rowEntropies: RowEntropiesResult;
  entropyVsN: EntropyVsNResult;
  localTruncation: LocalTruncationResult;
  spectra: SpectraResult;
  mapRows: MapRowsResult;
  beyondSweeps: BeyondResult;
  hedgehogFit: HedgehogFitResult;
  estimatorTiming: EstimatorTimingResult;
}

export type AnalysisOpName = keyof AnalysisResults & keyof AnalysisPayloads;

/** Ops that need the live backend: run by the engine worker (src/engine/engine-worker.ts), not the analysis worker. */
export const ENGINE_OPS = ['estimatorTiming'] as const;
export type EngineOpName = (typeof ENGINE_OPS)[number];
/** Ops the analysis worker runs on the CPU twins. */
export type WorkerOpName = Exclude<AnalysisOpName, EngineOpName>;

export function isEngineOp(op: string): op is EngineOpName {
  return (ENGINE_OPS as readonly string[]).includes(op);
}

/**
 * The ops written against the analysis backend (ctx.backend): where the engine has WebGPU they run
 * in the engine worker on the GPU (between live computes), else in the analysis worker on the CPU twins.
 * spectra and localTruncation form their n×n matrices there (the spectra's SVD stays on the CPU, f64).
 */
export const GPU_ANALYSIS_OPS = [
  'errorVsM',
  'normSweep',
  'errorVsD',
  'entryErrors',
  'rowEntropies',
  'entropyVsN',
  'mapRows',
  'beyondSweeps',
  'spectra',
  'localTruncation',
] as const satisfies readonly WorkerOpName[];
export type GpuAnalysisOpName = (typeof GPU_ANALYSIS_OPS)[number];

export function isGpuAnalysisOp(op: string): op is GpuAnalysisOpName {
  return (GPU_ANALYSIS_OPS as readonly string[]).includes(op);
}

/**
 * Whether the client sends `op` to the engine worker's GPU analysis backend on a backend `info`.
 * On a software adapter (SwiftShader) none goes there unless `onSoftware` asks: the "GPU" is the
 * same CPU cores, each op is only about as fast as its twin (bench-analyses), and the engine worker
 * runs them one after another, while the CPU pool runs them side by side — the page settled in
 * 7.1 s that way against 2.0 s on the pool (bench:live, defaults, quiet 2-core machine).
 */
export function runsOnGpu(op: string, info: BackendInfo | null, onSoftware = false): boolean {
  if (info?.kind !== 'webgpu' || !isGpuAnalysisOp(op)) return false;
  return onSoftware || !isSoftwareAdapter(info.adapter);
}

/** Which backend computed an analysis result: set on every result of `runAnalysisOp` (`computedOn`). */
export interface ComputedOn {
  computedOn?: AnalysisBackendKind;
}

/** One op: its payload in, its result out. */
export type AnalysisOp<K extends AnalysisOpName> = (
  payload: AnalysisPayloads[K],
  ctx: AnalysisContext,
) => Promise<AnalysisResults[K]>;

// ---------------------------------------------------------------------------------------------
// the engine worker's op: every estimator timed on the live backend

/** Above this n the timing's warm-up run skips the dense row statistics (O(n²m')): the error of A is then not reported. */
export const ROW_STATS_MAX_N = 2_048;

export interface EstimatorTimingPayload extends AnalysisPayloadBase {
  /** timed runs per estimator after one warm-up run (median reported) */
  repeats?: number;
}

export interface EstimatorTiming extends EstimatorSpec {
  /** feature dimension m' at the experiment's m */
  mPrime: number;
  /** median over the timed runs of the estimator's kernels (features + linear attention), ms */
  ms: number;
  runsMs: number[];
  /** ‖Â − A‖_F / ‖A‖_F at the full n (from the warm-up run's row statistics), null above ROW_STATS_MAX_N */
  relErrorA: number | null;
  relErrorOut: number;
}

export interface EstimatorTimingResult {
  n: number;
  d: number;
  m: number;
  backend: BackendInfo;
  /** 'timestamp': GPU timestamp queries; 'wall': wall clock around each kernel (CPU twins, or a GPU without timestamps) */
  source: 'timestamp' | 'wall';
  repeats: number;
  /** median time of exact softmax attention over the same runs, ms */
  exactMs: number;
  estimators: EstimatorTiming[];
}
