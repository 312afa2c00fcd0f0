/**
 * Panel 1 — the approximation error: headline errors of the current computation, the error-vs-m
 * sweep over feature seeds (positive / hyperbolic / trig × orthogonal / iid) with the Lemma 2
 * theory, error and softmax entropy vs the q/k norm scale, error vs d, and the per-entry relative
 * error that shows trig features blowing up where exact entries are tiny.
 */
import type { AttentionParams } from '../core/types';
import { useDeferredValue, useState } from 'react';
import { useStrings } from '../ui/strings';
import { MAP_INFO } from '../core/estimators';
import { fmtText } from '../charts/format';
import { type Series } from '../charts/LineChart';
import { MAP_COLORS } from '../charts/palette';
import { saturatedSweep } from './error-saturation';
import { allY, extent, measuredLogDomain } from '../charts/line-scales';
import { entryErrorsRequest, errorVsDRequest, errorVsMRequest, normSweepRequest } from '../store/analyses';
import { useStore } from '../store/react';
import { AnalysisFigure } from './AnalysisFigure';
import { Metric, Panel, withDeferredParams } from './common';
import { useResultOfOtherParams } from './result-of-other-params';
import { useAnalysisRequest } from '../ui/analysis';
import { PanelOnly, useShowsFigure } from '../ui/figure-focus';
import { useOtherStabilizerErrorSeries, useStabilizerEntropySeries } from './StabilizerFigure';

const THEORY_DASH = '2 3';

export const ErrorPanel = withDeferredParams('ErrorPanel', ErrorPanelBody);

