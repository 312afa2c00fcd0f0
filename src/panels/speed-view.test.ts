import { describe, expect, it } from 'vitest';
import { attentionFlops, gflopsOf, type SpeedPoint, type SpeedResult } from '../core/speed-model';
import { RESULT_COLUMNS, resultRows, speedView } from './speed-view';

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

  it('exports one row per point with every column', () => {
    const r = result();
    const rows = resultRows(r);
    expect(rows).toHaveLength(r.points.length);
    expect(rows.every((row) => row.length === RESULT_COLUMNS.length)).toBe(true);
  });
});
