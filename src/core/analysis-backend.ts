/**
 * The analysis backend: what the panels' analyses (src/engine/analysis/) ask of the hardware.
 * Almost every analysis is "Â on a few query rows, for many variants (map, W, stabilizer) of the
 * same inputs, reduced per row against the exact A": `rowStats` takes one problem (Q, K, the row
 * list, causality) and a batch of variants and returns, per variant and row, H(Â_r), Σ_j (A − Â)²,
 * Σ_j A², KL(A_r ‖ Â_r) — and, only when asked, the rows themselves (`fullRows`) or their top-k masses
 * (`topMass`, so that the rows need not leave the backend).
 *
 * The dense analyses (spectra, local truncation) ask for whole n×n matrices: `denseAttention` gives
 * A and Â themselves (for the SVD, which stays on the CPU in f64), `windowStats` the per-row sums of
 * Su's local truncation T_w(Â) against A for a list of windows (core/local-window.ts windowRowStats).
 *
 * Two implementations: `cpuAnalysisBackend` here (the CPU twins: exactRowsOf, approxRowsOf and the
 * metrics, in f64 — the numbers the analyses always had; A of the spectra in f64) and the WebGPU one
 * (src/gpu/analysis-backend.ts: φ from the projection, favor-features or the twins, the row
 * statistics of attention-row-list-batch.wgsl, one submission and one small readback per batch; the
 * dense matrices from attention-row-stats.wgsl, the window sums from local-window-stats.wgsl in
 * src/gpu/analysis-dense.ts). The ops are written once against this interface.
 */
import { keyFeatures, mapContext, queryFeatures, scaleInputs } from './feature-maps';
import { addSquaredError, klDivergence, normalizedEntropy, relErrorOf, rowEntropy } from './metrics';
import { approxRowsOf, exactRowsOf, subRows, topMassAt, topMassLevels } from './sweeps';
import { exactAttentionMatrix } from './exact-attention';
import { linearAttentionMatrix } from './linear-attention';
import { windowRowStats, type WindowRowStats } from './local-window';
import { causalLinearAttentionF64, denseProductF64, exactAttentionF64, normalizedQueryFeatures } from './spectra';
import type { FeatureMapKind, Matrix, Stabilizer } from './types';

export type AnalysisBackendKind = 'cpu' | 'webgpu';

/** Inputs shared by a batch: unscaled Q, K (n × d), the query rows (ascending, distinct), causality. */
export interface RowProblem {
  q: Matrix;
  k: Matrix;
  rows: readonly number[];
  causal: boolean;
}

/** One Â: the feature map (of the keys too, unless `keyMap` is given), its W and stabilizer. */
export interface FeatureVariant {
  map: FeatureMapKind;
  w: Matrix;
  stabilizer: Stabilizer;
  /** the keys' map when it differs from the queries' (the λ-invariance check of the map rows) */
  keyMap?: FeatureMapKind;
}

/**
 * A variant of the local-truncation sums. `output: false` leaves out its output terms through V
 * (outExactSq and outSqErr stay 0): the comparison map of the local-truncation figure needs only its
 * matrix error, and the output terms are the costliest part of the sums.
 */
export interface WindowVariant extends FeatureVariant {
  output?: boolean;
}

export interface RowStatsOptions {
  /** H(Â_r) per row (the CPU computes it only when asked; the GPU always does) */
  entropy?: boolean;
  /** KL(A_r ‖ Â_r) per row (likewise) */
  kl?: boolean;
  /** the rows A_r and Â_r themselves (R × n each) */
  fullRows?: boolean;
  /** per row the top-k mass at k = 1, 2, 4, … ≤ n (sweeps.ts topMassAt), without the rows leaving the backend */
  topMass?: boolean;
  /**
   * Called once the batch's work is on the device (the GPU backend: right after its last submission),
   * so that the caller can prepare its next batch while this one runs (engine/analysis/pipeline.ts).
   * Backends that compute on the calling thread never call it: their promise settles instead.
   */
  onSubmitted?: () => void;
}

/** Per row of the problem's row list (index t ↔ rows[t]). */
export interface VariantRowStats {
  sqErr: Float64Array;
  exactSq: Float64Array;
  entropy?: Float64Array;
  kl?: Float64Array;
  rows?: Float32Array[];
  /** with `topMass`: R × L row-major, L = topMassLevels(n) — row t's mass of its top 2^l keys at t·L + l */
  topMass?: Float64Array;
}

