/**
 * Line / log-log chart with optional spread bands, point markers, vertical reference lines, a
 * hover read-out of every series at the nearest x, a legend (colour + dash, never colour alone) and
 * a data-table alternative. React renders the SVG; d3 supplies scales, shapes and axes.
 */
import { area, axisBottom, axisLeft, line, scaleLinear, scaleLog, select, type ScaleContinuousNumeric } from 'd3';
import { memo, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { similarProps } from './similar';
import { DataTable, type DataTableLabels } from './DataTable';
import { fmt } from './format';
import { placeLabels } from './label-rows';
import { logTicks, widenLogDomain } from './log-domain';
import { useHeight, useWidth } from './useWidth';

export interface Series {
  id: string;
  label: string;
  color: string;
  dash?: string;
  width?: number;
  x: ArrayLike<number>;
  y: ArrayLike<number>;
  band?: { lo: ArrayLike<number>; hi: ArrayLike<number> };
  /** draw a dot at every point */
  points?: boolean;
  /** draw no line (points only) */
  noLine?: boolean;
  /** left out of the hover read-out and the table (e.g. a reference curve) */
  quiet?: boolean;
}

export interface Marker {
  x: number;
  label: string;
  color?: string;
}

export interface Dot {
  x: number;
  y: number;
  label: string;
  color: string;
}

/** Words the chart draws itself (column heads of its data table). */
export interface LineChartLabels extends DataTableLabels {
  series: string;
  low: string;
  high: string;
}

export interface LineChartProps {
  series: Series[];
  xLabel: string;
  yLabel: string;
  ariaLabel: string;
  xScale?: 'linear' | 'log';
  yScale?: 'linear' | 'log';
  xDomain?: [number, number];
  yDomain?: [number, number];
  markers?: Marker[];
  hLines?: { y: number; label: string; color?: string }[];
  dots?: Dot[];
  height?: number;
  /**
   * Fill the container's height (lecture slides): the chart takes its box (CSS `.chart.fill`), the
   * legend and notes the lines they wrap to, the plot the rest; `height` is the first guess.
   */
  fill?: boolean;
  tableCaption: string;
  /** x values are integers (token indices, m, n) */
  integerX?: boolean;
  /** hide the legend (e.g. when the panel shows its own) */
  noLegend?: boolean;
  /** notes printed under the chart (null entries are skipped) */
  notes?: (string | null | undefined)[];
  dimmed?: boolean;
  labels: LineChartLabels;
}

const M = { top: 14, right: 16, bottom: 42, left: 58 };
/** Width per character of a marker label before it is measured (11 px text). */
const LABEL_CHAR_PX = 6.5;

type Scale = ScaleContinuousNumeric<number, number>;

function extent(values: Iterable<number>, log: boolean): [number, number] | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (!Number.isFinite(v) || (log && v <= 0)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo <= hi ? [lo, hi] : null;
}

function* allY(series: Series[]): Iterable<number> {
  for (const s of series) {
    for (let i = 0; i < s.y.length; i++) yield s.y[i]!;
    if (s.band) {
      for (let i = 0; i < s.band.lo.length; i++) yield s.band.lo[i]!;
      for (let i = 0; i < s.band.hi.length; i++) yield s.band.hi[i]!;
    }
  }
}
function* allX(series: Series[]): Iterable<number> {
  for (const s of series) for (let i = 0; i < s.x.length; i++) yield s.x[i]!;
}

function makeScale(kind: 'linear' | 'log', domain: [number, number], range: [number, number], pad: boolean): Scale {
  if (kind === 'log') {
    return scaleLog()
      .domain(widenLogDomain(...domain))
      .range(range);
  }
  let [a, b] = domain;
  if (a === b) {
    a -= Math.abs(a) * 0.1 || 1;
    b += Math.abs(b) * 0.1 || 1;
  }
  const s = scaleLinear().domain([a, b]).range(range);
  return pad ? s.nice() : s;
}

let measureCtx: CanvasRenderingContext2D | null | undefined;

/**
 * A marker label's width in its computed font, through a canvas's measureText: reading an SVG
 * text's getComputedTextLength forces a layout of the page every time a label changes (every step
 * of a slider), measureText does not. The font is read once per chart (`font`); without a 2D
 * canvas the text element measures itself.
 */
function measureLabel(el: SVGTextElement | null, label: string, font: { current: string | null }): number {
  if (!el) return 0;
  if (measureCtx === undefined)
    measureCtx = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!measureCtx) return typeof el.getComputedTextLength === 'function' ? el.getComputedTextLength() : 0;
  if (font.current === null) {
    const cs = getComputedStyle(el);
    font.current = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  }
  measureCtx.font = font.current;
  return measureCtx.measureText(label).width;
}

