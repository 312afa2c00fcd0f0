/** The error panel's sweeps: error of A vs m, vs the norm scale s, vs d, and per exact entry. */
import { EngineError } from '../../core/errors';
import { evenRows, mean, powersOfTwo, predictedRelError } from '../../core/sweeps';
import { theoryOf } from './theory-memo';
import { STABILIZERS, type ProjectionKind } from '../../core/types';
import { normalizedEntropies, relErrorOfRows, type FeatureVariant } from '../../core/analysis-backend';
import { LIMITS } from '../../core/limits';
import { normSweepScales } from './grids';
import { readExternal } from '../external-inputs';
import { pipelinedSweep, startRelErrors, startRowStats } from './pipeline';
import {
  ESTIMATORS,
  hasTheory,
  preparedAtScale,
  step,
  readParams,
  clampInt,
  cleanGrid,
  projectionFor,
  featureSeedAt,
  preparedQK,
  pushSpread,
  emptySpread,
  quantile,
  backendOf,
  problemOf,
} from './helpers';
import type {
  AnalysisContext,
  ErrorVsMPayload,
  ErrorVsMResult,
  NormSweepPayload,
  NormSweepResult,
  ErrorVsDPayload,
  ErrorVsDResult,
  EntryErrorsPayload,
  BinnedErrors,
  EntryErrorsResult,
} from './types';

export async function errorVsM(payload: ErrorVsMPayload, ctx: AnalysisContext): Promise<ErrorVsMResult> {
  const p = readParams(payload);
  const seeds = clampInt(payload.seeds, 2, 32, 8);
  const n = Math.min(p.n, clampInt(payload.nCap, 16, 2048, 256));
  const rows = evenRows(n, clampInt(payload.rows, 4, 256, 32));
  const mGrid = cleanGrid(payload.mGrid, 1, LIMITS.mMax, powersOfTwo(4, 512));
  const { inputs, x, y } = preparedQK(p, n, readExternal(payload));
  const problem = problemOf(inputs, rows, p.causal);
  const projections: ProjectionKind[] = ['orthogonal-chi', 'iid'];
  const errs = new Map<string, number[][]>(); // key map|proj → [mIndex][seed]
  for (const map of ESTIMATORS)
    for (const proj of projections)
      errs.set(
        `${map}|${proj}`,
        mGrid.map(() => []),
      );
  const total = seeds * projections.length * mGrid.length + 1;
  let done = 0;
  // one batch per seed and projection: every m and map (the next batch's W drawn while the GPU runs one)
  await pipelinedSweep(
    seeds * projections.length,
    (i) => {
      const proj = projections[i % projections.length]!;
      const ws = mGrid.map((m) => projectionFor(p, m, proj, featureSeedAt(p, Math.floor(i / projections.length))));
      return { proj, variants: ws.flatMap((w) => ESTIMATORS.map((map) => ({ map, w, stabilizer: p.stabilizer }))) };
    },
    (b) => startRelErrors(ctx, problem, b.variants),
    async (values, { proj }, i) => {
      for (let mi = 0; mi < mGrid.length; mi++)
        ESTIMATORS.forEach((map, e) => errs.get(`${map}|${proj}`)![mi]!.push(values[mi * ESTIMATORS.length + e]!));
      done += mGrid.length;
      await step(ctx, done, total, `seed ${Math.floor(i / projections.length) + 1}/${seeds}`);
    },
  );
  const series: ErrorVsMResult['series'] = [];
  for (const map of ESTIMATORS) {
    for (const projection of projections) {
      const sp = emptySpread();
      for (const values of errs.get(`${map}|${projection}`)!) pushSpread(sp, values);
      series.push({ map, projection, ...sp });
    }
  }
  const theory = ESTIMATORS.filter(hasTheory).map((map) => {
    const t = theoryOf(map, x, y, rows, p.causal);
    return { map, values: mGrid.map((m) => predictedRelError(t, m)) };
  });
  await step(ctx, total, total, 'theory');
  return { mGrid, scale: p.scale, n, rows: rows.length, seeds, series, theory };
}

export { DEFAULT_SCALES } from './grids';

