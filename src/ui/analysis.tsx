/** An analysis run in the worker as the panels and the slides see it: the request hook and its status line. */
import { useEffect, useMemo, useRef, useState } from 'react';
import { fmtMs } from '../charts/format';
import { retryCanHelp } from '../core/errors';
import type { AnalysisOpName, ComputedOn } from '../engine/analysis';
import { withUpload, type AnalysisRequest } from '../store/analyses';
import { useController, useStore } from '../store/react';
import type { AnalysisEntry, AppState } from '../store/store';
import { useStrings } from './strings';

/**
 * Quiet time after the last parameter change before analyses start. Short: the first stage is
 * coarse (a few hundred ms), a newer request drops queued stages and stops a running one at its
 * next step, and the parameters of a drag are already coalesced to one per frame.
 */
export const ANALYSIS_DEBOUNCE_MS = 60;

/** The requests of the figures whose key changed, sent together once the parameters are quiet. */
const batch = new Set<() => void>();
let batchTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Queues a request for the next batch; returns its withdrawal. One batch, not a timer per figure:
 * the requests reach the worker in one burst (so its queue orders them all by priority, not the
 * first by arrival) and their store updates render once.
 */
function queueRequest(send: () => void): () => void {
  batch.add(send);
  clearTimeout(batchTimer);
  batchTimer = setTimeout(() => {
    const all = [...batch];
    batch.clear();
    for (const s of all) s();
  }, ANALYSIS_DEBOUNCE_MS);
  return () => {
    batch.delete(send);
  };
}

/** Whether two entries of one op differ at most in their progress (a worker's step report); every other field, whatever the entry holds, compared. */
function sameButProgress(a: AnalysisEntry, b: AnalysisEntry): boolean {
  const keys = Object.keys(a) as (keyof AnalysisEntry)[];
  return keys.length === Object.keys(b).length && keys.every((k) => k === 'progress' || a[k] === b[k]);
}

/**
 * The op's store entry, its identity kept while only its progress changes: most store updates during
 * a step are the analyses' progress reports (about 43 of 66 per step of m), and a panel body rendering on
 * each of them was main-thread time the figures did not need. The status line (AnalysisStatus)
 * subscribes to the progress itself; the `progress` of the entry returned here is the one it had when
 * anything else last changed.
 */
function useEntryWithoutProgress(op: AnalysisOpName): AnalysisEntry | undefined {
  const last = useRef<AnalysisEntry | undefined>(undefined);
  return useStore((s) => {
    const e = s.analyses[op];
    const prev = last.current;
    if (e && prev && e !== prev && sameButProgress(e, prev)) return prev;
    last.current = e;
    return e;
  });
}

/**
 * Requests analysis `op` once `key` has been stable for a moment (and `enabled`); returns its store
 * entry, typed by the op's result, without re-rendering on progress alone (useEntryWithoutProgress).
 * `coarse`: the same request on smaller budgets, shown first.
 */
