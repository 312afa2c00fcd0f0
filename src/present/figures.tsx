/**
 * One live figure per slide, sized to the box the slide leaves for it. Every figure is drawn from
 * the engine: the compute result (heatmaps, kernel times) or an analysis run in the worker through
 * the controller (the same requests as the panels, so a slide and a panel share cached results).
 * Each figure says whether it shows data for the current parameters (`data-ready`), for the tests
 * and for a lecturer who wonders whether the picture is up to date.
 */
import { useMemo, type ReactNode } from 'react';
import { useStrings } from '../app/strings';
import { ColorLegend } from '../charts/ColorLegend';
import { decimateMax } from '../charts/decimate';
import { fmt, fmtInt, fmtMs } from '../charts/format';
import { Heatmap } from '../charts/Heatmap';
import { LineChart, type Series } from '../charts/LineChart';
import { EXACT_COLOR, heatScale, MAP_COLORS, MAP_DASH, OKABE_ITO, robustMax } from '../charts/palette';
import { elu1, expCurve, featureDim } from '../core/feature-maps';
import { mean } from '../core/sweeps';
import { numericalRank } from '../core/rank';
import type { AttentionParams } from '../core/types';
import { AnalysisStatus, useAnalysisRequest } from '../panels/common';
import { normalized } from '../panels/RankPanel';
import {
  errorVsMRequest,
  mapRowsRequest,
  normSweepRequest,
  rowEntropiesRequest,
  spectraRequest,
  type AnalysisRequest,
  type ErrorVsMResult,
  type MapRowsResult,
  type NormSweepResult,
  type RowEntropiesResult,
  type SpectraResult,
} from '../store/analyses';
import { useActions, useStore } from '../store/react';
import { defaultRow, type AnalysisEntry } from '../store/store';
import type { Step } from './story';

export interface Box {
  width: number;
  height: number;
}

/** Space a line chart needs besides its plot: its legend and the stat line under the figure. */
const CHART_CHROME = 80;
/** Widest a line chart is drawn relative to its height (a very wide chart reads badly on a wall). */
const MAX_ASPECT = 2.3;

function sameParams(a: AttentionParams, b: AttentionParams): boolean {
  return (Object.keys(a) as (keyof AttentionParams)[]).every((k) => a[k] === b[k]);
}

/** The frame of every figure: data-figure / data-ready for tests, a status line while waiting, a stat line under it. */
function Frame(props: { kind: string; ready: boolean; status?: ReactNode; stat?: ReactNode; children: ReactNode }) {
  return (
    <div className="slide-fig" data-figure={props.kind} data-ready={props.ready ? '1' : '0'}>
      {props.status}
      <div className="slide-fig-body">{props.children}</div>
      {props.stat && <p className="slide-stat">{props.stat}</p>}
    </div>
  );
}

function chartSize(box: Box, across = 1): { height: number; maxWidth: number } {
  const height = Math.max(160, Math.floor(box.height - CHART_CHROME));
  return { height, maxWidth: Math.floor(height * MAX_ASPECT * (across === 1 ? 1 : 0.75)) };
}

/** An analysis for a slide: value (if any), whether it is for the current parameters, its status line. */
function useSlideAnalysis<T>(req: AnalysisRequest, enabled = true) {
  const a = useAnalysisRequest<T>(req, enabled);
  const ready = a.value !== null && !a.stale;
  return { ...a, ready, status: ready ? null : <AnalysisStatus req={req} entry={a.entry as AnalysisEntry | undefined} /> };
}

// ---------------------------------------------------------------------------------------------

