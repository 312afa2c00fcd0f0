/**
 * The training comparison as the reader configures it (the training panel, the `train=` URL key):
 * one task, 2–4 attention kinds trained side by side on the same data and seeds, and the model's
 * sizes. Pure data and pure functions (no DOM, no English): `parseSetup` is strict like every URL
 * key (a bad field is rejected with a structured reason and the field keeps its previous value),
 * `writeSetup` is its inverse, `runSpecs` expands a setup into the runs the trainer executes.
 *
 * URL format (only characters URLSearchParams leaves alone, plus spaces, which it writes as `+`):
 *   train=task.mqar_pairs.8_L.64_kinds.softmax+elu1+positive_d.64_h.1_layers.2_mlp.0_conv.none_steps.400_lr.auto_seeds.3_m.64_proj.orthogonal-chi
 * fields `key.value` joined by `_`; lists (kinds, lr) are space-separated; lr is `auto` (the tuned
 * default of each kind) or one learning rate per kind in the kinds' order, each a decimal or `auto`.
 */
import type { ProjectionKind } from '../core/types';
import { PROJECTIONS } from '../core/types';
import type { AttentionSpec, ShortConv, TaskConfig, TrainConfig, TrainFeatureMap } from '../core/train/types';
import { defaultTrainConfig, suggestedLr } from '../core/train/train-defaults';
import { TEXT_VOCAB } from '../core/train/tasks/index';
import {
  MAX_KINDS,
  MIN_KINDS,
  SHORT_CONVS,
  TRAIN_KINDS,
  TRAIN_TASKS,
  adaptKinds,
  isTransferKind,
  type TrainKind,
  type TrainTask,
} from './training-kinds';

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

export type SetupField = NumericField | 'task' | 'kinds' | 'mlp' | 'conv' | 'lr' | 'proj' | 'sweep' | 'transfer';

export type SetupReason = 'not-an-option' | 'out-of-range' | 'not-an-integer' | 'not-a-number' | 'too-long';
export interface SetupProblem {
  field: string;
  raw: string;
  reason: SetupReason;
}

/** URL name of each field (short where the panel's labels are the usual symbols). */
const KEY_OF: Record<string, string> = { seqLen: 'L', dModel: 'd', heads: 'h', shortConv: 'conv' };
const FIELD_OF: Record<string, string> = { L: 'seqLen', d: 'dModel', h: 'heads', conv: 'shortConv' };

const INT_RE = /^\d{1,10}$/;
const LR_RE = /^(\d{1,3}(\.\d{1,8})?|\.\d{1,8}|\d(\.\d{1,6})?e-\d{1,2})$/;
export const MAX_SETUP_LENGTH = 400;

function parseLr(raw: string): number | 'auto' | SetupReason {
  if (raw === 'auto' || raw === 'a') return 'auto';
  if (!LR_RE.test(raw)) return 'not-a-number';
  const v = Number(raw);
  return v >= LR_RANGE[0] && v <= LR_RANGE[1] ? v : 'out-of-range';
}

/**
 * Strict parse of a `train=` value onto `base` (the previous setup): every field that parses
 * replaces base's, every field that does not is reported and left as it was. Cross-field rules
 * (heads divide d, one lr per kind, distinct kinds) are checked on the result; a violation drops
 * the offending field back to base's value.
 */
