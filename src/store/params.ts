/**
 * The experiment parameters as the UI sees them: defaults, the rule each one obeys, strict parsing
 * (for URLs and typed entry) and lenient coercion (for controls, which clamp). Pure functions, no
 * DOM, no English: problems come back as structured reasons that src/i18n words.
 */
import { LIMITS } from '../core/limits';
import { FEATURE_MAPS, INPUT_KINDS, PROJECTIONS, STABILIZERS, type AttentionParams } from '../core/types';
import { DEFAULT_PARAMS } from '../core/default-params';

export type ParamKey = keyof AttentionParams;

export { DEFAULT_PARAMS };

/** Largest seed (seeds are 32-bit unsigned integers in the generator). */
export const SEED_MAX = 4_294_967_295;
/** Standard deviation of q, k entries. Above ~2 the exact rows are one-hot and trig features overflow. */
export const SCALE_RANGE = { min: 0.01, max: 4 } as const;

export type ParamRule =
  | { kind: 'int'; min: number; max: number }
  | { kind: 'real'; min: number; max: number }
  | { kind: 'enum'; options: readonly string[] }
  | { kind: 'bool' };

export const PARAM_RULES: { readonly [K in ParamKey]: ParamRule } = {
  n: { kind: 'int', min: LIMITS.nMin, max: LIMITS.nMax },
  d: { kind: 'int', min: LIMITS.dMin, max: LIMITS.dMax },
  m: { kind: 'int', min: LIMITS.mMin, max: LIMITS.mMax },
  seed: { kind: 'int', min: 0, max: SEED_MAX },
  featureSeed: { kind: 'int', min: 0, max: SEED_MAX },
  featureMap: { kind: 'enum', options: FEATURE_MAPS },
  projection: { kind: 'enum', options: PROJECTIONS },
  causal: { kind: 'bool' },
  input: { kind: 'enum', options: INPUT_KINDS },
  scale: { kind: 'real', min: SCALE_RANGE.min, max: SCALE_RANGE.max },
  stabilizer: { kind: 'enum', options: STABILIZERS },
};

export type RejectReason =
  'not-a-number' | 'not-an-integer' | 'out-of-range' | 'not-an-option' | 'not-a-boolean' | 'too-long' | 'not-a-step';

export type ParseResult<T> = { ok: true; value: T } | { ok: false; reason: RejectReason };

/** Longest raw value looked at; anything longer is rejected without parsing. */
const MAX_RAW_LENGTH = 40;
const INT_RE = /^[+]?\d+$/;
const REAL_RE = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** Strict parse of a raw string (URL query, typed text): anything not exactly valid is rejected. */
export function parseParam<K extends ParamKey>(key: K, raw: string): ParseResult<AttentionParams[K]> {
  const rule = PARAM_RULES[key];
  const text = raw.trim();
  if (text.length > MAX_RAW_LENGTH) return { ok: false, reason: 'too-long' };
  type V = AttentionParams[K];
  switch (rule.kind) {
    case 'int': {
      if (!INT_RE.test(text)) return { ok: false, reason: REAL_RE.test(text) ? 'not-an-integer' : 'not-a-number' };
      const v = Number(text);
      if (!Number.isSafeInteger(v) || v < rule.min || v > rule.max) return { ok: false, reason: 'out-of-range' };
      return { ok: true, value: v as V };
    }
    case 'real': {
      if (!REAL_RE.test(text)) return { ok: false, reason: 'not-a-number' };
      const v = Number(text);
      if (!Number.isFinite(v) || v < rule.min || v > rule.max) return { ok: false, reason: 'out-of-range' };
      return { ok: true, value: v as V };
    }
    case 'enum':
      return rule.options.includes(text) ? { ok: true, value: text as V } : { ok: false, reason: 'not-an-option' };
    case 'bool': {
      const t = text.toLowerCase();
      if (t === '1' || t === 'true' || t === 'yes' || t === 'on') return { ok: true, value: true as V };
      if (t === '0' || t === 'false' || t === 'no' || t === 'off') return { ok: true, value: false as V };
      return { ok: false, reason: 'not-a-boolean' };
    }
  }
}

