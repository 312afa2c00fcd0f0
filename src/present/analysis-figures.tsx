/**
 * Slide figures drawn from analyses run in the worker through the controller — the same requests
 * as the panels, so a slide and a panel share finished results: error vs m, eˣ vs 1 + elu on one
 * row, top-k mass, singular values, error and entropy vs the norm scale.
 */
import { useMemo } from 'react';
import { useStrings } from '../ui/strings';
import { decimateMax } from '../charts/decimate';
import { fmt, fmtInt, fmtSci, fmtText } from '../charts/format';
import { LineChart, type Series } from '../charts/LineChart';
import { EXACT_COLOR, MAP_COLORS, MAP_DASH, OKABE_ITO } from '../charts/palette';
import { elu1, expCurve } from '../core/feature-maps';
import { normalizedEntropy, rowEntropy } from '../core/metrics';
import { numericalRank } from '../core/rank';
import { mean } from '../core/sweeps';
import { SpectrumChart } from '../ui/SpectrumChart';
import { topKSeries } from '../ui/top-k-series';
import {
  errorVsMRequest,
  mapRowsRequest,
  normSweepRequest,
  rowEntropiesRequest,
  spectraRequest,
} from '../store/analyses';
import { useStore } from '../store/react';
import { defaultRow } from '../store/store';
import { chartSize, Frame, useSlideAnalysis, type Box } from './figure-frame';
import type { Step } from './story';

export function ErrorVsMFigure({ step, box }: { step: Step; box: Box }) {
  const t = useStrings();
  const p = t.present;
  const params = useStore((s) => s.params);
  const a = useSlideAnalysis(errorVsMRequest(params));
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
    if (th)
      series.push({ id: 'theory', label: p.theoryIid, color: OKABE_ITO.grey, dash: '2 4', x: v.mGrid, y: th.values });
  }
  const { height, maxWidth } = chartSize(box);
  return (
    <Frame kind={step.figure} ready={a.ready} status={a.status} stat={v ? p.orthStat(v.seeds, v.rows, v.n) : null}>
      {v && (
        <div style={{ maxWidth }} className="slide-chart">
          <LineChart
            labels={t.charts}
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
            fill
            dimmed={a.stale}
          />
        </div>
      )}
    </Frame>
  );
}

const CURVE_X = Array.from({ length: 121 }, (_, i) => -3 + i * 0.05);

export function MapsFigure({ step, box }: { step: Step; box: Box }) {
  const t = useStrings();
  const p = t.present;
  const params = useStore((s) => s.params);
  const pinned = useStore((s) => s.ui.pinnedRow);
  const row = pinned ?? defaultRow(params.n);
  const a = useSlideAnalysis(mapRowsRequest(params, row));
  const v = a.value;
  const curves = useMemo(
    (): Series[] => [
      { id: 'exp', label: 'eˣ', color: EXACT_COLOR, x: CURVE_X, y: CURVE_X.map(expCurve) },
      { id: 'elu', label: '1 + elu(x)', color: MAP_COLORS.elu1, dash: MAP_DASH.elu1, x: CURVE_X, y: CURVE_X.map(elu1) },
      {
        id: 'tangent',
        label: '1 + x',
        color: OKABE_ITO.grey,
        dash: '2 3',
        x: CURVE_X,
        y: CURVE_X.map((x) => 1 + x),
        quiet: true,
      },
    ],
    [],
  );
  const rows = useMemo((): { series: Series[]; stats: string[] } | null => {
    if (!v) return null;
    const ex = decimateMax(v.exact);
    const series: Series[] = [{ id: 'exact', label: t.names.exact, color: EXACT_COLOR, x: ex.x, y: ex.y }];
    const keys = v.causal ? v.row + 1 : v.n;
    const stats: string[] = [p.mapStat(t.names.exact, fmtText(normalizedEntropy(rowEntropy(v.exact), keys)))];
    for (const k of ['positive', 'elu1'] as const) {
      const mr = v.maps.find((x) => x.map === k);
      if (!mr) continue;
      const d = decimateMax(mr.values);
      series.push({
        id: k,
        label: t.names.maps[k],
        color: MAP_COLORS[k],
        dash: k === 'elu1' ? MAP_DASH.elu1 : '6 3',
        x: d.x,
        y: d.y,
      });
      stats.push(p.mapStat(t.names.maps[k], fmtText(mr.entropy)));
    }
    return { series, stats };
  }, [v, t, p]);
  const { height } = chartSize(box, 2);
  const rowDomain = useMemo((): [number, number] => [0, Math.max(1, (v?.n ?? 2) - 1)], [v]);
  return (
    <Frame kind={step.figure} ready={a.ready} status={a.status} stat={rows ? rows.stats.join(' · ') : null}>
      <div className="slide-grid maps">
        <div className="slide-cell">
          <h2 className="slide-sub">{p.curvesTitle}</h2>
          <LineChart
            labels={t.charts}
            series={curves}
            xLabel="x"
            yLabel="f(x)"
            ariaLabel={p.curvesTitle}
            tableCaption={p.curvesTitle}
            yDomain={[-0.5, 4]}
            height={height - 40}
            fill
          />
        </div>
        <div className="slide-cell">
          <h2 className="slide-sub">{p.rowTitle(row)}</h2>
          {rows && (
            <LineChart
              labels={t.charts}
              series={rows.series}
              xLabel={t.main.rowX}
              yLabel={t.main.rowY}
              ariaLabel={p.rowTitle(row)}
              tableCaption={t.main.rowTable(row)}
              xDomain={rowDomain}
              integerX
              height={height - 40}
              fill
              dimmed={a.stale}
            />
          )}
        </div>
      </div>
    </Frame>
  );
}

