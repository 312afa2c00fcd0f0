/**
 * Panel 2 — sparsity: how peaked the rows are (normalized entropy histogram and top-k mass for
 * softmax, the current linear map and 1 + elu), how that evolves with n, how the reference
 * implementation's ε flattens the Performer's Â at large norms (entropy vs s, with and without ε:
 * drawn here only where the error panel, which draws it beside the error vs s, is not on the page),
 * and Su's local-truncation experiment.
 */
import type { AttentionParams } from '../core/types';
import { useStrings } from '../ui/strings';
import { fmtInt } from '../charts/format';
import { allY, measuredLogDomain } from '../charts/line-scales';
import { Histogram } from '../charts/Histogram';
import { type Series } from '../charts/LineChart';
import { EXACT_COLOR, MAP_COLORS, MAP_DASH } from '../charts/palette';
import {
  DENSE_ANALYSIS_MAX_N,
  entropyVsNRequest,
  localTruncationRequest,
  normSweepRequest,
  rowEntropiesRequest,
} from '../store/analyses';
import { mean } from '../core/sweeps';
import { AnalysisFigure } from './AnalysisFigure';
import { Metric, Panel, withDeferredParams } from './common';
import { AnalysisStatus, useAnalysisRequest } from '../ui/analysis';
import { StabilizerElsewhere, StabilizerFigure, useErrorPanelOnPage } from './StabilizerFigure';
import { topKSeries } from '../ui/top-k-series';
import { AnalysisSlot } from '../ui/PendingFigure';
import { FigureOnly, PanelOnly, useFigureFocus, useShowsFigure } from '../ui/figure-focus';

const TOP_K_SHOWN = 8;

/** Held until the first values (px at the defaults, shipped fonts): the numbers' row; the stabilizer figure. */
const SPARSITY_METRICS_HEIGHT = 47;
const STABILIZER_HEIGHT = 348;

export const SparsityPanel = withDeferredParams('SparsityPanel', SparsityPanelBody);