function ErrorPanelBody({ params }: { params: AttentionParams }) {
  const t = useStrings();
  const s = t.error;
  const result = useDeferredValue(useStore((st) => st.compute.result));
  const m = result?.metrics;
  const otherParams = useResultOfOtherParams();
  // uploaded Q, K fix the norm scale: a saturated sweep cannot be cured by lowering s there
  const canLowerS = useStore((st) => st.upload.active === null);

  // a one-figure embed asks only for its figure's analysis
  const shows = useShowsFigure();
  const sweep = useAnalysisRequest(errorVsMRequest(params), shows('error-vs-m'));
  const norm = useAnalysisRequest(normSweepRequest(params), shows('error-vs-scale') || shows('entropy-vs-scale'));
  const dDep = useAnalysisRequest(errorVsDRequest(params), shows('error-vs-d'));
  const blow = useAnalysisRequest(entryErrorsRequest(params), shows('entry-error'));

  const [show, setShow] = useState<'both' | 'orthogonal-chi' | 'iid'>('both');
  // measured runs and Lemma 2's curves apart: the runs set the axis (the theory is an RMS over draws that
  // can sit decades above every run), the theory is only drawn
  const sweepRuns: Series[] = [];
  const sweepTheory: Series[] = [];
  const sv = sweep.value;
  if (sv) {
    for (const se of sv.series) {
      if (show !== 'both' && se.projection !== show) continue;
      sweepRuns.push({
        id: `${se.map}-${se.projection}`,
        label: s.series(t.names.maps[se.map], t.names.projections[se.projection]),
        color: MAP_COLORS[se.map],
        dash: se.projection === 'iid' ? '6 3' : undefined,
        x: sv.mGrid,
        y: se.mean,
        band: { lo: se.lo, hi: se.hi },
        points: true,
      });
    }
    for (const th of sv.theory) {
      sweepTheory.push({
        id: `theory-${th.map}`,
        label: s.theory(t.names.maps[th.map]),
        color: MAP_COLORS[th.map],
        dash: THEORY_DASH,
        width: 1.2,
        x: sv.mGrid,
        y: th.values,
      });
    }
  }
  const current = result && MAP_INFO[result.params.featureMap].sweeps && m?.relErrorA != null ? m.relErrorA : null;
  const posOrth = sv?.series.find((x) => x.map === 'positive' && x.projection === 'orthogonal-chi');
  const sweepY = measuredLogDomain(allY(sweepRuns), sweepTheory);
  const sweepSaturated = posOrth && saturatedSweep(posOrth.mean) ? extent(posOrth.mean, false) : null;

  const nv = norm.value;
  const stabErrorSeries = useOtherStabilizerErrorSeries(nv, params.stabilizer);
  const normErrors: Series[] = nv
    ? nv.error.map((e) => ({
        id: e.map,
        label: t.names.maps[e.map],
        color: MAP_COLORS[e.map],
        x: nv.scales,
        y: e.mean,
        band: { lo: e.lo, hi: e.hi },
        points: true,
      }))
    : [];
  const normTheory: Series[] = nv
    ? nv.theory
        .filter((th) => th.map === 'positive')
        .map((th) => ({
          id: `theory-${th.map}`,
          label: s.theory(t.names.maps[th.map]),
          color: MAP_COLORS[th.map],
          dash: THEORY_DASH,
          width: 1.2,
          x: nv.scales,
          y: th.values,
        }))
    : [];
  // the theory explodes at large s (an RMS dominated by rare draws): the runs set the axis
  const normY = measuredLogDomain(allY([...normErrors, ...stabErrorSeries]), normTheory);
  // softmax, and positive Â with and without the reference ε: how a 1e-6 constant flattens Â
  const entropySeries = useStabilizerEntropySeries(nv);
  const lastScale = nv ? nv.scales.length - 1 : -1;

  const dv = dDep.value;
  const dRuns: Series[] = dv
    ? [
        {
          id: 'pos',
          label: t.names.maps.positive,
          color: MAP_COLORS.positive,
          x: dv.dGrid,
          y: dv.mean,
          band: { lo: dv.lo, hi: dv.hi },
          points: true,
        },
      ]
    : [];
  const dTheory: Series[] = dv
    ? [
        {
          id: 'theory',
          label: s.theory(t.names.maps.positive),
          color: MAP_COLORS.positive,
          dash: THEORY_DASH,
          width: 1.2,
          x: dv.dGrid,
          y: dv.theory,
        },
      ]
    : [];
  const dY = measuredLogDomain(allY(dRuns), dTheory);
  // the first d measured (a sweep's first points can be non-finite only if every draw failed)
  const dFirst = dv ? dv.mean.findIndex((x) => Number.isFinite(x)) : -1;
  const dSaturated =
    dv && saturatedSweep(dv.mean) ? { error: dv.mean[dFirst]!, d: dv.dGrid[dFirst]!, scale: dv.scale } : null;

  const bv = blow.value;
  const blowSeries: Series[] = bv
    ? (['positive', 'trig'] as const).map((k) => ({
        id: k,
        label: t.names.maps[k],
        color: MAP_COLORS[k],
        dash: k === 'trig' ? '2 2' : undefined,
        x: bv.centers,
        y: bv[k].median,
        band: { lo: bv[k].q10, hi: bv[k].q90 },
        points: true,
      }))
    : [];

  return (
    <Panel id="error" title={s.title} lead={s.lead} formula={s.formula} formulaNote={s.formulaNote}>
      <PanelOnly>
        <div className="metrics">
          {(
            [
              ['err-rel-error-A', t.metrics.relErrorA, t.metrics.relErrorAHint, m?.relErrorA],
              ['err-rel-error-out', t.metrics.relErrorOut, t.metrics.relErrorOutHint, m?.relErrorOut],
              ['err-mean-kl', t.metrics.meanKL, t.metrics.meanKLHint, m?.meanKL],
            ] as const
          ).map(([name, label, hint, value]) => (
            <Metric
              key={name}
              name={name}
              label={label}
              hint={hint}
              value={value}
              dimmed={otherParams?.kind === 'other'}
            />
          ))}
          {posOrth && sv && (
            <>
              <Metric
                name="sweep-error-first"
                label={`${t.names.maps.positive}, m = ${sv.mGrid[0]}`}
                value={posOrth.mean[0]}
              />
              <Metric
                name="sweep-error-last"
                label={`${t.names.maps.positive}, m = ${sv.mGrid.at(-1)}`}
                value={posOrth.mean.at(-1)}
              />
            </>
          )}
          {otherParams && (
            <p className="result-note note" data-result-note={otherParams.kind}>
              {otherParams.note}
            </p>
          )}
        </div>
      </PanelOnly>

      <AnalysisFigure
        title={s.sweepTitle}
        name="error-vs-m"
        pendingHeight={550}
        analysis={sweep}
        before={() => (
          <div className="inline-control">
            <span>{s.show}</span>
            <div className="segmented" role="group" aria-label={s.show}>
              {(
                [
                  ['both', s.showBoth],
                  ['orthogonal-chi', s.showOrth],
                  ['iid', s.showIid],
                ] as const
              ).map(([k, label]) => (
                <button key={k} type="button" aria-pressed={show === k} onClick={() => setShow(k)}>
                  {label}
                </button>
              ))}
            </div>
          </div>
        )}
        chart={(v) => ({
          series: [...sweepRuns, ...sweepTheory],
          xLabel: s.xM,
          yLabel: s.yErr,
          xScale: 'log',
          yScale: 'log',
          tableCaption: s.tableSweep,
          markers: [{ x: params.m, label: `${s.current} m = ${params.m}` }],
          dots:
            current !== null && result
              ? [{ x: result.params.m, y: current, label: s.current, color: MAP_COLORS[result.params.featureMap] }]
              : [],
          integerX: true,
          height: 300,
          yDomain: sweepY.domain,
          notes: [
            s.sweepNote(v.seeds, v.rows, v.n),
            sweepY.off.length ? s.guidesOff(sweepY.off) : null,
            sweepSaturated
              ? s.saturatedM(v.scale, fmtText(sweepSaturated[0]), fmtText(sweepSaturated[1]), canLowerS)
              : null,
          ],
        })}
      />

      <div className="grid-2">
        <div className="sub">
          <AnalysisFigure
            title={s.normTitle}
            name="error-vs-scale"
            pendingHeight={403}
            analysis={norm}
            before={(v) => (
              <div className="metrics">
                {v.error.map((e) => (
                  <Metric
                    key={e.map}
                    name={`norm-error-${e.map}`}
                    label={`${t.names.maps[e.map]}, s = ${v.scales[lastScale]}`}
                    value={e.mean[lastScale]}
                  />
                ))}
              </div>
            )}
            chart={() => ({
              series: [...normErrors, ...normTheory, ...stabErrorSeries],
              xLabel: s.xScale,
              yLabel: s.yErr,
              yScale: 'log',
              yDomain: normY.domain,
              tableCaption: s.tableNorm,
              markers: [{ x: params.scale, label: `s = ${params.scale}` }],
              notes: [normY.off.length ? s.guidesOff(normY.off) : null],
            })}
          />
        </div>
        <div className="sub">
          <AnalysisFigure
            title={s.normEntropyTitle}
            name="entropy-vs-scale"
            pendingHeight={488}
            analysis={norm}
            status={false}
            chart={() => ({
              series: entropySeries,
              xLabel: s.xScale,
              yLabel: s.yEntropy,
              tableCaption: s.tableEntropy,
              yDomain: [0, 1],
              markers: [{ x: params.scale, label: `s = ${params.scale}` }],
            })}
            after={(v) => (
              <>
                <p className="note">{s.normNote(v.m, v.seeds)}</p>
                <p className="note" data-note="stabilizer">
                  {t.stab.flattenNote}
                </p>
              </>
            )}
          />
        </div>
      </div>

      <div className="grid-2">
        <div className="sub">
          <AnalysisFigure
            title={s.dTitle}
            name="error-vs-d"
            pendingHeight={434}
            analysis={dDep}
            chart={() => ({
              series: [...dRuns, ...dTheory],
              xLabel: s.xD,
              yLabel: s.yErr,
              xScale: 'log',
              yScale: 'log',
              integerX: true,
              tableCaption: s.tableD,
              markers: [{ x: params.d, label: `d = ${params.d}` }],
              yDomain: dY.domain,
              notes: [
                s.dNote(params.scale, params.m),
                dY.off.length ? s.guidesOff(dY.off) : null,
                dSaturated ? s.saturatedD(dSaturated.scale, fmtText(dSaturated.error), dSaturated.d, canLowerS) : null,
              ],
            })}
          />
        </div>
        <div className="sub">
          <AnalysisFigure
            title={s.blowTitle}
            name="entry-error"
            pendingHeight={391}
            analysis={blow}
            chart={(v) => ({
              series: blowSeries,
              xLabel: s.xEntry,
              yLabel: s.yRel,
              xScale: 'log',
              yScale: 'log',
              tableCaption: s.tableBlow,
              notes: [
                s.blowNote,
                s.blowSmallest(
                  fmtText(v.trig.median.find((x) => Number.isFinite(x))),
                  fmtText(v.positive.median.find((x) => Number.isFinite(x))),
                ),
              ],
            })}
          />
        </div>
      </div>
    </Panel>
  );
}
