import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PARAMS } from '../../core/default-params';
import { scaleInputs } from '../../core/feature-maps';
import { generateInputs, projectionFor, queriesAndKeys, valuesFor } from '../../core/inputs';
import { PROJECTIONS } from '../../core/types';
import { ANALYSIS_OPS, runAnalysisOp, type WorkerOpName } from '.';
import {
  ByteLru,
  clearAnalysisMemos,
  inputMemoStats,
  memoEntries,
  memoProjection,
  memoQK,
  memoValues,
} from './input-memo';

describe('ByteLru', () => {
  it('keeps the most recently used entries within its byte cap, and none larger than the cap', () => {
    const lru = new ByteLru<number[]>(10, (v) => v.length);
    lru.set('a', [1, 2, 3, 4]);
    lru.set('b', [1, 2, 3, 4]);
    expect(lru.get('a')).toEqual([1, 2, 3, 4]); // a is now the most recent
    lru.set('c', [1, 2, 3]); // 11 bytes: b, the least recent, goes
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBeDefined();
    expect(lru.get('c')).toBeDefined();
    expect(lru.bytes).toBe(7);
    lru.set(
      'huge',
      Array.from({ length: 11 }, () => 0),
    );
    expect(lru.get('huge')).toBeUndefined();
    expect(lru.size).toBe(2);
    lru.set('a', [9]); // replacing an entry counts its new size only
    expect(lru.bytes).toBe(4);
  });
});

describe('input memos', () => {
  beforeEach(clearAnalysisMemos);

  it('memoQK hands out the Q, K of generateInputs and their scaled x, y, bit for bit, on a miss and on a hit', () => {
    for (const input of ['gaussian', 'clustered', 'local'] as const) {
      const p = { ...DEFAULT_PARAMS, input, d: 6 };
      const fresh = generateInputs({ ...p, n: 40 });
      for (let round = 0; round < 2; round++) {
        const got = memoQK(p, 40);
        expect(got.q).toEqual(fresh.q);
        expect(got.k).toEqual(fresh.k);
        expect(got.x).toEqual(scaleInputs(fresh.q));
        expect(got.y).toEqual(scaleInputs(fresh.k));
      }
    }
    expect(inputMemoStats().qk.size).toBe(3);
  });

  it('memoQK keys on everything Q and K depend on (n, d, seed, scale, input kind)', () => {
    const p = { ...DEFAULT_PARAMS, d: 4 };
    const base = memoQK(p, 32).q.data;
    for (const [q, n] of [
      [p, 33],
      [{ ...p, d: 5 }, 32],
      [{ ...p, seed: p.seed + 1 }, 32],
      [{ ...p, scale: p.scale * 1.5 }, 32],
      [{ ...p, input: p.input === 'gaussian' ? ('local' as const) : ('gaussian' as const) }, 32],
    ] as const) {
      const got = memoQK(q, n);
      expect(got.q).toEqual(generateInputs({ ...q, n }).q);
      expect(got.q.data).not.toEqual(base);
    }
    // m, the projection and the feature seed do not change Q, K: the same entry
    memoQK({ ...p, m: p.m * 2, featureSeed: p.featureSeed + 3 }, 32);
    expect(inputMemoStats().qk.size).toBe(6);
  });

  it('memoValues hands out the V of generateInputs, keyed on n, d and the seed', () => {
    for (const [n, d, seed] of [
      [40, 6, 1],
      [41, 6, 1],
      [40, 5, 1],
      [40, 6, 2],
    ] as const) {
      const p = { ...DEFAULT_PARAMS, d, seed };
      expect(memoValues(p, n)).toEqual(generateInputs({ ...p, n }).v);
      expect(memoValues({ ...p, m: 7, scale: 2, input: 'local' }, n)).toBe(memoValues(p, n)); // V depends on neither
    }
    expect(memoEntries().v).toHaveLength(4);
  });

  it('a hit hands out the entry itself, not a copy (no allocation per hit)', () => {
    const p = { ...DEFAULT_PARAMS, d: 4 };
    const a = memoQK(p, 16);
    expect(memoQK(p, 16)).toBe(a);
    expect(memoProjection(p)).toBe(memoProjection(p));
  });

  it('memoProjection draws the W of generateInputs for every projection kind, and keys on m, d and the feature seed', () => {
    for (const projection of PROJECTIONS)
      for (const [m, d, featureSeed] of [
        [8, 4, 1],
        [9, 4, 1],
        [8, 5, 1],
        [8, 4, 2],
      ] as const) {
        const p = { ...DEFAULT_PARAMS, projection, m, d, featureSeed };
        expect(memoProjection(p)).toEqual(generateInputs(p).w);
        expect(memoProjection(p)).toEqual(generateInputs(p).w); // the hit
      }
    // maps without a projection: 0×d, as generateInputs, and nothing remembered
    const before = inputMemoStats().w.size;
    expect(memoProjection({ ...DEFAULT_PARAMS, featureMap: 'elu1' }).rows).toBe(0);
    expect(inputMemoStats().w.size).toBe(before);
  });
});

describe('the ops and the memos', () => {
  beforeEach(clearAnalysisMemos);

  // the memos hand out their entries themselves: an op that wrote into its Q, K, x, y or W would
  // change what every later op reads
  it('every analysis op leaves each memo entry equal to a fresh draw of its key, in both modes', async () => {
    const ops = (Object.keys(ANALYSIS_OPS) as WorkerOpName[]).filter((op) => op !== 'hedgehogFit'); // draws its own
    const budgets = { nGrid: [16, 48], mGrid: [4, 16], scales: [0.5, 1.5], seeds: 2, normSeeds: 1, dGrid: [4, 8] };
    for (const [featureMap, causal] of [
      ['trig', false],
      ['positive', true],
    ] as const) {
      const params = { ...DEFAULT_PARAMS, n: 48, d: 8, m: 16, featureMap, causal };
      for (const op of ops)
        await runAnalysisOp(op, { params, ...budgets }, { progress: () => {}, cancelled: () => false });
    }
    const { qk, w, v } = memoEntries();
    expect(qk.length).toBeGreaterThan(2);
    expect(w.length).toBeGreaterThan(4);
    for (const { key, params, value } of qk) {
      const { q, k } = queriesAndKeys(params);
      expect(value.q, key).toEqual(q);
      expect(value.k, key).toEqual(k);
      expect(value.x, key).toEqual(scaleInputs(q));
      expect(value.y, key).toEqual(scaleInputs(k));
    }
    for (const { key, params, value } of w)
      expect(value, key).toEqual(projectionFor({ ...params, featureMap: 'positive' }));
    expect(v.length).toBeGreaterThan(0);
    for (const { key, params, value } of v) expect(value, key).toEqual(valuesFor(params));
  });
});
