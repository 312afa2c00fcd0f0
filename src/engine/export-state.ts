/**
 * The "state as JSON" export: every matrix of one experiment, dense, computed by the CPU twins from
 * the same parameters and seeds as the result on screen (or from the uploaded Q, K, V), plus the
 * headline numbers as the page shows them. Pure and transport-free: the engine worker calls
 * `exportStateJson`, unit tests call the pieces. The schema is documented in README.md ("Export").
 */
import type { BackendInfo } from '../core/attention-job';
import { EngineError } from '../core/errors';
import { exactAttentionMatrix, exactAttentionOutput } from '../core/exact-attention';
import { jobFeatures } from '../core/cpu-attention';
import { linearAttentionMatrix, linearAttentionOutput } from '../core/linear-attention';
import type { AttentionInputs, AttentionParams, Matrix } from '../core/types';
import { jobFor, prepareInputs } from './compute';
import type { ComputeRequest } from './protocol';

/** Largest n whose dense n×n matrices are exported (two of them: ≈ 25 MB of JSON at n = 1024). */
export const EXPORT_MAX_N = 1_024;
export const EXPORT_VERSION = 1;

/** What the page adds: the backend that computed the numbers on screen and those numbers, keyed by data-metric name. */
export interface ExportMeta {
  backend: BackendInfo | null;
  metrics: Record<string, number | null>;
  /** where uploaded-style inputs came from when they are a trained head (input=trained): enough to recompute them */
  trained?: TrainedSource;
}

/** A trained head as the export names it: the selection and the tokens its model ran on. */
export interface TrainedSource {
  model: string;
  layer: number;
  head: number;
  /** the bundled example, or null when the sequence is typed text */
  example: number | null;
  text: string | null;
  tokens: number[];
  /** which backend ran the forward pass */
  forward: 'webgpu' | 'cpu';
}

export interface DenseState {
  inputs: AttentionInputs;
  aExact: Matrix;
  aApprox: Matrix;
  outExact: Matrix;
  outApprox: Matrix;
}

/** Exact A, Â of the request's feature map, both outputs; the same inputs the compute path uses. */
export function denseState(request: ComputeRequest): DenseState {
  const { n } = request.params;
  if (n > EXPORT_MAX_N) {
    throw new EngineError(
      'exceeds-limit',
      `the JSON export holds dense n×n matrices and is limited to n ≤ ${EXPORT_MAX_N} (n is ${n})`,
      {
        n,
        limit: EXPORT_MAX_N,
      },
    );
  }
  // the compute's own job (map, fitted W, stabilizer, mask), so Â is the one whose error is on screen
  const inputs = prepareInputs(request);
  const job = jobFor(request, inputs);
  const { q, k, v } = inputs;
  const { causal } = job;
  const { qf, kf } = jobFeatures(job);
  return {
    inputs,
    aExact: exactAttentionMatrix(q, k, causal),
    aApprox: linearAttentionMatrix(qf, kf, causal),
    outExact: exactAttentionOutput(q, k, v, causal),
    outApprox: linearAttentionOutput(qf, kf, v, causal),
  };
}

export const MATRIX_KEYS = ['Q', 'K', 'V', 'W', 'A_exact', 'A_approx', 'out_exact', 'out_approx'] as const;
export type MatrixKey = (typeof MATRIX_KEYS)[number];

export interface StateJson {
  version: number;
  params: AttentionParams;
  /** the backend that computed the numbers on screen; the matrices here always come from the CPU twins */
  backend: (BackendInfo | { kind: 'unknown' }) & { matrices: 'cpu' };
  inputs: 'generated' | 'uploaded' | 'trained';
  /** inputs = 'trained': the head, its sequence and tokens (Q, K, V are that head's) */
  trained?: TrainedSource;
  /** [rows, cols] of every matrix below (row-major) */
  shapes: Record<MatrixKey, [number, number]>;
  Q: number[];
  K: number[];
  V: number[];
  W: number[];
  A_exact: number[];
  A_approx: number[];
  out_exact: number[];
  out_approx: number[];
  metrics: Record<string, number | null>;
}

/** 10^0 … 10^22: every power of ten that a double holds exactly. */
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * The shortest decimal (of 6 to 9 significant digits) that reads back as the same float32, so 0.1f
 * is written 0.1, not 0.10000000149011612: about half the bytes of the float64 spelling, and
 * lossless. Rounding by exact powers of ten (one multiply, one divide) instead of toPrecision keeps
 * a million entries well under a second; values outside that range fall back to toPrecision.
 */
export function shortestFloat32(x: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const e = Math.floor(Math.log10(Math.abs(x)));
  for (let p = 6; p <= 9; p++) {
    const k = p - 1 - e; // decimal places
    const y =
      k >= 0 && k <= 22
        ? Math.round(x * POW10[k]!) / POW10[k]!
        : k < 0 && k >= -22
          ? Math.round(x / POW10[-k]!) * POW10[-k]!
          : Number(x.toPrecision(p));
    if (Math.fround(y) === x) return y;
  }
  return x; // the float64 spelling of a float32 is exact
}

function flat(m: Matrix): number[] {
  const out = new Array<number>(m.data.length);
  for (let i = 0; i < m.data.length; i++) out[i] = shortestFloat32(m.data[i]!);
  return out;
}

export function buildStateJson(
  params: AttentionParams,
  state: DenseState,
  meta: ExportMeta,
  uploaded: boolean,
): StateJson {
  const mats: Record<MatrixKey, Matrix> = {
    Q: state.inputs.q,
    K: state.inputs.k,
    V: state.inputs.v,
    W: state.inputs.w,
    A_exact: state.aExact,
    A_approx: state.aApprox,
    out_exact: state.outExact,
    out_approx: state.outApprox,
  };
  const shapes = Object.fromEntries(MATRIX_KEYS.map((key) => [key, [mats[key].rows, mats[key].cols]])) as Record<
    MatrixKey,
    [number, number]
  >;
  return {
    version: EXPORT_VERSION,
    params,
    backend: { ...(meta.backend ?? { kind: 'unknown' as const }), matrices: 'cpu' },
    inputs: meta.trained ? 'trained' : uploaded ? 'uploaded' : 'generated',
    ...(meta.trained ? { trained: meta.trained } : {}),
    shapes,
    Q: flat(mats.Q),
    K: flat(mats.K),
    V: flat(mats.V),
    W: flat(mats.W),
    A_exact: flat(mats.A_exact),
    A_approx: flat(mats.A_approx),
    out_exact: flat(mats.out_exact),
    out_approx: flat(mats.out_approx),
    // NaN / ±∞ are not JSON; JSON.stringify would write null anyway — say so in the type
    metrics: Object.fromEntries(
      Object.entries(meta.metrics).map(([key, v]) => [key, v !== null && Number.isFinite(v) ? v : null]),
    ),
  };
}

/** The whole export as JSON text (what the engine worker sends back). */
export function exportStateJson(request: ComputeRequest, meta: ExportMeta): string {
  return JSON.stringify(buildStateJson(request.params, denseState(request), meta, !!request.external));
}
