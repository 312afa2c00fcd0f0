/**
 * Panel 4 — feature maps: the scalar curves e^x, 1 + elu(x), relu(x) and the tangent of e^x at 0;
 * one query's attention row under every map against softmax; and Su Jianlin's two arguments — the
 * λ-invariance (measured on the same row) and folding W into the q/k projections.
 */
import type { AttentionParams } from '../core/types';
import { useMemo, useRef } from 'react';
import { useStrings } from '../ui/strings';
import { decimateMax } from '../charts/decimate';
import { fmtText } from '../charts/format';
import { extent } from '../charts/line-scales';
import { Legend } from '../charts/Legend';
import { LineChart, type Series } from '../charts/LineChart';
import { EXACT_COLOR, MAP_COLORS, MAP_DASH, OKABE_ITO } from '../charts/palette';
import { FEATURE_MAP_SPECS } from '../core/feature-map-specs';
import { elu1, expCurve, relu, rowComparisonMaps } from '../core/feature-maps';
import { taylor2Curve } from '../core/feature-maps-beyond';
import { mapRowsRequest } from '../store/analyses';
import { useStore } from '../store/react';
import { defaultRow } from '../store/store';
import { Panel, withDeferredParams } from './common';
import { AnalysisStatus, useAnalysisRequest } from '../ui/analysis';
import { Figure } from '../ui/Figure';
import { Formula } from '../ui/Formula';
import { HedgehogTraining } from './HedgehogTraining';
import { awaitsFirstValue, PendingFigure } from '../ui/PendingFigure';
import { figureAnchor, FigureOnly, PanelOnly, useShowsFigure } from '../ui/figure-focus';

/** A per-map row chart's plot height, and what its figure adds (toolbar, axis gaps; no legend: px, measured). */
const ROW_PLOT_HEIGHT = 160;
const ROW_FIGURE_CHROME = 43;

const CURVE_X = Array.from({ length: 221 }, (_, i) => -3 + i * 0.025);

/** f32 rounding allowed around [0, 1] before a row counts as leaving the weights' range */
const WEIGHT_SLACK = 1e-6;

export const FeatureMapPanel = withDeferredParams('FeatureMapPanel', FeatureMapPanelBody);

