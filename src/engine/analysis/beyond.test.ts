import { describe, expect, it } from 'vitest';
import { DEFAULT_PARAMS } from '../../core/default-params';
import { estimatorSet, MAP_INFO } from '../../core/estimators';
import { featureDim } from '../../core/feature-maps';
import { FEATURE_MAPS, PROJECTIONS } from '../../core/types';
import { createCpuBackend } from '../cpu-backend';
import { estimatorTiming, splitTimings } from '../estimator-timing';
import { ANALYSIS_OPS } from '.';

const ctx = { progress: () => {}, cancelled: () => false };
const params = { ...DEFAULT_PARAMS, n: 128, d: 16, m: 32, input: 'gaussian' as const, scale: 0.8 };
const mGrid = [8, 32, 128];

describe('estimatorSet', () => {
  it('has every feature map but the learned ones once and positive features under every other projection, random maps with the given projection', () => {
    const set = estimatorSet('orthogonal-chi', DEFAULT_PARAMS.d);
    expect(set.filter((e) => e.id === e.map).map((e) => e.map)).toEqual(
      FEATURE_MAPS.filter((m) => MAP_INFO[m].family !== 'learned'),
    );
    expect(set.some((e) => e.map === 'hedgehog')).toBe(false);
    // the second-order Taylor map (1 + d + d² features) is left out where d is past the limit
    expect(estimatorSet('orthogonal-chi', 16).some((e) => e.map === 'taylor2')).toBe(true);
    expect(estimatorSet('orthogonal-chi', 64).some((e) => e.map === 'taylor2')).toBe(false);
    expect(set.filter((e) => e.id !== e.map).map((e) => e.projection)).toEqual(
      PROJECTIONS.filter((p) => p !== 'orthogonal-chi'),
    );
    for (const e of set) expect(e.projection === null).toBe(MAP_INFO[e.map].family !== 'random');
    expect(new Set(set.map((e) => e.id)).size).toBe(set.length);
  }, 30_000);
});

describe('beyondSweeps', () => {
  it('random estimators: one point per m with a seed band; deterministic maps: one point at m′ = featureDim, no spread', async () => {
    const r = await ANALYSIS_OPS.beyondSweeps({ params, mGrid, seeds: 4, normSeeds: 2, scales: [0.3, 1, 2] }, ctx);
    expect(r.estimators.map((e) => e.id)).toEqual(estimatorSet(params.projection, params.d).map((e) => e.id));
    for (const e of r.estimators) {
      expect(e.norm.mean).toHaveLength(3);
      expect(e.dims).toEqual(e.m.map((m) => featureDim(e.map, m, params.d)));
      if (e.family === 'random') {
        expect(e.m).toEqual(mGrid); // the current m (32) is on the grid
        expect(e.draws).toBe(4);
        expect(e.error.hi.some((hi, i) => hi > e.error.lo[i]!)).toBe(true); // seeds differ
      } else if (e.family === 'deterministic') {
        expect(e.m).toEqual([params.m]);
        expect(e.dims).toEqual([featureDim(e.map, params.m, params.d)]);
        expect(e.error.lo[0]).toBe(e.error.hi[0]);
      }
      expect(Number.isFinite(e.current.mean)).toBe(true);
    }
  }, 30_000);

  it('the error of positive random features falls with m′ at every step, and by ≥ 30 % from m = 8 to 128 (mean over 8 seeds)', async () => {
    const r = await ANALYSIS_OPS.beyondSweeps(
      { params: { ...params, scale: 0.5 }, mGrid, seeds: 8, normSeeds: 1, scales: [1] },
      ctx,
    );
    for (const id of ['positive', 'positive@orthogonal-sqrtd', 'hyperbolic']) {
      const e = r.estimators.find((x) => x.id === id)!;
      expect(e.error.mean[1]!).toBeLessThan(e.error.mean[0]!);
      expect(e.error.mean[2]!).toBeLessThan(e.error.mean[1]!);
      expect(e.error.mean[2]!).toBeLessThan(e.error.mean[0]! * 0.7);
    }
  }, 30_000);

  it('the current m is added to the grid when it is not on it, and its error is the headline number', async () => {
    const r = await ANALYSIS_OPS.beyondSweeps(
      { params: { ...params, m: 24 }, mGrid, seeds: 2, normSeeds: 1, scales: [1] },
      ctx,
    );
    const pos = r.estimators.find((e) => e.id === 'positive')!;
    expect(pos.m).toEqual([8, 24, 32, 128]);
    expect(pos.current.mean).toBe(pos.error.mean[1]);
  }, 30_000);
});

describe('estimatorTiming on the CPU backend (the twins)', () => {
  it('times every estimator once per repeat, reports m′, positive times and the error of A of the warm-up run', async () => {
    const backend = createCpuBackend('test');
    const progress: number[] = [];
    const r = await estimatorTiming(
      { params, repeats: 2 },
      { progress: (d) => progress.push(d), cancelled: () => false },
      backend,
      (job) => job(),
    );
    const set = estimatorSet(params.projection, params.d);
    expect(r.estimators.map((e) => e.id)).toEqual(set.map((e) => e.id));
    expect(r.backend.kind).toBe('cpu');
    expect(r.source).toBe('wall');
    expect(progress.at(-1)).toBe(set.length * 3);
    for (const e of r.estimators) {
      expect(e.runsMs).toHaveLength(2);
      expect(e.ms).toBeGreaterThanOrEqual(0);
      expect(e.mPrime).toBe(featureDim(e.map, params.m, params.d));
      expect(e.relErrorA).toBeGreaterThan(0);
      expect(e.relErrorA).toBeLessThan(10);
    }
    expect(r.exactMs).toBeGreaterThanOrEqual(0);
  }, 30_000);

  it('stops with "cancelled" when asked to', async () => {
    const backend = createCpuBackend('test');
    let calls = 0;
    await expect(
      estimatorTiming({ params, repeats: 1 }, { progress: () => {}, cancelled: () => ++calls > 2 }, backend, (job) =>
        job(),
      ),
    ).rejects.toMatchObject({
      code: 'cancelled',
    });
  }, 30_000);

  it('splits kernel timings into the estimator’s kernels and exact attention', () => {
    const t = splitTimings([
      { kernel: 'feature-maps', ms: 2, source: 'wall' },
      { kernel: 'exact-attention', ms: 5, source: 'wall' },
      { kernel: 'linear-attention', ms: 3, source: 'wall' },
    ]);
    expect(t).toEqual({ approxMs: 5, exactMs: 5 });
  }, 30_000);
});