export function useAnalysis<Op extends AnalysisOpName>(
  op: Op,
  payload: unknown,
  key: string,
  enabled = true,
  coarse?: unknown,
) {
  const controller = useController();
  useEffect(() => {
    if (!enabled) return;
    return queueRequest(() => controller.requestAnalysis(op, payload, key, false, coarse));
    // payload is derived from key; re-running on payload identity would re-request every render
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [controller, op, key, enabled]);
  return useEntryWithoutProgress(op) as AnalysisResultsEntry<Op>;
}

type AnalysisResultsEntry<Op extends AnalysisOpName> = AppState['analyses'][Op];

/** `useAnalysis` for a request built in src/store/analyses.ts; `stale` when the shown value is for other parameters. */
export function useAnalysisRequest<Op extends AnalysisOpName>(request: AnalysisRequest<Op>, enabled = true) {
  // uploaded Q, K (V) ride along in the payload and name the upload in the key (src/store/analyses.ts)
  const upload = useStore((s) => s.upload.active);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const req = useMemo(() => withUpload(request, upload), [request.key, upload]);
  const entry = useAnalysis(req.op, req.payload, req.key, enabled, req.coarse);
  return { entry, value: entry?.value ?? null, stale: !!entry && entry.valueKey !== req.key, req };
}

/** Space around the viewport within which a figure's status line counts as on screen (its chart lies below it). */
const ON_SCREEN_MARGIN = '600px 0px 50px 0px';

/** Reports whether the element (a figure's status line) is on screen, so that its analysis runs first. */
function useReportOnScreen(op: AnalysisOpName) {
  const controller = useController();
  const [el, setEl] = useState<Element | null>(null);
  useEffect(() => {
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const figure = {};
    const io = new IntersectionObserver(
      (records) => {
        for (const r of records) controller.setAnalysisOnScreen(op, figure, r.isIntersecting);
      },
      { rootMargin: ON_SCREEN_MARGIN },
    );
    io.observe(el);
    return () => {
      io.disconnect();
      controller.setAnalysisOnScreen(op, figure, false);
    };
  }, [controller, op, el]);
  return setEl;
}

/** The value on screen is a coarse stage of the current key (refining, or left so by a cancel or an error). */
export function isCoarse(entry: AnalysisEntry | undefined, key: string): boolean {
  return !!entry && entry.valueKey === key && !entry.refined;
}

/** A coarse value of the current key is on screen and its refinement still runs. */
export function isRefining(entry: AnalysisEntry | undefined, key: string): boolean {
  return isCoarse(entry, key) && entry!.status === 'running';
}

/**
 * Progress bar + cancel while running; "refining" over a coarse value; messages when cancelled, failed
 * or stale. Every state is one row of the same height (styles.css .analysis-status; long texts end in
 * an ellipsis, whole in their title), so a status change never moves the page below the figure.
 */
export function AnalysisStatus({ req }: { req: AnalysisRequest }) {
  const { op: id, payload, key: currentKey } = req;
  // the live entry, progress included (a panel's useAnalysis holds its entry across progress reports)
  const entry: AnalysisEntry | undefined = useStore((s) => s.analyses[id]);
  // a re-run shows its coarse stage first, unless a value of this key (coarse or full) is on screen
  const rerun = () =>
    controller.requestAnalysis(id, payload, currentKey, true, entry?.valueKey === currentKey ? undefined : req.coarse);
  const t = useStrings();
  const controller = useController();
  const ref = useReportOnScreen(id);
  if (!entry)
    return (
      <p ref={ref} className="analysis-status note">
        {t.analysis.waiting}
      </p>
    );
  const stale = entry.valueKey !== null && entry.valueKey !== currentKey;
  const refining = isRefining(entry, currentKey);
  const p = entry.progress;
  const label = refining ? t.analysis.refining(p?.label) : t.analysis.running(p?.label);
  const computedOn = (entry.value as ComputedOn | null)?.computedOn;
  const retryable = retryCanHelp(entry.error?.code ?? 'internal');
  // a coarse value of this key on screen with no refinement coming (finished, cancelled or failed)
  const coarseNote = entry.status !== 'running' && isCoarse(entry, currentKey) && (
    <span className="note" data-coarse="true" title={t.analysis.coarseOnly}>
      {t.analysis.coarseOnly}
    </span>
  );
  // data-analysis-key: the key the panel wants now; data-analysis-version: the key of the value on
  // screen (equal once it is current); data-refining: that value is a coarse stage — read by the
  // benches (e2e/bench-live.mjs) and e2e/progressive.spec.mjs, keep them
  return (
    <div
      ref={ref}
      className={entry.status === 'error' ? 'analysis-status failed' : 'analysis-status'}
      data-analysis={id}
      data-status={entry.status}
      data-analysis-key={currentKey}
      data-analysis-version={entry.valueKey ?? ''}
      data-refining={refining ? 'true' : 'false'}
      aria-live="polite"
    >
      {entry.status === 'running' && (
        <div className="progress-row">
          <progress max={p?.total ?? 1} value={p?.done ?? 0} aria-label={label} />
          {/* before the label, whose width changes with every progress step: Cancel does not move */}
          <button type="button" className="small" onClick={() => controller.cancelAnalysis(id)} data-action="cancel">
            {t.analysis.cancel}
          </button>
          <span className="note" title={label}>
            {label}
          </span>
          {stale && (
            <span className="note" title={t.analysis.stale}>
              {t.analysis.stale}
            </span>
          )}
        </div>
      )}
      {entry.status === 'cancelled' && (
        <div className="progress-row">
          <span className="note" title={t.analysis.cancelled}>
            {t.analysis.cancelled}
          </span>
          <button type="button" className="small" onClick={rerun} data-action="run">
            {t.analysis.rerun}
          </button>
          {coarseNote}
        </div>
      )}
      {entry.status === 'error' && (
        // an error the parameters decide says so and offers no re-run: the same request fails the same way
        <div className="progress-row" role="alert" data-error-code={entry.error?.code ?? ''}>
          <span className="warn">
            {retryable ? t.errors.analysisFailed : t.errors.analysisNotComputed}{' '}
            <span lang="en">{entry.error?.message}</span>
          </span>
          {retryable && (
            <button type="button" className="small" onClick={rerun} data-action="run">
              {t.analysis.rerun}
            </button>
          )}
          {coarseNote}
        </div>
      )}
      {entry.status === 'done' && (
        <div className="progress-row">
          {entry.elapsedMs !== null && (
            <span className="note took" data-computed-on={computedOn ?? ''}>
              {t.analysis.took(fmtMs(entry.elapsedMs))}
              {computedOn && ` · ${t.analysis.computedOn(computedOn)}`}
            </span>
          )}
          {coarseNote}
        </div>
      )}
    </div>
  );
}
