/**
 * The engine/UI boundary: what the UI may ask of the engine worker and what comes back. Everything
 * here is structured-cloneable (plain objects and typed arrays) so it crosses postMessage intact.
 */
import type { AttentionOutput, BackendInfo } from '../core/attention-job';
import type { EngineErrorCode } from '../core/errors';
import type { AttentionInputs, AttentionParams, Matrix } from '../core/types';
import type { ExportMeta } from './export-state';
import type { SpeedProgress, SpeedRequest, SpeedResult } from '../core/speed-model';
import type { TrainedModelId } from '../core/trained/configs';
import type { HeadInputs } from '../core/trained/heads';

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
  /**
   * The fitted W of `map=hedgehog` (src/engine/hedgehog-op.ts): `key` is the training key
   * (hedgehogKey of these params, plus the upload id), `w` is m × d. Required for that map.
   */
  fitted?: { key: string; w: Matrix };
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

/**
 * The part of a job's output that crosses to the main thread: what the panels read (the matrix
 * view, the pinned rows, the zero-normalizer count) and the small diagnostics (timings, bytes).
 * The n×d outputs, the per-row statistics (summarized in `metrics`) and the inputs stay in the
 * worker; an export that needs them asks the engine (`export` request, src/engine/export-state.ts).
 */
export type ResultOutput = Pick<AttentionOutput, 'view' | 'rows' | 'zeroNormalizerRows' | 'timings' | 'bytesAllocated'>;

export interface ComputeResult {
  id: number;
  params: AttentionParams;
  backend: BackendInfo;
  output: ResultOutput;
  metrics: AttentionMetrics;
  /** wall time in the worker from request to result */
  elapsedMs: number;
}

/** One timed run for the throughput model: its FLOPs (cost-model.ts) and wall time in the worker. */
export interface RateSample {
  flops: number;
  ms: number;
}

/** What `compute` returns inside the worker: the result plus the inputs and the full output. */
export interface FullComputeResult extends ComputeResult {
  inputs: AttentionInputs;
  output: AttentionOutput;
}

/** The result as posted to the main thread: only what is read there (see `ResultOutput`). */
export function slimResult(full: FullComputeResult): ComputeResult {
  const { view, rows, zeroNormalizerRows, timings, bytesAllocated } = full.output;
  return {
    id: full.id,
    params: full.params,
    backend: full.backend,
    output: { view, rows, zeroNormalizerRows, timings, bytesAllocated },
    metrics: full.metrics,
    elapsedMs: full.elapsedMs,
  };
}

/** `input=trained`: run bundled model `model` on `tokens` (src/engine/trained-heads.ts). */
export interface HeadsRequest {
  model: TrainedModelId;
  tokens: Int32Array;
}

/** Q, K, V of every (layer, head) of the model on the request's tokens, and where they were computed. */
export interface HeadsResult {
  model: TrainedModelId;
  /** [layer][head] → Q, K, V (L × dh) */
  heads: HeadInputs[][];
  /** 'webgpu': the WGSL forward pass (GpuModel.encodeForward); 'cpu': the CPU twin (modelForward) */
  backend: BackendInfo['kind'];
  /** the adapter of a WebGPU run (empty on the CPU) */
  adapter: string;
  /** wall time of the forward pass and readback in the worker */
  ms: number;
}

export interface SerializedEngineError {
  code: EngineErrorCode;
  message: string;
  detail?: Record<string, unknown>;
}

/** An analysis request. `priority`: lower runs first in the worker's queue (src/engine/analysis-queue.ts); default 0 */
export interface AnalyzeMessage {
  type: 'analyze';
  id: number;
  op: string;
  payload: unknown;
  priority?: number;
}

/** Messages main → engine worker. */
export type EngineRequestMessage =
  | {
      type: 'init';
      forceCpu: boolean;
      /** why this worker computes on the CPU when forced (shown by the page) */
      cpuReason?: string;
      /** compile the WebGPU pipelines with a small run before answering 'ready' */
      warmup?: boolean;
    }
  /** the request the page would compute now: the warm-up compiles the pipelines it needs */
  | { type: 'warmup'; request: ComputeRequest }
  | { type: 'compute'; id: number; request: ComputeRequest }
  | { type: 'cancel'; id: number }
  | { type: 'stats'; id: number }
  | AnalyzeMessage
  /**
   * The analyses the page asked in one task, as one message: the engine worker queues them all before
   * it picks the next one to run, so the whole burst goes by priority (worker-requests.ts `sendSoon`)
   */
  | { type: 'analyze-batch'; requests: AnalyzeMessage[] }
  | { type: 'lose-device'; id: number }
  /** every matrix of the experiment, dense, as JSON text (src/engine/export-state.ts) */
  | { type: 'export'; id: number; request: ComputeRequest; meta: ExportMeta }
  /**
   * The speed panel's timing run (src/engine/speed.ts). Not latest-wins with computes: a compute
   * neither cancels nor is cancelled by it (they take turns on the GPU, point by point); a newer
   * 'speed' request cancels the running one, and 'cancel' with its id stops it.
   */
  | { type: 'speed'; id: number; request: SpeedRequest }
  /** Q, K, V of a bundled trained model's heads on some tokens (WGSL on WebGPU, else the CPU twin) */
  | { type: 'heads'; id: number; request: HeadsRequest };

/** Messages engine worker → main. */
export type EngineResponseMessage =
  | { type: 'ready'; backend: BackendInfo; calibration?: RateSample }
  | { type: 'backend-changed'; backend: BackendInfo; why: string }
  | { type: 'result'; id: number; result: ComputeResult }
  | { type: 'progress'; id: number; done: number; total: number; label?: string; detail?: unknown }
  /** runMs: the op's own run time in the worker, its wait in the queue or for the GPU excluded */
  | { type: 'analysis'; id: number; value: unknown; runMs?: number }
  | {
      type: 'stats';
      id: number;
      stats: { liveBuffers: number; liveBytes: number; created: number; computesRun: number };
    }
  | { type: 'error'; id: number; error: SerializedEngineError }
  | { type: 'export'; id: number; json: string }
  | { type: 'speed-progress'; id: number; progress: SpeedProgress }
  | { type: 'speed'; id: number; result: SpeedResult }
  | { type: 'heads'; id: number; result: HeadsResult };
