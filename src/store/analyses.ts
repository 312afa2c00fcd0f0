/**
 * The analyses the panels ask the worker for: id, op, payload and the dependency key — the
 * parameters the result actually depends on. Changing anything outside the key (m for the error-vs-m
 * sweep, n above a sweep's cap, …) does not re-run it; the panel just moves its markers.
 */
import type { AttentionParams } from '../core/types';
import { DENSE_ANALYSIS_MAX_N } from '../engine/analysis-ops';

export type {
  EntropyVsNResult,
  EntryErrorsResult,
  ErrorVsDResult,
  ErrorVsMResult,
  LocalTruncationResult,
  MapRowsResult,
  NormSweepResult,
  RowEntropiesResult,
  SpectraResult,
} from '../engine/analysis-ops';

export { DENSE_ANALYSIS_MAX_N };

export interface AnalysisRequest {
  id: string;
  op: string;
  payload: unknown;
  key: string;
}

/** Keys used and query rows sampled by the error sweeps (the error does not depend on n). */
export const SWEEP_BUDGET = { nCap: 256, rows: 32, seeds: 8, normSeeds: 4 } as const;

const key = (...parts: unknown[]) => parts.map(String).join('|');

export function errorVsMRequest(p: AttentionParams): AnalysisRequest {
  const n = Math.min(p.n, SWEEP_BUDGET.nCap);
  return {
    id: 'errorVsM',
    op: 'errorVsM',
    payload: { params: p, seeds: SWEEP_BUDGET.seeds, rows: SWEEP_BUDGET.rows, nCap: SWEEP_BUDGET.nCap },
    key: key(n, p.d, p.seed, p.featureSeed, p.input, p.scale, p.causal),
  };
}

export function normSweepRequest(p: AttentionParams): AnalysisRequest {
  const n = Math.min(p.n, SWEEP_BUDGET.nCap);
  return {
    id: 'normSweep',
    op: 'normSweep',
    payload: { params: p, seeds: SWEEP_BUDGET.normSeeds, rows: SWEEP_BUDGET.rows, nCap: SWEEP_BUDGET.nCap },
    key: key(n, p.d, p.m, p.seed, p.featureSeed, p.projection, p.input, p.causal),
  };
}

export function errorVsDRequest(p: AttentionParams): AnalysisRequest {
  const n = Math.min(p.n, SWEEP_BUDGET.nCap);
  return {
    id: 'errorVsD',
    op: 'errorVsD',
    payload: { params: p, seeds: SWEEP_BUDGET.normSeeds, rows: SWEEP_BUDGET.rows, nCap: SWEEP_BUDGET.nCap },
    key: key(n, p.m, p.seed, p.featureSeed, p.projection, p.input, p.scale, p.causal),
  };
}

export function entryErrorsRequest(p: AttentionParams): AnalysisRequest {
  const n = Math.min(p.n, SWEEP_BUDGET.nCap);
  return {
    id: 'entryErrors',
    op: 'entryErrors',
    payload: { params: p, rows: SWEEP_BUDGET.rows, nCap: SWEEP_BUDGET.nCap },
    key: key(n, p.d, p.m, p.seed, p.featureSeed, p.projection, p.input, p.scale, p.causal),
  };
}

export function rowEntropiesRequest(p: AttentionParams): AnalysisRequest {
  return {
    id: 'rowEntropies',
    op: 'rowEntropies',
    payload: { params: p },
    key: key(p.n, p.d, p.m, p.seed, p.featureSeed, p.featureMap, p.projection, p.input, p.scale, p.causal),
  };
}

export function entropyVsNRequest(p: AttentionParams): AnalysisRequest {
  return {
    id: 'entropyVsN',
    op: 'entropyVsN',
    payload: { params: p, rows: SWEEP_BUDGET.rows },
    key: key(p.d, p.m, p.seed, p.featureSeed, p.featureMap, p.projection, p.input, p.scale, p.causal),
  };
}

export function localTruncationRequest(p: AttentionParams): AnalysisRequest {
  return {
    id: 'localTruncation',
    op: 'localTruncation',
    payload: { params: p, nMax: DENSE_ANALYSIS_MAX_N },
    key: key(p.n, p.d, p.m, p.seed, p.featureSeed, p.featureMap, p.projection, p.input, p.scale, p.causal),
  };
}

export function spectraRequest(p: AttentionParams): AnalysisRequest {
  return {
    id: 'spectra',
    op: 'spectra',
    payload: { params: p, nMax: DENSE_ANALYSIS_MAX_N },
    key: key(p.n, p.d, p.m, p.seed, p.featureSeed, p.featureMap, p.projection, p.input, p.scale, p.causal),
  };
}

export function mapRowsRequest(p: AttentionParams, row: number): AnalysisRequest {
  return {
    id: 'mapRows',
    op: 'mapRows',
    payload: { params: p, row },
    key: key(p.n, p.d, p.m, p.seed, p.featureSeed, p.projection, p.input, p.scale, p.causal, row),
  };
}
