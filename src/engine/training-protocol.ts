/**
 * Messages between the page and the training worker (src/engine/training-worker.ts). The training
 * worker is its own worker, so a comparison that trains for a minute never delays the explainer's
 * computes and analyses. Everything is structured-cloneable; errors are plain objects.
 */
import type { HeadConcentration } from '../core/train/transfer';
import type { ParamTensor, StepRecord } from '../core/train/types';
import type { SerializedEngineError } from './protocol';
import type { TrainKind, TrainingSetup } from './training-setup';

export type TrainingBackend = 'cpu' | 'webgpu';

export type TrainingRequest =
  /** `setup` null: the backend's default comparison (the CPU twins get the smaller one) */
  /**
   * `gpu`: 'auto' trains on WebGPU unless the adapter is a software rasterizer (SwiftShader runs on the
   * CPU cores themselves and trains no faster than the CPU twins), 'force' on any adapter (`?trainer=webgpu`), 'off' never
   */
  | {
      type: 'start';
      id: number;
      setup: TrainingSetup | null;
      gpu: 'auto' | 'force' | 'off';
      /** which default a null setup means: the panel's, or the lecture slide's shorter one (lectureSetup) */
      defaults?: 'panel' | 'lecture';
    }
  | { type: 'pause'; id: number }
  | { type: 'resume'; id: number }
  | { type: 'cancel'; id: number }
  /** the trained parameters of one run of the last comparison (kept until the next start) */
  | { type: 'weights'; id: number; run: number };

/** A run's part in the transfer experiment (src/engine/transfer-setup.ts). */
export type TransferRole = 'softmax' | 'finetune' | 'scratch' | 'fitted';

export interface RunInfo {
  index: number;
  /** transfer experiment only */
  role?: TransferRole;
  kind: TrainKind;
  seed: number;
  lr: number;
  lrFactor: number;
  /** FLOPs of one optimizer step of this run (src/core/train/flops.ts) */
  flopsPerStep: number;
}

/** One step of one run. */
export interface RunStep {
  run: number;
  record: StepRecord;
}

export interface TrainingProgress {
  /** optimizer steps done over all runs, and their total */
  done: number;
  total: number;
  elapsedMs: number;
  /**
   * remaining time: FLOPs left ÷ the measured rate (null until a step after the first round is timed:
   * a trainer's first step compiles its GPU pipelines, so the rate leaves that round out)
   */
  etaMs: number | null;
  /** measured training throughput, GFLOP/s (null before the first steps) */
  gflops: number | null;
}

/** Attention maps of one run at the end: [layer][head] L×L on the comparison's example sequence. */
export interface RunMaps {
  run: number;
  seqLen: number;
  maps: Float32Array[][];
}

/**
 * What the transfer experiment measures between its two phases: the softmax models' per-head
 * concentration (held-out set), every phase-2 run's held-out numbers before its first step (step 0:
 * the swapped model as it is, the fitted one after its fit, the scratch run at its init), FAVOR+'s
 * step-0 numbers at several m, and the Hedgehog fits' held-out KL before and after.
 */
export interface TransferReport {
  concentration: { seed: number; heads: HeadConcentration[] }[];
  step0: { run: number; loss: number; accuracy: number }[];
  favorM: { seed: number; m: number; loss: number; accuracy: number }[];
  fits: { run: number; before: number; after: number; steps: number }[];
  /** attention maps on the example sequence of the first seed's softmax model and of its swapped (and fitted) models at step 0 */
  maps: RunMaps[];
}

export type TrainingResponse =
  | {
      type: 'started';
      id: number;
      backend: TrainingBackend;
      /** the adapter, or why the CPU twins train */
      device: string;
      /** the setup actually run (the backend's default when the request had none) */
      setup: TrainingSetup;
      /** true when the CPU twins run the smaller default because no WebGPU trainer is available */
      reduced: boolean;
      runs: RunInfo[];
    }
  | { type: 'steps'; id: number; steps: RunStep[]; progress: TrainingProgress }
  | { type: 'transfer'; id: number; report: TransferReport }
  | { type: 'paused'; id: number; progress: TrainingProgress }
  | { type: 'resumed'; id: number }
  | {
      type: 'done';
      id: number;
      progress: TrainingProgress;
      /** the example whose maps are shown: its tokens (B = 1) */
      exampleTokens: Int32Array;
      maps: RunMaps[];
    }
  | { type: 'cancelled'; id: number; progress: TrainingProgress | null }
  /** `params` null with `error` when the run's weights could not be read */
  | { type: 'weights'; id: number; run: number; params: ParamTensor[] | null; error?: string }
  | { type: 'error'; id: number; error: SerializedEngineError };
