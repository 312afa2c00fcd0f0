/**
 * What one attention computation takes and gives back, independent of the backend that runs it.
 * Both backends (src/gpu/webgpu-backend.ts and src/engine/cpu-backend.ts) implement
 * `AttentionBackend`; the CPU twins in src/core define what every field must contain.
 */
import type { AttentionInputs, FeatureMapKind, Matrix, Stabilizer } from './types';

export interface AttentionJob {
  inputs: AttentionInputs;
  featureMap: FeatureMapKind;
  /** stabilizer of the exponential maps; absent means 'shift' (the estimator itself, no ε) */
  stabilizer?: Stabilizer;
  causal: boolean;
  /**
   * Matrix view side (≤ 512); 0 = no view. The view costs O(n²(d + m')) work, so callers only ask
   * for it up to a size limit that depends on the backend.
   */
  viewCells: number;
  /** Per-row statistics over full rows (entropy, squared error, KL); also O(n²(d + m')). */
  rowStats: boolean;
  /** Query rows whose full exact and approximate attention rows are wanted (each length n). */
  rows: number[];
}

export interface MatrixView {
  /** heatmap is cells × cells */
  cells: number;
  /** each cell aggregates block × block entries (1 = full resolution) */
  block: number;
  aggregation: 'mean';
  /** row-major cells × cells */
  exact: Float32Array;
  approx: Float32Array;
  absDiff: Float32Array;
}

/** Per query row i, over all allowed keys j (see ARCHITECTURE.md). Each array has length n. */
export interface RowStats {
  exactEntropy: Float32Array;
  approxEntropy: Float32Array;
  /** Σ_j (A_ij − Â_ij)² */
  sqErr: Float32Array;
  /** Σ_j A_ij² */
  exactSq: Float32Array;
  /** KL(A_i ‖ Â_i) */
  kl: Float32Array;
}

export interface AttentionRowPair {
  index: number;
  exact: Float32Array;
  approx: Float32Array;
}

export interface KernelTiming {
  kernel: string;
  /** GPU time from timestamp queries when available, else wall time around submit → done */
  ms: number;
  source: 'timestamp' | 'wall';
}

export interface AttentionOutput {
  /** exact softmax attention output, n×d */
  exactOut: Matrix;
  /** linear (Performer) attention output with the job's feature map, n×d */
  approxOut: Matrix;
  /**
   * Query rows whose linear-attention normalizer φ(q_i)·Σ_j φ(k_j) (j over the allowed keys) is
   * exactly 0 — every product underflowed (extreme norms without ε). Their rows of the output (and
   * of Â in the view, row statistics and rows) are 0 instead of 0/0.
   */
  zeroNormalizerRows: number;
  view: MatrixView | null;
  rowStats: RowStats | null;
  rows: AttentionRowPair[];
  timings: KernelTiming[];
  /** bytes of device (or worker) memory allocated for this job's buffers */
  bytesAllocated: number;
}

export type BackendInfo = { kind: 'webgpu'; adapter: string; features: string[] } | { kind: 'cpu'; reason: string };

export interface AttentionBackend {
  readonly info: BackendInfo;
  run(job: AttentionJob, signal?: AbortSignal): Promise<AttentionOutput>;
  dispose(): void;
}