export async function normSweep(payload: NormSweepPayload, ctx: AnalysisContext): Promise<NormSweepResult> {
  const p = readParams(payload);
  const seeds = clampInt(payload.seeds, 1, 32, 4);
  const n = Math.min(p.n, clampInt(payload.nCap, 16, 2048, 256));
  const rows = evenRows(n, clampInt(payload.rows, 4, 256, 32));
  const scales = normSweepScales(payload);
  const error = ESTIMATORS.map((map) => ({ map, ...emptySpread() }));
  const theory = ESTIMATORS.filter(hasTheory).map((map) => ({ map, values: [] as number[] }));
  const entropyExact: number[] = [];
  const entropyPerformer: number[] = [];
  const stabilizers = STABILIZERS.map((stabilizer) => ({ stabilizer, entropy: [] as number[], error: [] as number[] }));
  const ws = Array.from({ length: seeds }, (_, s) => projectionFor(p, p.m, p.projection, featureSeedAt(p, s)));
  // uploaded Q, K: the sweep rescales them so that their entries' RMS is each grid scale
  const ext = readExternal(payload);
  // one batch per scale: every map × seed at the experiment's stabilizer, then positive × seed under
  // each stabilizer; the next scale's inputs and predictions are formed while the GPU runs one
  const variants: FeatureVariant[] = [
    ...ESTIMATORS.flatMap((map) => ws.map((w) => ({ map, w, stabilizer: p.stabilizer }))),
    ...stabilizers.flatMap((st) => ws.map((w) => ({ map: 'positive' as const, w, stabilizer: st.stabilizer }))),
  ];
  const h = (e: Float64Array) => mean(normalizedEntropies(e, rows, p.causal, n));
  await pipelinedSweep(
    scales.length,
    (si) => {
      const { inputs, x, y } = preparedAtScale(p, n, ext, scales[si]!);
      const predicted = theory.map((th) => predictedRelError(theoryOf(th.map, x, y, rows, p.causal), p.m));
      return { problem: problemOf(inputs, rows, p.causal), predicted };
    },
    (pt) => startRowStats(ctx, pt.problem, variants, { entropy: true }),
    async (b, { predicted }, si) => {
      entropyExact.push(h(b.exactEntropy));
      const hPerf: number[] = [];
      ESTIMATORS.forEach((map, k) => {
        const runs = ws.map((_, s) => {
          const v = b.variants[k * seeds + s]!;
          if (map === 'positive') hPerf.push(h(v.entropy!));
          return relErrorOfRows(v);
        });
        pushSpread(error[k]!, runs);
      });
      theory.forEach((th, t) => th.values.push(predicted[t]!));
      entropyPerformer.push(mean(hPerf));
      stabilizers.forEach((st, k) => {
        const vs = b.variants.slice((ESTIMATORS.length + k) * seeds, (ESTIMATORS.length + k + 1) * seeds);
        st.entropy.push(mean(vs.map((v) => h(v.entropy!))));
        st.error.push(mean(vs.map(relErrorOfRows)));
      });
      await step(ctx, si + 1, scales.length, `scale ${scales[si]}`);
    },
  );
  return {
    scales,
    n,
    rows: rows.length,
    seeds,
    m: p.m,
    projection: p.projection,
    error,
    theory,
    entropyExact,
    entropyPerformer,
    stabilizers,
  };
}

export async function errorVsD(payload: ErrorVsDPayload, ctx: AnalysisContext): Promise<ErrorVsDResult> {
  const p = readParams(payload);
  const seeds = clampInt(payload.seeds, 1, 32, 4);
  const n = Math.min(p.n, clampInt(payload.nCap, 16, 2048, 256));
  const rows = evenRows(n, clampInt(payload.rows, 4, 256, 32));
  const dGrid = cleanGrid(payload.dGrid, 1, LIMITS.dMax, [2, 4, 8, 16, 32, 64, 128, 256]);
  const out: ErrorVsDResult = { dGrid, scale: p.scale, n, rows: rows.length, seeds, theory: [], ...emptySpread() };
  // one grid point's problem, W per seed and prediction (drawn on the CPU)
  const point = (di: number) => {
    const pd = { ...p, d: dGrid[di]! };
    const { inputs, x, y } = preparedQK(pd, n);
    const variants = Array.from({ length: seeds }, (_, s) => ({
      map: 'positive' as const,
      w: projectionFor(pd, p.m, p.projection, featureSeedAt(p, s)),
      stabilizer: p.stabilizer,
    }));
    const theory = predictedRelError(theoryOf('positive', x, y, rows, p.causal), p.m);
    return { problem: problemOf(inputs, rows, p.causal), variants, theory };
  };
  // the next point is drawn while the GPU runs this one's batch (pipeline.ts)
  await pipelinedSweep(
    dGrid.length,
    point,
    (cur) => startRelErrors(ctx, cur.problem, cur.variants),
    async (errs, cur, di) => {
      pushSpread(out, errs);
      out.theory.push(cur.theory);
      await step(ctx, di + 1, dGrid.length, `d = ${dGrid[di]}`);
    },
  );
  return out;
}

