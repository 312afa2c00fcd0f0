import { describe, expect, it } from 'vitest';
import { DEFAULT_PARAMS } from './params';
import { errorVsMRequest, mapRowsRequest, normSweepRequest, spectraRequest, SWEEP_BUDGET } from './analyses';

const p = { ...DEFAULT_PARAMS };

describe('analysis requests are keyed by what they depend on', () => {
  it('the error-vs-m sweep ignores m, the map and the projection (it sweeps them), and n above its cap', () => {
    const k = errorVsMRequest(p).key;
    expect(errorVsMRequest({ ...p, m: 8, featureMap: 'trig', projection: 'iid' }).key).toBe(k);
    expect(errorVsMRequest({ ...p, n: 4096 }).key).toBe(errorVsMRequest({ ...p, n: 8192 }).key);
    expect(errorVsMRequest({ ...p, d: 32 }).key).not.toBe(k);
    expect(errorVsMRequest({ ...p, featureSeed: 2 }).key).not.toBe(k);
    expect(errorVsMRequest(p).payload).toMatchObject({ seeds: SWEEP_BUDGET.seeds });
    expect(SWEEP_BUDGET.seeds).toBeGreaterThanOrEqual(8);
  });

  it('the norm sweep ignores the scale it sweeps', () => {
    expect(normSweepRequest({ ...p, scale: 1.5 }).key).toBe(normSweepRequest(p).key);
    expect(normSweepRequest({ ...p, m: 128 }).key).not.toBe(normSweepRequest(p).key);
  });

  it('every analysis is keyed by the stabilizer (it changes Â)', () => {
    for (const req of [errorVsMRequest, normSweepRequest, spectraRequest, (q: typeof p) => mapRowsRequest(q, 3)]) {
      expect(req({ ...p, stabilizer: 'ref' }).key).not.toBe(req(p).key);
    }
  });

  it('spectra depend on every parameter; per-map rows on the row but not the selected map', () => {
    for (const change of [{ n: 128 }, { causal: true }, { featureMap: 'elu1' as const }, { scale: 1 }]) {
      expect(spectraRequest({ ...p, ...change }).key).not.toBe(spectraRequest(p).key);
    }
    expect(mapRowsRequest({ ...p, featureMap: 'trig' }, 3).key).toBe(mapRowsRequest(p, 3).key);
    expect(mapRowsRequest(p, 4).key).not.toBe(mapRowsRequest(p, 3).key);
  });
});