export type CoerceResult<T> = { ok: true; value: T; clampedFrom?: number } | { ok: false; reason: RejectReason };

/**
 * Lenient coercion for values coming from controls (numbers or strings): numbers outside the range
 * are clamped (and say so through `clampedFrom`); non-numbers, fractions for integer parameters,
 * unknown options are rejected.
 */
export function coerceParam<K extends ParamKey>(key: K, raw: unknown): CoerceResult<AttentionParams[K]> {
  const rule = PARAM_RULES[key];
  type V = AttentionParams[K];
  if (rule.kind === 'bool') {
    if (typeof raw === 'boolean') return { ok: true, value: raw as V };
    return typeof raw === 'string' ? parseParam(key, raw) : { ok: false, reason: 'not-a-boolean' };
  }
  if (rule.kind === 'enum') {
    return typeof raw === 'string' ? parseParam(key, raw) : { ok: false, reason: 'not-an-option' };
  }
  let v: number;
  if (typeof raw === 'number') v = raw;
  else if (typeof raw === 'string') {
    const text = raw.trim();
    if (text.length > MAX_RAW_LENGTH) return { ok: false, reason: 'too-long' };
    if (!REAL_RE.test(text)) return { ok: false, reason: 'not-a-number' };
    v = Number(text);
  } else return { ok: false, reason: 'not-a-number' };
  if (Number.isNaN(v)) return { ok: false, reason: 'not-a-number' };
  if (rule.kind === 'int' && Number.isFinite(v) && !Number.isInteger(v)) return { ok: false, reason: 'not-an-integer' };
  if (v < rule.min) return { ok: true, value: rule.min as V, clampedFrom: v };
  if (v > rule.max) return { ok: true, value: rule.max as V, clampedFrom: v };
  return { ok: true, value: v as V };
}

/** Whole-object check (e.g. state restored from JSON); returns the keys that break their rule. */
export function invalidKeys(p: Record<string, unknown>): ParamKey[] {
  const bad: ParamKey[] = [];
  for (const key of Object.keys(PARAM_RULES) as ParamKey[]) {
    const v = p[key];
    const rule = PARAM_RULES[key];
    const ok =
      rule.kind === 'bool'
        ? typeof v === 'boolean'
        : rule.kind === 'enum'
          ? typeof v === 'string' && rule.options.includes(v)
          : typeof v === 'number' &&
            Number.isFinite(v) &&
            v >= rule.min &&
            v <= rule.max &&
            (rule.kind === 'real' || Number.isInteger(v));
    if (!ok) bad.push(key);
  }
  return bad;
}

/** Slider stops for n: powers of two and their 1.5× between 16 and 65,536 (typed entry allows any n). */
export const N_STOPS: readonly number[] = (() => {
  const out: number[] = [];
  for (let p = 16; p <= LIMITS.nMax; p *= 2) {
    out.push(p);
    if (p * 1.5 <= LIMITS.nMax && p * 2 <= LIMITS.nMax) out.push(p * 1.5);
  }
  return out;
})();

/** Slider stops for d (1 … 256) and m (1 … 1,024): 1, 2, 3, 4, 6, 8, 12, 16, … */
function stops(max: number): number[] {
  const out = [1, 2, 3];
  for (let p = 4; p <= max; p *= 2) {
    out.push(p);
    if (p * 1.5 < max) out.push(p * 1.5);
  }
  return out;
}
export const D_STOPS: readonly number[] = stops(LIMITS.dMax);
export const M_STOPS: readonly number[] = stops(LIMITS.mMax);

/** Index of the stop nearest to v on a log scale. */
export function nearestStop(list: readonly number[], v: number): number {
  let best = 0;
  let bestDist = Infinity;
  for (let i = 0; i < list.length; i++) {
    const dist = Math.abs(Math.log(list[i]!) - Math.log(Math.max(v, 1e-9)));
    if (dist < bestDist) {
      best = i;
      bestDist = dist;
    }
  }
  return best;
}
