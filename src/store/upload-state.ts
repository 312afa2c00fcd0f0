/**
 * The uploaded-inputs slice of the store (types only, plus the empty state). Uploaded matrices are
 * plain typed arrays in the store — structured-cloneable like the rest — but never in the URL: the
 * URL only says `input=uploaded`.
 */
import type { UploadNote, UploadProblem, UploadSlot } from '../core/upload';
import type { TrainedSelection } from '../core/trained/configs';
import type { AttentionParams, Matrix } from '../core/types';
import type { HeadsResult } from '../engine/protocol';

/** input=trained: the forward pass the head in force comes from (every head of the model on `tokens`). */
export interface TrainedRun extends HeadsResult {
  tokens: Int32Array;
}

export interface UploadedFileInfo {
  name: string;
  bytes: number;
  format: 'npy' | 'csv';
  dtype: 'float32' | 'float64' | 'text';
  notes: UploadNote[];
  rows: number;
  cols: number;
}

export interface StagedMatrix {
  matrix: Matrix;
  file: UploadedFileInfo;
}

export interface UploadedInputs {
  /** changes with every accepted upload; part of the analyses' dependency keys */
  id: string;
  n: number;
  d: number;
  q: StagedMatrix;
  k: StagedMatrix;
  /** absent: V is the seeded Gaussian of the generated inputs (from `seed`) */
  v: StagedMatrix | null;
  /** root mean square of the Q and K entries (shown as the data's norm scale) */
  rms: number;
  /** input=trained: the bundled model's head these Q, K, V are (src/store/trained.ts); absent for files */
  trained?: TrainedSelection;
  /** input=trained: the engine's forward pass the head was cut from (the picker shows all its heads) */
  heads?: TrainedRun;
  /** generated-input parameters in force before the upload, restored on removal (causal: set by a trained head) */
  before: Pick<AttentionParams, 'n' | 'd' | 'scale' | 'input'> & { causal?: boolean };
}

export interface UploadErrorInfo {
  /** increases with every rejection (so the same problem twice is still news) */
  seq: number;
  slot: UploadSlot | null;
  file: string;
  problem: UploadProblem;
}

export interface UploadState {
  /** the Q, K (V) every panel computes on; null = generated inputs */
  active: UploadedInputs | null;
  /** files accepted on their own, waiting for their partner (e.g. Q before K) */
  staged: Partial<Record<UploadSlot, StagedMatrix>>;
  error: UploadErrorInfo | null;
  /**
   * input=trained: the latest selection whose forward pass is on its way (the head in force, if
   * any, stays until it arrives); an answer for any other `seq` is stale and dropped
   */
  pendingTrained?: { selection: TrainedSelection; seq: number } | null;
}

export const EMPTY_UPLOAD: UploadState = { active: null, staged: {}, error: null };

/** Parameters that follow the uploaded files and cannot be changed while they are in use. */
export const UPLOAD_LOCKED_PARAMS = ['n', 'd', 'scale', 'input'] as const;
export type UploadLockedParam = (typeof UPLOAD_LOCKED_PARAMS)[number];

export function isUploadLocked(key: string): key is UploadLockedParam {
  return (UPLOAD_LOCKED_PARAMS as readonly string[]).includes(key);
}
