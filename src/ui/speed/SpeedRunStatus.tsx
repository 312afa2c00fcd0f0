/**
 * The speed run's status line (progress against the estimate, Cancel) and the wording of a measured
 * crossover: shared by the speed panel and the lecture's speed slide.
 */
import { useStrings } from '../strings';
import { fmtInt, fmtMs } from '../../charts/format';
import type { Crossover } from '../../core/speed-model';
import type { SpeedRunState } from './useSpeedRun';

export function crossoverText(
  c: Crossover,
  s: ReturnType<typeof useStrings>['speed'],
): { value: number | null; text?: string } {
  switch (c.kind) {
    case 'at':
      return { value: c.n, text: `≈ ${fmtInt(c.n)}` };
    case 'below':
      return { value: c.n, text: s.crossoverBelow(fmtInt(c.n)) };
    case 'above':
      return { value: c.n, text: s.crossoverAbove(fmtInt(c.n)) };
    case 'none':
      return { value: null };
  }
}

export function RunStatus({ state, onCancel }: { state: SpeedRunState; onCancel: () => void }) {
  const s = useStrings().speed;
  const p = state.progress;
  const label = (() => {
    if (!p) return s.calibrating('…');
    const [what, n] = p.label.split(':');
    if (what === 'calibrate') return s.calibrating(s.methods[n ?? ''] ?? n ?? '');
    if (what === 'estimate') return '';
    return s.measuring(s.methods[what ?? ''] ?? what ?? '', Number(n));
  })();
  const calibrating = !p || p.totalMs === 0;
  return (
    <div className="progress-row speed-progress" aria-live="polite" data-speed-status="running">
      {calibrating ? (
        <progress aria-label={label} />
      ) : (
        <progress max={p.totalMs} value={Math.min(p.doneMs, p.totalMs)} aria-label={label} />
      )}
      {/* Cancel comes before the changing text, so it stays where the pointer is while the label and
          the elapsed time change width (a moving button takes a click meant for it elsewhere) */}
      <button type="button" className="small" data-action="speed-cancel" onClick={onCancel}>
        {s.cancel}
      </button>
      <span className="note">
        {label}
        {!calibrating && ` · ${s.elapsed(fmtMs(p.doneMs), fmtMs(p.totalMs))}`}
      </span>
      {state.estimateMs !== null && (
        <span className="note" data-speed-estimate={state.estimateMs}>
          {s.estimate(fmtMs(state.estimateMs))}
        </span>
      )}
    </div>
  );
}
