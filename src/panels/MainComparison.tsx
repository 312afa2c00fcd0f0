/**
 * The main comparison: exact A, Performer Â and |A − Â| as heatmaps on one shared colour scale,
 * headline error numbers, and the attention row of one query (hovered, pinned or the default).
 */
import { useCallback, useDeferredValue, useMemo, useRef } from 'react';
import { paramsText, useStrings } from '../ui/strings';
import { ColorLegend } from '../charts/ColorLegend';
import { fmtInt, fmtMs } from '../charts/format';
import { Heatmap } from '../charts/Heatmap';
import { LineChart, type Series } from '../charts/LineChart';
import { EXACT_COLOR, heatScale, MAP_COLORS, robustMax } from '../charts/palette';
import { useWidth } from '../charts/useWidth';
import { decimateMax } from '../charts/decimate';
import { viewLimit } from '../store/controller';
import { useActions, useStore } from '../store/react';
import { defaultRow } from '../store/store';
import { Metric, Panel } from './common';
import { Figure } from '../ui/Figure';
import { StateExport } from './StateExport';
import { ZeroNormalizerNotice } from './StabilizerFigure';
import { ComputeStatus } from './ComputeStatus';
import { Formula } from '../ui/Formula';
import { FigureSlot } from '../ui/PendingFigure';
import { figureAnchor, FigureOnly, PanelOnly, useFigureFocus } from '../ui/figure-focus';

/** Gap between heatmaps (px, matches .heatmaps gap: across, and between wrapped rows) and the axes' frame around each canvas. */
const HEATMAP_GAP = 16;
const HEATMAP_ROW_GAP = 9.6;
const HEATMAP_FRAME = 56;
/** Smallest canvas side worth putting three across (|A − Â| beside A and Â), and two across. */
const MIN_SIDE_3 = 240;
const MIN_SIDE_2 = 150;
const MAX_SIDE = 620;

/**
 * The space held for the figures until the first result (px, measured with the shipped fonts): the
 * numbers' row; a heatmap's figure beyond its canvas side (toolbar, title, axes); the colour
 * toolbar; the row chart with its title and notes.
 */
const PENDING_METRICS = 59;
const PENDING_HEATMAP_EXTRA = 97;
const PENDING_TOOLBAR = 64;
const PENDING_ROW_CHART = 325;

/** Height of the heatmaps, the numbers above and the toolbar below, at a layout (what the first result fills). */
function mainFiguresHeight({ across, size }: { across: 1 | 2 | 3; size: number }): number {
  const rows = Math.ceil(3 / across);
  return PENDING_METRICS + rows * (size + PENDING_HEATMAP_EXTRA) + (rows - 1) * HEATMAP_ROW_GAP + PENDING_TOOLBAR;
}

/**
 * Heatmap size from the panel width: as many across as fit at a legible size (A and Â side by side
 * whenever two fit, |A − Â| beside them when three do), each as large as the width allows.
 */
export function heatmapLayout(width: number): { across: 1 | 2 | 3; size: number } {
  const side = (k: number) => Math.floor((width - (k - 1) * HEATMAP_GAP) / k) - HEATMAP_FRAME;
  const across = side(3) >= MIN_SIDE_3 ? 3 : side(2) >= MIN_SIDE_2 ? 2 : 1;
  return { across, size: Math.max(120, Math.min(MAX_SIDE, side(across))) };
}

