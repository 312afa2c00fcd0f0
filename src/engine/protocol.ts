/**
 * The engine/UI boundary: what the UI may ask of the engine worker and what comes back. Everything
 * here is structured-cloneable (plain objects and typed arrays) so it crosses postMessage intact.
 */
import type { AttentionOutput, BackendInfo } from '../core/attention-job';
import type { EngineErrorCode } from '../core/errors';
import type { AttentionInputs, AttentionParams, Matrix } from '../core/types';
import type { ExportMeta } from './export-state';

export interface ComputeRequest {
  params: AttentionParams;
  /** bring-your-own Q/K (and optionally V); overrides generation from params.seed */
  external?: { q: Matrix; k: Matrix; v?: Matrix };
  /** heatmap side (≤ 512), 0 = none */
  viewCells: number;
  /** per-row statistics (entropy, error, KL) over full rows */
  rowStats: boolean;
  /** query rows whose full exact/approximate rows are wanted */
  rows: number[];
}

export interface AttentionMetrics {
  /** ‖out − out_exact‖_F / ‖out_exact‖_F */
  relErrorOut: number;
  /** ‖Â − A‖_F / ‖A‖_F (needs row stats) */
  relErrorA: number | null;
  /** mean over rows of KL(A_i ‖ Â_i) */
  meanKL: number | null;
  /** mean over rows of H(A_i) / log(#keys of row i) */
  entropyExact: number | null;
  entropyApprox: number | null;
}

export interface ComputeResult {
  id: number;
  params: AttentionParams;
  backend: BackendInfo;
  inputs: AttentionInputs;
  output: AttentionOutput;
  metrics: AttentionMetrics;
  /** wall time in the worker from request to result */
  elapsedMs: number;
}

export interface SerializedEngineError {
  code: EngineErrorCode;
  message: string;
  detail?: Record<string, unknown>;
}

/** Messages main → engine worker. */
export type EngineRequestMessage =
  | { type: 'init'; forceCpu: boolean }
  | { type: 'compute'; id: number; request: ComputeRequest }
  | { type: 'cancel'; id: number }
  | { type: 'stats'; id: number }
  | { type: 'analyze'; id: number; op: string; payload: unknown }
  | { type: 'lose-device'; id: number }
  /** every matrix of the experiment, dense, as JSON text (src/engine/export-state.ts) */
  | { type: 'export'; id: number; request: ComputeRequest; meta: ExportMeta };

/** Messages engine worker → main. */
export type EngineResponseMessage =
  | { type: 'ready'; backend: BackendInfo }
  | { type: 'backend-changed'; backend: BackendInfo; why: string }
  | { type: 'result'; id: number; result: ComputeResult }
  | { type: 'progress'; id: number; done: number; total: number; label?: string }
  | { type: 'analysis'; id: number; value: unknown }
  | { type: 'stats'; id: number; stats: { liveBuffers: number; liveBytes: number; created: number } }
  | { type: 'error'; id: number; error: SerializedEngineError }
  | { type: 'export'; id: number; json: string };

