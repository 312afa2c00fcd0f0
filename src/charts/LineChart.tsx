/**
 * Line / log-log chart with optional spread bands, point markers, vertical reference lines, a
 * hover read-out of every series at the nearest x, a legend (colour + dash, never colour alone) and
 * a data-table alternative. React renders the SVG; d3 supplies scales, shapes and axes.
 */
import { area, line } from 'd3';
import { memo, useId, useMemo, useRef, useState } from 'react';
import { similarProps } from './similar';
import { DataTable, type DataTableLabels } from './DataTable';
import { fmtText } from './format';
import { Legend } from './Legend';
import { useLineAxes } from './line-axes';
import { PAGE_ROOM, useMeasureAxisRoom, type AxisRoom } from './axis-room';
import { allX, allY, extent, makeScale, nearestIndex } from './line-scales';
import { useMarkerLabels } from './marker-labels';
import { SYMBOL_AREA, symbolMark, type SymbolName } from './symbols';
import { SymbolSwatch } from './SymbolSwatch';
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
  /** the points' shape (default a small disc): what tells apart point-only series of one colour */
  symbol?: SymbolName;
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

/** top and right margins; the left and bottom ones are the axis room's (axis-room.ts) */
const M = { top: 14, right: 16 };

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
  const [hover, setHover] = useState<{ px: number; x: number } | null>(null);
  const clipId = `clip${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const t = props.labels;

  // left and bottom margins: the page's, or more where the axis fonts are larger (a slide)
  const [room, setRoom] = useState<AxisRoom>(PAGE_ROOM);
  const xTitleRef = useRef<SVGTextElement>(null);
  const innerW = Math.max(40, width - room.left - M.right);
  const innerH = Math.max(40, height - M.top - room.bottom);
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

  const { xAxisRef, yAxisRef } = useLineAxes(xs, ys, innerW, innerH, xLog, yLog, props.integerX);
  useMeasureAxisRoom(yAxisRef, xTitleRef, yLabel, innerH + M.top, setRoom, [
    xs,
    ys,
    innerW,
    innerH,
    xLog,
    yLog,
    props.integerX,
    yLabel,
  ]);

  // Marker labels are measured once drawn, then placed in rows so nearby lines' labels never overlap.
  const { markerText, placed, fontPx } = useMarkerLabels(markers, xs, innerW);

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
      <g transform={`translate(${room.left},${M.top})`}>
        <g className="axis" ref={xAxisRef} transform={`translate(0,${innerH})`} />
        <g className="axis" ref={yAxisRef} />
        <text className="axis-label" ref={xTitleRef} x={innerW / 2} y={innerH + room.xLabelY} textAnchor="middle">
          {xLabel}
        </text>
        <text
          className="axis-label"
          transform={`translate(${room.yLabelX},${innerH / 2}) rotate(-90)`}
          textAnchor="middle"
          style={room.yTitlePx === null ? undefined : { fontSize: `${room.yTitlePx}px` }}
        >
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
            pts.map((i) =>
              s.symbol ? (
                <path
                  key={`p-${s.id}-${i}`}
                  data-symbol={s.symbol}
                  {...symbolMark(
                    s.symbol,
                    xs(s.x[i]!),
                    ys(s.y[i]!),
                    s.color,
                    s.noLine ? SYMBOL_AREA.point : SYMBOL_AREA.line,
                  )}
                />
              ) : (
                <circle key={`p-${s.id}-${i}`} cx={xs(s.x[i]!)} cy={ys(s.y[i]!)} r={2.6} fill={s.color} />
              ),
            ),
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
              {placed[i] && (
                // a box in the panel's colour under the text (its font's ascent and descent, about
                // 1 and 0.27 em): the curves run along the plot's top edge (a spectrum starts at σ₁),
                // and a halo alone lets them show between the glyphs
                <rect
                  className="marker-label-bg"
                  x={(placed[i].anchor === 'end' ? placed[i].textX - placed[i].width : placed[i].textX) - 2}
                  y={10 + placed[i].row * 14 - fontPx - 0.5}
                  width={placed[i].width + 4}
                  height={1.27 * fontPx + 1}
                />
              )}
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
          style={{ left: Math.min(width - 180, room.left + hover.px + 12), top: M.top }}
          role="status"
        >
          <div className="tooltip-x">
            {xLabel}: {fmtText(readout[0]!.x)}
          </div>
          {readout.map((r) => (
            <div key={r.s.id}>
              {r.s.symbol ? (
                <SymbolSwatch symbol={r.s.symbol} color={r.s.color} />
              ) : (
                <span className="swatch-dot" style={{ background: r.s.color }} />
              )}{' '}
              {r.s.label}: {fmtText(r.y)}
              {r.s.band ? ` [${fmtText(r.s.band.lo[r.i])}, ${fmtText(r.s.band.hi[r.i])}]` : ''}
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
            symbol: s.symbol,
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