export function MainComparison() {
  const t = useStrings();
  const s = t.main;
  const actions = useActions();
  const result = useStore((st) => st.compute.result);
  const status = useStore((st) => st.compute.status);
  const latency = useStore((st) => st.compute.latencyMs);
  const backend = useStore((st) => st.backend.info);
  const colorMode = useStore((st) => st.ui.colorScale);
  const pinned = useStore((st) => st.ui.pinnedRow);
  const hovered = useStore((st) => st.ui.hoveredRow);
  const [gridRef, width] = useWidth<HTMLDivElement>(900);
  const legendRef = useRef<HTMLDivElement>(null);

  const view = result?.output.view ?? null;
  const n = result?.params.n ?? 0;
  const mapName = result ? t.names.maps[result.params.featureMap] : '';

  // linear: top of the scale at the 99.5th percentile of A and Â (spikes clip to the top colour); log: the true max
  const { scale, clipped } = useMemo(() => {
    const r = view ? robustMax([view.exact, view.approx]) : { top: 1, max: 1 };
    const top = colorMode === 'log' ? r.max : r.top;
    return { scale: heatScale(top, colorMode), clipped: colorMode === 'linear' && r.max > r.top * 1.0001 };
  }, [view, colorMode]);

  const hasNegative = useMemo(() => {
    if (!view) return false;
    for (let i = 0; i < view.approx.length; i++) if (view.approx[i]! < 0) return true;
    return false;
  }, [view]);

  const { across, size } = heatmapLayout(width);
  const figuresHeight = mainFiguresHeight({ across, size });

  // the row chart and its numbers follow in a deferred render: a result's urgent render is the
  // heatmaps' (their colouring is posted from it), the rest of the panel comes after
  const later = useDeferredValue(result);
  const rowN = later?.params.n ?? 0;
  const shownRow = hovered ?? pinned ?? (result ? defaultRow(n) : 0);
  const rowPair = later?.output.rows.find((r) => r.index === (pinned ?? defaultRow(rowN))) ?? null;

  const rowSeries = useMemo((): {
    series: Series[];
    per: number;
    title: string;
    hoverNote: string | null;
    /** the row (the block's first) */
    index: number;
  } | null => {
    if (!later) return null;
    const view = later.output.view;
    const n = later.params.n;
    const mapName = t.names.maps[later.params.featureMap];
    const approxLabel = s.rowApprox(mapName);
    const approxColor = MAP_COLORS[later.params.featureMap];
    // hovering: read the row from the view (exact when block = 1, block means otherwise)
    if (hovered !== null && view && hovered < n) {
      const I = Math.floor(hovered / view.block);
      const cells = view.cells;
      const xs = Float64Array.from({ length: cells }, (_, J) => Math.min(n - 1, J * view.block + (view.block - 1) / 2));
      return {
        series: [
          {
            id: 'exact',
            label: s.rowExact,
            color: EXACT_COLOR,
            x: xs,
            y: view.exact.subarray(I * cells, (I + 1) * cells),
          },
          {
            id: 'approx',
            label: approxLabel,
            color: approxColor,
            dash: '5 3',
            x: xs,
            y: view.approx.subarray(I * cells, (I + 1) * cells),
          },
        ],
        per: 1,
        index: I * view.block,
        title: s.rowTitle(I * view.block, pinned === I * view.block),
        hoverNote: view.block > 1 ? s.rowHover(I * view.block, view.block) : null,
      };
    }
    if (!rowPair) return null;
    const e = decimateMax(rowPair.exact);
    const a = decimateMax(rowPair.approx);
    return {
      series: [
        { id: 'exact', label: s.rowExact, color: EXACT_COLOR, x: e.x, y: e.y },
        { id: 'approx', label: approxLabel, color: approxColor, dash: '5 3', x: a.x, y: a.y },
      ],
      per: e.per,
      index: rowPair.index,
      title: s.rowTitle(rowPair.index, pinned === rowPair.index),
      hoverNote: null,
    };
  }, [later, hovered, rowPair, pinned, s, t]);

  const rowDomain = useMemo((): [number, number] => [0, Math.max(1, rowN - 1)], [rowN]);
  const pick = useCallback((row: number) => actions.pinRow(row === pinned ? null : row), [actions, pinned]);
  const m = result?.metrics;
  const rowAlone = useFigureFocus() === 'attention-row';
  const limit = fmtInt(viewLimit(backend));
  const explainer = (
    <div className="main-explainer">
      <p className="lead">{s.lead}</p>
      <Formula tex={s.formula} />
    </div>
  );

  return (
    // The lead and formula come after the figures (Panel's own slot stays empty): on a projector
    // the status, the numbers and A beside Â must fit the first screen.
    <Panel id="main" title={s.title} lead={null}>
      <div ref={gridRef} className="panel-body">
        <div className="status-line">
          <ComputeStatus />
          {result && (
            <p
              className="result-params note"
              data-result-params=""
              data-result-id={result.id}
              data-result-backend={result.backend.kind}
            >
              {paramsText(t, result.params)}
            </p>
          )}
        </div>
        {result && (
          <ZeroNormalizerNotice
            rows={result.output.zeroNormalizerRows}
            n={result.params.n}
            map={result.params.featureMap}
          />
        )}
        <FigureOnly id="heatmaps">
          {/* the link target of #figure-heatmaps (an embed's credit): there from the first render, before the result */}
          <div id={figureAnchor('heatmaps')}>
            {/* until the first result its figures' space is held (not after an error: the status says why) */}
            <FigureSlot
              name="main-figures"
              value={result}
              pending={status !== 'error'}
              height={figuresHeight}
              note={status === 'idle' ? <p className="note">{s.waiting}</p> : null}
            >
              {(result) => (
                <>
                  <PanelOnly>
                    <div className="metrics">
                      <Metric
                        name="rel-error-A"
                        label={t.metrics.relErrorA}
                        hint={t.metrics.relErrorAHint}
                        value={m?.relErrorA}
                      />
                      <Metric
                        name="rel-error-out"
                        label={t.metrics.relErrorOut}
                        hint={t.metrics.relErrorOutHint}
                        value={m?.relErrorOut}
                      />
                      <Metric name="mean-kl" label={t.metrics.meanKL} hint={t.metrics.meanKLHint} value={m?.meanKL} />
                      <Metric
                        name="entropy-exact"
                        label={t.metrics.entropyExact}
                        hint={t.metrics.entropyHint}
                        value={m?.entropyExact}
                      />
                      <Metric
                        name="entropy-performer"
                        label={t.metrics.entropyPerformer}
                        hint={t.metrics.entropyHint}
                        value={m?.entropyApprox}
                      />
                      <Metric name="compute-ms" label={t.metrics.time} value={latency} format={fmtMs} />
                    </div>
                  </PanelOnly>
                  {view ? (
                    <>
                      <div className={`heatmaps across-${across}`}>
                        {(
                          [
                            ['exact', s.exact, view.exact],
                            ['approx', s.approx(mapName), view.approx],
                            ['diff', s.diff, view.absDiff],
                          ] as const
                        ).map(([key, title, data]) => (
                          <Figure
                            key={key}
                            name={`A-${key}`}
                            title={title}
                            params={result.params}
                            extras={() => [legendRef.current]}
                          >
                            <Heatmap
                              labels={t.charts}
                              metric={`heatmap-${key}`}
                              title={title}
                              data={data}
                              cells={view.cells}
                              block={view.block}
                              n={n}
                              scale={scale}
                              size={size}
                              pinnedRow={pinned}
                              hoveredRow={hovered}
                              onHoverRow={actions.hoverRow}
                              onPickRow={pick}
                              resultId={result.id}
                            />
                          </Figure>
                        ))}
                      </div>
                      <div className="heatmap-toolbar">
                        <div ref={legendRef}>
                          <ColorLegend
                            labels={t.charts}
                            scale={scale}
                            label={clipped ? s.colourClipped : s.colour}
                            negativeLabel={hasNegative ? s.colourNegative : undefined}
                            width={Math.min(280, width - 20)}
                          />
                        </div>
                        <div className="segmented" role="group" aria-label={s.colour}>
                          <button
                            type="button"
                            aria-pressed={colorMode === 'linear'}
                            onClick={() => actions.setUi('colorScale', 'linear')}
                          >
                            {s.scaleLinear}
                          </button>
                          <button
                            type="button"
                            aria-pressed={colorMode === 'log'}
                            onClick={() => actions.setUi('colorScale', 'log')}
                          >
                            {s.scaleLog}
                          </button>
                        </div>
                        <p className="note block-note" data-block={view.block}>
                          {view.block > 1 ? s.blockNote(view.block, view.cells) : s.fullRes}
                        </p>
                      </div>
                    </>
                  ) : (
                    <p className="note warn" data-no-view="">
                      {s.noView(limit, backend?.kind === 'webgpu' ? s.onWebgpu : s.onCpu)}
                    </p>
                  )}
                </>
              )}
            </FigureSlot>
          </div>
        </FigureOnly>
        <PanelOnly>
          {explainer}
          <StateExport />
        </PanelOnly>
        <FigureOnly id="attention-row">
          <div id={figureAnchor('attention-row')}>
            {/* the row chart follows the result in a deferred render: its space is held until then */}
            <FigureSlot
              name="main-row"
              value={rowSeries}
              pending={!later && status !== 'error'}
              height={PENDING_ROW_CHART}
            >
              {(rowSeries) => (
                <div className="row-chart">
                  <h3>
                    {rowSeries.title}
                    {pinned !== null && (
                      <button type="button" className="small" onClick={() => actions.pinRow(null)}>
                        {s.unpin}
                      </button>
                    )}
                  </h3>
                  <Figure
                    name={`attention-row-${shownRow}`}
                    title={rowSeries.title}
                    params={later!.params}
                    embed="attention-row"
                  >
                    <LineChart
                      labels={t.charts}
                      series={rowSeries.series}
                      xLabel={s.rowX}
                      yLabel={s.rowY}
                      ariaLabel={rowSeries.title}
                      tableCaption={s.rowTable(shownRow)}
                      xDomain={rowDomain}
                      integerX
                      height={210}
                      // causal: where the row's keys end (every weight past it is 0 by the mask)
                      markers={later!.params.causal ? [{ x: rowSeries.index, label: s.rowCausal }] : undefined}
                      notes={[
                        rowSeries.hoverNote,
                        rowSeries.per > 1 ? s.rowDecimated(rowSeries.per) : null,
                        // alone in an embed there is no heatmap to hover or click
                        rowAlone ? null : s.rowHint,
                      ]}
                    />
                  </Figure>
                </div>
              )}
            </FigureSlot>
          </div>
        </FigureOnly>
      </div>
    </Panel>
  );
}
