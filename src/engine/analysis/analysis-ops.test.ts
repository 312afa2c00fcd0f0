import { describe, expect, it } from 'vitest';
import { isEngineError } from '../../core/errors';
import { numericalRank } from '../../core/rank';
import { ANALYSIS_OPS, runAnalysisOp, type WorkerOpName, type AnalysisResults } from '.';
import { DEFAULT_PARAMS } from '../../core/default-params';
import { SWEEP_MAPS } from '../../core/estimators';
import { FEATURE_MAP_SPECS } from '../../core/feature-map-specs';
import { FEATURE_MAPS } from '../../core/types';
import { cpuAnalysisBackend } from '../../core/analysis-backend';
import { generateInputs } from '../../core/inputs';
import { evenRows } from '../../core/sweeps';

const ctx = () => {
  const progress: [number, number][] = [];
  return { progress, ctx: { progress: (d: number, t: number) => progress.push([d, t]), cancelled: () => false } };
};
const run = async <Op extends WorkerOpName>(op: Op, payload: unknown) => {
  const c = ctx();
  // payloads here are hand-written, some deliberately malformed: the op must validate them
  const value = (await runAnalysisOp(op, payload, c.ctx)) as AnalysisResults[Op];
  return { value, progress: c.progress };
};
const params = { ...DEFAULT_PARAMS, n: 128 };

