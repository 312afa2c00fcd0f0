/**
 * The engine's public face (what the store and the embeds program against); src/engine/engine-client.ts
 * implements it over the workers.
 */
import type { BackendInfo } from '../core/attention-job';
import type { ExportMeta } from './export-state';
import type { ComputeRequest, ComputeResult, HeadsRequest, HeadsResult, RateSample } from './protocol';
import type { SpeedProgress, SpeedRequest, SpeedResult } from '../core/speed-model';

export interface EngineStats {
  liveBuffers: number;
  liveBytes: number;
  created: number;
  /** computes the engine worker actually ran (superseded requests never start) */
  computesRun: number;
}

export interface AnalyzeOptions {
  /** `detail`: op-specific partial results (e.g. the Hedgehog loss curve so far) */
  onProgress?: (done: number, total: number, label?: string, detail?: unknown) => void;
  signal?: AbortSignal;
  /** order in the analysis worker's queue: lower first (src/engine/analysis-queue.ts) */
  priority?: number;
  /**
   * Once the op has finished: its own run time in its worker (ms), its wait in the queue or for the
   * GPU excluded. Not reported for a sweep split into shards over the pool (no single worker ran it).
   */
  onRunMs?: (ms: number) => void;
}

export interface SpeedOptions {
  onProgress?: (p: SpeedProgress) => void;
  signal?: AbortSignal;
}

export interface EngineClient {
  /** The settled backend: WebGPU once its pipelines are compiled, else the CPU fallback. */
  readonly ready: Promise<BackendInfo>;
  /** The first backend able to compute: the CPU stand-in while WebGPU starts, else `ready`'s. */
  readonly started: Promise<BackendInfo>;
  /** Backend the next compute runs on (null before `started`). */
  backend(): BackendInfo | null;
  /** True while the CPU stand-in computes and the WebGPU worker is still compiling. */
  warming(): boolean;
  /** A timed run of the settled WebGPU backend right after its warm-up (null when none). */
  calibration(): RateSample | null;
  /** The backend was replaced after a failure (e.g. a lost GPU device), with the reason. */
  onBackendChange(cb: (b: BackendInfo, why: string) => void): () => void;
  /** A planned switch: the settled backend took over from the stand-in (warming = false), or the stand-in took over again while WebGPU restarts (warming = true). */
  onSwitch(cb: (b: BackendInfo, warming: boolean) => void): () => void;
  compute(req: ComputeRequest): Promise<ComputeResult>;
  /** Stop the newest compute for real; its promise rejects with 'cancelled'. False if none was running. */
  cancel(): boolean;
  analyze<T>(op: string, payload: unknown, opts?: AnalyzeOptions): Promise<T>;
  stats(): Promise<EngineStats>;
  /** The experiment of `req` (n ≤ EXPORT_MAX_N) as JSON text: dense matrices from the CPU twins plus `meta`. */
  exportState(req: ComputeRequest, meta: ExportMeta): Promise<string>;
  /** Time every method vs n on the engine's backend (src/engine/speed.ts); rejects 'cancelled' on abort. */
  speed(req: SpeedRequest, opts?: SpeedOptions): Promise<SpeedResult>;
  /**
   * Q, K, V of every head of a bundled trained model on `req.tokens`, from the settled backend (the
   * WGSL forward pass on WebGPU, the CPU twin otherwise; it does not wait for the warm-up); says which computed it.
   */
  heads(req: HeadsRequest): Promise<HeadsResult>;
  /** Test hook: destroy the GPU device to exercise device-loss recovery. */
  loseDevice(): Promise<void>;
  dispose(): void;
}