export interface RowStatsBatch {
  /** H(A_r) per row */
  exactEntropy: Float64Array;
  exactRows?: Float32Array[];
  /** with `topMass`: the exact rows' top-k masses (layout of VariantRowStats.topMass) */
  exactTopMass?: Float64Array;
  variants: VariantRowStats[];
}

/** Inputs of the dense (n×n) analyses: unscaled Q, K (n × d), causality; V (n × d_v) where outputs are compared. */
export interface MatrixProblem {
  q: Matrix;
  k: Matrix;
  causal: boolean;
  v?: Matrix;
}

export interface DenseAttention {
  /** A, n×n row-major (masked entries 0): f64 on the CPU (exactAttentionF64), f32 from the GPU kernels */
  exact: Float64Array | Float32Array;
  /** Â of the variant, n×n (only when a variant is given); a row whose normalizer is 0 is NaN (0/0) on both */
  approx?: Float64Array | Float32Array;
}

export interface AnalysisBackend {
  readonly kind: AnalysisBackendKind;
  rowStats(problem: RowProblem, variants: readonly FeatureVariant[], options?: RowStatsOptions): Promise<RowStatsBatch>;
  /** Dense A and, for a variant, Â (n×n) */
  denseAttention(problem: MatrixProblem, variant?: FeatureVariant): Promise<DenseAttention>;
  /**
   * Per variant, the local-truncation sums of T_w(Â) against A for every window (output terms when
   * problem.v is given, for the variants that do not set `output: false`)
   */
  windowStats(
    problem: MatrixProblem,
    variants: readonly WindowVariant[],
    windows: readonly number[],
  ): Promise<WindowRowStats[]>;
}

/** φ(Q), φ(K) of every row for a variant (the keys' map may differ), full-sequence statistics. */
export function variantFeatures(problem: MatrixProblem, v: FeatureVariant): { qf: Matrix; kf: Matrix } {
  const x = scaleInputs(problem.q);
  const y = scaleInputs(problem.k);
  const kKind = v.keyMap ?? v.map;
  const qc = mapContext(v.map, x, y, problem.causal);
  const kc = kKind === v.map ? qc : mapContext(kKind, x, y, problem.causal);
  return {
    qf: queryFeatures(v.map, x, v.w, v.stabilizer, qc),
    kf: keyFeatures(kKind, y, v.w, v.stabilizer, kc),
  };
}

/** Â (n×n, f64) from features: causal by prefix normalizers, bidirectional as (D⁻¹φ(Q)) φ(K)ᵀ. */
export function denseApproxF64(qf: Matrix, kf: Matrix, causal: boolean): Float64Array {
  return causal ? causalLinearAttentionF64(qf, kf) : denseProductF64(normalizedQueryFeatures(qf, kf), kf).data;
}

/** The CPU twins of `denseAttention` and `windowStats`. */
export const cpuDense: Pick<AnalysisBackend, 'denseAttention' | 'windowStats'> = {
  denseAttention(problem, variant) {
    const exact = exactAttentionF64(problem.q, problem.k, problem.causal);
    if (!variant) return Promise.resolve({ exact });
    const { qf, kf } = variantFeatures(problem, variant);
    return Promise.resolve({ exact, approx: denseApproxF64(qf, kf, problem.causal) });
  },
  windowStats(problem, variants, windows) {
    const { q, k, causal, v } = problem;
    const A = exactAttentionMatrix(q, k, causal);
    return Promise.resolve(
      variants.map((variant) => {
        const { qf, kf } = variantFeatures(problem, variant);
        const out = variant.output === false ? undefined : v;
        return windowRowStats(A.data, linearAttentionMatrix(qf, kf, causal).data, q.rows, windows, out);
      }),
    );
  },
};

/** ‖Â − A‖_F / ‖A‖_F over the rows (sweeps.ts relErrorOverRows from per-row sums; overflow → ∞). */
export function relErrorOfRows(v: Pick<VariantRowStats, 'sqErr' | 'exactSq'>): number {
  const sums = { num: 0, den: 0 };
  for (let t = 0; t < v.sqErr.length; t++) {
    sums.num += v.sqErr[t]!;
    sums.den += v.exactSq[t]!;
  }
  if (!Number.isFinite(sums.num)) return Infinity;
  return relErrorOf(sums);
}

/** Normalized entropies H / log(#allowed keys) of entropies H per row (sweeps.ts normEntropies). */
export function normalizedEntropies(
  h: ArrayLike<number>,
  rows: readonly number[],
  causal: boolean,
  n: number,
): number[] {
  return rows.map((r, t) => normalizedEntropy(h[t]!, causal ? r + 1 : n));
}