function MatrixFigure({ step, box }: { step: Step; box: Box }) {
  const t = useStrings();
  const p = t.present;
  const actions = useActions();
  const result = useStore((s) => s.compute.result);
  const params = useStore((s) => s.params);
  const pinned = useStore((s) => s.ui.pinnedRow);
  const hovered = useStore((s) => s.ui.hoveredRow);
  const both = step.figure === 'compare';
  const view = result?.output.view ?? null;
  const ready = !!view && !!result && sameParams(result.params, params);
  const scale = useMemo(() => heatScale(view ? robustMax(both ? [view.exact, view.approx] : [view.exact]).top : 1, 'linear'), [view, both]);

  const count = both ? 2 : 1;
  // heatmap frame: axes 56 px wide, 34 px tall, its caption above; two matrices have the stat line
  // and colour bar below them, one has them beside it
  const side = both ? 0 : Math.min(340, Math.floor(box.width * 0.32));
  const size = Math.floor(Math.max(120, Math.min(box.height - (both ? 128 : 70), (box.width - side - 24 * count) / count - 56)));
  const m = result?.metrics;
  const n = result?.params.n ?? params.n;
  let stat: ReactNode = null;
  if (result) {
    if (step.id === 'quadratic') stat = p.statScores(fmtInt(n), fmtInt(n * n));
    else if (!both) stat = p.statEntropy(fmt(m?.entropyExact));
    else if (result.params.causal) stat = p.statCausal(fmt(m?.relErrorA));
    else stat = p.statError(fmt(m?.relErrorA), result.params.m);
  }
  const legend = result && <ColorLegend scale={scale} label={p.colour} width={Math.min(300, Math.max(200, (side || box.width / 3) - 16))} />;
  const maps =
    view && result ? (
      <div className="slide-heatmaps">
        {(both ? ([['exact', p.exactTitle, view.exact], ['approx', p.approxTitle(t.names.maps[result.params.featureMap]), view.approx]] as const) : ([['exact', p.exactTitle, view.exact]] as const)).map(
          ([key, title, data]) => (
            <Heatmap
              key={key}
              metric={`slide-heatmap-${key}`}
              title={title}
              data={data}
              cells={view.cells}
              block={view.block}
              n={result.params.n}
              scale={scale}
              size={size}
              pinnedRow={pinned}
              hoveredRow={hovered}
              onHoverRow={actions.hoverRow}
              onPickRow={(row) => actions.pinRow(row === pinned ? null : row)}
              resultId={result.id}
            />
          ),
        )}
      </div>
    ) : null;
  return (
    <Frame
      kind={step.figure}
      ready={ready}
      status={!result ? <p className="slide-wait">{p.waiting}</p> : null}
      stat={
        both && result ? (
          <span className="slide-stat-row">
            <span>{stat}</span>
            {legend}
          </span>
        ) : null
      }
    >
      {both ? (
        maps
      ) : (
        <div className="slide-matrix">
          {maps}
          {result && (
            <div className="slide-matrix-side" style={{ width: side }}>
              {legend}
              <p className="slide-stat">{stat}</p>
            </div>
          )}
        </div>
      )}
    </Frame>
  );
}

/** Exact 4n²d vs Performer ≈ 8nm′d FLOPs (performer-facts.md), the crossover and the kernel times just measured. */
function CostFigure({ step, box }: { step: Step; box: Box }) {
  const p = useStrings().present;
  const params = useStore((s) => s.params);
  const result = useStore((s) => s.compute.result);
  const backend = useStore((s) => s.backend.info);
  const mp = featureDim(params.featureMap, params.m, params.d);
  const series = useMemo((): Series[] => {
    const ns: number[] = [];
    for (let n = 16; n <= 65_536; n *= 2) ns.push(n);
    return [
      { id: 'exact', label: p.costExact, color: EXACT_COLOR, x: ns, y: ns.map((n) => 4 * n * n * params.d), points: true },
      { id: 'perf', label: p.costPerformer, color: MAP_COLORS.positive, dash: '6 3', x: ns, y: ns.map((n) => 8 * n * mp * params.d), points: true },
    ];
  }, [p, params.d, mp]);
  const timings = result && sameParams(result.params, params) ? result.output.timings : null;
  const sum = (re: RegExp) => (timings ? timings.filter((k) => re.test(k.kernel)).reduce((a, k) => a + k.ms, 0) : null);
  const exactMs = sum(/exact/);
  const perfMs = sum(/performer|linear|feature/);
  const { height, maxWidth } = chartSize(box);
  return (
    <Frame
      kind={step.figure}
      ready={!!timings}
      stat={timings ? p.costMeasured(fmtMs(exactMs), fmtMs(perfMs), backend?.kind === 'webgpu' ? 'WebGPU' : 'CPU') : p.waiting}
    >
      <div style={{ maxWidth }} className="slide-chart">
        <LineChart
          series={series}
          xLabel={p.costX}
          yLabel={p.costY}
          xScale="log"
          yScale="log"
          integerX
          ariaLabel={p.costTable}
          tableCaption={p.costTable}
          markers={[
            { x: params.n, label: `n = ${fmtInt(params.n)}` },
            { x: 2 * mp, label: p.costCrossover(fmtInt(2 * mp)), color: MAP_COLORS.positive },
          ]}
          height={height}
        />
      </div>
    </Frame>
  );
}