function SparsityPanelBody({ params }: { params: AttentionParams }) {
  const t = useStrings();
  const s = t.sparsity;
  const mapName = t.names.maps[params.featureMap];
  const perfColor = MAP_COLORS[params.featureMap];

  // a one-figure embed asks only for its figure's analysis
  const shows = useShowsFigure();
  const wholePanel = useFigureFocus() === null;
  const rowsA = useAnalysisRequest(rowEntropiesRequest(params), shows('entropy-histogram') || shows('top-k-mass'));
  const nA = useAnalysisRequest(entropyVsNRequest(params), shows('entropy-vs-n'));
  const denseOk = params.n <= DENSE_ANALYSIS_MAX_N;
  const localA = useAnalysisRequest(localTruncationRequest(params), denseOk && shows('local-truncation'));
  // the same norm sweep as the error panel's (one request key, one run), drawn here only without that panel
  const stabilizerHere = !useErrorPanelOnPage() && wholePanel;
  const normA = useAnalysisRequest(normSweepRequest(params), stabilizerHere);

  const rv = rowsA.value;
  // zoom the entropy axis onto the data (at small norm scales every row sits just below 1)
  const histLo = rv
    ? Math.max(0, Math.min(0.95, Math.floor(Math.min(...rv.exact, ...rv.performer, ...rv.elu1) * 20) / 20))
    : 0;
  const rvMap = rv ? t.names.maps[rv.map] : mapName;
  const topIdx = rv ? rv.topK.k.findIndex((k) => k >= TOP_K_SHOWN) : -1;

  const topSeries: Series[] = rv ? topKSeries(rv, t) : [];

  const nv = nA.value;
  const nLo = nv ? Math.max(0, Math.floor(Math.min(...nv.exact, ...nv.performer, ...nv.elu1) * 20) / 20 - 0.05) : 0;
  const nSeries: Series[] = nv
    ? [
        { id: 'exact', label: s.exact, color: EXACT_COLOR, x: nv.nGrid, y: nv.exact, points: true },
        {
          id: 'perf',
          label: s.perf(t.names.maps[nv.map]),
          color: MAP_COLORS[nv.map],
          dash: MAP_DASH[nv.map] ?? '5 3',
          x: nv.nGrid,
          y: nv.performer,
          points: true,
        },
        { id: 'elu', label: s.elu, color: MAP_COLORS.elu1, dash: MAP_DASH.elu1, x: nv.nGrid, y: nv.elu1, points: true },
      ]
    : [];

  const lv = localA.value;
  const keysIn = (w: number) => (params.causal ? w + 1 : 2 * w + 1);
  const lvMap = lv ? t.names.maps[lv.map] : mapName;
  const localX = lv ? lv.windows.map((w) => Math.min(keysIn(w), lv.n)) : [];
  const localSeries: Series[] = lv
    ? [
        {
          id: 'approx',
          label: s.truncApprox(lvMap),
          color: MAP_COLORS[lv.map],
          x: localX,
          y: lv.errorApprox,
          points: true,
        },
        { id: 'out', label: s.truncOut(lvMap), color: MAP_COLORS[lv.map], dash: '5 3', x: localX, y: lv.errorOut },
        { id: 'exact', label: s.truncExact, color: EXACT_COLOR, dash: '2 3', x: localX, y: lv.errorExact },
        ...(lv.map === 'elu1'
          ? []
          : [
              {
                id: 'elu',
                label: s.truncApprox(t.names.maps.elu1),
                color: MAP_COLORS.elu1,
                dash: MAP_DASH.elu1,
                x: localX,
                y: lv.errorElu1,
                points: true,
              },
            ]),
      ]
    : [];

  return (
    <Panel id="sparsity" title={s.title} lead={s.lead} formula={s.formula}>
      {rv && rv.map === 'trig' && <p className="note warn">{s.trigNote}</p>}
      <PanelOnly>
        <AnalysisSlot name="sparsity-metrics" analysis={rowsA} height={SPARSITY_METRICS_HEIGHT}>
          {(rv) => (
            <div className="metrics">
              <Metric
                name="sparsity-entropy-exact"
                label={t.metrics.entropyExact}
                hint={t.metrics.entropyHint}
                value={mean(rv.exact)}
              />
              <Metric
                name="sparsity-entropy-performer"
                label={t.metrics.entropyPerformerOf(rvMap)}
                hint={t.metrics.entropyHint}
                value={mean(rv.performer)}
              />
              <Metric name="entropy-elu1" label={s.entropyElu} hint={t.metrics.entropyHint} value={mean(rv.elu1)} />
              {topIdx >= 0 && (
                <>
                  <Metric
                    name="top8-exact"
                    label={s.topMass(rv.topK.k[topIdx]!, s.exact)}
                    value={rv.topK.exact[topIdx]}
                  />
                  <Metric
                    name="top8-performer"
                    label={s.topMass(rv.topK.k[topIdx]!, rvMap)}
                    value={rv.topK.performer[topIdx]}
                  />
                </>
              )}
            </div>
          )}
        </AnalysisSlot>
      </PanelOnly>
      <div className="grid-2">
        <div className="sub">
          <AnalysisFigure
            title={s.histTitle}
            name="entropy-histogram"
            pendingHeight={328}
            analysis={rowsA}
            after={(v) => (
              <p className="note">
                {s.histNote(v.rows.length, v.n)}
                {histLo > 0 ? ` ${s.histZoom(histLo)}` : ''}
              </p>
            )}
          >
            {(v) => (
              <Histogram
                labels={t.charts}
                series={[
                  { id: 'exact', label: s.exact, color: EXACT_COLOR, values: v.exact },
                  {
                    id: 'perf',
                    label: s.perf(rvMap),
                    color: MAP_COLORS[v.map],
                    dash: MAP_DASH[v.map] ?? '5 3',
                    values: v.performer,
                  },
                  { id: 'elu', label: s.elu, color: MAP_COLORS.elu1, dash: MAP_DASH.elu1, values: v.elu1 },
                ]}
                domain={[histLo, 1]}
                bins={25}
                xLabel={s.xEntropy}
                yLabel={s.yShare}
                ariaLabel={s.histTitle}
                tableCaption={s.tableHist}
                dimmed={rowsA.stale}
              />
            )}
          </AnalysisFigure>
        </div>
        <div className="sub">
          <AnalysisFigure
            title={s.topTitle}
            name="top-k-mass"
            pendingHeight={305}
            analysis={rowsA}
            status={false}
            chart={() => ({
              series: topSeries,
              xLabel: s.xK,
              yLabel: s.yMass,
              xScale: 'log',
              yDomain: [0, 1],
              integerX: true,
              tableCaption: s.tableTop,
            })}
          />
        </div>
      </div>

      <AnalysisFigure
        title={s.nTitle}
        name="entropy-vs-n"
        pendingHeight={329}
        analysis={nA}
        chart={(v) => ({
          series: nSeries,
          xLabel: s.xN,
          yLabel: t.error.yEntropy,
          xScale: 'log',
          yDomain: [nLo, 1],
          integerX: true,
          tableCaption: s.tableN,
          markers: [{ x: params.n, label: `n = ${fmtInt(params.n)}` }],
          notes: [s.nNote(v.rows)],
        })}
      />

      {stabilizerHere ? (
        <>
          <h3>{t.stab.figureTitle}</h3>
          <AnalysisStatus req={normA.req} />
          <AnalysisSlot name="stabilizer-entropy" analysis={normA} height={STABILIZER_HEIGHT}>
            {(nv) => <StabilizerFigure nv={nv} scale={params.scale} stale={normA.stale} />}
          </AnalysisSlot>
        </>
      ) : (
        <PanelOnly>
          <StabilizerElsewhere />
        </PanelOnly>
      )}

      {!denseOk ? (
        <FigureOnly id="local-truncation">
          <h3>{s.localTitle}</h3>
          <p className="note">{s.localNote(lvMap)}</p>
          <p className="note warn" data-limit="local">
            {s.localLimit(fmtInt(DENSE_ANALYSIS_MAX_N))}
          </p>
        </FigureOnly>
      ) : (
        <AnalysisFigure
          title={s.localTitle}
          name="local-truncation"
          pendingHeight={329}
          analysis={localA}
          intro={<p className="note">{s.localNote(lvMap)}</p>}
          chart={(v) => ({
            series: localSeries,
            xLabel: s.xW,
            yLabel: s.yErrA,
            xScale: 'log',
            yScale: 'log',
            integerX: true,
            tableCaption: s.tableLocal,
            hLines: [{ y: v.errorApprox.at(-1)!, label: s.fullLine, color: perfColor }],
            markers: params.input === 'local' ? [{ x: Math.round(v.inputBand), label: '√n' }] : [],
            // padded like the error figures', so the lowest point does not sit on the axis
            yDomain: measuredLogDomain(allY(localSeries), []).domain,
            notes: [v.errorExact.at(-1) === 0 ? s.exactFull : null],
          })}
        />
      )}
    </Panel>
  );
}
