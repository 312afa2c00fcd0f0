/**
 * The block every analysis figure repeats: a subtitle, the analysis' status line (progress, cancel,
 * errors), and — once a value is there — the chart in an exportable <Figure>, dimmed while it shows
 * a value for other parameters. Optional content before / after the figure sees the same value.
 * Until the first value arrives its space is held (PendingFigure), so the page does not jump.
 */
import type { ReactNode } from 'react';
import { useStrings } from '../ui/strings';
import { LineChart, type LineChartProps } from '../charts/LineChart';
import type { AnalysisRequest } from '../store/analyses';
import type { AnalysisEntry } from '../store/store';
import { AnalysisStatus, isCoarse } from '../ui/analysis';
import { Figure } from '../ui/Figure';
import { AnalysisSlot } from '../ui/PendingFigure';
import { figureAnchor, useFigureFocus } from '../ui/figure-focus';
import type { EmbedFigureId } from '../store/embed';

/** What `useAnalysisRequest` returns. */
export interface AnalysisHandle<T> {
  req: AnalysisRequest;
  entry: AnalysisEntry<T> | undefined;
  value: T | null;
  stale: boolean;
}

/** A line chart's props without those the figure fills in (labels, aria label = title, dimming). */
export type ChartSpec = Omit<LineChartProps, 'labels' | 'ariaLabel' | 'dimmed'>;

export function AnalysisFigure<T>(props: {
  title: string;
  /** the figure's export name, which also names it in a one-figure embed (`figure=`) */
  name: EmbedFigureId;
  /** the heading's id, for links from elsewhere on the page (default: figureAnchor(name)) */
  id?: string;
  analysis: AnalysisHandle<T>;
  /** shown right under the subtitle, before the status line */
  intro?: ReactNode;
  /** false when another figure above already shows this analysis' status (a one-figure embed shows it anyway) */
  status?: boolean;
  /** a line chart of the value … */
  chart?: (v: T) => ChartSpec;
  /** … or any other chart */
  children?: (v: T) => ReactNode;
  before?: (v: T) => ReactNode;
  after?: (v: T) => ReactNode;
  /**
   * the height (px) held until the first value: what comes under the status line (before, figure,
   * after) at the defaults with the shipped fonts (e2e/layout-held.spec.mjs measures it)
   */
  pendingHeight: number;
}) {
  const t = useStrings();
  const focus = useFigureFocus();
  const { analysis: a, title } = props;
  // a one-figure embed of another figure of this panel
  if (focus !== null && focus !== props.name) return null;
  // a coarse stage's downloads say so in their file name
  const name = isCoarse(a.entry, a.req.key) ? `${props.name}-coarse` : props.name;
  return (
    <>
      <h3 id={props.id ?? figureAnchor(props.name)}>{title}</h3>
      {props.intro}
      {/* alone in an embed, a figure shows its analysis' status even where a figure above shows it on the page */}
      {(props.status !== false || focus !== null) && <AnalysisStatus req={a.req} />}
      <AnalysisSlot name={props.name} analysis={a} height={props.pendingHeight}>
        {(v) => (
          <>
            {props.before?.(v)}
            <Figure name={name} title={title} embed={props.name}>
              {props.chart ? (
                <LineChart labels={t.charts} ariaLabel={title} dimmed={a.stale} {...props.chart(v)} />
              ) : (
                props.children?.(v)
              )}
            </Figure>
            {props.after?.(v)}
          </>
        )}
      </AnalysisSlot>
    </>
  );
}