function ErrorVsMFigure({ step, box }: { step: Step; box: Box }) {
  const t = useStrings();
  const p = t.present;
  const params = useStore((s) => s.params);
  const a = useSlideAnalysis<ErrorVsMResult>(errorVsMRequest(params));
  const v = a.value;
  const series: Series[] = [];
  if (v) {
    for (const se of v.series) {
      if (se.map !== 'positive') continue;
      series.push({
        id: se.projection,
        label: p.orthSeries(t.names.projections[se.projection]),
        color: se.projection === 'iid' ? OKABE_ITO.vermillion : MAP_COLORS.positive,
        dash: se.projection === 'iid' ? '7 4' : undefined,
        x: v.mGrid,
        y: se.mean,
        band: { lo: se.lo, hi: se.hi },
        points: true,
      });
    }
    const th = v.theory.find((x) => x.map === 'positive');
    if (th) series.push({ id: 'theory', label: p.theoryIid, color: OKABE_ITO.grey, dash: '2 4', x: v.mGrid, y: th.values });
  }
  const { height, maxWidth } = chartSize(box);
  return (
    <Frame kind={step.figure} ready={a.ready} status={a.status} stat={v ? p.orthStat(v.seeds, v.rows, v.n) : null}>
      {v && (
        <div style={{ maxWidth }} className="slide-chart">
          <LineChart
            series={series}
            xLabel={t.error.xM}
            yLabel={t.error.yErr}
            xScale="log"
            yScale="log"
            integerX
            ariaLabel={t.error.sweepTitle}
            tableCaption={t.error.tableSweep}
            markers={[{ x: params.m, label: `m = ${params.m}` }]}
            height={height}
            dimmed={a.stale}
          />
        </div>
      )}
    </Frame>
  );
}

const CURVE_X = Array.from({ length: 121 }, (_, i) => -3 + i * 0.05);

function MapsFigure({ step, box }: { step: Step; box: Box }) {
  const t = useStrings();
  const p = t.present;
  const params = useStore((s) => s.params);
  const pinned = useStore((s) => s.ui.pinnedRow);
  const row = pinned ?? defaultRow(params.n);
  const a = useSlideAnalysis<MapRowsResult>(mapRowsRequest(params, row));
  const v = a.value;
  const curves = useMemo(
    (): Series[] => [
      { id: 'exp', label: 'eˣ', color: EXACT_COLOR, x: CURVE_X, y: CURVE_X.map(expCurve) },
      { id: 'elu', label: '1 + elu(x)', color: MAP_COLORS.elu1, dash: MAP_DASH.elu1, x: CURVE_X, y: CURVE_X.map(elu1) },
      { id: 'tangent', label: '1 + x', color: OKABE_ITO.grey, dash: '2 3', x: CURVE_X, y: CURVE_X.map((x) => 1 + x), quiet: true },
    ],
    [],
  );
  const rows = useMemo((): { series: Series[]; stats: string[] } | null => {
    if (!v) return null;
    const ex = decimateMax(v.exact);
    const series: Series[] = [{ id: 'exact', label: t.names.exact, color: EXACT_COLOR, x: ex.x, y: ex.y }];
    const stats: string[] = [];
    for (const k of ['positive', 'elu1'] as const) {
      const mr = v.maps.find((x) => x.map === k);
      if (!mr) continue;
      const d = decimateMax(mr.values);
      series.push({ id: k, label: t.names.maps[k], color: MAP_COLORS[k], dash: k === 'elu1' ? MAP_DASH.elu1 : '6 3', x: d.x, y: d.y });
      stats.push(p.mapStat(t.names.maps[k], fmt(mr.entropy)));
    }
    return { series, stats };
  }, [v, t, p]);
  const { height } = chartSize(box, 2);
  const rowDomain = useMemo((): [number, number] => [0, Math.max(1, (v?.n ?? 2) - 1)], [v]);
  return (
    <Frame kind={step.figure} ready={a.ready} status={a.status} stat={rows ? rows.stats.join(' · ') : null}>
      <div className="slide-grid maps">
        <div>
          <h2 className="slide-sub">{p.curvesTitle}</h2>
          <LineChart series={curves} xLabel="x" yLabel="f(x)" ariaLabel={p.curvesTitle} tableCaption={p.curvesTitle} yDomain={[-0.5, 4]} height={height - 40} />
        </div>
        <div>
          <h2 className="slide-sub">{p.rowTitle(row)}</h2>
          {rows && (
            <LineChart
              series={rows.series}
              xLabel={t.main.rowX}
              yLabel={t.main.rowY}
              ariaLabel={p.rowTitle(row)}
              tableCaption={t.main.rowTable(row)}
              xDomain={rowDomain}
              integerX
              height={height - 40}
              dimmed={a.stale}
            />
          )}
        </div>
      </div>
    </Frame>
  );
}

