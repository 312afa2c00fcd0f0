import { describe, expect, it } from 'vitest';
import { DEFAULT_PARAMS } from '../core/default-params';
import type { AttentionParams } from '../core/types';
import { createRateModel, MIN_SAMPLE_FLOPS, PRIOR_FLOPS_PER_MS, requestFlops } from './cost-model';
import type { ComputeRequest } from './protocol';

const req = (p: Partial<AttentionParams>, extra: Partial<ComputeRequest> = {}): ComputeRequest => ({
  params: { ...DEFAULT_PARAMS, ...p },
  viewCells: 0,
  rowStats: false,
  rows: [],
  ...extra,
});

describe('requestFlops', () => {
  it('exact ≈ 4n²d and Performer ≈ 8nm′d, with m′ = 2m for trig and d for elu1; causal halves the n² terms', () => {
    const c = requestFlops(req({ n: 1_000, d: 10, m: 20 }), 'cpu');
    expect(c.exact).toBe(4 * 1e6 * 10);
    expect(c.performer).toBe(8 * 1_000 * 20 * 10);
    expect(c.dense).toBe(0);
    expect(requestFlops(req({ n: 1_000, d: 10, m: 20, featureMap: 'trig' }), 'cpu').performer).toBe(
      8 * 1_000 * 40 * 10,
    );
    expect(requestFlops(req({ n: 1_000, d: 10, m: 20, featureMap: 'elu1' }), 'cpu').performer).toBe(
      8 * 1_000 * 10 * 10,
    );
    expect(requestFlops(req({ n: 1_000, d: 10, m: 20, causal: true }), 'cpu').exact).toBe(2 * 1e6 * 10);
  });

  it('prices the dense statistics per backend: one CPU pass for view + row stats; WebGPU normalizers + one pass each', () => {
    const pass = 2 * 1e6 * (10 + 20);
    const both = req({ n: 1_000, d: 10, m: 20 }, { viewCells: 64, rowStats: true, rows: [3] });
    expect(requestFlops(both, 'cpu').dense).toBe(pass);
    expect(requestFlops(both, 'webgpu').dense).toBe(3 * pass);
    expect(requestFlops(both, 'cpu').rows).toBe(2 * 1_000 * 30);
    // full rows alone: the GPU still needs every row's normalizer
    const rowsOnly = req({ n: 1_000, d: 10, m: 20 }, { rows: [3] });
    expect(requestFlops(rowsOnly, 'webgpu').dense).toBe(pass);
    expect(requestFlops(rowsOnly, 'cpu').dense).toBe(0);
  });

  it('a heavy point, n = 65,536, d = 256, m = 1,024, is dominated by the exact n² term (≈ 4.4e12)', () => {
    const c = requestFlops(req({ n: 65_536, d: 256, m: 1_024 }, { rows: [0] }), 'cpu');
    expect(c.exact).toBeCloseTo(4.4e12, -11);
    expect(c.exact / c.total).toBeGreaterThan(0.95);
  });
});

describe('createRateModel', () => {
  it('before any run it predicts with the (low) prior', () => {
    const r = createRateModel();
    expect(r.rate('cpu').measured).toBe(false);
    expect(r.rate('cpu').flopsPerMs).toBeCloseTo(PRIOR_FLOPS_PER_MS.cpu, 3);
    expect(r.predict('cpu', 4e9)).toBeCloseTo(4e9 / PRIOR_FLOPS_PER_MS.cpu);
  });

  it('learns the throughput of large runs and the fixed overhead of small ones, per backend', () => {
    const r = createRateModel();
    r.observe('webgpu', 1e6, 4); // small: overhead
    r.observe('webgpu', 1e6, 3);
    r.observe('webgpu', 1e10, 1003); // 1e10 FLOP in 1000 ms of work
    expect(r.rate('webgpu').measured).toBe(true);
    expect(r.rate('webgpu').flopsPerMs).toBeCloseTo(1e7, -3);
    expect(r.predict('webgpu', 1e11)).toBeCloseTo(3 + 1e4, -1);
    // the CPU model is untouched
    expect(r.rate('cpu').measured).toBe(false);
  });

  it('follows a change of speed (running geometric mean) and ignores nonsense samples', () => {
    const r = createRateModel();
    r.observe('cpu', 1e9, 1_000);
    r.observe('cpu', 1e9, 4_000);
    const rate = r.rate('cpu').flopsPerMs;
    expect(rate).toBeCloseTo(Math.sqrt(1e6 * 2.5e5), -2);
    r.observe('cpu', 1e9, Number.NaN);
    r.observe('cpu', 1e9, 0);
    r.observe('cpu', MIN_SAMPLE_FLOPS / 2, 1e9); // small runs never set the rate
    expect(r.rate('cpu').flopsPerMs).toBeCloseTo(rate);
  });
});