function FeatureMapPanelBody({ params }: { params: AttentionParams }) {
  const t = useStrings();
  const s = t.features;
  const pinned = useStore((st) => st.ui.pinnedRow);
  const row = pinned ?? defaultRow(params.n);
  // a one-figure embed of the curves asks for no row
  const shows = useShowsFigure();
  const rows = useAnalysisRequest(mapRowsRequest(params, row), shows('map-rows'));
  const v = rows.value;
  const legendRef = useRef<HTMLDivElement>(null);

  const curves: Series[] = useMemo(
    () => [
      { id: 'exp', label: 'eˣ', color: EXACT_COLOR, x: CURVE_X, y: CURVE_X.map(expCurve) },
      { id: 'elu', label: '1 + elu(x)', color: MAP_COLORS.elu1, dash: MAP_DASH.elu1, x: CURVE_X, y: CURVE_X.map(elu1) },
      {
        id: 'taylor2',
        label: '1 + x + x²/2',
        color: MAP_COLORS.taylor2,
        dash: MAP_DASH.taylor2,
        x: CURVE_X,
        y: CURVE_X.map(taylor2Curve),
      },
      { id: 'relu', label: 'relu(x)', color: MAP_COLORS.relu, dash: MAP_DASH.relu, x: CURVE_X, y: CURVE_X.map(relu) },
      {
        id: 'tangent',
        label: s.tangent,
        color: OKABE_ITO.grey,
        dash: '2 3',
        width: 1.2,
        x: CURVE_X,
        y: CURVE_X.map((x) => 1 + x),
      },
    ],
    [s.tangent],
  );

  const multiples = useMemo(() => {
    if (!v) return [];
    const ex = decimateMax(v.exact);
    // one y-axis for the rows that are attention weights (in [0, 1]), so the maps compare; a row that
    // leaves [0, 1] (trig's Â, negative and above 1 at large norms) gets its own, or its swings would
    // set the shared axis and flatten every other row (and softmax's peak) to the baseline
    const ranges = v.maps.map((m) => extent(m.values, false) ?? ([0, 0] as const));
    const own = ranges.map(([lo, hi]) => lo < -WEIGHT_SLACK || hi > 1 + WEIGHT_SLACK);
    let shared = 0;
    for (const x of v.exact) shared = Math.max(shared, x);
    ranges.forEach(([, hi], i) => {
      if (!own[i]) shared = Math.max(shared, hi);
    });
    return v.maps.map((m, i) => {
      const ap = decimateMax(m.values);
      const [lo, hi] = ranges[i]!;
      return {
        m,
        per: ap.per,
        yMax: own[i] ? Math.max(shared, hi) : shared,
        yMin: own[i] ? Math.min(0, lo) : 0,
        ownScale: own[i],
        series: [
          { id: 'exact', label: t.names.exact, color: EXACT_COLOR, width: 1, x: ex.x, y: ex.y },
          { id: m.map, label: t.names.maps[m.map], color: MAP_COLORS[m.map], dash: '5 3', width: 2, x: ap.x, y: ap.y },
        ] as Series[],
      };
    });
  }, [v, t.names]);

  return (
    <Panel id="feature-maps" title={s.title} lead={s.lead} formula={t.names.mapTex[params.featureMap]}>
      <div className="grid-2">
        <FigureOnly id="feature-map-curves">
          <div className="sub">
            <h3 id={figureAnchor('feature-map-curves')}>{s.curvesTitle}</h3>
            <Figure name="feature-map-curves" title={s.curvesTitle} embed="feature-map-curves">
              <LineChart
                labels={t.charts}
                series={curves}
                xLabel={s.xX}
                yLabel={s.yF}
                ariaLabel={s.curvesTitle}
                tableCaption={s.tableCurves}
                yDomain={[-0.5, 4]}
                height={240}
              />
            </Figure>
            <p className="note">{t.estimators.taylorNote}</p>
            {params.featureMap === 'oprf' && v && (
              <p className="note" data-note="oprf" data-oprf-a={v.oprf.a}>
                {v.causal
                  ? t.estimators.oprfCausalNote(fmtText(v.oprf.rho), fmtText(v.oprf.a))
                  : t.estimators.oprfNote(fmtText(v.oprf.rho), fmtText(v.oprf.a))}
              </p>
            )}
            {params.featureMap === 'double-softmax' && params.causal && (
              <p className="note" data-note="double-softmax-causal">
                {t.estimators.dsCausalNote}
              </p>
            )}
            {params.causal && params.stabilizer === 'ref' && FEATURE_MAP_SPECS[params.featureMap].eps && (
              <p className="note" data-note="ref-causal">
                {t.stab.causalNote}
              </p>
            )}
            {params.featureMap === 'cosformer' && (
              <p className="note" data-note="cosformer">
                {t.estimators.cosformerNote}
              </p>
            )}
          </div>
        </FigureOnly>
        <PanelOnly>
          <div className="sub">
            <h3>{s.lambdaTitle}</h3>
            <p>{s.lambdaText}</p>
            <Formula tex={s.lambdaFormula} />
            {/* the sentence is there before its numbers ("…"), so the fold below does not move when they come */}
            <p
              className="note"
              data-lambda-query={v?.lambda.queryNormDropped}
              data-lambda-both={v?.lambda.bothNormsDropped}
            >
              {s.lambdaMeasured(
                v ? fmtText(v.lambda.queryNormDropped) : '…',
                v ? fmtText(v.lambda.bothNormsDropped) : '…',
                v ? fmtText(v.lambda.keyNormSpread) : '…',
              )}
            </p>
            <h3>{s.foldTitle}</h3>
            <p>{s.foldText}</p>
            <Formula tex={s.foldFormula} />
          </div>
        </PanelOnly>
      </div>

      <FigureOnly id="map-rows">
        <h3 id={figureAnchor('map-rows')}>{s.rowsTitle(row)}</h3>
        <AnalysisStatus req={rows.req} />
        <p className="note">{s.rowsNote(params.m, t.names.projections[params.projection])}</p>
        <div ref={legendRef}>
          <Legend
            items={[
              { id: 'exact', label: t.names.exact, color: EXACT_COLOR },
              { id: 'map', label: s.mapLegend, color: OKABE_ITO.grey, dash: '5 3' },
            ]}
          />
        </div>
        <div className="small-multiples">
          {v
            ? multiples.map(({ m, series, yMax, yMin, per, ownScale }) => (
                <div key={m.map} className="sub" data-map-row={m.map}>
                  <h4>{t.controls.mapNames[m.map]}</h4>
                  <p className="stat-line">{s.rowStats(fmtText(m.relError), fmtText(m.kl), fmtText(m.entropy))}</p>
                  <Figure
                    name={`row-${v.row}-${m.map}`}
                    title={`${t.controls.mapNames[m.map]}: ${s.rowsTitle(v.row)}`}
                    extras={() => [legendRef.current]}
                  >
                    <LineChart
                      labels={t.charts}
                      series={series}
                      xLabel={t.main.rowX}
                      yLabel={t.main.rowY}
                      ariaLabel={`${t.controls.mapNames[m.map]}: ${s.rowsTitle(v.row)}`}
                      tableCaption={`${s.tableRows}: ${t.names.maps[m.map]}`}
                      xDomain={[0, Math.max(1, v.n - 1)]}
                      yDomain={[yMin, yMax * 1.05 || 1]}
                      integerX
                      height={ROW_PLOT_HEIGHT}
                      // causal: where the mask cuts the row (the main row chart says it in words)
                      markers={v.causal ? [{ x: v.row, label: t.main.rowCausalShort }] : undefined}
                      noLegend
                      dimmed={rows.stale}
                      notes={[per > 1 ? t.main.rowDecimated(per) : null, ownScale ? s.rowOwnScale : null]}
                    />
                  </Figure>
                </div>
              ))
            : // the first row computes: each map's cell holds its place (same title, an empty stat line and frame)
              awaitsFirstValue(rows.entry, v) &&
              rowComparisonMaps(params.m, params.d).map((map) => (
                <div key={map} className="sub" data-map-row-pending={map}>
                  <h4>{t.controls.mapNames[map]}</h4>
                  <p className="stat-line">{'\u00a0'}</p>
                  <PendingFigure name={`row-${map}`} height={ROW_PLOT_HEIGHT + ROW_FIGURE_CHROME} />
                </div>
              ))}
        </div>
      </FigureOnly>

      <PanelOnly>
        <HedgehogTraining />
      </PanelOnly>
    </Panel>
  );
}