function nearestIndex(xs: ArrayLike<number>, x: number, log: boolean): number {
  let best = -1;
  let dist = Infinity;
  const tx = log ? Math.log(x) : x;
  for (let i = 0; i < xs.length; i++) {
    const v = xs[i]!;
    if (!Number.isFinite(v) || (log && v <= 0)) continue;
    const dd = Math.abs((log ? Math.log(v) : v) - tx);
    if (dd < dist) {
      dist = dd;
      best = i;
    }
  }
  return best;
}

function LineChartImpl(props: LineChartProps) {
  const {
    series,
    xLabel,
    yLabel,
    ariaLabel,
    xScale = 'linear',
    yScale = 'linear',
    markers = [],
    hLines = [],
    dots = [],
  } = props;
  const [wrapRef, width] = useWidth<HTMLDivElement>();
  const [plotRef, plotHeight] = useHeight<HTMLDivElement>(props.height ?? 240, 100);
  const height = props.fill ? plotHeight : (props.height ?? 240);
  const xAxisRef = useRef<SVGGElement>(null);
  const yAxisRef = useRef<SVGGElement>(null);
  const [hover, setHover] = useState<{ px: number; x: number } | null>(null);
  const clipId = `clip${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const t = props.labels;

  const innerW = Math.max(40, width - M.left - M.right);
  const innerH = Math.max(40, height - M.top - M.bottom);
  const xLog = xScale === 'log';
  const yLog = yScale === 'log';

  // The domains are numbers: a new markers or series array with the same extent keeps the scales,
  // so the axes (d3, a few hundred DOM writes) are redrawn only when a domain or the size changes.
  const xd = useMemo(
    () =>
      props.xDomain ?? extent([...allX(series), ...markers.map((m) => m.x), ...dots.map((d) => d.x)], xLog) ?? [1, 2],
    [series, markers, dots, props.xDomain, xLog],
  );
  const yd = useMemo(
    () =>
      props.yDomain ?? extent([...allY(series), ...dots.map((d) => d.y), ...hLines.map((h) => h.y)], yLog) ?? [0, 1],
    [series, dots, hLines, props.yDomain, yLog],
  );
  const [xa, xb] = xd;
  const [ya, yb] = yd;
  const xs = useMemo(() => makeScale(xScale, [xa, xb], [0, innerW], false), [xScale, xa, xb, innerW]);
  const ys = useMemo(() => makeScale(yScale, [ya, yb], [innerH, 0], true), [yScale, ya, yb, innerH]);

  useEffect(() => {
    if (!xAxisRef.current || !yAxisRef.current) return;
    const ticksX = Math.max(2, Math.min(8, Math.floor(innerW / 70)));
    const xa = axisBottom(xs);
    if (xLog) xa.tickValues(logTicks(xs, ticksX)).tickFormat((v) => fmt(v as number));
    else xa.ticks(ticksX, props.integerX ? '~d' : '~g');
    select(xAxisRef.current).call(xa);
    const ticksY = Math.max(2, Math.min(7, Math.floor(innerH / 40)));
    const ya = axisLeft(ys);
    if (yLog) ya.tickValues(logTicks(ys, ticksY)).tickFormat((v) => fmt(v as number, 2));
    else ya.ticks(ticksY).tickFormat((v) => fmt(v as number));
    select(yAxisRef.current).call(ya);
  }, [xs, ys, innerW, innerH, xLog, yLog, props.integerX]);

  // Marker labels are measured once drawn, then placed in rows so nearby lines' labels never overlap.
  const markerText = useRef<(SVGTextElement | null)[]>([]);
  const [labelWidths, setLabelWidths] = useState<number[]>([]);
  const markerKey = markers.map((m) => m.label).join('\u0000');
  const labelFont = useRef<string | null>(null);
  useLayoutEffect(() => {
    const w = markers.map((m, i) => {
      const measured = measureLabel(markerText.current[i] ?? null, m.label, labelFont);
      return measured > 0 ? measured : m.label.length * LABEL_CHAR_PX;
    });
    setLabelWidths((prev) => (prev.length === w.length && prev.every((v, i) => v === w[i]) ? prev : w));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the labels' text decides their width
  }, [markerKey]);
  const placed = useMemo(
    () =>
      placeLabels(
        markers.map((m, i) => ({ x: xs(m.x), width: labelWidths[i] ?? m.label.length * LABEL_CHAR_PX })),
        innerW,
      ),
    [markers, labelWidths, xs, innerW],
  );

  const okX = (v: number) => Number.isFinite(v) && (!xLog || v > 0);
  const okY = (v: number) => Number.isFinite(v) && (!yLog || v > 0);

  const paths = useMemo(
    () =>
      series.map((s) => {
        const idx = Array.from({ length: Math.min(s.x.length, s.y.length) }, (_, i) => i);
        const ln = line<number>()
          .defined((i) => okX(s.x[i]!) && okY(s.y[i]!))
          .x((i) => xs(s.x[i]!))
          .y((i) => ys(s.y[i]!));
        const band = s.band
          ? area<number>()
              .defined((i) => okX(s.x[i]!) && okY(s.band!.lo[i]!) && okY(s.band!.hi[i]!))
              .x((i) => xs(s.x[i]!))
              .y0((i) => ys(s.band!.lo[i]!))
              .y1((i) => ys(s.band!.hi[i]!))(idx)
          : null;
        const pts = s.points ? idx.filter((i) => okX(s.x[i]!) && okY(s.y[i]!)) : [];
        return { s, d: s.noLine ? null : ln(idx), band, pts };
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [series, xs, ys],
  );

  const onMove = (e: React.PointerEvent<SVGRectElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const px = Math.max(0, Math.min(innerW, e.clientX - r.left));
    setHover({ px, x: xs.invert(px) });
  };

  const readout = hover
    ? series
        .filter((s) => !s.quiet)
        .map((s) => {
          const i = nearestIndex(s.x, hover.x, xLog);
          return i < 0 ? null : { s, i, x: s.x[i]!, y: s.y[i]! };
        })
        .filter((v): v is { s: Series; i: number; x: number; y: number } => v !== null)
    : [];

  const plot = (
    <svg width={width} height={height} role="img" aria-label={ariaLabel}>
      <g transform={`translate(${M.left},${M.top})`}>
        <g className="axis" ref={xAxisRef} transform={`translate(0,${innerH})`} />
        <g className="axis" ref={yAxisRef} />
        <text className="axis-label" x={innerW / 2} y={innerH + 34} textAnchor="middle">
          {xLabel}
        </text>
        <text className="axis-label" transform={`translate(${-46},${innerH / 2}) rotate(-90)`} textAnchor="middle">
          {yLabel}
        </text>
        <defs>
          <clipPath id={clipId}>
            <rect width={innerW} height={innerH} />
          </clipPath>
        </defs>
        <g clipPath={`url(#${clipId})`}>
          {hLines.map((h) =>
            okY(h.y) ? (
              <g key={`h-${h.label}`}>
                <line
                  x1={0}
                  x2={innerW}
                  y1={ys(h.y)}
                  y2={ys(h.y)}
                  stroke={h.color ?? 'var(--muted)'}
                  strokeDasharray="4 3"
                />
                <text
                  x={innerW - 4}
                  y={ys(h.y) - 4}
                  textAnchor="end"
                  className="marker-label"
                  fill={h.color ?? 'var(--muted)'}
                >
                  {h.label}
                </text>
              </g>
            ) : null,
          )}
          {paths.map(({ s, band }) =>
            band ? <path key={`b-${s.id}`} d={band} fill={s.color} opacity={0.16} stroke="none" /> : null,
          )}
          {paths.map(({ s, d }) =>
            d ? (
              <path
                key={`l-${s.id}`}
                d={d}
                fill="none"
                stroke={s.color}
                strokeWidth={s.width ?? 1.8}
                strokeDasharray={s.dash}
              />
            ) : null,
          )}
          {paths.map(({ s, pts }) =>
            pts.map((i) => <circle key={`p-${s.id}-${i}`} cx={xs(s.x[i]!)} cy={ys(s.y[i]!)} r={2.6} fill={s.color} />),
          )}
          {dots.map((d) =>
            okX(d.x) && okY(d.y) ? (
              <g key={`d-${d.label}`}>
                <circle cx={xs(d.x)} cy={ys(d.y)} r={5} fill="none" stroke={d.color} strokeWidth={2} />
                <circle cx={xs(d.x)} cy={ys(d.y)} r={2} fill={d.color} />
              </g>
            ) : null,
          )}
        </g>
        {markers.map((mk, i) =>
          okX(mk.x) ? (
            <g key={`m-${mk.label}`}>
              <line
                x1={xs(mk.x)}
                x2={xs(mk.x)}
                y1={0}
                y2={innerH}
                stroke={mk.color ?? 'var(--muted)'}
                strokeDasharray="3 3"
              />
              <text
                ref={(el) => {
                  markerText.current[i] = el;
                }}
                x={placed[i]?.textX ?? xs(mk.x) + 3}
                y={10 + (placed[i]?.row ?? 0) * 14}
                textAnchor={placed[i]?.anchor ?? 'start'}
                className="marker-label"
                fill={mk.color ?? 'var(--muted)'}
              >
                {mk.label}
              </text>
            </g>
          ) : null,
        )}
        {hover && (
          <g pointerEvents="none">
            <line x1={hover.px} x2={hover.px} y1={0} y2={innerH} stroke="var(--muted)" strokeWidth={0.8} />
            {readout.map((r) =>
              okY(r.y) ? (
                <circle key={r.s.id} cx={xs(r.x)} cy={ys(r.y)} r={3.5} fill={r.s.color} stroke="var(--bg)" />
              ) : null,
            )}
          </g>
        )}
        <rect
          width={innerW}
          height={innerH}
          fill="transparent"
          onPointerMove={onMove}
          onPointerDown={onMove}
          onPointerLeave={() => setHover(null)}
        />
      </g>
    </svg>
  );

  return (
    <div className={`chart${props.dimmed ? ' dimmed' : ''}${props.fill ? ' fill' : ''}`} ref={wrapRef}>
      {props.fill ? (
        <div className="chart-plot" ref={plotRef}>
          {plot}
        </div>
      ) : (
        plot
      )}
      {hover && readout.length > 0 && (
        <div
          className="tooltip"
          style={{ left: Math.min(width - 180, M.left + hover.px + 12), top: M.top }}
          role="status"
        >
          <div className="tooltip-x">
            {xLabel}: {fmt(readout[0]!.x)}
          </div>
          {readout.map((r) => (
            <div key={r.s.id}>
              <span className="swatch-dot" style={{ background: r.s.color }} /> {r.s.label}: {fmt(r.y)}
              {r.s.band ? ` [${fmt(r.s.band.lo[r.i])}, ${fmt(r.s.band.hi[r.i])}]` : ''}
            </div>
          ))}
        </div>
      )}
      {!props.noLegend && (
        <Legend
          items={series.map((s) => ({
            id: s.id,
            label: s.label,
            color: s.color,
            dash: s.dash,
            band: !!s.band,
            points: s.noLine,
          }))}
        />
      )}
      {props.notes?.map((note, i) =>
        note ? (
          <p key={i} className="note">
            {note}
          </p>
        ) : null,
      )}
      <DataTable
        caption={props.tableCaption}
        labels={t}
        columns={[t.series, xLabel, yLabel, t.low, t.high]}
        rows={() =>
          series
            .filter((s) => !s.quiet)
            .flatMap((s) =>
              Array.from({ length: Math.min(s.x.length, s.y.length) }, (_, i) => [
                s.label,
                s.x[i]!,
                s.y[i]!,
                s.band ? s.band.lo[i]! : null,
                s.band ? s.band.hi[i]! : null,
              ]),
            )
        }
      />
    </div>
  );
}

/**
 * Panels rebuild their series/marker arrays on every render (cheaply, from the same typed arrays);
 * comparing props structurally keeps charts whose data did not change from re-rendering while a
 * slider is dragged.
 */
export const LineChart = memo(LineChartImpl, similarProps);

export interface LegendItem {
  id: string;
  label: string;
  color: string;
  dash?: string;
  band?: boolean;
  points?: boolean;
}

export function Legend({ items }: { items: LegendItem[] }) {
  return (
    <ul className="legend">
      {items.map((it) => (
        <li key={it.id}>
          <svg width={28} height={12} aria-hidden="true">
            {it.band && <rect x={0} y={2} width={28} height={8} fill={it.color} opacity={0.16} />}
            {it.points ? (
              <circle cx={14} cy={6} r={3} fill={it.color} />
            ) : (
              <line x1={0} x2={28} y1={6} y2={6} stroke={it.color} strokeWidth={2} strokeDasharray={it.dash} />
            )}
          </svg>
          {it.label}
        </li>
      ))}
    </ul>
  );
}
