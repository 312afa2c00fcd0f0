/** An analysis run in the worker as the panels and the slides see it: the request hook and its status line. */
import { useEffect, useMemo } from 'react';
import { fmtMs } from '../charts/format';
import type { AnalysisOpName, ComputedOn } from '../engine/analysis';
import { withUpload, type AnalysisRequest } from '../store/analyses';
import { useController, useStore } from '../store/react';
import type { AnalysisEntry } from '../store/store';
import { useStrings } from './strings';

/** Quiet time after the last parameter change before analyses start (a drag does not start 9 sweeps per step). */
export const ANALYSIS_DEBOUNCE_MS = 250;

/** Requests analysis `op` once `key` has been stable for a moment (and `enabled`); returns its store entry, typed by the op's result. */
export function useAnalysis<Op extends AnalysisOpName>(op: Op, payload: unknown, key: string, enabled = true) {
  const controller = useController();
  useEffect(() => {
    if (!enabled) return;
    const timer = setTimeout(() => controller.requestAnalysis(op, payload, key), ANALYSIS_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // payload is derived from key; re-running on payload identity would re-request every render
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [controller, op, key, enabled]);
  return useStore((s) => s.analyses[op]);
}

/** `useAnalysis` for a request built in src/store/analyses.ts; `stale` when the shown value is for other parameters. */
export function useAnalysisRequest<Op extends AnalysisOpName>(request: AnalysisRequest<Op>, enabled = true) {
  // uploaded Q, K (V) ride along in the payload and name the upload in the key (src/store/analyses.ts)
  const upload = useStore((s) => s.upload.active);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const req = useMemo(() => withUpload(request, upload), [request.key, upload]);
  const entry = useAnalysis(req.op, req.payload, req.key, enabled);
  return { entry, value: entry?.value ?? null, stale: !!entry && entry.valueKey !== req.key, req };
}

/** Progress bar + cancel while running; messages when cancelled, failed or stale. */
export function AnalysisStatus({ req, entry }: { req: AnalysisRequest; entry: AnalysisEntry | undefined }) {
  const { op: id, payload, key: currentKey } = req;
  const t = useStrings();
  const controller = useController();
  if (!entry) return <p className="analysis-status note">{t.analysis.waiting}</p>;
  const stale = entry.valueKey !== null && entry.valueKey !== currentKey;
  const p = entry.progress;
  const computedOn = (entry.value as ComputedOn | null)?.computedOn;
  // data-analysis-key: the key the panel wants now; data-analysis-version: the key of the value on
  // screen (equal once it is current) — read by the benches (e2e/bench-live.mjs), keep them
  return (
    <div
      className="analysis-status"
      data-analysis={id}
      data-status={entry.status}
      data-analysis-key={currentKey}
      data-analysis-version={entry.valueKey ?? ''}
      aria-live="polite"
    >
      {entry.status === 'running' && (
        <div className="progress-row">
          <progress max={p?.total ?? 1} value={p?.done ?? 0} aria-label={t.analysis.running(p?.label)} />
          <span className="note">{t.analysis.running(p?.label)}</span>
          <button type="button" className="small" onClick={() => controller.cancelAnalysis(id)} data-action="cancel">
            {t.analysis.cancel}
          </button>
        </div>
      )}
      {entry.status === 'cancelled' && (
        <div className="progress-row">
          <span className="note">{t.analysis.cancelled}</span>
          <button
            type="button"
            className="small"
            onClick={() => controller.requestAnalysis(id, payload, currentKey, true)}
            data-action="run"
          >
            {t.analysis.rerun}
          </button>
        </div>
      )}
      {entry.status === 'error' && (
        <div className="progress-row" role="alert">
          <span className="warn">
            {t.errors.analysisFailed} <span lang="en">{entry.error?.message}</span>
          </span>
          <button
            type="button"
            className="small"
            onClick={() => controller.requestAnalysis(id, payload, currentKey, true)}
          >
            {t.analysis.rerun}
          </button>
        </div>
      )}
      {entry.status === 'running' && stale && <p className="note">{t.analysis.stale}</p>}
      {entry.status === 'done' && entry.elapsedMs !== null && (
        <span className="note took" data-computed-on={computedOn ?? ''}>
          {t.analysis.took(fmtMs(entry.elapsedMs))}
          {computedOn && ` · ${t.analysis.computedOn(computedOn)}`}
        </span>
      )}
    </div>
  );
}