export function parseSetup(raw: string, base: TrainingSetup): { setup: TrainingSetup; problems: SetupProblem[] } {
  const problems: SetupProblem[] = [];
  const reject = (field: string, value: string, reason: SetupReason) =>
    problems.push({ field, raw: value.slice(0, 40), reason });
  if (raw.length > MAX_SETUP_LENGTH) {
    reject('train', raw, 'too-long');
    return { setup: base, problems };
  }
  const next: TrainingSetup = { ...base, kinds: [...base.kinds], lr: [...base.lr] };
  let lrRaw: string | null = null;
  const seen = new Set<string>();
  // the mode first: the kinds a setup may list depend on it
  const modeRaw = raw.split('_').find((p) => p.startsWith('transfer.'));
  const transferMode = modeRaw === 'transfer.1' ? true : modeRaw === 'transfer.0' ? false : base.transfer;
  for (const part of raw.split('_')) {
    if (!part) continue;
    const dot = part.indexOf('.');
    const key = dot < 0 ? part : part.slice(0, dot);
    const value = dot < 0 ? '' : part.slice(dot + 1);
    const field = FIELD_OF[key] ?? key;
    if (seen.has(field)) continue; // the first one counts, like URLSearchParams.get
    seen.add(field);
    if (field in SETUP_LIMITS) {
      const [lo, hi] = SETUP_LIMITS[field as NumericField];
      if (!INT_RE.test(value)) reject(key, value, /^[\d.e+-]+$/i.test(value) ? 'not-an-integer' : 'not-a-number');
      else if (Number(value) < lo || Number(value) > hi) reject(key, value, 'out-of-range');
      else next[field as NumericField] = Number(value);
      continue;
    }
    switch (field) {
      case 'task':
        if ((TRAIN_TASKS as readonly string[]).includes(value)) next.task = value as TrainTask;
        else reject(key, value, 'not-an-option');
        break;
      case 'kinds': {
        const kinds = value.split(' ').filter(Boolean);
        const ok =
          kinds.length >= (transferMode ? 1 : MIN_KINDS) &&
          kinds.length <= MAX_KINDS &&
          new Set(kinds).size === kinds.length &&
          kinds.every((k) => (TRAIN_KINDS as readonly string[]).includes(k)) &&
          (!transferMode || kinds.every((k) => isTransferKind(k as TrainKind)));
        if (ok) next.kinds = kinds as TrainKind[];
        else reject(key, value, 'not-an-option');
        break;
      }
      case 'mlp':
      case 'sweep':
      case 'transfer':
        if (value === '1' || value === '0') next[field] = value === '1';
        else reject(key, value, 'not-an-option');
        break;
      case 'shortConv':
        if ((SHORT_CONVS as readonly string[]).includes(value)) next.shortConv = value as ShortConv;
        else reject(key, value, 'not-an-option');
        break;
      case 'proj':
        if ((PROJECTIONS as readonly string[]).includes(value)) next.proj = value as ProjectionKind;
        else reject(key, value, 'not-an-option');
        break;
      case 'lr':
        lrRaw = value;
        break;
      default:
        reject(key.slice(0, 12), value, 'not-an-option');
    }
  }
  // learning rates last: they are per kind, so they are read against the (new) kinds
  if (lrRaw !== null) {
    const items = lrRaw.split(' ').filter(Boolean);
    const parsed = items.map(parseLr);
    const bad = parsed.find((p): p is SetupReason => typeof p === 'string' && p !== 'auto');
    if (bad) reject('lr', lrRaw, bad);
    else if (parsed.length === 1) next.lr = next.kinds.map(() => parsed[0] as number | 'auto');
    else if (parsed.length === next.kinds.length) next.lr = parsed as (number | 'auto')[];
    else reject('lr', lrRaw, 'out-of-range');
  }
  // kinds: 2–4 for a comparison; 1–4 feature maps (no window) for the transfer experiment
  const kindsFit = (x: TrainingSetup) => (x.transfer ? x.kinds.every(isTransferKind) : x.kinds.length >= MIN_KINDS);
  if (!kindsFit(next)) {
    // kinds carried over from base across a switch of mode (a refused list keeps base's) are adapted
    next.kinds = adaptKinds(next.kinds, next.transfer);
    next.lr = next.kinds.map(() => 'auto');
  }
  if (next.transfer && next.sweep) {
    reject('sweep', '1', 'not-an-option');
    next.sweep = false;
  }
  if (next.lr.length !== next.kinds.length) next.lr = next.kinds.map((_, i) => base.lr[i] ?? 'auto');
  if (next.dModel % next.heads !== 0) {
    reject(seen.has('heads') ? 'h' : 'd', String(seen.has('heads') ? next.heads : next.dModel), 'out-of-range');
    next.heads = base.dModel % base.heads === 0 && next.dModel % base.heads === 0 ? base.heads : 1;
  }
  if (next.task === 'mqar' && 3 * next.pairs > next.seqLen) {
    // MQAR puts the K pairs (2K tokens) and K queries in the sequence (src/core/train/tasks/mqar.ts)
    reject('pairs', String(next.pairs), 'out-of-range');
    next.pairs = Math.max(1, Math.min(base.pairs, Math.floor(next.seqLen / 3)));
  }
  return { setup: next, problems };
}

export function writeSetup(s: TrainingSetup): string {
  const lrAllAuto = s.lr.every((v) => v === 'auto');
  const fields: [string, string][] = [
    ['task', s.task],
    ['pairs', String(s.pairs)],
    ['seqLen', String(s.seqLen)],
    ['kinds', s.kinds.join(' ')],
    ['dModel', String(s.dModel)],
    ['heads', String(s.heads)],
    ['layers', String(s.layers)],
    ['mlp', s.mlp ? '1' : '0'],
    ['shortConv', s.shortConv],
    ['steps', String(s.steps)],
    ['batch', String(s.batch)],
    ['lr', lrAllAuto ? 'auto' : s.lr.map((v) => (v === 'auto' ? 'auto' : String(v))).join(' ')],
    ['seeds', String(s.seeds)],
    ['seed', String(s.seed)],
    ['m', String(s.m)],
    ['proj', s.proj],
    ['window', String(s.window)],
    ['sweep', s.sweep ? '1' : '0'],
    ['transfer', s.transfer ? '1' : '0'],
    // the transfer's own steps only when it is on (they mean nothing in a comparison)
    ...(s.transfer
      ? ([
          ['tune', String(s.tune)],
          ['fit', String(s.fit)],
        ] as [string, string][])
      : []),
  ];
  return fields.map(([k, v]) => `${KEY_OF[k] ?? k}.${v}`).join('_');
}

export function sameSetup(a: TrainingSetup, b: TrainingSetup): boolean {
  return writeSetup(a) === writeSetup(b);
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
