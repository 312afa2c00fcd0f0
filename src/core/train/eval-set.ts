/**
 * The held-out set every backend evaluates on: EVAL_BATCHES batches makeBatch(task, B, seed ^ 0x5eed, i)
 * (a seed no training batch uses, so the numbers measure generalization to unseen sequences, and
 * a fixed set, so successive evaluations of one run are comparable).
 */
import { makeBatch } from './tasks/index';
import type { Batch, TrainConfig } from './types';

export const EVAL_BATCHES = 4;
export const EVAL_SEED_XOR = 0x5eed;

export function evalSet(cfg: TrainConfig): Batch[] {
  const out: Batch[] = [];
  for (let i = 0; i < EVAL_BATCHES; i++) out.push(makeBatch(cfg.task, cfg.batch, (cfg.seed ^ EVAL_SEED_XOR) >>> 0, i));
  return out;
}

/** Count-weighted mean loss and overall accuracy over batches of (loss, correct, count). */
export function pool(parts: readonly { loss: number; correct: number; count: number }[]): {
  loss: number;
  accuracy: number;
} {
  let loss = 0;
  let correct = 0;
  let count = 0;
  for (const p of parts) {
    loss += p.loss * p.count;
    correct += p.correct;
    count += p.count;
  }
  return count === 0 ? { loss: 0, accuracy: 0 } : { loss: loss / count, accuracy: correct / count };
}
