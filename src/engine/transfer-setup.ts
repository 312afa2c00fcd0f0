/**
 * The runs of a transfer experiment (TrainingSetup with `transfer`): per seed s (seed + 0 … seeds − 1)
 *   softmax   — exact softmax trained for `steps` (its learning rate: softmax's tuned default);
 *   per map k of `kinds`:
 *     finetune — the softmax run's weights with every layer's attention swapped to k, trained `tune` steps;
 *     scratch  — k trained from its own init for `tune` steps (the same batches and seed);
 *     fitted   — Hedgehog only, when `fit` > 0: the swapped weights with the feature maps first fitted
 *                to the softmax attention for `fit` steps (src/core/train/hedgehog-distill.ts), then
 *                trained `tune` steps.
 * The fine-tune, scratch and fitted runs of one (map, seed) share one TrainConfig: the same batches
 * makeBatch(task, B, seed, t), the same FAVOR+ draw, the same schedule over `tune` steps.
 * Pure; the runner (transfer-runner.ts) executes them.
 */
import type { TrainConfig } from '../core/train/types';
import type { TransferRole } from './training-protocol';
import { autoLr, defaultSetup, kindLr, trainConfig, type TrainKind, type TrainingSetup } from './training-setup';

/**
 * The default transfer experiment: MQAR with 8 pairs at L = 32 (one layer + token shift, d = 32,
 * one head), softmax trained 250 steps, then FAVOR+ (m = 32) and Hedgehog (m = 32, and fitted for
 * 50 steps) fine-tuned 100 steps beside the same maps from scratch, on 2 seeds with the CPU twins
 * (about two minutes on a shared 2-core machine in Node: docs/transfer-measured.md) and on 3 seeds, 400 +
 * 200 steps, fit 100, with WebGPU. MQAR because the drop and the recovery are both large there:
 * the trained softmax head is sharp (a lookup), and linear attention from scratch learns the task
 * slowly, so the fine-tuned model's lead over the scratch one is the transferred weights' worth.
 */
export function transferSetup(backend: 'cpu' | 'webgpu'): TrainingSetup {
  const gpu = backend === 'webgpu';
  return {
    ...defaultSetup(backend),
    pairs: 8,
    seqLen: 32,
    kinds: ['positive', 'hedgehog'],
    lr: ['auto', 'auto'],
    batch: 16,
    steps: gpu ? 400 : 250,
    seeds: gpu ? 3 : 2,
    m: 32,
    sweep: false,
    transfer: true,
    tune: gpu ? 200 : 100,
    fit: gpu ? 100 : 50,
  };
}

export interface TransferSpec {
  index: number;
  role: TransferRole;
  kind: TrainKind;
  seed: number;
  lr: number;
  config: TrainConfig;
  /** the index of this seed's softmax run (its own index for a softmax run) */
  source: number;
}

/** FAVOR+'s features at which the swapped softmax model is evaluated without fine-tuning (besides the setup's m). */
export const TRANSFER_FAVOR_M = [16, 64, 256] as const;

export function transferSpecs(setup: TrainingSetup): TransferSpec[] {
  const out: TransferSpec[] = [];
  const seeds = Array.from({ length: setup.seeds }, (_, s) => setup.seed + s);
  const sources = new Map<number, number>();
  for (const seed of seeds) {
    const lr = autoLr('softmax');
    sources.set(seed, out.length);
    out.push({
      index: out.length,
      role: 'softmax',
      kind: 'softmax',
      seed,
      lr,
      config: trainConfig(setup, 'softmax', seed, lr),
      source: out.length,
    });
  }
  const tuned = { ...setup, steps: setup.tune };
  setup.kinds.forEach((kind, k) => {
    const lr = kindLr(setup, k);
    const roles: TransferRole[] = ['finetune', 'scratch'];
    if (kind === 'hedgehog' && setup.fit > 0) roles.push('fitted');
    for (const role of roles)
      for (const seed of seeds) {
        out.push({
          index: out.length,
          role,
          kind,
          seed,
          lr,
          config: trainConfig(tuned, kind, seed, lr),
          source: sources.get(seed)!,
        });
      }
  });
  return out;
}

/** Optimizer steps of the whole experiment (the Hedgehog fit's steps included). */
export function transferTotalSteps(setup: TrainingSetup): number {
  return transferSpecs(setup).reduce(
    (a, s) => a + (s.role === 'softmax' ? setup.steps : setup.tune + (s.role === 'fitted' ? setup.fit : 0)),
    0,
  );
}
