/**
 * An attention matrix as a canvas heatmap: one canvas pixel per view cell, scaled up without
 * smoothing, coloured through a shared HeatScale. Rows are queries i (top to bottom), columns keys j.
 * Pointer or arrow keys move the highlighted query row; click / Enter pins it. The data table
 * alternative lists the matrix further averaged to at most 16×16 blocks.
 */
import { axisBottom, axisLeft, scaleLinear, select } from 'd3';
import { integerTicks } from './line-axes';
import {
  memo,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
} from 'react';
import { DataTable, type DataTableLabels } from './DataTable';
import { fmtInt, fmtText } from './format';
import { paintHeatmap } from './heat-painter';
import type { HeatScale } from './palette';

/** Words the heatmap draws itself: axis names, tooltip, accessible description, table. */
export interface HeatmapLabels extends DataTableLabels {
  keyAxis: string;
  queryAxis: string;
  queryRows: string;
  keyCols: string;
  meanValue: string;
  blockMean: (block: number) => string;
  heatmapAria: (title: string, n: number, cells: number, block: number) => string;
  heatmapTable: (title: string) => string;
}

export interface HeatmapProps {
  title: string;
  data: Float32Array;
  cells: number;
  block: number;
  n: number;
  scale: HeatScale;
  size: number;
  /** rows to outline (token indices) */
  pinnedRow: number | null;
  hoveredRow: number | null;
  onHoverRow?: (row: number | null) => void;
  onPickRow?: (row: number) => void;
  /** changes whenever the data is a new result (for tests: data-result-id) */
  resultId: number | string;
  metric?: string;
  labels: HeatmapLabels;
}

const M = { top: 4, right: 16, bottom: 30, left: 40 };

/**
 * Memoized: a parent re-rendering with the same props (the compute status changing, say) leaves
 * the heatmap alone. `data-renders` on the figure counts its renders (for the browser tests).
 * The cells are coloured off the main thread (heat-painter.ts); `data-result-id` is set when the
 * new image is on the canvas, and the previous image stays until then.
 */
