/**
 * The engine worker's op `estimatorTiming`: every estimator of the comparison (core/estimators.ts
 * `estimatorSet`) run on the live backend — WebGPU kernels, or the CPU twins when the engine runs
 * on the CPU — at the experiment's n, d, m, on the experiment's inputs. One warm-up run per
 * estimator (pipelines compiled, row statistics for the error of A), then `repeats` timed runs
 * without statistics; each reports its kernels' times (GPU timestamp queries where available, else
 * wall clock), and the estimator's time is the median of its features + linear-attention kernels.
 * Live computes may run between the timed runs: `exclusive` keeps one job on the backend at a time.
 */
import type { AttentionBackend, KernelTiming } from '../core/attention-job';
import { EngineError } from '../core/errors';
import { estimatorDim, estimatorSet } from '../core/estimators';
import {
  ROW_STATS_MAX_N,
  type AnalysisContext,
  type EstimatorTiming,
  type EstimatorTimingPayload,
  type EstimatorTimingResult,
} from './analysis/types';
import { readParams } from './analysis/helpers';
import { compute } from './compute';
import { readExternal } from './external-inputs';

const EXACT_KERNEL = 'exact-attention';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const h = Math.floor(s.length / 2);
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

/** Time of the estimator's own kernels (everything but exact attention) and of exact attention. */
export function splitTimings(timings: KernelTiming[]): { approxMs: number; exactMs: number } {
  let approxMs = 0;
  let exactMs = 0;
  for (const t of timings) {
    if (t.kernel === EXACT_KERNEL) exactMs += t.ms;
    else approxMs += t.ms;
  }
  return { approxMs, exactMs };
}

export async function estimatorTiming(
  payload: EstimatorTimingPayload,
  ctx: AnalysisContext,
  backend: AttentionBackend,
  exclusive: <T>(job: () => Promise<T>) => Promise<T>,
): Promise<EstimatorTimingResult> {
  const p = readParams(payload);
  const repeats = Math.max(1, Math.min(20, Math.round(payload.repeats ?? 3)));
  const ext = readExternal(payload);
  const set = estimatorSet(p.projection, p.d);
  const total = set.length * (repeats + 1);
  let done = 0;
  const exactRuns: number[] = [];
  let source: 'timestamp' | 'wall' = 'wall';
  const estimators: EstimatorTiming[] = [];
  for (const e of set) {
    const params = { ...p, featureMap: e.map, projection: e.projection ?? p.projection };
    const request = (rowStats: boolean) => ({
      params,
      ...(ext ? { external: ext } : {}),
      viewCells: 0,
      rowStats,
      rows: [],
    });
    const check = () => {
      if (ctx.cancelled()) throw new EngineError('cancelled', 'timing cancelled');
    };
    check();
    const warm = await exclusive(() => compute(0, request(p.n <= ROW_STATS_MAX_N), backend));
    ctx.progress(++done, total, e.id);
    const runsMs: number[] = [];
    for (let r = 0; r < repeats; r++) {
      check();
      const res = await exclusive(() => compute(0, request(false), backend));
      const { approxMs, exactMs } = splitTimings(res.output.timings);
      if (res.output.timings.some((t) => t.source === 'timestamp')) source = 'timestamp';
      runsMs.push(approxMs);
      exactRuns.push(exactMs);
      ctx.progress(++done, total, e.id);
      if (ctx.breathe) await ctx.breathe();
    }
    estimators.push({
      ...e,
      mPrime: estimatorDim(e, p.m, p.d),
      ms: median(runsMs),
      runsMs,
      relErrorA: warm.metrics.relErrorA,
      relErrorOut: warm.metrics.relErrorOut,
    });
  }
  return { n: p.n, d: p.d, m: p.m, backend: backend.info, source, repeats, exactMs: median(exactRuns), estimators };
}
