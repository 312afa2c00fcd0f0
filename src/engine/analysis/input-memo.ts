/**
 * What the sweeps draw again and again, remembered per worker: Q, K and their scaled x, y by what they
 * depend on (input kind, n, d, seed, scale), W by (projection, m, d, feature seed) and V by (n, d, seed). A step of m
 * re-runs the error sweeps, whose inputs did not change (at the defaults the d sweep drew 8 input sets
 * and 32 W, the entropy-vs-n sweep 11 input sets up to n = 16 384, ~0.1 s and ~0.2 s of the host's
 * time); a coarse pass and its refinement draw the same sets; the beyond sweeps' W for every m of the
 * grid but the current one are the same after a step of m.
 *
 * Each entry is the generator's own result, so it is what a fresh draw gives, bit for bit. Callers get
 * the entry itself, read-only by contract: no op writes into its inputs (input-memo.test.ts runs every
 * op and checks each entry still equals a fresh draw). A copy per hit cost more than it saved: an
 * ArrayBuffer allocation in Chromium is ~20–100 µs at these sizes (4–64 KB), and without the copies the
 * GPU path's error-vs-d sweep took 14% less time, entropy vs n 8%, the norm sweep 5% (interleaved A/B,
 * SwiftShader). Least recently used entries go first once a memo's bytes pass its cap.
 */
import { DEFAULT_PARAMS } from '../../core/default-params';
import { scaleInputs, usesProjection } from '../../core/feature-maps';
import { projectionFor, queriesAndKeys, valuesFor } from '../../core/inputs';
import type { AttentionParams, Matrix } from '../../core/types';

export const QK_MEMO_BYTES = 24 * 2 ** 20;
export const W_MEMO_BYTES = 16 * 2 ** 20;
export const V_MEMO_BYTES = 8 * 2 ** 20;

/** A map from key to value that keeps the most recently used entries within `maxBytes`. */
export class ByteLru<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private used = 0;
  constructor(
    readonly maxBytes: number,
    private readonly bytesOf: (v: V) => number,
  ) {}
  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.value;
  }
  set(key: string, value: V): void {
    const old = this.entries.get(key);
    if (old) {
      this.used -= old.bytes;
      this.entries.delete(key);
    }
    const bytes = this.bytesOf(value);
    if (bytes > this.maxBytes) return; // larger than the whole memo: not kept
    this.entries.set(key, { value, bytes });
    this.used += bytes;
    for (const [k, e] of this.entries) {
      if (this.used <= this.maxBytes) break;
      this.entries.delete(k);
      this.used -= e.bytes;
    }
  }
  list(): [string, V][] {
    return [...this.entries].map(([k, e]) => [k, e.value]);
  }
  get bytes(): number {
    return this.used;
  }
  get size(): number {
    return this.entries.size;
  }
  clear(): void {
    this.entries.clear();
    this.used = 0;
  }
}

export interface ScaledQK {
  q: Matrix;
  k: Matrix;
  /** q, k scaled for the feature maps (feature-maps.ts scaleInputs) */
  x: Matrix;
  y: Matrix;
}

const qkMemo = new ByteLru<ScaledQK>(
  QK_MEMO_BYTES,
  (v) => 4 * (v.q.data.length + v.k.data.length + v.x.data.length + v.y.data.length),
);
const wMemo = new ByteLru<Matrix>(W_MEMO_BYTES, (w) => 4 * w.data.length);
const vMemo = new ByteLru<Matrix>(V_MEMO_BYTES, (v) => 4 * v.data.length);

/** What each memo's entries depend on, in key order: a key is these parameters joined by '|'. */
const KEY_FIELDS = {
  qk: ['input', 'n', 'd', 'seed', 'scale'],
  w: ['projection', 'm', 'd', 'featureSeed'],
  v: ['n', 'd', 'seed'],
} as const satisfies Record<string, readonly (keyof AttentionParams)[]>;
type MemoName = keyof typeof KEY_FIELDS;

const keyOf = (memo: MemoName, p: AttentionParams) => KEY_FIELDS[memo].map((f) => p[f]).join('|');

/** The parameters a key stands for (its fields over the defaults): what its entry must equal a fresh draw of. */
function paramsOfKey(memo: MemoName, key: string): AttentionParams {
  const parts = key.split('|');
  const fields = Object.fromEntries(
    KEY_FIELDS[memo].map((f, i) => [f, typeof DEFAULT_PARAMS[f] === 'number' ? Number(parts[i]) : parts[i]]),
  );
  return { ...DEFAULT_PARAMS, ...fields };
}

/** Q, K of the first n positions as generateInputs({ ...p, n }) draws them, and x, y. */
export function memoQK(p: AttentionParams, n: number): ScaledQK {
  const key = keyOf('qk', { ...p, n });
  let hit = qkMemo.get(key);
  if (!hit) {
    const { q, k } = queriesAndKeys({ ...p, n });
    hit = { q, k, x: scaleInputs(q), y: scaleInputs(k) };
    qkMemo.set(key, hit);
  }
  return hit;
}

/** W as generateInputs(p) draws it (0×d for maps without a projection). */
export function memoProjection(p: AttentionParams): Matrix {
  if (!usesProjection(p.featureMap)) return projectionFor(p);
  const key = keyOf('w', p);
  let hit = wMemo.get(key);
  if (!hit) {
    hit = projectionFor(p);
    wMemo.set(key, hit);
  }
  return hit;
}

/** V of the first n positions as generateInputs({ ...p, n }) draws it (the dense ops' output errors). */
export function memoValues(p: AttentionParams, n: number): Matrix {
  const key = keyOf('v', { ...p, n });
  let hit = vMemo.get(key);
  if (!hit) {
    hit = valuesFor({ ...p, n });
    vMemo.set(key, hit);
  }
  return hit;
}

const otherMemos: (() => void)[] = [];

/** Adds a memo of the analysis ops (A's spectra, the theory's moments) to what `clearAnalysisMemos` empties. */
export function registerAnalysisMemo(clear: () => void): void {
  otherMemos.push(clear);
}

/** Forget every memo of the analysis ops in this worker (benchmarks that time a cold run, as after a change of seed). */
export function clearAnalysisMemos(): void {
  qkMemo.clear();
  wMemo.clear();
  vMemo.clear();
  for (const clear of otherMemos) clear();
}

export interface MemoEntry<V> {
  key: string;
  /** what the entry was drawn for (its key's parameters over the defaults) */
  params: AttentionParams;
  value: V;
}

/** Every entry held, with the parameters it stands for (tests: the ops must leave them as drawn). */
export function memoEntries(): { qk: MemoEntry<ScaledQK>[]; w: MemoEntry<Matrix>[]; v: MemoEntry<Matrix>[] } {
  const entries = <V>(memo: MemoName, lru: ByteLru<V>) =>
    lru.list().map(([key, value]) => ({ key, params: paramsOfKey(memo, key), value }));
  return { qk: entries('qk', qkMemo), w: entries('w', wMemo), v: entries('v', vMemo) };
}

/** Bytes and entries held (tests). */
export function inputMemoStats(): { qk: { bytes: number; size: number }; w: { bytes: number; size: number } } {
  return { qk: { bytes: qkMemo.bytes, size: qkMemo.size }, w: { bytes: wMemo.bytes, size: wMemo.size } };
}
