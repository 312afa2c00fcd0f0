/**
 * The URL form of a training setup (training-setup.ts), the value of the `train=` key: `parseSetup`
 * is strict like every URL key (a bad field is rejected with a structured reason and the field
 * keeps its previous value), `writeSetup` is its inverse.
 *
 * URL format (only characters URLSearchParams leaves alone, plus spaces, which it writes as `+`):
 *   train=task.mqar_pairs.8_L.64_kinds.softmax+elu1+positive_d.64_h.1_layers.2_mlp.0_conv.none_steps.400_lr.auto_seeds.3_m.64_proj.orthogonal-chi
 * fields `key.value` joined by `_`; lists (kinds, lr) are space-separated; lr is `auto` (the tuned
 * default of each kind) or one learning rate per kind in the kinds' order, each a decimal or `auto`.
 */
import type { ProjectionKind } from '../core/types';
import { PROJECTIONS } from '../core/types';
import type { ShortConv } from '../core/train/types';
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
import { LR_RANGE, SETUP_LIMITS, type NumericField, type TrainingSetup } from './training-setup';

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
