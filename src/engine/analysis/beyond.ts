/**
 * "Beyond the Performer": every estimator of `estimatorSet` on the same inputs — error of A against
 * the feature dimension m' (random estimators: mean and band over feature seeds; deterministic ones:
 * one point; learned ones: one fit per m) and against the norm scale s at the current m.
 * The measured time of each estimator is taken by the engine worker on the live backend
 * (src/engine/estimator-timing.ts); this op is the error side, on the analysis backend.
 */
import { estimatorDim, estimatorSet, type EstimatorSpec } from '../../core/estimators';
import { memoProjection } from './input-memo';
import { pipelinedSweep, startRelErrors } from './pipeline';
import { evenRows, powersOfTwo, spread } from '../../core/sweeps';
import type { AttentionParams, Matrix } from '../../core/types';
import { LIMITS } from '../../core/limits';
import { readExternal } from '../external-inputs';
import { DEFAULT_SCALES } from './error-sweeps';
import {
  clampInt,
  cleanGrid,
  emptySpread,
  featureSeedAt,
  preparedQK,
  preparedAtScale,
  problemOf,
  pushSpread,
  readParams,
  step,
} from './helpers';
import type { AnalysisContext, AnalysisPayloadBase, SpreadSeries, SweepBudget } from './types';

export interface BeyondPayload extends AnalysisPayloadBase, SweepBudget {
  /** m grid of the error-vs-m' sweep */
  mGrid?: number[];
  /** norm scales of the error-vs-s sweep */
  scales?: number[];
  /** feature seeds of the norm sweep (random estimators) */
  normSeeds?: number;
}

export interface BeyondSeries extends EstimatorSpec {
  /** m at each point of `error` (one point for deterministic maps: the current m) */
  m: number[];
  /** feature dimension m' at each point of `error` */
  dims: number[];
  /** relative error of A vs m' (band: min…max over seeds; a single draw has lo = hi = mean) */
  error: SpreadSeries;
  /** relative error of A vs the norm scale, at the current m */
  norm: SpreadSeries;
  /** relative error of A at the current m and s (over the same draws as `error`) */
  current: { mean: number; lo: number; hi: number; std: number };
  /** draws behind each point: the seeds for random estimators, else 1 */
  draws: number;
  normDraws: number;
}

export interface BeyondResult {
  n: number;
  d: number;
  rows: number;
  seeds: number;
  normSeeds: number;
  /** the experiment's m (the norm sweep's) */
  m: number;
  mGrid: number[];
  scales: number[];
  estimators: BeyondSeries[];
}

/** W of estimator `e` at m and feature seed `seed`, exactly as the engine draws it for that map and projection. */
function wFor(p: AttentionParams, e: EstimatorSpec, m: number, seed: number): Matrix {
  return memoProjection({ ...p, m, featureMap: e.map, projection: e.projection ?? p.projection, featureSeed: seed });
}

export async function beyondSweeps(payload: BeyondPayload, ctx: AnalysisContext): Promise<BeyondResult> {
  const p = readParams(payload);
  const seeds = clampInt(payload.seeds, 2, 32, 8);
  const normSeeds = clampInt(payload.normSeeds, 1, 32, 4);
  const n = Math.min(p.n, clampInt(payload.nCap, 16, 2048, 256));
  const rows = evenRows(n, clampInt(payload.rows, 4, 256, 32));
  const mGrid = cleanGrid(payload.mGrid, 1, LIMITS.mMax, powersOfTwo(4, 256));
  const scales = cleanGrid(payload.scales, 0.01, 4, DEFAULT_SCALES, false);
  const ext = readExternal(payload);
  const set = estimatorSet(p.projection, p.d);
  const drawsOf = (e: EstimatorSpec, random: number) => (e.family === 'random' ? random : 1);
  // deterministic maps: one point; the others: the grid and the current m (its error is the headline)
  const mOf = (e: EstimatorSpec) =>
    e.family === 'deterministic' ? [p.m] : [...new Set([...mGrid, p.m])].sort((a, b) => a - b);
  const total = set.reduce((s, e) => s + mOf(e).length * drawsOf(e, seeds), 0) + scales.length;
  let done = 0;

  // error vs m', on the experiment's inputs
  const { inputs } = preparedQK(p, n, ext);
  const problem = problemOf(inputs, rows, p.causal);
  const out: BeyondSeries[] = [];
  // one batch per estimator: every m × draw (the next estimator's W drawn while the GPU runs one)
  const seriesOf = (e: EstimatorSpec) => {
    const series: BeyondSeries = {
      ...e,
      m: mOf(e),
      dims: [],
      error: emptySpread(),
      norm: emptySpread(),
      current: { mean: NaN, lo: NaN, hi: NaN, std: NaN },
      draws: drawsOf(e, seeds),
      normDraws: drawsOf(e, normSeeds),
    };
    const variants = series.m.flatMap((m) =>
      Array.from({ length: series.draws }, (_, s) => ({
        map: e.map,
        w: wFor(p, e, m, featureSeedAt(p, s)),
        stabilizer: p.stabilizer,
      })),
    );
    return { e, series, variants };
  };
  await pipelinedSweep(
    set.length,
    (i) => seriesOf(set[i]!),
    (b) => startRelErrors(ctx, problem, b.variants),
    async (values, { e, series, variants }) => {
      series.m.forEach((m, mi) => {
        const runs = values.slice(mi * series.draws, (mi + 1) * series.draws);
        series.dims.push(estimatorDim(e, m, p.d));
        pushSpread(series.error, runs);
        if (m === p.m) series.current = spread(runs);
      });
      done += variants.length;
      await step(ctx, done, total, e.id);
      out.push(series);
    },
  );

  // error vs s at the current m: which estimators survive concentration
  const ws = out.map((e) => Array.from({ length: e.normDraws }, (_, s) => wFor(p, e, p.m, featureSeedAt(p, s))));
  // one batch per scale: every estimator × draw (the next scale's inputs drawn while the GPU runs one)
  const variants = out.flatMap((e, k) => ws[k]!.map((w) => ({ map: e.map, w, stabilizer: p.stabilizer })));
  await pipelinedSweep(
    scales.length,
    (si) => problemOf(preparedAtScale(p, n, ext, scales[si]!).inputs, rows, p.causal),
    (problem) => startRelErrors(ctx, problem, variants),
    async (values, _, si) => {
      let at0 = 0;
      out.forEach((e, k) => {
        pushSpread(e.norm, values.slice(at0, at0 + ws[k]!.length));
        at0 += ws[k]!.length;
      });
      await step(ctx, ++done, total, `s = ${scales[si]}`);
    },
  );
  return { n, d: p.d, rows: rows.length, seeds, normSeeds, m: p.m, mGrid, scales, estimators: out };
}
