import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PARAMS } from '../../core/default-params';
import { scaleInputs } from '../../core/feature-maps';
import { generateInputs } from '../../core/inputs';
import { PROJECTIONS } from '../../core/types';
import { ByteLru, clearAnalysisMemos, inputMemoStats, memoProjection, memoQK } from './input-memo';

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

  it('callers own what they get: changing a returned matrix changes no later result', () => {
    const p = { ...DEFAULT_PARAMS, d: 4 };
    const a = memoQK(p, 16);
    a.q.data.fill(7);
    a.y.data.fill(7);
    const b = memoQK(p, 16);
    expect(b.q).toEqual(generateInputs({ ...p, n: 16 }).q);
    expect(b.y).toEqual(scaleInputs(generateInputs({ ...p, n: 16 }).k));
    const w = memoProjection(p);
    w.data.fill(7);
    expect(memoProjection(p)).toEqual(generateInputs(p).w);
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
