/** What the store sends the engine for its current state: the compute request and its view limit. */
import type { BackendInfo } from '../core/attention-job';
import { isEngineError } from '../core/errors';
import { LIMITS } from '../core/limits';
import type { ComputeRequest } from '../engine/protocol';
import { fittedField } from './hedgehog-fit';
import { defaultRow, type AppState } from './store';

/**
 * Largest n for which the matrix view and per-row statistics (both O(n²(d + m')) work) are
 * requested. Above it the panels show outputs only and say why.
 */
export const VIEW_LIMITS = { webgpu: 4_096, cpu: 1_024 } as const;

export function viewLimit(backend: BackendInfo | null): number {
  return backend?.kind === 'webgpu' ? VIEW_LIMITS.webgpu : VIEW_LIMITS.cpu;
}

/** The compute request for the current state. */
export function buildRequest(
  state: Pick<AppState, 'params' | 'ui' | 'backend'> & { upload?: AppState['upload']; analyses?: AppState['analyses'] },
): ComputeRequest {
  const { params, ui } = state;
  const withView = params.n <= viewLimit(state.backend.info);
  const up = state.upload?.active;
  return {
    params,
    ...(up ? { external: { q: up.q.matrix, k: up.k.matrix, ...(up.v ? { v: up.v.matrix } : {}) } } : {}),
    viewCells: withView ? Math.min(params.n, LIMITS.viewCellsMax) : 0,
    rowStats: withView,
    rows: [ui.pinnedRow ?? defaultRow(params.n)],
    ...fittedField({ ...state, analyses: state.analyses ?? {} }),
  };
}

/** An engine failure as the store keeps it. */
export function errorInfo(e: unknown): { code: string; message: string } {
  if (isEngineError(e)) return { code: e.code, message: e.message };
  return { code: 'internal', message: e instanceof Error ? e.message : String(e) };
}
