/**
 * Series of comparisons (the training panel's sweep view and Su's LM-vs-MLM claim): a list of setups that
 * differ in one thing — the number of MQAR pairs, FAVOR+'s m, or the task (causal LM, then the
 * bidirectional MLM on the same kinds) — trained one after the other; each finished comparison
 * leaves its final held-out numbers in `history`, which the series view charts (accuracy vs pairs
 * or m per kind) or tabulates (the gap per task). Pure functions; the controller runs the queue.
 */
import { taskSizes, type TrainingSetup } from '../engine/training-setup';
import type { TrainingState } from './training';
import { bestPerKind, summarize } from './training-summary';

export const SERIES_KINDS = ['pairs', 'm', 'lm-mlm'] as const;
export type SeriesKind = (typeof SERIES_KINDS)[number];

export const SWEEP_PAIRS = [2, 4, 8, 16] as const;
export const SWEEP_M = [8, 16, 32, 64] as const;

/** A finished comparison's final numbers (one row per kind: its best learning rate). */
export interface ComparisonRecord {
  setup: TrainingSetup;
  /** the series it belongs to (null: a single comparison) */
  series: { kind: SeriesKind; id: number } | null;
  finals: { kind: string; accuracy: number; accuracySpread: number; loss: number }[];
}

export interface SeriesState {
  kind: SeriesKind;
  id: number;
  /** setups still to train after the current one */
  queue: TrainingSetup[];
  total: number;
}

export const MAX_HISTORY = 24;

/**
 * The setups of a series built from `base`. Pairs: those with 3·pairs ≤ L (the sequence grows to
 * 3 × the largest when it is too short for two of them); m: only when a kind uses m; LM vs MLM: the
 * same kinds on both tasks, at each task's default sizes when `base` is an MQAR setup. Null when the
 * series does not apply to `base`.
 */
export function seriesSetups(kind: SeriesKind, base: TrainingSetup): TrainingSetup[] | null {
  if (kind === 'pairs') {
    const seqLen = Math.max(base.seqLen, 3 * SWEEP_PAIRS[SWEEP_PAIRS.length - 1]);
    return SWEEP_PAIRS.map((pairs) => ({ ...base, task: 'mqar' as const, pairs, seqLen }));
  }
  if (kind === 'm') {
    if (!base.kinds.some((k) => /^(positive|hedgehog)/.test(k))) return null;
    return SWEEP_M.map((m) => ({ ...base, m }));
  }
  // from an MQAR setup each task takes its tuned default sizes (train-defaults.ts); a text setup keeps the reader's
  const text = base.task !== 'mqar';
  return (['lm', 'mlm'] as const).map((task) => ({ ...base, ...(text ? {} : taskSizes(task)), task }));
}

export function recordOf(tr: TrainingState, series: ComparisonRecord['series']): ComparisonRecord | null {
  // a transfer experiment has its own view and numbers (training-transfer.ts), not a comparison's
  if (!tr.ran || tr.ran.transfer) return null;
  const finals = bestPerKind(summarize(tr))
    .filter((g) => g.final)
    .map((g) => ({
      kind: g.kind,
      accuracy: g.final!.accuracy,
      accuracySpread: g.final!.accuracySpread,
      loss: g.final!.loss,
    }));
  return { setup: tr.ran, series, finals };
}

/** The records of series `id`, in training order. */
export function seriesRecords(history: readonly ComparisonRecord[], id: number): ComparisonRecord[] {
  return history.filter((r) => r.series?.id === id);
}