describe('analysis ops', () => {
  it('errorVsM: ≥ 8 seeds, two series (orthogonal, iid) per swept map, error falls as m grows, progress reaches the total', async () => {
    const { value: r, progress } = await run('errorVsM', { params, mGrid: [4, 16, 64, 256] });
    expect(r.seeds).toBeGreaterThanOrEqual(8);
    expect(r.series).toHaveLength(2 * SWEEP_MAPS.length);
    expect(SWEEP_MAPS).toEqual(['positive', 'hyperbolic', 'trig', 'oprf']);
    for (const s of r.series) {
      expect(s.mean[3]!).toBeLessThan(s.mean[0]!);
      s.mean.forEach((m, i) => expect(s.lo[i]! <= m && m <= s.hi[i]!).toBe(true));
    }
    for (const t of r.theory) expect(t.values[3]! / t.values[0]!).toBeCloseTo(0.125, 6); // ∝ 1/√m
    expect(progress.at(-1)).toEqual([progress.at(-1)![1], progress.at(-1)![1]]);
  });

  it('normSweep: entropy falls and trig error overtakes positive as the norm grows', async () => {
    const { value: r } = await run('normSweep', { params, scales: [0.25, 1.25], seeds: 2 });
    expect(r.entropyExact[1]!).toBeLessThan(r.entropyExact[0]!);
    const pos = r.error.find((e) => e.map === 'positive')!;
    const trig = r.error.find((e) => e.map === 'trig')!;
    expect(trig.mean[1]!).toBeGreaterThan(pos.mean[1]!);
  });

  it('normSweep: the reference ε flattens Â at large norms (s = 2) but not at small ones (s = 0.5)', async () => {
    const { value: r } = await run('normSweep', {
      params: { ...params, input: 'gaussian', d: 16, m: 64 },
      scales: [0.5, 2],
      seeds: 2,
    });
    const shift = r.stabilizers.find((x) => x.stabilizer === 'shift')!;
    const ref = r.stabilizers.find((x) => x.stabilizer === 'ref')!;
    expect(Math.abs(ref.entropy[0]! - shift.entropy[0]!)).toBeLessThan(0.01);
    expect(ref.entropy[1]! - shift.entropy[1]!).toBeGreaterThan(0.2);
    expect(ref.entropy[1]!).toBeGreaterThan(0.9);
  });

  it('errorVsD: positive-feature error grows with d at a fixed norm scale', async () => {
    const { value: r } = await run('errorVsD', { params, dGrid: [4, 64], seeds: 2 });
    expect(r.mean[1]!).toBeGreaterThan(r.mean[0]!);
  });

  it('entryErrors: trig relative error is largest where exact entries are tiny', async () => {
    const { value: r } = await run('entryErrors', { params: { ...params, scale: 1 }, bins: 8 });
    const first = r.trig.median.findIndex((v) => Number.isFinite(v));
    expect(r.trig.median[first]!).toBeGreaterThan(r.positive.median[first]!);
  });

  it('entryErrors: each bin holds the kept entries whose exact value falls in it, with the quantiles of their relative errors', async () => {
    const p = { ...params, n: 64, scale: 1.2, causal: true };
    const { value: r } = await run('entryErrors', { params: p, bins: 6, rows: 8 });
    // the same batch, and the bins by hand: an array per bin, sorted with a comparator
    const rows = evenRows(64, 8);
    const qk = generateInputs(p);
    const b = await cpuAnalysisBackend.rowStats(
      { q: qk.q, k: qk.k, rows, causal: true },
      (['positive', 'trig'] as const).map((map) => ({ map, w: qk.w, stabilizer: p.stabilizer })),
      { fullRows: true },
    );
    // the bins as the op defines them: log-spaced from the smallest positive entry to the largest
    const all = b.exactRows!.flatMap((row) => [...row]).filter((a) => a > 0);
    const hi = Math.max(...all);
    const lo = Math.max(Math.min(...all), hi * 1e-12);
    const width = (Math.log10(hi) - Math.log10(lo)) / 6;
    expect(r.edges[0]!).toBeCloseTo(lo, 12);
    for (const [i, kind] of (['positive', 'trig'] as const).entries()) {
      const bins: number[][] = r.centers.map(() => []);
      b.exactRows!.forEach((row, t) =>
        row.forEach((a, j) => {
          if (a < lo) return;
          const k = Math.min(5, Math.floor((Math.log10(a) - Math.log10(lo)) / width));
          bins[k]!.push(Math.abs(b.variants[i]!.rows![t]![j]! - a) / a);
        }),
      );
      const q = (xs: number[], f: number) => {
        const s = [...xs].sort((u, v) => u - v);
        const pos = (s.length - 1) * f;
        return s.length
          ? s[Math.floor(pos)]! + (s[Math.ceil(pos)]! - s[Math.floor(pos)]!) * (pos - Math.floor(pos))
          : NaN;
      };
      expect(r[kind].count).toEqual(bins.map((x) => x.length));
      expect(r[kind].count.reduce((s, c) => s + c, 0)).toBeGreaterThan(100);
      bins.forEach((x, k) => {
        for (const [f, got] of [
          [0.5, r[kind].median[k]!],
          [0.1, r[kind].q10[k]!],
          [0.9, r[kind].q90[k]!],
        ] as const)
          if (x.length) expect(got).toBeCloseTo(q(x, f), 12);
          else expect(got).toBeNaN();
      });
    }
  });

  it('rowEntropies and entropyVsN: linear attention is flatter than softmax', async () => {
    const { value: r } = await run('rowEntropies', { params: { ...params, scale: 1 } });
    const mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;
    expect(mean(r.elu1)).toBeGreaterThan(mean(r.exact));
    expect(r.topK.exact[0]!).toBeGreaterThan(r.topK.elu1[0]!);
    const { value: e } = await run('entropyVsN', { params: { ...params, scale: 1 }, nGrid: [32, 256] });
    expect(e.elu1[1]!).toBeGreaterThan(e.exact[1]!);
  });

  it('localTruncation at the default scene: a window helps 1 + elu (Su’s case) but not the Performer’s positive features', async () => {
    const { value: r } = await run('localTruncation', { params: DEFAULT_PARAMS });
    const w1 = r.windows.indexOf(1);
    expect(r.errorElu1[w1]!).toBeLessThan(r.errorElu1.at(-1)! - 0.1);
    expect(r.errorApprox[w1]!).toBeGreaterThan(r.errorApprox.at(-1)!);
  });

  it('localTruncation: full window = plain error; refuses n beyond its limit', async () => {
    const { value: r } = await run('localTruncation', { params: { ...params, n: 64, input: 'local' } });
    expect(r.windows.at(-1)).toBe(63);
    expect(r.errorExact.at(-1)!).toBe(0);
    await expect(run('localTruncation', { params: { ...params, n: 4096 } })).rejects.toMatchObject({
      code: 'exceeds-limit',
    });
  });

  it('spectra: rank(Â) ≤ m′, rank(QKᵀ) ≤ d, exact rank > m when n ≫ m; causal A is triangular with a positive diagonal', async () => {
    const p = { ...params, n: 192, m: 16 };
    const { value: r } = await run('spectra', { params: p });
    expect(r.exact.length).toBe(192);
    expect(numericalRank(r.approx, 1e-9)).toBeLessThanOrEqual(r.mPrime);
    expect(numericalRank(r.scores, 1e-9)).toBeLessThanOrEqual(p.d);
    expect(numericalRank(r.exact, 1e-6)).toBeGreaterThan(p.m);
    const { value: c } = await run('spectra', { params: { ...p, causal: true } });
    expect(c.minDiagExact!).toBeGreaterThan(0);
    expect(c.minDiagApprox!).toBeGreaterThan(0);
    expect(c.aboveDiagExact).toBe(0); // lower-triangular: nothing above the diagonal
    expect(c.aboveDiagApprox).toBe(0);
    expect(numericalRank(c.exact, 1e-12)).toBe(192);
    expect(r.aboveDiagExact).toBeNull();
  });

  it('mapRows: one row under every map (all but the learned ones); causal rows are triangular; λ-invariance holds to rounding', async () => {
    // every map that needs no fitting (hedgehog is fitted first: the Hedgehog training view)
    const expected = FEATURE_MAPS.filter((k) => FEATURE_MAP_SPECS[k].family !== 'learned');
    for (const causal of [false, true]) {
      const row = 5;
      const { value: r } = await run('mapRows', { params: { ...params, causal }, row });
      expect(r.maps.map((m) => m.map)).toEqual(expected);
      expect(r.lambda.queryNormDropped).toBeLessThan(1e-4);
      for (const m of r.maps) {
        expect(m.values.length, m.map).toBe(128);
        expect(m.values.every(Number.isFinite), m.map).toBe(true);
        const sum = m.values.reduce((s, v) => s + v, 0);
        expect(sum, m.map).toBeCloseTo(1, 4); // a row of Â sums to 1 (causal: over keys ≤ row)
        // causal: keys after the row get exactly 0 (the triangle of Â), bidirectional: some do not
        const after = m.values.slice(row + 1);
        if (causal)
          expect(
            after.every((v) => v === 0),
            m.map,
          ).toBe(true);
        else
          expect(
            after.some((v) => v !== 0),
            m.map,
          ).toBe(true);
      }
      const afterExact = r.exact.slice(row + 1);
      expect(afterExact.every((v) => v === 0)).toBe(causal);
    }
  });

  it('stops with a cancelled EngineError when asked to', async () => {
    let calls = 0;
    const c = { progress: () => {}, cancelled: () => ++calls > 3 };
    try {
      await ANALYSIS_OPS.errorVsM!({ params }, c);
      expect.unreachable();
    } catch (e) {
      expect(isEngineError(e) && e.code).toBe('cancelled');
    }
  });

  it('rejects a payload without valid params', async () => {
    await expect(run('spectra', {})).rejects.toMatchObject({ code: 'invalid-size' });
    await expect(run('spectra', { params: { ...params, n: -1 } })).rejects.toMatchObject({ code: 'invalid-size' });
  });
});
