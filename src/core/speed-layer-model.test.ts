import { describe, expect, it } from 'vitest';
import { fitLayerModel, layerModelCurves, layerModelMs } from './speed-layer-model';

// A synthetic backend: projections + FFN cost 2 ms per token, exact attention 0.001 ms per token²,
// Performer attention 0.3 ms per token (the shape of the SwiftShader run at d_model = 512).
const dummyMs = (n: number) => 2 * n;
const exactMs = (n: number) => 2 * n + 0.001 * n * n;
const perfMs = (n: number) => 2 * n + 0.3 * n;
const pts = (f: (n: number) => number, ns: number[]) => ns.map((n) => ({ n, ms: f(n) }));

describe('fitLayerModel', () => {
  it('recovers the per-token and per-token² costs from each layer’s largest point', () => {
    const m = fitLayerModel(pts(dummyMs, [64, 128, 1024]), pts(exactMs, [64, 512]), pts(perfMs, [64, 1024]))!;
    expect(m.a).toBeCloseTo(2, 12);
    expect(m.cExact).toBeCloseTo(0.001, 12);
    expect(m.cPerformer).toBeCloseTo(0.3, 12);
    // exact attention = the rest of the layer where 0.001·n² = 2·n
    expect(m.exactHalfN).toBeCloseTo(2000, 6);
    expect(layerModelMs(m, 'exact', 2000)).toBeCloseTo(2 * layerModelMs(m, 'dummy', 2000), 6);
  });

  it('extrapolates: the exact layer’s ratio to the dummy layer grows with n, the Performer’s stays flat', () => {
    const m = fitLayerModel(pts(dummyMs, [64, 512]), pts(exactMs, [512]), pts(perfMs, [1024]))!;
    const c = layerModelCurves(m, [1024, 4096, 32768]);
    expect(c.exact.ratio[0]).toBeCloseTo(1 + (0.001 * 1024) / 2, 9);
    expect(c.exact.ratio[2]).toBeGreaterThan(15);
    expect(c.performer.ratio.every((r) => Math.abs(r - 1.15) < 1e-9)).toBe(true);
    expect(c.exact.ms[1]).toBeCloseTo(exactMs(4096), 6);
  });

  it('clamps a layer measured faster than the dummy layer (noise) to zero attention cost', () => {
    const m = fitLayerModel([{ n: 512, ms: 1000 }], [{ n: 512, ms: 990 }], [{ n: 512, ms: 1100 }])!;
    expect(m.cExact).toBe(0);
    expect(m.exactHalfN).toBeNull();
    expect(m.cPerformer).toBeCloseTo(100 / 512, 12);
  });

  it('prefers the attention sweep’s costs over the layer’s own small-n difference', () => {
    const m = fitLayerModel(pts(dummyMs, [64, 128]), [{ n: 128, ms: 300 }], pts(perfMs, [128]), {
      cExact: 0.001,
      cPerformer: null,
    })!;
    expect(m.cExact).toBe(0.001);
    expect(m.cPerformer).toBeCloseTo(0.3, 12);
  });

  it('needs a dummy-layer point and at least one other layer', () => {
    expect(fitLayerModel([], pts(exactMs, [64]), pts(perfMs, [64]))).toBeNull();
    expect(fitLayerModel(pts(dummyMs, [64]), [], [])).toBeNull();
  });
});