/** Â rows of `rows` with the queries' map `qKind` and the keys' map `kKind` (full-sequence statistics; the queries keep their positions). */
export function approxRowsForMaps(
  qKind: FeatureMapKind,
  kKind: FeatureMapKind,
  x: Matrix,
  y: Matrix,
  w: Matrix,
  rows: readonly number[],
  causal: boolean,
  stab: Stabilizer,
): Float32Array[] {
  const qc = mapContext(qKind, x, y, causal);
  const kc = qKind === kKind ? qc : mapContext(kKind, x, y, causal);
  return approxRowsOf(
    queryFeatures(qKind, subRows(x, rows), w, stab, { ...qc, positions: rows }),
    keyFeatures(kKind, y, w, stab, kc),
    rows,
    causal,
  );
}

/**
 * The per-row reductions of Â against A — the CPU twin of attention-row-list-batch.wgsl
 * `rowReduce` (there in f32 from the raw scores, here in f64 from the f32 rows).
 */
export function rowListStats(
  exact: readonly Float32Array[],
  approx: readonly Float32Array[],
  options: RowStatsOptions,
  keysOf: (t: number) => number,
): VariantRowStats {
  const R = exact.length;
  const out: VariantRowStats = { sqErr: new Float64Array(R), exactSq: new Float64Array(R) };
  if (options.entropy) out.entropy = new Float64Array(R);
  if (options.kl) out.kl = new Float64Array(R);
  for (let t = 0; t < R; t++) {
    const sums = { num: 0, den: 0 };
    addSquaredError(sums, approx[t]!, exact[t]!);
    out.sqErr[t] = sums.num;
    out.exactSq[t] = sums.den;
    if (out.entropy) out.entropy[t] = rowEntropy(approx[t]!);
    if (out.kl) out.kl[t] = klDivergence(exact[t]!, approx[t]!);
  }
  if (options.fullRows) out.rows = [...approx];
  if (options.topMass) out.topMass = rowsTopMass(approx, keysOf);
  return out;
}

/** Top-k masses of rows (R × topMassLevels(n), row t over the keysOf(t) keys it sees). */
function rowsTopMass(rows: readonly Float32Array[], keysOf: (t: number) => number): Float64Array {
  const L = topMassLevels(rows[0]?.length ?? 0);
  const out = new Float64Array(rows.length * L);
  rows.forEach((r, t) => out.set(topMassAt(r, keysOf(t), L), t * L));
  return out;
}

/** The number of keys each listed row sees (causal row r: r + 1). */
function keysOfRows(rows: readonly number[], causal: boolean, n: number): (t: number) => number {
  return (t) => (causal ? rows[t]! + 1 : n);
}

/** The last problem's scaled inputs and exact rows: a sweep sends the same problem batch after batch. */
let lastProblem: { key: RowProblem; x: Matrix; y: Matrix; exact: Float32Array[]; exactEntropy: Float64Array } | null =
  null;

function prepare(problem: RowProblem): NonNullable<typeof lastProblem> {
  const l = lastProblem?.key;
  if (l && l.q === problem.q && l.k === problem.k && l.rows === problem.rows && l.causal === problem.causal)
    return lastProblem!;
  const { q, k, rows, causal } = problem;
  const exact = exactRowsOf(q, k, rows, causal);
  lastProblem = {
    key: problem,
    x: scaleInputs(q),
    y: scaleInputs(k),
    exact,
    exactEntropy: Float64Array.from(exact, (r) => rowEntropy(r)),
  };
  return lastProblem;
}

/** The CPU twins, as the analyses always ran. */
export const cpuAnalysisBackend: AnalysisBackend = {
  kind: 'cpu',
  rowStats(problem, variants, options = {}) {
    const { rows, causal } = problem;
    const { x, y, exact, exactEntropy } = prepare(problem);
    const keysOf = keysOfRows(rows, causal, problem.q.rows);
    const out = variants.map((v) =>
      rowListStats(
        exact,
        approxRowsForMaps(v.map, v.keyMap ?? v.map, x, y, v.w, rows, causal, v.stabilizer),
        options,
        keysOf,
      ),
    );
    return Promise.resolve({
      exactEntropy,
      variants: out,
      ...(options.fullRows ? { exactRows: exact } : {}),
      ...(options.topMass ? { exactTopMass: rowsTopMass(exact, keysOf) } : {}),
    });
  },
  ...cpuDense,
};
