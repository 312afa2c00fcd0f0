import { describe, expect, it } from 'vitest';
import { attentionFlops, gflopsOf, type SpeedPoint, type SpeedResult } from '../../core/speed-model';
import { RESULT_COLUMNS, layerModelTop, resultRows, speedView } from './speed-view';

/** exact at 2 GFLOP/s, Performer at 0.5 GFLOP/s, d = 64, m = 64, layers with a fixed cost. */
function result(): SpeedResult {
  const points: SpeedPoint[] = [];
  for (const n of [64, 128, 256, 512, 1024, 2048, 4096]) {
    for (const [method, g] of [
      ['exact', 2],
      ['performer-bidirectional', 0.5],
    ] as const) {
      const f = attentionFlops(method, n, 64, 64);
      const ms = f / g / 1e6;
      points.push({ method, n, medianMs: ms, minMs: ms, runs: 3, bytes: n * 1000, gflops: gflopsOf(f, ms) });
    }
    points.push({ method: 'dummy', n, medianMs: n / 1e4, minMs: n / 1e4, runs: 5, bytes: n * 768, gflops: null });
  }
  for (const n of [64, 128]) {
    points.push({
      method: 'layer-dummy',
      n,
      medianMs: 10,
      minMs: 10,
      runs: 1,
      bytes: 1,
      gflops: 1,
      parts: { projections: 5, attention: 0, ffn: 5 },
    });
    points.push({
      method: 'layer-performer',
      n,
      medianMs: 12,
      minMs: 12,
      runs: 1,
      bytes: 1,
      gflops: 1,
      parts: { projections: 5, attention: 2, ffn: 5 },
    });
  }
  return {
    backend: 'cpu',
    device: 'test',
    timing: 'cpu',
    d: 64,
    m: 64,
    layerConfig: { dModel: 8, heads: 2, dFf: 16 },
    points,
    stops: {},
    budgetMs: 1,
    estimateMs: 1,
    elapsedMs: 1,
  };
}

describe('speed panel view', () => {
  it('reads the rates at the largest n and puts the FLOP-model crossover at 2m′·R_exact/R_Performer', () => {
    const v = speedView(result());
    expect(v.rate.exact).toBeCloseTo(2);
    expect(v.rate.bidir).toBeCloseTo(0.5);
    expect(v.predicted).toBeCloseTo(2 * 64 * 4);
    expect(v.predictedEqualRate).toBe(128);
    // the measured curves are exactly the model, so the measured crossover is the predicted one
    expect(v.crossover.kind).toBe('at');
    if (v.crossover.kind === 'at') expect(v.crossover.n).toBeCloseTo(512, 6);
    expect(v.maxN.exact).toBe(4096);
  });

  it('draws the FLOP model over the measured n range at the measured rate', () => {
    const v = speedView(result());
    const i = v.model.exact!.x.indexOf(1024);
    expect(v.model.exact!.y[i]).toBeCloseTo(attentionFlops('exact', 1024, 64, 64) / 2 / 1e6);
  });

  it('divides each layer time by the dummy layer at the same n', () => {
    expect(speedView(result()).layerRatio.performer).toEqual({ x: [64, 128], y: [1.2, 1.2] });
  });

  /** result() with a linear dummy layer (10 ms at n = 128) and an exact layer 0.5 ms over it at 128, ∝ n². */
  function withExactLayer(): SpeedResult {
    const r = result();
    for (const p of r.points) if (p.method === 'layer-dummy') p.medianMs = 10 * (p.n / 128);
    for (const n of [64, 128]) {
      const ms = 10 * (n / 128) + 0.5 * (n / 128) ** 2;
      r.points.push({ method: 'layer-exact', n, medianMs: ms, minMs: ms, runs: 1, bytes: 1, gflops: 1 });
    }
    return r;
  }

  it('extrapolates the layer’s attention at the attention sweep’s rates, applied to the layer’s heads', () => {
    const lm = speedView(withExactLayer()).layerModel!;
    // 2 heads of d_h = 4: exact 4n²·4 FLOPs per head at 2 GFLOP/s, Performer 8n·64·4 at 0.5 GFLOP/s
    const cExact = (2 * 4 * 4) / (2 * 1e6);
    const cPerformer = (2 * 8 * 64 * 4) / (0.5 * 1e6);
    expect(lm.model.cExact).toBeCloseTo(cExact, 15);
    expect(lm.model.cPerformer).toBeCloseTo(cPerformer, 15);
    expect(lm.model.exactHalfN).toBeCloseTo(10 / 128 / cExact, 6);
    const last = lm.curves.exact.ratio.length - 1;
    expect(lm.curves.exact.x[last]).toBe(lm.top);
    expect(lm.top).toBe(32768); // 4 × n½ ≈ 19,531 → 2^15
    expect(lm.curves.exact.ratio[last]).toBeCloseTo(1 + (cExact * lm.top) / (10 / 128), 6);
    expect(lm.curves.performer.ratio[last]).toBeCloseTo(1 + cPerformer / (10 / 128), 9);
  });

  it('falls back to the layers’ own largest points when the attention sweep has no rate', () => {
    const r = withExactLayer();
    r.points = r.points.filter((p) => p.method.startsWith('layer-'));
    const lm = speedView(r).layerModel!;
    expect(lm.model.exactHalfN).toBeCloseTo(2560, 6);
    const at = (c: { x: number[]; ms: number[] }, n: number) => c.ms[c.x.indexOf(n)]!;
    expect(at(lm.curves.exact, 128)).toBeCloseTo(10.5, 9);
    expect(at(lm.curves.performer, 128)).toBeCloseTo(12, 9);
    expect(lm.top).toBe(16384);
  });

  it('has no layer model without a dummy-layer point', () => {
    const r = result();
    r.points = r.points.filter((p) => p.method !== 'layer-dummy');
    expect(speedView(r).layerModel).toBeNull();
  });

  it('draws the layer model to a power of two: 8× the largest measured n, or 4× the half-attention n, at most 2^17', () => {
    expect(layerModelTop(512, 2430)).toBe(16384);
    expect(layerModelTop(1024, null)).toBe(8192);
    expect(layerModelTop(1024, 1e6)).toBe(2 ** 17);
  });

  it('exports one row per point with every column', () => {
    const r = result();
    const rows = resultRows(r);
    expect(rows).toHaveLength(r.points.length);
    expect(rows.every((row) => row.length === RESULT_COLUMNS.length)).toBe(true);
  });
});
