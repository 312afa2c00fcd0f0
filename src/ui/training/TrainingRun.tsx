/**
 * The run strip of a training comparison: Train / Pause / Resume / Cancel, the progress bar with
 * the estimate (FLOPs left ÷ measured rate) and throughput, where it trains, and per attention
 * kind the latest numbers — `data-metric="train-loss"` / `"train-accuracy"`, `data-run="<kind>"`,
 * `data-step` (the step every seed of the kind has reached; the numbers are their mean).
 */
import { fmt, fmtPct } from '../../charts/format';
import { useStore, useTrainingController } from '../../store/react';
import { isTraining } from '../../store/training';
import type { KindGroup } from '../../store/training-summary';
import { useStrings } from '../strings';
import { kindColor, kindName } from './kinds';

/** `lecture`: with no comparison configured, Train runs the lecture slide's shorter default (lectureSetup). */
export function TrainingButtons({ lecture = false }: { lecture?: boolean } = {}) {
  const tt = useStrings().training;
  const ctl = useTrainingController();
  const status = useStore((s) => s.training.status);
  const busy = status === 'starting' || status === 'running' || status === 'paused';
  if (!ctl) return null;
  return (
    <div className="training-buttons" role="group">
      <button
        type="button"
        className="primary"
        data-action="train-start"
        disabled={busy}
        onClick={() => ctl.start(lecture ? 'lecture' : 'panel')}
      >
        {status === 'idle' ? tt.start : tt.restart}
      </button>
      {status === 'paused' ? (
        <button type="button" data-action="train-resume" onClick={ctl.resume}>
          {tt.resume}
        </button>
      ) : (
        <button type="button" data-action="train-pause" disabled={status !== 'running'} onClick={ctl.pause}>
          {tt.pause}
        </button>
      )}
      <button type="button" data-action="train-cancel" disabled={!busy} onClick={ctl.cancel}>
        {tt.cancel}
      </button>
    </div>
  );
}

/** `compact` (the slide): the progress line only, without the idle hint and the backend note's detail. */
export function TrainingProgressLine({ compact = false }: { compact?: boolean }) {
  const t = useStrings();
  const tt = t.training;
  const tr = useStore((s) => s.training);
  const p = tr.progress;
  const running = isTraining(tr);
  return (
    <div className="training-status" data-training-status={tr.status} aria-live="polite">
      {tr.status === 'idle' && !compact && <p className="note">{tt.idle}</p>}
      {tr.status === 'starting' && (
        <p className="note">
          <span className="spinner" aria-hidden="true" /> {tt.starting}
        </p>
      )}
      {p && (running || tr.status === 'cancelled') && (
        <p className="note">
          <progress max={p.total} value={p.done} data-train-done={p.done} data-train-total={p.total} />{' '}
          {tr.status === 'paused' ? tt.paused : tr.status === 'running' ? tt.running : ''}{' '}
          {tt.progress(p.done, p.total)}
          {tr.status === 'running' && <> · {tt.eta(p.etaMs)}</>}
          {p.gflops !== null && (
            <span data-metric="train-gflops" data-value={p.gflops}>
              {' '}
              · {tt.rate(p.gflops)}
            </span>
          )}
        </p>
      )}
      {tr.status === 'done' && p && <p className="note took">{tt.done(tt.duration(p.elapsedMs))}</p>}
      {tr.status === 'cancelled' && <p className="note">{tt.cancelled}</p>}
      {tr.status === 'error' && tr.error && (
        <p className="note warn" role="alert" data-error-code={tr.error.code}>
          {tt.failed(tr.error.message)}
        </p>
      )}
      {tr.backend && !compact && (
        <p className="note" data-train-backend={tr.backend}>
          {tr.backend === 'webgpu' ? tt.onGpu(tr.device ?? '') : `${tt.onCpu} ${t.app.backendCpu(tr.device ?? '')}`}
        </p>
      )}
      {tr.reduced && !compact && (
        <p className="note" data-train-reduced="">
          {tt.reduced}
        </p>
      )}
    </div>
  );
}

export function TrainingNumbers({ groups }: { groups: KindGroup[] }) {
  const t = useStrings();
  const tt = t.training;
  const best = groups.filter((g) => g.best);
  if (!best.some((g) => g.latest)) return null;
  return (
    <div className="metrics training-metrics">
      {best.map((g) => {
        const name = kindName(g.kind, t);
        const l = g.latest;
        return (
          <div key={g.kind} className="training-kind-metrics" style={{ borderColor: kindColor(g.kind) }}>
            <div
              className="metric"
              data-metric="train-loss"
              data-run={g.kind}
              data-step={l?.step ?? ''}
              data-value={l ? String(l.loss) : ''}
            >
              <div className="metric-value">{l ? fmt(l.loss) : '—'}</div>
              <div className="metric-label">
                {tt.metricLoss(name)} {l ? tt.atStep(l.step) : ''}
              </div>
            </div>
            <div
              className="metric"
              data-metric="train-accuracy"
              data-run={g.kind}
              data-step={l?.step ?? ''}
              data-value={l ? String(l.accuracy) : ''}
            >
              <div className="metric-value">{l ? fmtPct(l.accuracy) : '—'}</div>
              <div className="metric-label">{tt.metricAcc(name)}</div>
            </div>
            {g.final && (
              <div
                className="metric"
                data-metric="train-eval-accuracy"
                data-run={g.kind}
                data-step={g.final.step}
                data-value={String(g.final.accuracy)}
              >
                <div className="metric-value">{fmtPct(g.final.accuracy)}</div>
                <div className="metric-label">{tt.metricEval(name)}</div>
              </div>
            )}
          </div>
        );
      })}
    </div>
  );
}
