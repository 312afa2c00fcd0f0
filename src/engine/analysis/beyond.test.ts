import { describe, expect, it } from 'vitest';
import { DEFAULT_PARAMS } from '../../core/default-params';
import { estimatorSet } from '../../core/estimators';
import { featureDim } from '../../core/feature-maps';
import { compute } from '../compute';
import { createCpuBackend } from '../cpu-backend';
import { estimatorTiming, splitTimings } from '../estimator-timing';
import { ANALYSIS_OPS } from '.';

const ctx = { progress: () => {}, cancelled: () => false };
const params = { ...DEFAULT_PARAMS, n: 128, d: 16, m: 32, input: 'gaussian' as const, scale: 0.8 };
const mGrid = [8, 32, 128];

describe('estimatorSet', () => {
  it('has every feature map but the learned ones once and positive features under every other projection, random maps with the given projection', () => {
    // written out: a new map or projection must be added here on purpose
    const random = (id: string, projection: string) => ({ id, projection, family: 'random' });
    const fixed = (id: string) => ({ id, projection: null, family: 'deterministic' });
    const at16 = [
      random('positive', 'orthogonal-chi'),
      random('hyperbolic', 'orthogonal-chi'),
      random('trig', 'orthogonal-chi'),
      random('relu', 'orthogonal-chi'),
      fixed('elu1'),
      random('exp', 'orthogonal-chi'),
      fixed('double-softmax'),
      random('oprf', 'orthogonal-chi'),
      fixed('taylor2'),
      fixed('cosformer'),
      random('positive@orthogonal-sqrtd', 'orthogonal-sqrtd'),
      random('positive@iid', 'iid'),
      random('positive@simplex', 'simplex'),
    ];
    const shape = (set: ReturnType<typeof estimatorSet>) =>
      set.map((e) => ({ id: e.id, projection: e.projection, family: e.family }));
    expect(shape(estimatorSet('orthogonal-chi', 16))).toEqual(at16);
    // the second-order Taylor map (1 + d + d² features) is left out where d is past the limit (d ≤ 44)
    expect(shape(estimatorSet('orthogonal-chi', 44))).toEqual(at16);
    expect(shape(estimatorSet('orthogonal-chi', 45))).toEqual(at16.filter((e) => e.id !== 'taylor2'));
    // another projection: the random maps use it, the variants are the other three
    expect(shape(estimatorSet('iid', 16)).map((e) => `${e.id}:${e.projection}`)).toEqual([
      'positive:iid',
      'hyperbolic:iid',
      'trig:iid',
      'relu:iid',
      'elu1:null',
      'exp:iid',
      'double-softmax:null',
      'oprf:iid',
      'taylor2:null',
      'cosformer:null',
      'positive@orthogonal-chi:orthogonal-chi',
      'positive@orthogonal-sqrtd:orthogonal-sqrtd',
      'positive@simplex:simplex',
    ]);
    for (const e of estimatorSet('orthogonal-chi', 16)) expect(e.map).toBe(e.id.split('@')[0]);
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
      // every timed run measured something (the twins take well over the clock's resolution at n = 128)
      for (const ms of e.runsMs) expect(ms, e.id).toBeGreaterThan(0);
      expect(e.ms).toBe((e.runsMs[0]! + e.runsMs[1]!) / 2);
      expect(e.mPrime).toBe(featureDim(e.map, params.m, params.d));
      // the error is the one of this estimator: a compute of its map and projection on the same inputs
      const own = await compute(
        0,
        {
          params: { ...params, featureMap: e.map, projection: e.projection ?? params.projection },
          viewCells: 0,
          rowStats: true,
          rows: [],
        },
        backend,
      );
      expect(e.relErrorA, e.id).toBe(own.metrics.relErrorA);
      expect(e.relErrorOut, e.id).toBe(own.metrics.relErrorOut);
    }
    // the estimators differ (a mix-up of map or projection would repeat one number)
    expect(new Set(r.estimators.map((e) => e.relErrorA)).size).toBe(r.estimators.length);
    expect(r.exactMs).toBeGreaterThan(0);
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
