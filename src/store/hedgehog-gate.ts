/**
 * map=hedgehog in the controller: compute and the analyses that use the current map wait for the
 * fitted W. The fit starts once per training key; analyses asked for meanwhile are parked (latest
 * per op) and sent with the fitted W when it arrives; a cancelled or failed fit shows the error
 * code `hedgehog-not-fitted` until the user presses Train.
 */
import type { AnalysisOpName } from '../engine/analysis';
import type { ComputeLoop } from './compute-loop';
import { fitBlock, fitRequest, fittedField, fitKeyOf, HEDGEHOG_ID, OPS_USING_MAP } from './hedgehog-fit';
import type { AppState, AppStore } from './store';

export type RequestAnalysis = (op: AnalysisOpName, payload: unknown, key: string, force?: boolean) => void;

export interface HedgehogGate {
  /** True (and compute marked dirty) while map=hedgehog has no fitted W; starts the fit once per key. */
  waitForFit(): boolean;
  /** The store's fit entry changed: run the waiting compute and send the parked analyses. */
  onFitChange(s: AppState, prev: AppState): void;
  /**
   * An analysis payload and key on the current map's fitted W (unchanged for ops that do not use
   * the map); null, and the request parked, while the fit is missing.
   */
  attachFit(
    op: AnalysisOpName,
    payload: unknown,
    key: string,
    force: boolean,
  ): { payload: unknown; key: string } | null;
}

export function createHedgehogGate(deps: {
  store: AppStore;
  compute: Pick<ComputeLoop, 'run' | 'markDirty' | 'dirty'>;
  requestAnalysis: RequestAnalysis;
}): HedgehogGate {
  const { store, compute, requestAnalysis } = deps;
  /** analyses asked for while the fit runs, latest per id: sent with the fitted W when it arrives */
  const awaitingFit = new Map<AnalysisOpName, { payload: unknown; key: string; force: boolean }>();

  function waitForFit(): boolean {
    const s = store.getState();
    const block = fitBlock(s);
    if (block === 'none') return false;
    compute.markDirty();
    if (block === 'training') {
      const e = s.analyses[HEDGEHOG_ID];
      if (!(e && e.status === 'running' && e.key === fitKeyOf(s))) {
        const r = fitRequest(s);
        requestAnalysis(HEDGEHOG_ID, r.payload, r.key);
      }
      if (s.compute.status !== 'computing' || s.compute.error)
        store.setState({ compute: { ...s.compute, status: 'computing', error: null } });
    } else {
      store.setState({
        compute: {
          ...s.compute,
          status: 'error',
          error: { code: 'hedgehog-not-fitted', message: 'the Hedgehog map is not fitted: press Train' },
        },
      });
    }
    return true;
  }

  function onFitChange(s: AppState, prev: AppState): void {
    const e = s.analyses[HEDGEHOG_ID];
    const was = prev.analyses[HEDGEHOG_ID];
    if (e?.status === was?.status && e?.valueKey === was?.valueKey) return; // progress only
    if (compute.dirty || e?.status === 'cancelled' || e?.status === 'error') compute.run();
    if (e?.status === 'done' && e.valueKey === fitKeyOf(s)) {
      const waiting = [...awaitingFit];
      awaitingFit.clear();
      for (const [id, a] of waiting) requestAnalysis(id, a.payload, a.key, a.force);
    }
  }

  function withFit(op: string, payload: unknown, key: string): { payload: unknown; key: string } | null {
    const s = store.getState();
    const p = (payload as { params?: AppState['params'] } | null)?.params;
    if (!OPS_USING_MAP.has(op) || p?.featureMap !== 'hedgehog') return { payload, key };
    const f = fittedField({ ...s, params: p });
    if (!f.fitted) return null;
    return { payload: { ...(payload as object), fitted: f.fitted }, key: `${key}|${f.fitted.key}` };
  }

  function attachFit(op: AnalysisOpName, payload: unknown, key: string, force: boolean) {
    const fitted = withFit(op, payload, key);
    if (!fitted) awaitingFit.set(op, { payload, key, force });
    else awaitingFit.delete(op);
    return fitted;
  }

  return { waitForFit, onFitChange, attachFit };
}