export const Heatmap = memo(function Heatmap(props: HeatmapProps) {
  const { data, cells, block, n, scale, size, title, resultId } = props;
  const t = props.labels;
  const figRef = useRef<HTMLElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const xAxis = useRef<SVGGElement>(null);
  const yAxis = useRef<SVGGElement>(null);
  const renders = useRef(0);
  const [tip, setTip] = useState<{ x: number; y: number; I: number; J: number } | null>(null);

  useEffect(() => {
    renders.current++;
    figRef.current?.setAttribute('data-renders', String(renders.current));
  });

  // posted in the commit itself, not after the browser has laid out and painted the rest of it:
  // the colouring runs in its worker meanwhile, and the image is drawn a frame earlier
  useLayoutEffect(() => {
    const c = canvasRef.current;
    if (!c) return;
    return paintHeatmap(c, data, cells, scale, () => figRef.current?.setAttribute('data-result-id', String(resultId)));
  }, [data, cells, scale, resultId]);

  const pos = useMemo(() => scaleLinear().domain([0, n]).range([0, size]), [n, size]);
  useEffect(() => {
    if (!xAxis.current || !yAxis.current) return;
    const ticks = size < 220 ? 3 : 5;
    select(xAxis.current).call(
      axisBottom(pos)
        .tickValues(integerTicks(pos, ticks))
        .tickFormat((v) => fmtInt(v as number)),
    );
    select(yAxis.current).call(
      axisLeft(pos)
        .tickValues(integerTicks(pos, ticks))
        .tickFormat((v) => fmtInt(v as number)),
    );
  }, [pos, size]);

  const cellAt = (e: PointerEvent<HTMLElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const J = Math.floor(((e.clientX - r.left) / r.width) * cells);
    const I = Math.floor(((e.clientY - r.top) / r.height) * cells);
    if (I < 0 || J < 0 || I >= cells || J >= cells) return null;
    return { I, J, x: e.clientX - r.left, y: e.clientY - r.top };
  };

  const onMove = (e: PointerEvent<HTMLElement>) => {
    const c = cellAt(e);
    setTip(c);
    props.onHoverRow?.(c ? Math.min(n - 1, c.I * block) : null);
  };

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const cur = props.hoveredRow ?? props.pinnedRow ?? 0;
    const stepRows = Math.max(1, block);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const next = Math.max(0, Math.min(n - 1, cur + (e.key === 'ArrowDown' ? stepRows : -stepRows)));
      props.onHoverRow?.(next);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      props.onPickRow?.(cur);
    } else if (e.key === 'Escape') props.onHoverRow?.(null);
  };

  const rowBand = (row: number | null, cls: string) => {
    if (row === null || row >= n) return null;
    const I = Math.floor(row / block);
    const h = size / cells;
    return <rect className={cls} x={0} y={I * h} width={size} height={Math.max(h, 1.5)} />;
  };

  const tipValue = tip ? data[tip.I * cells + tip.J]! : 0;
  const range = (I: number) => {
    const a = I * block;
    const b = Math.min(n, (I + 1) * block) - 1;
    return a === b ? fmtInt(a) : `${fmtInt(a)}–${fmtInt(b)}`;
  };

  return (
    // data-result-id is written by the paint callback, never by a render
    <figure
      ref={figRef}
      className="heatmap"
      data-metric={props.metric}
      data-result-id=""
      style={{ width: size + M.left + M.right }}
    >
      <figcaption>{title}</figcaption>
      <div className="heatmap-frame" style={{ width: size + M.left + M.right, height: size + M.top + M.bottom }}>
        <svg
          className="heatmap-axes"
          width={size + M.left + M.right}
          height={size + M.top + M.bottom}
          aria-hidden="true"
        >
          <g transform={`translate(${M.left},${M.top})`}>
            <g className="axis" ref={xAxis} transform={`translate(0,${size})`} />
            <g className="axis" ref={yAxis} />
            <text className="axis-label" x={size / 2} y={size + 27} textAnchor="middle">
              {t.keyAxis}
            </text>
            <text className="axis-label" transform={`translate(-32,${size / 2}) rotate(-90)`} textAnchor="middle">
              {t.queryAxis}
            </text>
          </g>
        </svg>
        <div
          className="heatmap-canvas"
          style={{ left: M.left, top: M.top, width: size, height: size }}
          tabIndex={0}
          role="img"
          aria-label={t.heatmapAria(title, n, cells, block)}
          onPointerMove={onMove}
          onPointerLeave={() => {
            setTip(null);
            props.onHoverRow?.(null);
          }}
          onClick={(e) => {
            const c = cellAt(e as unknown as PointerEvent<HTMLElement>);
            if (c) props.onPickRow?.(Math.min(n - 1, c.I * block));
          }}
          onKeyDown={onKey}
        >
          <canvas ref={canvasRef} style={{ width: size, height: size }} />
          <svg className="heatmap-overlay" width={size} height={size} aria-hidden="true">
            {rowBand(props.pinnedRow, 'row-pinned')}
            {rowBand(props.hoveredRow, 'row-hover')}
          </svg>
          {tip && (
            <div
              className="tooltip"
              // above the pointer near the bottom edge: below it the panel's paint containment would clip it
              style={{ left: Math.min(size - 150, tip.x + 10), top: tip.y + 60 > size ? tip.y - 52 : tip.y + 12 }}
            >
              <div>
                i {range(tip.I)}, j {range(tip.J)}
              </div>
              <div>
                <strong>{fmtText(tipValue)}</strong> {block > 1 ? t.blockMean(block) : ''}
              </div>
            </div>
          )}
        </div>
      </div>
      <DataTable
        caption={t.heatmapTable(title)}
        labels={t}
        columns={[t.queryRows, t.keyCols, t.meanValue]}
        rows={() => {
          const g = Math.min(16, cells);
          const per = Math.ceil(cells / g);
          const out: (string | number)[][] = [];
          for (let a = 0; a < cells; a += per) {
            for (let b = 0; b < cells; b += per) {
              let s = 0;
              let cnt = 0;
              for (let I = a; I < Math.min(cells, a + per); I++)
                for (let J = b; J < Math.min(cells, b + per); J++) {
                  s += data[I * cells + J]!;
                  cnt++;
                }
              const r0 = a * block;
              const c0 = b * block;
              out.push([
                `${r0}–${Math.min(n, (a + per) * block) - 1}`,
                `${c0}–${Math.min(n, (b + per) * block) - 1}`,
                s / cnt,
              ]);
            }
          }
          return out;
        }}
      />
    </figure>
  );
});
