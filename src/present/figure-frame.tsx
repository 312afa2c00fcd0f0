/**
 * What every slide figure shares: the box it is sized to, its frame (data-figure / data-ready for
 * the tests and a lecturer who wonders whether the picture is current, a status line while waiting,
 * a stat line under it), chart sizing and the analysis hook.
 */
import { useLayoutEffect, useState, type ReactNode, type RefObject } from 'react';
import { useStrings } from '../ui/strings';
import { observeResize } from '../charts/useWidth';
import { AnalysisStatus, isCoarse, useAnalysisRequest } from '../ui/analysis';
import { useController, useStore } from '../store/react';
import type { AnalysisRequest } from '../store/analyses';
import type { AnalysisOpName } from '../engine/analysis';
import type { AnalysisEntry } from '../store/store';

export interface Box {
  width: number;
  height: number;
}

/**
 * First guess of the space a line chart needs besides its plot (its legend and the stat line under
 * the figure). The charts on slides fill their box (`LineChart` `fill`): the legend takes the rows it
 * wraps to in whatever font renders it, the plot the height that is left.
 */
const CHART_CHROME = 80;
/** Widest a line chart is drawn relative to its height (a very wide chart reads badly on a wall). */
const MAX_ASPECT = 2.3;

/**
 * The frame of every figure: data-figure / data-ready for tests, a stat line under it. `controls`
 * (Run, Train) are a row of their own above the figure. `status` (computing, refining, failed) comes
 * and goes with every step of a slider: it is drawn over the top of the figure, so the figure keeps
 * its size and place when it goes — in flow, it moved the figure 47 px down and back up on every step.
 */
export function Frame(props: {
  kind: string;
  ready: boolean;
  controls?: ReactNode;
  status?: ReactNode;
  stat?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="slide-fig" data-figure={props.kind} data-ready={props.ready ? '1' : '0'}>
      {props.controls}
      <div className="slide-fig-body">
        {props.children}
        {props.status && <div className="slide-fig-status">{props.status}</div>}
      </div>
      {props.stat && <p className="slide-stat">{props.stat}</p>}
    </div>
  );
}

export function chartSize(box: Box, across = 1): { height: number; maxWidth: number } {
  const height = Math.max(160, Math.floor(box.height - CHART_CHROME));
  return { height, maxWidth: Math.floor(height * MAX_ASPECT * (across === 1 ? 1 : 0.75)) };
}

/**
 * For a figure whose height grows one to one with its size (a square heatmap under its caption; the
 * element `ref` says the size it was drawn at in `data-fit-size`): the largest size at which it fits
 * the figure body it sits in, measured after each render (caption lines, legends, the stat line take
 * what their font needs); null until measured. A few corrections per box at most, so a caption that
 * wraps at one size and not at the next cannot make it oscillate.
 */
export function useFitSize(ref: RefObject<HTMLElement | null>, box: Box): number | null {
  const [fit, setFit] = useState<number | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    const body = el?.closest('.slide-fig-body');
    if (!el || !body) return;
    let last: number | null = null;
    let tries = 0;
    const measure = () => {
      if (!el.firstElementChild || !el.dataset.fitSize) return;
      const limit = Math.floor(body.clientHeight - (el.offsetHeight - Number(el.dataset.fitSize)));
      if ((last !== null && Math.abs(limit - last) < 2) || tries >= 4) return;
      tries++;
      last = limit;
      setFit(limit);
    };
    measure();
    return observeResize([el, body], measure);
  }, [ref, box.width, box.height]);
  return fit;
}

/** An analysis for a slide: value (if any), whether it is for the current parameters, its status line. */
export function useSlideAnalysis<Op extends AnalysisOpName>(req: AnalysisRequest<Op>, enabled = true) {
  const a = useAnalysisRequest(req, enabled);
  const ready = a.value !== null && !a.stale;
  return {
    ...a,
    ready,
    // a coarse stage keeps its status line: it says the figure is a preview that still refines
    status: ready && !isCoarse(a.entry as AnalysisEntry | undefined, a.req.key) ? null : <AnalysisStatus req={req} />,
  };
}

/** Status of the compute a figure waits for: "Computing…" before the first result, the engine's error (with Retry) when it failed. */
export function ComputeNote() {
  const t = useStrings();
  const status = useStore((s) => s.compute.status);
  const error = useStore((s) => s.compute.error);
  const hasResult = useStore((s) => s.compute.result !== null);
  const controller = useController();
  if (status === 'error' && error) {
    return (
      <p className="slide-wait warn" role="alert" data-error-code={error.code}>
        {t.errors.title} {t.errors.codes[error.code] ?? t.errors.codes.internal}{' '}
        <button type="button" onClick={() => controller.recompute()}>
          {t.errors.retry}
        </button>
      </p>
    );
  }
  return hasResult ? null : <p className="slide-wait">{t.present.waiting}</p>;
}
