/**
 * Which parameters the panels' bodies render while the main comparison computes. A step of m starts
 * one short compute (the heatmaps) and, without this rule, re-renders every panel body at once with
 * the new parameters (charts, labels, the analyses' requests): both share the machine, and the
 * heatmaps arrive later — most of all on a software adapter, whose GPU threads are the page's cores.
 * So while a compute is in flight, the bodies keep the parameters they show until that compute
 * answers (a newer result in the store, or the compute no longer running) or PANEL_HOLD_MS have
 * passed since the parameters changed, and then follow: a panel's labels never wait longer for a
 * slow figure, and a run announced as long (with its estimate and Cancel) does not hold them at all.
 * The bound is on time, not on the run's prediction: the cost model learns its overhead from the
 * first runs of a page, which include warm-up, and predicts a slider step's compute several times
 * too long at first. During a drag the bodies thus follow once per result, in step with the
 * heatmaps. (The analyses they request start after the compute anyway: the engine client holds its
 * pool while a compute is in flight.)
 */
import type { AttentionParams } from '../core/types';
import type { ComputeState } from './store';

/** Longest a panel body waits for the main compute before following new parameters (ms). */
export const PANEL_HOLD_MS = 200;

/** What a panel body renders from, and the newest result it has seen in the store. */
export interface ShownParams {
  params: AttentionParams;
  resultId: number | null;
}

/** The store's side of the rule: whether the compute in flight is one the panel bodies wait for. */
export function holdsPanels(compute: Pick<ComputeState, 'status' | 'running'>): boolean {
  return compute.status === 'computing' && !!compute.running && !compute.running.long;
}

/**
 * What a body showing `shown` renders now, given the store's `params` and result id: the store's
 * parameters at once unless a held compute is in flight; while one is, once a newer result than
 * the body has seen arrives or the wait has `expired`. Returns `shown` itself when nothing changes.
 */
export function nextShown(
  shown: ShownParams,
  params: AttentionParams,
  now: { resultId: number | null; holding: boolean; expired: boolean },
): ShownParams {
  const newer = now.resultId !== shown.resultId;
  if (shown.params === params) return newer ? { params, resultId: now.resultId } : shown;
  return !now.holding || newer || now.expired ? { params, resultId: now.resultId } : shown;
}
