/**
 * The training comparison as the reader configures it (the training panel, the `train=` URL key):
 * one task, 2–4 attention kinds trained side by side on the same data and seeds, and the model's
 * sizes. Pure data and pure functions (no DOM, no English): the setup, its bounds and defaults,
 * and `runSpecs`, which expands a setup into the runs the trainer executes. Its URL form
 * (`parseSetup` / `writeSetup`) is training-setup-url.ts.
 */
import type { ProjectionKind } from '../core/types';
import type { AttentionSpec, ShortConv, TaskConfig, TrainConfig, TrainFeatureMap } from '../core/train/types';
import { defaultTrainConfig, suggestedLr } from '../core/train/train-defaults';
import { mqarChance, TEXT_VOCAB } from '../core/train/tasks/index';
import type { TrainKind, TrainTask } from './training-kinds';

export * from './training-kinds';

export interface TrainingSetup {
  task: TrainTask;
  /** MQAR key–value pairs per sequence */
  pairs: number;
  seqLen: number;
  /** 2–4 distinct kinds */
  kinds: TrainKind[];
  dModel: number;
  heads: number;
  layers: number;
  mlp: boolean;
  shortConv: ShortConv;
  steps: number;
  batch: number;
  /** one entry per kind: a learning rate or 'auto' (the kind's tuned default, `autoLr`) */
  lr: (number | 'auto')[];
  /** number of seeds; seed s of every kind is `seed + s` (the same data, weights' seed and feature draws) */
  seeds: number;
  seed: number;
  /** random features m (FAVOR+, Hedgehog) */
  m: number;
  proj: ProjectionKind;
  /** window of the `-local` kinds (|i − j| < window) */
  window: number;
  /** LR sweep: every kind also at lr/3 and 3·lr; the panel shows each kind's best */
  sweep: boolean;
  /**
   * The transfer experiment (src/engine/transfer-runner.ts): train softmax for `steps`, swap every
   * layer's attention to each of `kinds` (1–4 feature maps, no local window) keeping the weights,
   * fine-tune `tune` steps beside the same map trained from scratch for `tune` steps; with
   * Hedgehog and `fit` > 0 also the variant whose feature maps were first fitted to the softmax
   * attention for `fit` steps.
   */
  transfer: boolean;
  tune: number;
  fit: number;
}

/** Bounds of every numeric field (the trainer's limits: d ≤ 256, ≤ 8 heads, 1–4 layers, L ≤ 1024). */
export const SETUP_LIMITS = {
  pairs: [1, 128],
  seqLen: [8, 1024],
  dModel: [8, 256],
  heads: [1, 8],
  layers: [1, 4],
  steps: [1, 20000],
  batch: [1, 256],
  seeds: [1, 5],
  seed: [0, 4_294_967_295],
  m: [2, 256],
  window: [1, 1024],
  tune: [1, 20000],
  fit: [0, 5000],
} as const satisfies Record<string, readonly [number, number]>;
export type NumericField = keyof typeof SETUP_LIMITS;

export const LR_RANGE = [1e-5, 1] as const;

/** MQAR vocabulary: the core's default (Zoology's 8192 learns too slowly in a browser). */
export const MQAR_VOCAB = defaultTrainConfig('mqar').task.vocab;

/**
 * The accuracy charts' chance line: MQAR's random-value guess (1/32 at the default vocabulary); none
 * for the text tasks, whose floor is the corpus's token frequencies rather than a uniform guess.
 */
export function chanceAccuracy(task: TrainTask): number | null {
  return task === 'mqar' ? mqarChance(MQAR_VOCAB) : null;
}

/**
 * The default comparison per backend: the core's default MQAR model (src/core/train/train-defaults.ts:
 * Zoology's 1-head, MLP-free model, one layer plus the token shift, at the core's sizes) and its
 * comparison, softmax vs 1 + elu vs FAVOR+ at equal width. The CPU twins run about 0.2–0.4 GFLOP/s
 * on this machine, so their default trains batches of 16 for at most 300 steps on 2 seeds instead of
 * 32 on 3 — the panel says so.
 */
export function defaultSetup(backend: 'cpu' | 'webgpu'): TrainingSetup {
  const gpu = backend === 'webgpu';
  const core = defaultTrainConfig('mqar');
  return {
    task: 'mqar',
    pairs: core.task.pairs,
    seqLen: core.task.seqLen,
    kinds: ['softmax', 'elu1', 'positive'],
    dModel: core.model.dModel,
    heads: core.model.heads,
    layers: core.model.layers,
    mlp: core.model.mlp,
    shortConv: core.model.shortConv,
    steps: gpu ? core.steps : Math.min(core.steps, 300),
    batch: gpu ? core.batch : 16,
    lr: ['auto', 'auto', 'auto'],
    seeds: gpu ? 3 : 2,
    seed: 1,
    m: 32,
    proj: 'orthogonal-chi',
    window: 8,
    sweep: false,
    transfer: false,
    tune: 150,
    fit: 100,
  };
}

