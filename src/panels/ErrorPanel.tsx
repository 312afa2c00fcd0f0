/**
 * Panel 1 — the approximation error: headline errors of the current computation, the error-vs-m
 * sweep over feature seeds (positive / hyperbolic / trig × orthogonal / iid) with the Lemma 2
 * theory, error and softmax entropy vs the q/k norm scale, error vs d, and the per-entry relative
 * error that shows trig features blowing up where exact entries are tiny.
 */
import { useState } from 'react';
import { useStrings } from '../app/strings';
import { fmt } from '../charts/format';
import { LineChart, type Series } from '../charts/LineChart';
import { MAP_COLORS } from '../charts/palette';
import {
  entryErrorsRequest,
  errorVsDRequest,
  errorVsMRequest,
  normSweepRequest,
  type EntryErrorsResult,
  type ErrorVsDResult,
  type ErrorVsMResult,
  type NormSweepResult,
} from '../store/analyses';
import { useStore } from '../store/react';
import { AnalysisStatus, Metric, Panel, useAnalysisRequest } from './common';
import { Figure } from './Figure';
import { useOtherStabilizerErrorSeries, useStabilizerEntropySeries } from './StabilizerFigure';

const THEORY_DASH = '2 3';

export function ErrorPanel() {
  const t = useStrings();
  const s = t.error;
  const params = useStore((st) => st.params);
  const result = useStore((st) => st.compute.result);
  const m = result?.metrics;

  const sweep = useAnalysisRequest<ErrorVsMResult>(errorVsMRequest(params));
  const norm = useAnalysisRequest<NormSweepResult>(normSweepRequest(params));
  const dDep = useAnalysisRequest<ErrorVsDResult>(errorVsDRequest(params));
  const blow = useAnalysisRequest<EntryErrorsResult>(entryErrorsRequest(params));

  const [show, setShow] = useState<'both' | 'orthogonal-chi' | 'iid'>('both');
  const sweepSeries: Series[] = [];
  const sv = sweep.value;
  if (sv) {
    for (const se of sv.series) {
      if (show !== 'both' && se.projection !== show) continue;
      sweepSeries.push({
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
      sweepSeries.push({ id: `theory-${th.map}`, label: s.theory(t.names.maps[th.map]), color: MAP_COLORS[th.map], dash: THEORY_DASH, width: 1.2, x: sv.mGrid, y: th.values });
    }
  }
  const current = result && ['positive', 'hyperbolic', 'trig'].includes(result.params.featureMap) && m?.relErrorA != null ? m.relErrorA : null;
  const posOrth = sv?.series.find((x) => x.map === 'positive' && x.projection === 'orthogonal-chi');

  const nv = norm.value;
  // the theory explodes at large s (an RMS dominated by rare draws): scale the axis to the measurements
  const normDomain = ((): [number, number] | undefined => {
    if (!nv) return undefined;
    const vals = nv.error.flatMap((e) => [...e.lo, ...e.hi]).filter((x) => Number.isFinite(x) && x > 0);
    return vals.length ? [Math.min(...vals) / 1.5, Math.max(...vals) * 1.5] : undefined;
  })();
  const stabErrorSeries = useOtherStabilizerErrorSeries(nv, params.stabilizer);
  const normSeries: Series[] = nv
    ? [
        ...nv.error.map((e) => ({
          id: e.map,
          label: t.names.maps[e.map],
          color: MAP_COLORS[e.map],
          x: nv.scales,
          y: e.mean,
          band: { lo: e.lo, hi: e.hi },
          points: true,
        })),
        ...nv.theory
          .filter((th) => th.map === 'positive')
          .map((th) => ({ id: `theory-${th.map}`, label: s.theory(t.names.maps[th.map]), color: MAP_COLORS[th.map], dash: THEORY_DASH, width: 1.2, x: nv.scales, y: th.values })),
        ...stabErrorSeries,
      ]
    : [];
  // softmax, and positive Â with and without the reference ε: how a 1e-6 constant flattens Â
  const entropySeries = useStabilizerEntropySeries(nv);
  const lastScale = nv ? nv.scales.length - 1 : -1;

  const dv = dDep.value;
  const dSeries: Series[] = dv
    ? [
        { id: 'pos', label: t.names.maps.positive, color: MAP_COLORS.positive, x: dv.dGrid, y: dv.mean, band: { lo: dv.lo, hi: dv.hi }, points: true },
        { id: 'theory', label: s.theory(t.names.maps.positive), color: MAP_COLORS.positive, dash: THEORY_DASH, width: 1.2, x: dv.dGrid, y: dv.theory },
      ]
    : [];

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
      <div className="metrics">
        <Metric name="err-rel-error-A" label={t.metrics.relErrorA} hint={t.metrics.relErrorAHint} value={m?.relErrorA} />
        <Metric name="err-rel-error-out" label={t.metrics.relErrorOut} hint={t.metrics.relErrorOutHint} value={m?.relErrorOut} />
        <Metric name="err-mean-kl" label={t.metrics.meanKL} hint={t.metrics.meanKLHint} value={m?.meanKL} />
        {posOrth && sv && (
          <>
            <Metric name="sweep-error-first" label={`${t.names.maps.positive}, m = ${sv.mGrid[0]}`} value={posOrth.mean[0]} />
            <Metric name="sweep-error-last" label={`${t.names.maps.positive}, m = ${sv.mGrid.at(-1)}`} value={posOrth.mean.at(-1)} />
          </>
        )}
      </div>

      <h3>{s.sweepTitle}</h3>
      <AnalysisStatus req={sweep.req} entry={sweep.entry} />
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
      {sv && (
        <Figure name="error-vs-m" title={s.sweepTitle}>
        <LineChart
          labels={t.charts}
          series={sweepSeries}
          xLabel={s.xM}
          yLabel={s.yErr}
          xScale="log"
          yScale="log"
          ariaLabel={s.sweepTitle}
          tableCaption={s.tableSweep}
          markers={[{ x: params.m, label: `${s.current} m = ${params.m}` }]}
          dots={current !== null && result ? [{ x: result.params.m, y: current, label: s.current, color: MAP_COLORS[result.params.featureMap] }] : []}
          integerX
          height={300}
          dimmed={sweep.stale}
          notes={[s.sweepNote(sv.seeds, sv.rows, sv.n)]}
        />
        </Figure>
      )}

      <div className="grid-2">
        <div className="sub">
          <h3>{s.normTitle}</h3>
          <AnalysisStatus req={norm.req} entry={norm.entry} />
          {nv && (
            <>
              <div className="metrics">
                {nv.error.map((e) => (
                  <Metric key={e.map} name={`norm-error-${e.map}`} label={`${t.names.maps[e.map]}, s = ${nv.scales[lastScale]}`} value={e.mean[lastScale]} />
                ))}
              </div>
              <Figure name="error-vs-scale" title={s.normTitle}>
              <LineChart
                labels={t.charts}
                series={normSeries}
                xLabel={s.xScale}
                yLabel={s.yErr}
                yScale="log"
                yDomain={normDomain}
                ariaLabel={s.normTitle}
                tableCaption={s.tableNorm}
                markers={[{ x: params.scale, label: `s = ${params.scale}` }]}
                dimmed={norm.stale}
              />
              </Figure>
            </>
          )}
        </div>
        <div className="sub">
          <h3>{s.normEntropyTitle}</h3>
          {nv && (
            <Figure name="entropy-vs-scale" title={s.normEntropyTitle}>
            <LineChart
              labels={t.charts}
              series={entropySeries}
              xLabel={s.xScale}
              yLabel={s.yEntropy}
              ariaLabel={s.normEntropyTitle}
              tableCaption={s.tableEntropy}
              yDomain={[0, 1]}
              markers={[{ x: params.scale, label: `s = ${params.scale}` }]}
              dimmed={norm.stale}
            />
            </Figure>
          )}
          {nv && <p className="note">{s.normNote(nv.m, nv.seeds)}</p>}
          {nv && <p className="note" data-note="stabilizer">{t.stab.flattenNote}</p>}
        </div>
      </div>

      <div className="grid-2">
        <div className="sub">
          <h3>{s.dTitle}</h3>
          <AnalysisStatus req={dDep.req} entry={dDep.entry} />
          {dv && (
            <Figure name="error-vs-d" title={s.dTitle}>
            <LineChart
              labels={t.charts}
              series={dSeries}
              xLabel={s.xD}
              yLabel={s.yErr}
              xScale="log"
              yScale="log"
              integerX
              ariaLabel={s.dTitle}
              tableCaption={s.tableD}
              markers={[{ x: params.d, label: `d = ${params.d}` }]}
              dimmed={dDep.stale}
              notes={[s.dNote(params.scale, params.m)]}
            />
            </Figure>
          )}
        </div>
        <div className="sub">
          <h3>{s.blowTitle}</h3>
          <AnalysisStatus req={blow.req} entry={blow.entry} />
          {bv && (
            <Figure name="entry-error" title={s.blowTitle}>
            <LineChart
              labels={t.charts}
              series={blowSeries}
              xLabel={s.xEntry}
              yLabel={s.yRel}
              xScale="log"
              yScale="log"
              ariaLabel={s.blowTitle}
              tableCaption={s.tableBlow}
              dimmed={blow.stale}
              notes={[s.blowNote, s.blowSmallest(fmt(bv.trig.median.find((v) => Number.isFinite(v))), fmt(bv.positive.median.find((v) => Number.isFinite(v))))]}
            />
            </Figure>
          )}
        </div>
      </div>
    </Panel>
  );
}
