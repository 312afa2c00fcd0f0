/**
 * Where the compute stands, shown where the user looks (top of the main comparison): which backend
 * is computing, the prediction and elapsed time of a long run with a Cancel button, a very long run
 * waiting for "Compute anyway", what a cancel did, and a failed run's explanation — also when it is
 * the first run and nothing is on screen.
 */
import type { ReactNode } from 'react';
import { paramsText, useStrings } from '../ui/strings';
import { fmtMs } from '../charts/format';
import { useController, useStore } from '../store/react';
import { useComputeProgress } from '../ui/compute-progress';

/** A small button of the status that acts on the compute (`data-action` names what it does). */
function ActionButton({ action, onClick, children }: { action: string; onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" className="small" data-action={action} onClick={onClick}>
      {children}
    </button>
  );
}

export function ComputeStatus() {
  const t = useStrings();
  const f = t.firstscreen;
  const c = useStore((s) => s.compute);
  const controller = useController();
  const { running, elapsedMs: elapsed, showProgress, showElapsed } = useComputeProgress();
  const shownBackend = c.result?.backend.kind;

  return (
    <div
      className="compute-status"
      data-status={c.status}
      data-long={running?.long ? 'true' : undefined}
      data-progress={running && showProgress ? '' : undefined}
    >
      {/* the last run's line: hidden by a run's progress, which is drawn over it in a status line
          (styles.css) — so the line keeps its width and the text beside it does not re-wrap */}
      {c.result && c.latencyMs !== null && shownBackend && (
        <span className="computed-in">{f.computedOn(f.backendName[shownBackend], fmtMs(c.latencyMs))}</span>
      )}
      {running && showProgress && (
        <div className="run-status">
          <div className="progress-row">
            <span className="spinner" aria-hidden="true" />
            <span role="status">{f.computingOn(f.backendName[running.backend])}</span>
            {showElapsed && (
              <>
                {running.long && (
                  <progress
                    max={1}
                    value={Math.min(0.99, elapsed / running.estimateMs)}
                    aria-label={f.progressLabel(f.duration(running.estimateMs))}
                  />
                )}
                {/* before the ticking time, so Cancel stays where the pointer is */}
                <ActionButton action="cancel-compute" onClick={() => controller.cancelCompute()}>
                  {f.cancel}
                </ActionButton>
                <span className="elapsed" data-estimate-ms={Math.round(running.estimateMs)} aria-hidden="true">
                  {running.long
                    ? f.estimate(f.duration(running.estimateMs), f.duration(elapsed))
                    : f.elapsed(f.duration(elapsed))}
                </span>
              </>
            )}
          </div>
          {running.long && (
            <p className="long-run warn" role="status">
              {f.longRun(paramsText(t, running.params), f.duration(running.estimateMs), f.backendName[running.backend])}
            </p>
          )}
        </div>
      )}
      {c.status === 'held' && c.held && (
        <p className="long-run warn" role="status" data-held="" data-estimate-ms={Math.round(c.held.estimateMs)}>
          {f.held(
            paramsText(t, c.held.params),
            f.duration(c.held.estimateMs),
            f.backendName[c.held.backend],
            c.result !== null,
          )}{' '}
          <ActionButton action="compute-anyway" onClick={() => controller.computeAnyway()}>
            {f.computeAnyway}
          </ActionButton>
        </p>
      )}
      {!running && c.cancelled && (
        <p className="cancelled-note" role="status" data-cancelled={c.cancelled.reverted ? 'reverted' : 'nothing'}>
          {c.cancelled.reverted
            ? f.cancelledReverted(paramsText(t, c.cancelled.params), f.duration(c.cancelled.estimateMs))
            : f.cancelledNothing(paramsText(t, c.cancelled.params), f.duration(c.cancelled.estimateMs))}{' '}
          {!c.cancelled.reverted && (
            <ActionButton action="compute-anyway" onClick={() => controller.computeAnyway()}>
              {f.computeAnyway}
            </ActionButton>
          )}
        </p>
      )}
      {c.error && (
        <div className="engine-error" role="alert" data-error-code={c.error.code}>
          <strong>{c.result ? t.errors.title : f.firstFailed}</strong>{' '}
          {t.errors.codes[c.error.code] ?? t.errors.codes.internal} <span className="detail">({c.error.message})</span>{' '}
          {!c.result && <span>{f.fixHint}</span>}{' '}
          <button type="button" className="small" onClick={() => controller.recompute()}>
            {t.errors.retry}
          </button>
        </div>
      )}
    </div>
  );
}
