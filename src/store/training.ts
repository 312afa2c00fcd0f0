/**
 * The training slice of the one store: the configured comparison (`setup`, null = the backend's
 * default, which is what a page without `train=` shows), and the comparison last started — its
 * runs, their curves (grown batch by batch from the worker's step messages), progress, the
 * estimate, the attention maps at the end, or the error. Plain data only; `applyTrainingMessage`
 * is the pure reducer of the worker's messages (src/engine/training-protocol.ts).
 */
import type { StepRecord } from '../core/train/types';
import type {
  RunInfo,
  RunMaps,
  TrainingBackend,
  TrainingProgress,
  TrainingResponse,
  TransferReport,
} from '../engine/training-protocol';
import type { TrainingSetup } from '../engine/training-setup';
import type { ComparisonRecord, SeriesState } from './training-series';

export type TrainingStatus = 'idle' | 'starting' | 'running' | 'paused' | 'done' | 'cancelled' | 'error';

/** One run's curves: training loss/accuracy at every step, held-out loss/accuracy at the eval steps. */
export interface RunCurve {
  steps: number[];
  loss: number[];
  accuracy: number[];
  evalSteps: number[];
  evalLoss: number[];
  evalAccuracy: number[];
  last: StepRecord | null;
}

export interface TrainingState {
  /** the configured comparison (null: the backend's default; the URL then has no `train=`) */
  setup: TrainingSetup | null;
  status: TrainingStatus;
  /** id of the comparison in the worker (0: none yet) */
  id: number;
  backend: TrainingBackend | null;
  /** the adapter, or why the CPU twins train */
  device: string | null;
  /** the CPU twins run the smaller default comparison */
  reduced: boolean;
  /** the setup of the comparison shown (what actually ran) */
  ran: TrainingSetup | null;
  runs: RunInfo[];
  curves: RunCurve[];
  progress: TrainingProgress | null;
  error: { code: string; message: string } | null;
  maps: RunMaps[] | null;
  exampleTokens: Int32Array | null;
  /** the transfer experiment's report between its phases (null: none yet, or a comparison) */
  transfer: TransferReport | null;
  /** the series being trained (src/store/training-series.ts), null when none */
  series: SeriesState | null;
  /** the final numbers of the comparisons finished on this page, oldest first */
  history: ComparisonRecord[];
}

export const INITIAL_TRAINING: TrainingState = {
  setup: null,
  status: 'idle',
  id: 0,
  backend: null,
  device: null,
  reduced: false,
  ran: null,
  runs: [],
  curves: [],
  progress: null,
  error: null,
  maps: null,
  exampleTokens: null,
  transfer: null,
  series: null,
  history: [],
};

/** A run's curve before its first record. */
export const emptyCurve = (): RunCurve => ({
  steps: [],
  loss: [],
  accuracy: [],
  evalSteps: [],
  evalLoss: [],
  evalAccuracy: [],
  last: null,
});

/** The state after `msg` (a message of comparison `s.id`; others are ignored). */
export function applyTrainingMessage(s: TrainingState, msg: TrainingResponse): TrainingState {
  if (msg.id !== s.id) return s;
  switch (msg.type) {
    case 'started':
      return {
        ...s,
        status: 'running',
        backend: msg.backend,
        device: msg.device,
        reduced: msg.reduced,
        ran: msg.setup,
        runs: msg.runs,
        curves: msg.runs.map(emptyCurve),
        error: null,
        maps: null,
        transfer: null,
      };
    case 'steps': {
      // copy only the curves that grew (a batch holds a frame's steps of every run)
      const curves = s.curves.slice();
      const touched = new Set<number>();
      for (const { run, record } of msg.steps) {
        if (!curves[run]) continue;
        if (!touched.has(run)) {
          const c = curves[run];
          curves[run] = {
            steps: c.steps.slice(),
            loss: c.loss.slice(),
            accuracy: c.accuracy.slice(),
            evalSteps: c.evalSteps.slice(),
            evalLoss: c.evalLoss.slice(),
            evalAccuracy: c.evalAccuracy.slice(),
            last: c.last,
          };
          touched.add(run);
        }
        const c = curves[run];
        c.steps.push(record.step);
        c.loss.push(record.loss);
        c.accuracy.push(record.accuracy);
        if (record.evalLoss !== undefined && record.evalAccuracy !== undefined) {
          c.evalSteps.push(record.step);
          c.evalLoss.push(record.evalLoss);
          c.evalAccuracy.push(record.evalAccuracy);
        }
        c.last = record;
      }
      return { ...s, curves, progress: msg.progress };
    }
    case 'transfer':
      return { ...s, transfer: msg.report };
    case 'paused':
      return { ...s, status: 'paused', progress: msg.progress };
    case 'resumed':
      return { ...s, status: 'running' };
    case 'done':
      return { ...s, status: 'done', progress: msg.progress, maps: msg.maps, exampleTokens: msg.exampleTokens };
    case 'cancelled':
      return { ...s, status: 'cancelled', progress: msg.progress ?? s.progress };
    case 'error':
      return { ...s, status: 'error', error: { code: msg.error.code, message: msg.error.message } };
    case 'weights':
      return s;
  }
}

export function isTraining(s: TrainingState): boolean {
  return s.status === 'starting' || s.status === 'running' || s.status === 'paused';
}