function SparsityFigure({ step, box }: { step: Step; box: Box }) {
  const t = useStrings();
  const s = t.sparsity;
  const params = useStore((st) => st.params);
  const a = useSlideAnalysis<RowEntropiesResult>(rowEntropiesRequest(params));
  const rv = a.value;
  const series: Series[] = rv
    ? [
        { id: 'exact', label: s.exact, color: EXACT_COLOR, x: rv.topK.k, y: rv.topK.exact, points: true },
        { id: 'perf', label: s.perf(t.names.maps[rv.map]), color: MAP_COLORS[rv.map], dash: '6 3', x: rv.topK.k, y: rv.topK.performer, points: true },
        { id: 'elu', label: s.elu, color: MAP_COLORS.elu1, dash: MAP_DASH.elu1, x: rv.topK.k, y: rv.topK.elu1, points: true },
      ]
    : [];
  const stat = rv
    ? [
        `${t.names.exact} ${fmt(mean(rv.exact))}`,
        `${t.names.maps[rv.map]} ${fmt(mean(rv.performer))}`,
        `${t.names.maps.elu1} ${fmt(mean(rv.elu1))}`,
      ].join(' · ')
    : null;
  const { height, maxWidth } = chartSize(box);
  return (
    <Frame kind={step.figure} ready={a.ready} status={a.status} stat={stat && t.present.statEntropies(stat)}>
      {rv && (
        <div style={{ maxWidth }} className="slide-chart">
          <LineChart series={series} xLabel={s.xK} yLabel={s.yMass} xScale="log" yDomain={[0, 1]} integerX ariaLabel={s.topTitle} tableCaption={s.tableTop} height={height} dimmed={a.stale} />
        </div>
      )}
    </Frame>
  );
}

function SpectraFigure({ step, box }: { step: Step; box: Box }) {
  const t = useStrings();
  const s = t.rank;
  const params = useStore((st) => st.params);
  const tol = useStore((st) => st.ui.rankTol);
  const a = useSlideAnalysis<SpectraResult>(spectraRequest(params));
  const v = a.value;
  const series = useMemo(
    (): Series[] =>
      v
        ? [
            { id: 'exact', label: s.exact, color: EXACT_COLOR, ...normalized(v.exact) },
            { id: 'approx', label: s.approx(t.names.maps[v.map]), color: MAP_COLORS[v.map], dash: '6 3', ...normalized(v.approx) },
            { id: 'scores', label: s.scores, color: OKABE_ITO.green, dash: '2 3', ...normalized(v.scores) },
          ]
        : [],
    [v, s, t.names.maps],
  );
  const { height, maxWidth } = chartSize(box);
  return (
    <Frame
      kind={step.figure}
      ready={a.ready}
      status={a.status}
      stat={v ? t.present.spectraStat(fmtInt(numericalRank(v.exact, tol)), fmtInt(numericalRank(v.approx, tol)), tol.toExponential(0)) : null}
    >
      {v && (
        <div style={{ maxWidth }} className="slide-chart">
          <LineChart
            series={series}
            xLabel={s.xIndex}
            yLabel={s.ySigma}
            xScale="log"
            yScale="log"
            integerX
            xDomain={[1, v.n]}
            ariaLabel={s.spectrumTitle}
            tableCaption={s.tableSpectra}
            markers={[
              { x: v.d, label: s.lineD(v.d), color: OKABE_ITO.green },
              { x: v.mPrime, label: s.lineM(v.mPrime), color: MAP_COLORS[v.map] },
            ]}
            hLines={[{ y: tol, label: `τ = ${tol.toExponential(0)}` }]}
            height={height}
            dimmed={a.stale}
          />
        </div>
      )}
    </Frame>
  );
}