/**
 * The lecture slide's comparison when the page has none configured. On the CPU twins the panel's
 * default takes minutes; the slide needs the gap within a lecturer's sentence or two: 8 pairs at
 * L = 32, 250 steps, batches of 16, 2 seeds (measured with scripts/train-cpu.ts, about 40 s in
 * Node: held-out query accuracy softmax 0.98–1.00, 1 + elu 0.19, FAVOR+ 0.17). With WebGPU on a
 * hardware adapter it is the default comparison.
 */
export function lectureSetup(backend: 'cpu' | 'webgpu'): TrainingSetup {
  const base = defaultSetup(backend);
  if (backend === 'webgpu') return base;
  return { ...base, pairs: 8, seqLen: 32, steps: 250, batch: 16, seeds: 2 };
}

/** Default kinds when a task is picked in the panel (local truncation compares windowed and full 1 + elu). */
export const TASK_KINDS: Record<TrainTask, TrainKind[]> = {
  mqar: ['softmax', 'elu1', 'positive'],
  lm: ['softmax', 'elu1', 'positive'],
  mlm: ['softmax', 'elu1', 'positive'],
  local: ['elu1', 'elu1-local', 'softmax'],
};

/** The sizes and length of a task's core default (train-defaults.ts): MQAR's, or the grammar's for lm, mlm and local. */
export function taskSizes(
  task: TrainTask,
): Pick<TrainingSetup, 'seqLen' | 'dModel' | 'heads' | 'layers' | 'mlp' | 'shortConv' | 'steps' | 'batch'> {
  const core = defaultTrainConfig(task === 'local' ? 'mlm' : task);
  const { dModel, heads, layers, mlp, shortConv } = core.model;
  return { seqLen: core.task.seqLen, dModel, heads, layers, mlp, shortConv, steps: core.steps, batch: core.batch };
}

/** The tuned default learning rate of a kind on a task: the best of the core's small sweeps (`suggestedLr`). */
export function autoLr(kind: TrainKind, task: TrainTask = 'mqar'): number {
  return suggestedLr(
    attentionSpec(kind, { m: 32, proj: 'orthogonal-chi', window: 8 }),
    task === 'local' ? 'mlm' : task,
  );
}

export function kindLr(setup: TrainingSetup, i: number): number {
  const v = setup.lr[i] ?? 'auto';
  return v === 'auto' ? autoLr(setup.kinds[i], setup.task) : v;
}

/** One run of a comparison: a kind, a seed, a learning rate and the trainer's configuration. */
export interface RunSpec {
  /** index in the comparison (the order runs are stepped in) */
  index: number;
  kind: TrainKind;
  seed: number;
  lr: number;
  /** the LR sweep's factor (1 without a sweep) */
  lrFactor: number;
  config: TrainConfig;
}

export const SWEEP_FACTORS = [1 / 3, 1, 3] as const;

export function attentionSpec(kind: TrainKind, setup: Pick<TrainingSetup, 'm' | 'proj' | 'window'>): AttentionSpec {
  if (kind === 'softmax') return { kind: 'softmax' };
  const local = kind.endsWith('-local');
  const map = (local ? kind.slice(0, -'-local'.length) : kind) as TrainFeatureMap;
  return { kind: 'linear', map, m: setup.m, proj: setup.proj, redraw: 0, window: local ? setup.window : 0 };
}

export function taskConfig(setup: TrainingSetup): TaskConfig {
  const kind = setup.task === 'local' ? 'mlm' : setup.task;
  return {
    kind,
    pairs: setup.pairs,
    seqLen: setup.seqLen,
    vocab: kind === 'mqar' ? MQAR_VOCAB : TEXT_VOCAB,
    maskRate: 0.15,
  };
}

/** The trainer's configuration of one run: the sizes of the setup, the core's optimizer settings for the task (AdamW, clip, warm-up ≤ 10% of the steps). */
export function trainConfig(setup: TrainingSetup, kind: TrainKind, seed: number, lr: number): TrainConfig {
  const task = taskConfig(setup);
  const core = defaultTrainConfig(task.kind);
  return {
    model: {
      vocab: task.vocab,
      seqLen: setup.seqLen,
      dModel: setup.dModel,
      heads: setup.heads,
      layers: setup.layers,
      mlp: setup.mlp,
      tied: true,
      causal: task.kind !== 'mlm',
      attention: attentionSpec(kind, setup),
      shortConv: setup.shortConv,
    },
    task,
    optimizer: {
      ...core.optimizer,
      lr,
      warmup: Math.min(core.optimizer.warmup, Math.max(1, Math.round(setup.steps / 10))),
    },
    batch: setup.batch,
    steps: setup.steps,
    // about 20 held-out points per curve
    evalEvery: Math.max(5, Math.round(setup.steps / 20)),
    seed,
  };
}

/** Every run of a comparison, kinds outermost (so run i / (seeds · factors) is its kind). */
export function runSpecs(setup: TrainingSetup): RunSpec[] {
  const out: RunSpec[] = [];
  const factors = setup.sweep ? SWEEP_FACTORS : [1];
  setup.kinds.forEach((kind, k) => {
    for (const f of factors)
      for (let s = 0; s < setup.seeds; s++) {
        const lr = kindLr(setup, k) * f;
        out.push({
          index: out.length,
          kind,
          seed: setup.seed + s,
          lr,
          lrFactor: f,
          config: trainConfig(setup, kind, setup.seed + s, lr),
        });
      }
  });
  return out;
}
