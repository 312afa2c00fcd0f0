import { describe, expect, it } from 'vitest';
import { DEFAULT_PARAMS } from '../core/default-params';
import { hedgehogKey } from '../core/hedgehog-fit';
import { createCpuBackend } from './cpu-backend';
import { compute } from './compute';
import { hedgehogFit, type HedgehogProgressDetail } from './hedgehog-op';
import type { AttentionParams } from '../core/types';

const p: AttentionParams = { ...DEFAULT_PARAMS, n: 40, d: 4, m: 6, featureMap: 'hedgehog' };
const ctx = (onProgress: (detail: unknown) => void = () => {}, cancelAfter = Infinity) => {
  let calls = 0;
  return {
    progress: (_d: number, _t: number, _l?: string, detail?: unknown) => {
      calls++;
      onProgress(detail);
    },
    cancelled: () => calls >= cancelAfter,
  };
};

describe('hedgehogFit op', () => {
  it('streams the loss curve with its progress and returns W (m × d) under the training key', async () => {
    const seen: number[] = [];
    const r = await hedgehogFit(
      { params: p },
      ctx((d) => seen.push((d as HedgehogProgressDetail).losses.length)),
    );
    expect(r.key).toBe(hedgehogKey(p));
    expect([r.w.rows, r.w.cols]).toEqual([p.m, p.d]);
    expect(seen.slice(0, 3)).toEqual([1, 2, 3]);
    expect(r.losses).toHaveLength(r.steps);
    expect(r.finalLoss).toBeLessThan(r.losses[0]!);
    expect(r.finalLoss).toBeGreaterThanOrEqual(r.lossFloor); // cross-entropy ≥ entropy: the gap is the mean KL
    expect(r.evaluation.heldOut).not.toBeNull();
  });

  it('stops with "cancelled" at the next step after a cancel', async () => {
    await expect(hedgehogFit({ params: p }, ctx(undefined, 3))).rejects.toMatchObject({ code: 'cancelled' });
  });
});

describe('compute with map = hedgehog', () => {
  it('refuses to run without a fitted W, and says so', async () => {
    const req = { params: p, viewCells: 0, rowStats: true, rows: [] };
    await expect(compute(1, req, createCpuBackend('test'))).rejects.toThrow(/not fitted/);
  });

  it('runs on the fitted W it is given: Â error equals the fit evaluation on the fitted positions', async () => {
    const fit = await hedgehogFit({ params: p }, ctx());
    const req = { params: p, viewCells: 0, rowStats: true, rows: [], fitted: { key: fit.key, w: fit.w } };
    const res = await compute(1, req, createCpuBackend('test'));
    expect(res.inputs.w.data).toEqual(fit.w.data);
    expect(res.metrics.relErrorA!).toBeCloseTo(fit.evaluation.fitted.hedgehog.relError, 4);
  });

  it('refuses a W fitted for other parameters', async () => {
    const fit = await hedgehogFit({ params: p }, ctx());
    const req = {
      params: { ...p, seed: 9 },
      viewCells: 0,
      rowStats: false,
      rows: [],
      fitted: { key: fit.key, w: fit.w },
    };
    await expect(compute(1, req, createCpuBackend('test'))).rejects.toThrow(/other parameters/);
  });
});
