/**
 * How long will a compute request take? A FLOP model of the work a request asks for, per backend,
 * and a throughput learnt from the runs this backend has finished, so the page can say beforehand
 * that a run will be long (and offer to cancel it) instead of spinning silently.
 *
 * FLOPs (one multiply-add = 2), with m′ the feature dimension of the map and c = ½ when causal:
 *   exact attention   4 n² d · c          (QKᵀ and A V)
 *   Performer         8 n m′ d            (φ(Q), φ(K) projections, φ(K)ᵀV, φ(Q)(φ(K)ᵀV))
 *   dense statistics  2 n² (d + m′) · c per pass over the full matrices: the CPU twin makes one
 *                     pass for view + row statistics together; the WebGPU backend one for the
 *                     row normalizers and one each for the row statistics and the view (and it
 *                     needs the normalizers for full rows too)
 *   full rows         2 R n (d + m′)      for the R requested query rows
 */
import type { BackendInfo } from '../core/attention-job';
import { featureDim } from '../core/feature-maps';
import type { ComputeRequest } from './protocol';

export type BackendKind = BackendInfo['kind'];

export interface CostBreakdown {
  exact: number;
  performer: number;
  dense: number;
  rows: number;
  total: number;
}

export function requestFlops(
  req: Pick<ComputeRequest, 'params' | 'viewCells' | 'rowStats' | 'rows'>,
  kind: BackendKind,
): CostBreakdown {
  const { n, d, m, featureMap, causal } = req.params;
  const mp = featureDim(featureMap, m, d);
  const c = causal ? 0.5 : 1;
  const exact = 4 * n * n * d * c;
  const performer = 8 * n * mp * d;
  const pass = 2 * n * n * (d + mp) * c;
  const view = req.viewCells > 0;
  const R = req.rows.length;
  let passes = 0;
  if (kind === 'cpu') passes = view || req.rowStats ? 1 : 0;
  else if (view || req.rowStats || R > 0) passes = 1 + (req.rowStats ? 1 : 0) + (view ? 1 : 0);
  const dense = passes * pass;
  const rows = 2 * R * n * (d + mp);
  return { exact, performer, dense, rows, total: exact + performer + dense + rows };
}

/**
 * Throughput before any run has been measured: deliberately low (a JavaScript loop; a software
 * WebGPU adapter), so the first long run is announced rather than silently underestimated.
 */
export const PRIOR_FLOPS_PER_MS: Record<BackendKind, number> = { cpu: 4e5, webgpu: 5e6 };
/** Runs below this much work say more about fixed overhead (messages, readback) than throughput. */
export const MIN_SAMPLE_FLOPS = 5e7;
/** Weight of the newest sample in the running (geometric) mean of throughput. */
const ALPHA = 0.5;

export interface RateModel {
  /** record a finished run: its FLOPs and wall time in the worker */
  observe(kind: BackendKind, flops: number, ms: number): void;
  /** predicted wall time in ms */
  predict(kind: BackendKind, flops: number): number;
  /** current throughput estimate (FLOP per ms) and whether it was measured */
  rate(kind: BackendKind): { flopsPerMs: number; measured: boolean };
}

/**
 * time ≈ overhead + flops / rate. The overhead is the smallest wall time of the small runs (they
 * measure fixed costs: messages, input generation, readback); the rate is a running geometric mean
 * over runs large enough to be dominated by arithmetic, each corrected for the overhead.
 */
export function createRateModel(prior: Record<BackendKind, number> = PRIOR_FLOPS_PER_MS): RateModel {
  const state: Record<BackendKind, { logRate: number; measured: boolean; overhead: number | null }> = {
    cpu: { logRate: Math.log(prior.cpu), measured: false, overhead: null },
    webgpu: { logRate: Math.log(prior.webgpu), measured: false, overhead: null },
  };
  return {
    observe(kind, flops, ms) {
      const s = state[kind];
      if (!(ms > 0) || !(flops > 0) || !Number.isFinite(ms)) return;
      if (flops < MIN_SAMPLE_FLOPS) {
        s.overhead = s.overhead === null ? ms : Math.min(s.overhead, ms);
        return;
      }
      const work = Math.max(ms - (s.overhead ?? 0), ms * 0.5);
      const lr = Math.log(flops / work);
      s.logRate = s.measured ? (1 - ALPHA) * s.logRate + ALPHA * lr : lr;
      s.measured = true;
    },
    predict(kind, flops) {
      const s = state[kind];
      return (s.overhead ?? 0) + flops / Math.exp(s.logRate);
    },
    rate(kind) {
      const s = state[kind];
      return { flopsPerMs: Math.exp(s.logRate), measured: s.measured };
    },
  };
}

/** Runs predicted to take at least this long are announced with an estimate and a Cancel button. */
export const LONG_RUN_MS = 2_000;
