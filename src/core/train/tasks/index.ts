/**
 * The tasks' batches: makeBatch(task, batch, seed, index) is a pure function of its arguments, so a
 * (seed, step) pair names one batch on every backend and a link reproduces a run. The trainer takes
 * training batch i = makeBatch(task, B, seed, i) and the held-out set from the seed seed ^ 0x5eed.
 */
import type { Batch, TaskConfig } from '../types';
import { mqarBatch } from './mqar';
import { textBatch } from './text';

export { TEXT_VOCAB, MASK_TOKEN } from './text';
export { mqarChance } from './mqar';

export function makeBatch(task: TaskConfig, batch: number, seed: number, index: number): Batch {
  return task.kind === 'mqar' ? mqarBatch(task, batch, seed, index) : textBatch(task, batch, seed, index);
}
