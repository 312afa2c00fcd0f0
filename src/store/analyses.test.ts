import { describe, expect, it } from 'vitest';
import { EngineError } from '../core/errors';
import type { AttentionParams } from '../core/types';
import { validateParams } from '../core/validate';
import { DEFAULT_PARAMS } from './params';
import {
  beyondSweepsRequest,
  entropyVsNRequest,
  entryErrorsRequest,
  errorVsDRequest,
  errorVsMRequest,
  estimatorTimingRequest,
  localTruncationRequest,
  mapRowsRequest,
  normSweepRequest,
  rowEntropiesRequest,
  spectraRequest,
  SWEEP_BUDGET,
  type AnalysisRequest,
} from './analyses';

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

describe('an analysis payload is a function of its key', () => {
  const ignoringMap: [string, (q: AttentionParams) => AnalysisRequest][] = [
    ['errorVsM', errorVsMRequest],
    ['normSweep', normSweepRequest],
    ['errorVsD', errorVsDRequest],
    ['entryErrors', entryErrorsRequest],
    ['mapRows', (q) => mapRowsRequest(q, 3)],
    ['beyondSweeps', beyondSweepsRequest],
    ['estimatorTiming', (q) => estimatorTimingRequest(q, 'cpu')],
  ];
  const usingMap: [string, (q: AttentionParams) => AnalysisRequest][] = [
    ['rowEntropies', rowEntropiesRequest],
    ['entropyVsN', entropyVsNRequest],
    ['localTruncation', localTruncationRequest],
    ['spectra', spectraRequest],
  ];
  const paramsOf = (r: AnalysisRequest) => (r.payload as { params: AttentionParams }).params;
  // second-order Taylor features at d = 128: 1 + d + d² = 16,513 > 2,048, past the engine's limit
  const taylor = { ...p, featureMap: 'taylor2' as const, d: 128 };

  it.each(ignoringMap)(
    '%s ignores the selected map: its payload and its coarse stage carry the positive map, so the Taylor limit at d = 128 does not fail it',
    (_, req) => {
      const r = req(taylor);
      expect(r.key).toBe(req({ ...taylor, featureMap: 'positive' }).key);
      expect(r.payload).toEqual(req({ ...taylor, featureMap: 'positive' }).payload);
      expect(paramsOf(r).featureMap).toBe('positive');
      if (r.coarse) expect((r.coarse as { params: AttentionParams }).params.featureMap).toBe('positive');
      expect(() => validateParams(paramsOf(r))).not.toThrow();
    },
  );

  it.each(usingMap)(
    '%s uses the selected map: its payload carries it, and the Taylor limit at d = 128 is its error',
    (_, req) => {
      const r = req(taylor);
      expect(paramsOf(r).featureMap).toBe('taylor2');
      expect(r.key).not.toBe(req({ ...taylor, featureMap: 'positive' }).key);
      expect(() => validateParams(paramsOf(r))).toThrow(EngineError);
    },
  );
});