export async function entryErrors(payload: EntryErrorsPayload, ctx: AnalysisContext): Promise<EntryErrorsResult> {
  const p = readParams(payload);
  const n = Math.min(p.n, clampInt(payload.nCap, 16, 2048, 256));
  const rows = evenRows(n, clampInt(payload.rows, 4, 256, 32));
  const nb = clampInt(payload.bins, 4, 64, 14);
  const { inputs } = preparedQK(p, n, readExternal(payload));
  const w = projectionFor(p, p.m, p.projection, p.featureSeed);
  const kinds = ['positive', 'trig'] as const;
  const b = await backendOf(ctx).rowStats(
    problemOf(inputs, rows, p.causal),
    kinds.map((map) => ({ map, w, stabilizer: p.stabilizer })),
    { fullRows: true },
  );
  const exact = b.exactRows!;
  await step(ctx, 1, 3, 'exact');
  let lo = Infinity;
  let hi = 0;
  for (const r of exact)
    for (const a of r)
      if (a > 0) {
        lo = Math.min(lo, a);
        hi = Math.max(hi, a);
      }
  if (!(hi > 0)) throw new EngineError('non-finite-result', 'exact attention has no positive entries');
  lo = Math.max(lo, hi * 1e-12);
  const logLo = Math.log10(lo);
  const width = (Math.log10(hi) - logLo) / nb || 1;
  const edges = Array.from({ length: nb + 1 }, (_, b) => 10 ** (logLo + b * width));
  const centers = Array.from({ length: nb }, (_, b) => 10 ** (logLo + (b + 0.5) * width));
  const binOf = (a: number) => Math.min(nb - 1, Math.max(0, Math.floor((Math.log10(a) - logLo) / width)));
  // every kept entry's bin once (both maps share it), then each map's errors laid out bin after bin in one
  // Float64Array and each bin sorted in place (numeric typed-array sorts, no array per bin)
  const cols = exact[0]?.length ?? 0;
  const bins = new Int32Array(exact.length * cols).fill(-1);
  const starts = new Int32Array(nb + 1);
  exact.forEach((r, t) => {
    for (let j = 0; j < r.length; j++) {
      const a = r[j]!;
      if (a < lo) continue;
      const bin = binOf(a);
      bins[t * cols + j] = bin;
      starts[bin + 1]!++;
    }
  });
  for (let bin = 0; bin < nb; bin++) starts[bin + 1]! += starts[bin]!;
  const binned = (kind: (typeof kinds)[number]): BinnedErrors => {
    const approx = b.variants[kinds.indexOf(kind)]!.rows!;
    const errs = new Float64Array(starts[nb]!);
    const at = starts.slice(0, nb);
    exact.forEach((r, t) => {
      for (let j = 0; j < r.length; j++) {
        const bin = bins[t * cols + j]!;
        if (bin >= 0) errs[at[bin]!++] = Math.abs(approx[t]![j]! - r[j]!) / r[j]!;
      }
    });
    const out: BinnedErrors = { median: [], q10: [], q90: [], count: [] };
    for (let bin = 0; bin < nb; bin++) {
      const sorted = errs.subarray(starts[bin]!, starts[bin + 1]!).sort();
      out.median.push(quantile(sorted, 0.5));
      out.q10.push(quantile(sorted, 0.1));
      out.q90.push(quantile(sorted, 0.9));
      out.count.push(sorted.length);
    }
    return out;
  };
  const positive = binned('positive');
  await step(ctx, 2, 3, 'positive');
  const trig = binned('trig');
  await step(ctx, 3, 3, 'trig');
  return { centers, edges, n, rows: rows.length, positive, trig };
}
