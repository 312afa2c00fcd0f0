/**
 * The store's side of `map=hedgehog`: the fit is an analysis (id HEDGEHOG_ID, op 'hedgehogFit')
 * keyed by the training key; its result's W goes into every compute request and into the payload
 * of every analysis that uses the current map, so the engine never computes with an unfitted W.
 * The controller (hedgehog-gate.ts) waits for the fit before computing, starts it automatically once
 * per key, and re-runs compute and waiting analyses when it arrives.
 */
import { hedgehogKey } from '../core/hedgehog-fit';
import type { HedgehogFitResult } from '../engine/hedgehog-op';
import type { AppState } from './store';

export type { HedgehogFitResult, HedgehogProgressDetail } from '../engine/hedgehog-op';

export const HEDGEHOG_OP = 'hedgehogFit' as const;
/** analyses are stored under their op's name */
export const HEDGEHOG_ID = HEDGEHOG_OP;

/**
 * Analysis ops that compute with the current map (and so need the fitted W under map=hedgehog);
 * the others sweep fixed estimators and never wait for the fit. A new op using `params.featureMap`
 * belongs here (and reads W through `fittedMapW`, src/engine/hedgehog-op.ts).
 */
export const OPS_USING_MAP: ReadonlySet<string> = new Set(['rowEntropies', 'entropyVsN', 'localTruncation', 'spectra']);

type FitState = Pick<AppState, 'params' | 'analyses'> & { upload?: AppState['upload'] };

/** Training key of the current state (parameters and uploaded data). */
export function fitKeyOf(s: Pick<AppState, 'params'> & { upload?: AppState['upload'] }): string {
  return hedgehogKey(s.params, s.upload?.active?.id ?? null);
}

/** The fit of the current parameters, if it has finished. */
export function currentFit(s: FitState): HedgehogFitResult | null {
  const e = s.analyses[HEDGEHOG_ID];
  const key = fitKeyOf(s);
  return e && e.valueKey === key && e.value ? (e.value as HedgehogFitResult) : null;
}

/** The fit analysis request of the current state: payload and key. */
export function fitRequest(s: Pick<AppState, 'params'> & { upload?: AppState['upload'] }): {
  payload: unknown;
  key: string;
} {
  const up = s.upload?.active;
  const external = up ? { q: up.q.matrix, k: up.k.matrix } : undefined;
  return { payload: { params: s.params, upload: up?.id ?? null, ...(external ? { external } : {}) }, key: fitKeyOf(s) };
}

/** `{ fitted }` for a compute request or analysis payload when the map is hedgehog and fitted; {} otherwise. */
export function fittedField(s: FitState): { fitted?: { key: string; w: HedgehogFitResult['w'] } } {
  if (s.params.featureMap !== 'hedgehog') return {};
  const fit = currentFit(s);
  return fit ? { fitted: { key: fit.key, w: fit.w } } : {};
}

/** Why compute waits: the fit runs, or it was cancelled / failed (then the user must press Train). */
export function fitBlock(s: FitState): 'none' | 'training' | 'stopped' {
  if (s.params.featureMap !== 'hedgehog' || currentFit(s)) return 'none';
  const e = s.analyses[HEDGEHOG_ID];
  if (e && e.key === fitKeyOf(s) && (e.status === 'cancelled' || e.status === 'error')) return 'stopped';
  return 'training';
}