function NormFigure({ step, box }: { step: Step; box: Box }) {
  const t = useStrings();
  const p = t.present;
  const params = useStore((st) => st.params);
  const a = useSlideAnalysis<NormSweepResult>(normSweepRequest(params));
  const v = a.value;
  const pos = v?.error.find((e) => e.map === 'positive');
  const th = v?.theory.find((x) => x.map === 'positive');
  const errSeries: Series[] =
    v && pos
      ? [
          { id: 'positive', label: t.names.maps.positive, color: MAP_COLORS.positive, x: v.scales, y: pos.mean, band: { lo: pos.lo, hi: pos.hi }, points: true },
          ...(th ? [{ id: 'theory', label: t.error.theory(t.names.maps.positive), color: OKABE_ITO.grey, dash: '2 4', x: v.scales, y: th.values }] : []),
        ]
      : [];
  const errDomain = ((): [number, number] | undefined => {
    if (!pos) return undefined;
    const vals = [...pos.lo, ...pos.hi].filter((x) => Number.isFinite(x) && x > 0);
    return vals.length ? [Math.min(...vals) / 1.5, Math.max(...vals) * 1.5] : undefined;
  })();
  const entSeries: Series[] = v
    ? [
        { id: 'exact', label: t.error.entropyExact, color: EXACT_COLOR, x: v.scales, y: v.entropyExact, points: true },
        { id: 'perf', label: t.error.entropyPerf, color: MAP_COLORS.positive, dash: '6 3', x: v.scales, y: v.entropyPerformer, points: true },
      ]
    : [];
  const marker = [{ x: params.scale, label: `s = ${params.scale}` }];
  const { height } = chartSize(box, 2);
  return (
    <Frame kind={step.figure} ready={a.ready} status={a.status} stat={v ? p.normStat(v.m, v.seeds) : null}>
      {v && (
        <div className="slide-grid">
          <div>
            <h2 className="slide-sub">{p.normErrorTitle}</h2>
            <LineChart series={errSeries} xLabel={t.error.xScale} yLabel={t.error.yErr} yScale="log" yDomain={errDomain} ariaLabel={p.normErrorTitle} tableCaption={t.error.tableNorm} markers={marker} height={height - 40} dimmed={a.stale} />
          </div>
          <div>
            <h2 className="slide-sub">{p.normEntropyTitle}</h2>
            <LineChart series={entSeries} xLabel={t.error.xScale} yLabel={t.error.yEntropy} yDomain={[0, 1]} ariaLabel={p.normEntropyTitle} tableCaption={t.error.tableEntropy} markers={marker} height={height - 40} dimmed={a.stale} />
          </div>
        </div>
      )}
    </Frame>
  );
}

/** The figure of `step`, filling `box`. */
export function SlideFigure({ step, box }: { step: Step; box: Box }) {
  switch (step.figure) {
    case 'exact':
    case 'compare':
      return <MatrixFigure step={step} box={box} />;
    case 'cost':
      return <CostFigure step={step} box={box} />;
    case 'error-vs-m':
      return <ErrorVsMFigure step={step} box={box} />;
    case 'maps':
      return <MapsFigure step={step} box={box} />;
    case 'sparsity':
      return <SparsityFigure step={step} box={box} />;
    case 'spectra':
      return <SpectraFigure step={step} box={box} />;
    case 'norm':
      return <NormFigure step={step} box={box} />;
  }
}
