/**
 * The bundled trained models: the exact training configurations
 * `npm run train:bundled` (scripts/train-bundled.ts) runs on the CPU twins, each with a fixed seed,
 * so the committed weights are reproducible bit for bit on the CPU backend. Both use exact softmax
 * attention, are causal, and have several heads so the head picker has something to pick:
 * - mqar: the default MQAR task (K = 16 pairs, L = 64, vocabulary 64) on the default 1 layer, with 2 heads,
 *   d = 32 (dh = 16), token shift, no MLP;
 * - grammar: next-token LM on the seeded grammar (tasks/text.ts, vocabulary 50, L = 64),
 *   2 layers × 2 heads, d = 32 (dh = 16), with the MLP.
 */
import { defaultTrainConfig } from '../train/train-defaults';
import type { TrainConfig } from '../train/types';

export const TRAINED_MODELS = ['mqar', 'grammar'] as const;
export type TrainedModelId = (typeof TRAINED_MODELS)[number];

/**
 * One head of a bundled model on one of its examples (`input=trained&model=…&layer=…&head=…&example=…`)
 * or, for the grammar model, on typed text (`…&text=…` instead of `example=`; src/core/trained/sequence.ts).
 */
export interface TrainedSelection {
  model: TrainedModelId;
  layer: number;
  head: number;
  /** the example (0 while `text` is set) */
  example: number;
  /** typed text (models with a tokenizer only), as the tokenizer writes it back (canonical words) */
  text?: string;
}

export function isTrainedModelId(s: string): s is TrainedModelId {
  return (TRAINED_MODELS as readonly string[]).includes(s);
}

export function bundledConfig(id: TrainedModelId): TrainConfig {
  if (id === 'mqar') {
    const base = defaultTrainConfig('mqar');
    return {
      ...base,
      model: { ...base.model, heads: 2 },
      steps: 600,
      evalEvery: 100,
      seed: 15,
    };
  }
  // sizes pinned to the committed run (the panel's text defaults have moved since: L 32, batch 16, shift)
  const base = defaultTrainConfig('lm');
  return {
    ...base,
    model: { ...base.model, dModel: 32, heads: 2, layers: 2, seqLen: 64, shortConv: 'none' },
    task: { ...base.task, seqLen: 64 },
    batch: 32,
    steps: 400,
    evalEvery: 100,
    seed: 15,
  };
}
