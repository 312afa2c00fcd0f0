/**
 * Overlaid histograms (fraction of items per bin) drawn as step outlines with a light fill, each
 * series with its own colour and dash; hover shows every series' share of the bin.
 */
import { axisBottom, axisLeft, scaleLinear, select } from 'd3';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { similarProps } from './similar';
import { DataTable, type DataTableLabels } from './DataTable';
import { fmt, fmtPct } from './format';
import { Legend } from './Legend';
import { useWidth } from './useWidth';

export interface HistSeries {
  id: string;
  label: string;
  color: string;
  dash?: string;
  values: ArrayLike<number>;
}

/** Words the chart draws itself (column head of its data table). */
export interface HistogramLabels extends DataTableLabels {
  bin: string;
}

export interface HistogramProps {
  series: HistSeries[];
  domain: [number, number];
  bins?: number;
  xLabel: string;
  yLabel: string;
  ariaLabel: string;
  tableCaption: string;
  height?: number;
  dimmed?: boolean;
  labels: HistogramLabels;
}

const M = { top: 12, right: 16, bottom: 42, left: 58 };

function HistogramImpl({
  series,
  domain,
  bins = 20,
  xLabel,
  yLabel,
  ariaLabel,
  tableCaption,
  height = 220,
  dimmed,
  labels: t,
}: HistogramProps) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const xRef = useRef<SVGGElement>(null);
  const yRef = useRef<SVGGElement>(null);
  const [hoverBin, setHoverBin] = useState<number | null>(null);
  const innerW = Math.max(40, width - M.left - M.right);
  const innerH = Math.max(40, height - M.top - M.bottom);
  const [lo, hi] = domain;
  const binW = (hi - lo) / bins;

  const counts = useMemo(
    () =>
      series.map((s) => {
        const c = new Array<number>(bins).fill(0);
        let total = 0;
        for (let i = 0; i < s.values.length; i++) {
          const v = s.values[i]!;
          if (!Number.isFinite(v)) continue;
          const b = Math.min(bins - 1, Math.max(0, Math.floor((v - lo) / binW)));
          c[b]!++;
          total++;
        }
        return c.map((x) => (total ? x / total : 0));
      }),
    [series, bins, lo, binW],
  );
  const yMax = Math.max(0.05, ...counts.flat());
  const xs = useMemo(() => scaleLinear().domain(domain).range([0, innerW]), [domain, innerW]);
  const ys = useMemo(() => scaleLinear().domain([0, yMax]).nice().range([innerH, 0]), [yMax, innerH]);

  useEffect(() => {
    if (xRef.current) select(xRef.current).call(axisBottom(xs).ticks(Math.max(2, Math.floor(innerW / 70))));
    if (yRef.current)
      select(yRef.current).call(
        axisLeft(ys)
          .ticks(4)
          .tickFormat((v) => fmtPct(v as number)),
      );
  }, [xs, ys, innerW]);

  const step = (c: number[]) => {
    let d = `M${xs(lo)},${ys(0)}`;
    c.forEach((f, b) => {
      d += `L${xs(lo + b * binW)},${ys(f)}L${xs(lo + (b + 1) * binW)},${ys(f)}`;
    });
    return `${d}L${xs(hi)},${ys(0)}`;
  };

  return (
    <div className={`chart${dimmed ? ' dimmed' : ''}`} ref={ref}>
      <svg width={width} height={height} role="img" aria-label={ariaLabel}>
        <g transform={`translate(${M.left},${M.top})`}>
          <g className="axis" ref={xRef} transform={`translate(0,${innerH})`} />
          <g className="axis" ref={yRef} />
          <text className="axis-label" x={innerW / 2} y={innerH + 34} textAnchor="middle">
            {xLabel}
          </text>
          <text className="axis-label" transform={`translate(-46,${innerH / 2}) rotate(-90)`} textAnchor="middle">
            {yLabel}
          </text>
          {hoverBin !== null && (
            <rect
              x={xs(lo + hoverBin * binW)}
              width={xs(lo + binW) - xs(lo)}
              y={0}
              height={innerH}
              fill="var(--muted)"
              opacity={0.12}
            />
          )}
          {series.map((s, k) => (
            <path
              key={s.id}
              d={step(counts[k]!)}
              fill={s.color}
              fillOpacity={0.1}
              stroke={s.color}
              strokeWidth={1.8}
              strokeDasharray={s.dash}
            />
          ))}
          <rect
            width={innerW}
            height={innerH}
            fill="transparent"
            onPointerMove={(e) => {
              const r = e.currentTarget.getBoundingClientRect();
              setHoverBin(Math.min(bins - 1, Math.max(0, Math.floor(((e.clientX - r.left) / r.width) * bins))));
            }}
            onPointerLeave={() => setHoverBin(null)}
          />
        </g>
      </svg>
      {hoverBin !== null && (
        <div
          className="tooltip"
          style={{ left: Math.min(width - 180, M.left + xs(lo + (hoverBin + 1) * binW) + 8), top: M.top }}
          role="status"
        >
          <div className="tooltip-x">
            {xLabel}: {fmt(lo + hoverBin * binW)}–{fmt(lo + (hoverBin + 1) * binW)}
          </div>
          {series.map((s, k) => (
            <div key={s.id}>
              <span className="swatch-dot" style={{ background: s.color }} /> {s.label}: {fmtPct(counts[k]![hoverBin])}
            </div>
          ))}
        </div>
      )}
      <Legend items={series.map((s) => ({ id: s.id, label: s.label, color: s.color, dash: s.dash, band: true }))} />
      <DataTable
        caption={tableCaption}
        labels={t}
        columns={[t.bin, ...series.map((s) => s.label)]}
        rows={() =>
          Array.from({ length: bins }, (_, b) => [
            `${fmt(lo + b * binW)}–${fmt(lo + (b + 1) * binW)}`,
            ...counts.map((c) => fmtPct(c[b])),
          ])
        }
      />
    </div>
  );
}

export const Histogram = memo(HistogramImpl, similarProps);