export function SparsityFigure({ step, box }: { step: Step; box: Box }) {
  const t = useStrings();
  const s = t.sparsity;
  const params = useStore((st) => st.params);
  const a = useSlideAnalysis(rowEntropiesRequest(params));
  const rv = a.value;
  const series: Series[] = rv ? topKSeries(rv, t) : [];
  const stat = rv
    ? [
        `${t.names.exact} ${fmtText(mean(rv.exact))}`,
        `${t.names.maps[rv.map]} ${fmtText(mean(rv.performer))}`,
        `${t.names.maps.elu1} ${fmt(mean(rv.elu1))}`,
      ].join(' · ')
    : null;
  const { height, maxWidth } = chartSize(box);
  return (
    <Frame kind={step.figure} ready={a.ready} status={a.status} stat={stat && t.present.statEntropies(stat)}>
      {rv && (
        <div style={{ maxWidth }} className="slide-chart">
          <LineChart
            labels={t.charts}
            series={series}
            xLabel={s.xK}
            yLabel={s.yMass}
            xScale="log"
            yDomain={[0, 1]}
            integerX
            ariaLabel={s.topTitle}
            tableCaption={s.tableTop}
            height={height}
            fill
            dimmed={a.stale}
          />
        </div>
      )}
    </Frame>
  );
}

export function SpectraFigure({ step, box }: { step: Step; box: Box }) {
  const t = useStrings();
  const params = useStore((st) => st.params);
  const tol = useStore((st) => st.ui.rankTol);
  const a = useSlideAnalysis(spectraRequest(params));
  const v = a.value;
  const { height, maxWidth } = chartSize(box);
  return (
    <Frame
      kind={step.figure}
      ready={a.ready}
      status={a.status}
      stat={
        v
          ? t.present.spectraStat(
              fmtInt(numericalRank(v.exact, tol)),
              fmtInt(numericalRank(v.approx, tol)),
              fmtSci(tol),
            )
          : null
      }
    >
      {v && (
        <div style={{ maxWidth }} className="slide-chart">
          <SpectrumChart v={v} tol={tol} height={height} fill dimmed={a.stale} />
        </div>
      )}
    </Frame>
  );
}

export function NormFigure({ step, box }: { step: Step; box: Box }) {
  const t = useStrings();
  const p = t.present;
  const params = useStore((st) => st.params);
  const a = useSlideAnalysis(normSweepRequest(params));
  const v = a.value;
  const pos = v?.error.find((e) => e.map === 'positive');
  const th = v?.theory.find((x) => x.map === 'positive');
  const errSeries: Series[] =
    v && pos
      ? [
          {
            id: 'positive',
            label: t.names.maps.positive,
            color: MAP_COLORS.positive,
            x: v.scales,
            y: pos.mean,
            band: { lo: pos.lo, hi: pos.hi },
            points: true,
          },
          ...(th
            ? [
                {
                  id: 'theory',
                  label: t.error.theory(t.names.maps.positive),
                  color: OKABE_ITO.grey,
                  dash: '2 4',
                  x: v.scales,
                  y: th.values,
                },
              ]
            : []),
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
        {
          id: 'perf',
          label: t.error.entropyPerf,
          color: MAP_COLORS.positive,
          dash: '6 3',
          x: v.scales,
          y: v.entropyPerformer,
          points: true,
        },
      ]
    : [];
  const marker = [{ x: params.scale, label: `s = ${params.scale}` }];
  const { height } = chartSize(box, 2);
  return (
    <Frame kind={step.figure} ready={a.ready} status={a.status} stat={v ? p.normStat(v.m, v.seeds) : null}>
      {v && (
        <div className="slide-grid">
          <div className="slide-cell">
            <h2 className="slide-sub">{p.normErrorTitle}</h2>
            <LineChart
              labels={t.charts}
              series={errSeries}
              xLabel={t.error.xScale}
              yLabel={t.error.yErr}
              yScale="log"
              yDomain={errDomain}
              ariaLabel={p.normErrorTitle}
              tableCaption={t.error.tableNorm}
              markers={marker}
              height={height - 40}
              fill
              dimmed={a.stale}
            />
          </div>
          <div className="slide-cell">
            <h2 className="slide-sub">{p.normEntropyTitle}</h2>
            <LineChart
              labels={t.charts}
              series={entSeries}
              xLabel={t.error.xScale}
              yLabel={t.error.yEntropy}
              yDomain={[0, 1]}
              ariaLabel={p.normEntropyTitle}
              tableCaption={t.error.tableEntropy}
              markers={marker}
              height={height - 40}
              fill
              dimmed={a.stale}
            />
          </div>
        </div>
      )}
    </Frame>
  );
}
