/**
 * Panel "Beyond the Performer": every estimator of core/estimators.ts `estimatorSet` on the same
 * inputs — error of A vs feature dimension m′ and vs norm scale s (analysis worker, CPU twins), and
 * error vs the measured time of its kernels on the live backend at the current n (engine worker).
 * The estimator list, families and citations come from the exhaustive metadata tables, so a new
 * feature map or projection appears here without changes to this file.
 */
import type { AttentionParams } from '../core/types';
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useStrings } from '../ui/strings';
import {
  estimatorDim,
  estimatorSet,
  MAP_INFO,
  PROJECTION_INFO,
  type CitationKey,
  type EstimatorSpec,
} from '../core/estimators';
import { fmtMs } from '../charts/format';
import { type Series } from '../charts/LineChart';
import { estimatorMark, MAP_DASH } from '../charts/palette';
import { SymbolSwatch } from '../charts/SymbolSwatch';
import {
  beyondSweepsRequest,
  estimatorTimingRequest,
  ROW_STATS_MAX_N,
  type BeyondSeries,
  type EstimatorTimingResult,
} from '../store/analyses';
import { useStore } from '../store/react';
import { AnalysisFigure } from './AnalysisFigure';
import { CITED, REFERENCES } from '../i18n/references';
import { Metric, Panel, withDeferredParams } from './common';
import { useAnalysisRequest } from '../ui/analysis';
import { PanelOnly, useFigureFocus, useShowsFigure } from '../ui/figure-focus';
import { Formula } from '../ui/Formula';
import { AnalysisSlot } from '../ui/PendingFigure';

/** Dash of a projection variant (the maps themselves keep their own dash). */
const VARIANT_DASH = ['5 2', '1 2', '9 3', '3 3 1 3'];

/** Errors above this are drawn off the chart (and named in a note) so that a failing estimator does not flatten the others. */
const ERROR_CAP = 50;

/** The estimators' numbers, held until the first sweep (px at the defaults, shipped fonts: three rows). */
const BEYOND_METRICS_HEIGHT = 155;

/** Log y-domain over the series' values (bands included) up to ERROR_CAP, and the series whose mean leaves it. */
function errorDomain(series: Series[]): { domain: [number, number] | undefined; off: string[] } {
  const vals = series
    .flatMap((x) => [...Array.from(x.y), ...(x.band ? [...Array.from(x.band.lo), ...Array.from(x.band.hi)] : [])])
    .filter((v) => Number.isFinite(v) && v > 0);
  if (!vals.length) return { domain: undefined, off: [] };
  const lo = Math.min(...vals) / 1.5;
  const hi = Math.min(Math.max(...vals) * 1.5, ERROR_CAP);
  const off = series.filter((x) => Array.from(x.y).some((v) => !(v <= ERROR_CAP))).map((x) => x.label);
  return { domain: [Math.min(lo, hi / 10), hi], off };
}

/** The works cited by an estimator set, in order of first use (numbered [1], [2], … in the table). */
function citationsOf(set: EstimatorSpec[]): CitationKey[] {
  const keys: CitationKey[] = [];
  for (const e of set) {
    const k = e.id === e.map ? MAP_INFO[e.map].cite : PROJECTION_INFO[e.projection!].cite;
    if (!keys.includes(k)) keys.push(k);
  }
  return keys;
}

/**
 * True from the first time the element comes near the viewport (300 px) or any part of its panel is on
 * screen. The panel's sweeps and its timing runs (which share the backend with the live view) start
 * only then, not at page load. The panel too: a scroll that lands inside the panel with the element
 * above the viewport (a jump computed against off-screen panels' height guesses) still starts them.
 */
function useSeen<T extends Element>(): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [seen, setSeen] = useState(typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const el = ref.current;
    if (seen || !el) return;
    const onEntries = (entries: IntersectionObserverEntry[]) => {
      if (entries.some((e) => e.isIntersecting)) setSeen(true);
    };
    const near = new IntersectionObserver(onEntries, { rootMargin: '300px' });
    near.observe(el);
    const onScreen = new IntersectionObserver(onEntries);
    onScreen.observe(el.closest('.panel') ?? el);
    return () => {
      near.disconnect();
      onScreen.disconnect();
    };
  }, [seen]);
  return [ref, seen];
}

export const BeyondPanel = withDeferredParams('BeyondPanel', BeyondPanelBody);

function BeyondPanelBody({ params }: { params: AttentionParams }) {
  const t = useStrings();
  const s = t.beyond;
  const backend = useStore((st) => st.backend.info);
  const set = useMemo(() => estimatorSet(params.projection, params.d), [params.projection, params.d]);
  const cites = citationsOf(set);

  const [ref, seen] = useSeen<HTMLHeadingElement>();
  // a one-figure embed (no table to watch: its figure is all there is) asks only for that figure's analysis
  const shows = useShowsFigure();
  const focus = useFigureFocus();
  const go = seen || focus !== null;
  const sweeps = useAnalysisRequest(
    beyondSweepsRequest(params),
    go && (shows('beyond-error-vs-dim') || shows('beyond-error-vs-scale')),
  );
  const backendKey = !backend ? 'pending' : backend.kind === 'webgpu' ? `webgpu:${backend.adapter}` : 'cpu';
  const timing = useAnalysisRequest(
    estimatorTimingRequest(params, backendKey),
    go && backend !== null && shows('beyond-error-vs-time'),
  );

  const variants = set.filter((e) => e.id !== e.map);
  const name = (e: EstimatorSpec) =>
    e.id === e.map ? t.names.maps[e.map] : s.variant(t.names.maps[e.map], t.names.projections[e.projection!]);
  const dash = (e: EstimatorSpec) =>
    e.id === e.map ? MAP_DASH[e.map] : VARIANT_DASH[variants.indexOf(e) % VARIANT_DASH.length];
  const style = (e: EstimatorSpec) => ({ id: e.id, label: name(e), ...estimatorMark(e), dash: dash(e) });
  const band = (e: BeyondSeries, sp: { lo: number[]; hi: number[] }) =>
    e.family === 'random' ? { lo: sp.lo, hi: sp.hi } : undefined;

  const sv = sweeps.value;
  const dimSeries: Series[] = sv
    ? sv.estimators.map((e) => ({
        ...style(e),
        x: e.dims,
        y: e.error.mean,
        band: band(e, e.error),
        points: true,
        noLine: e.dims.length === 1,
      }))
    : [];
  const scaleSeries: Series[] = sv
    ? sv.estimators.map((e) => ({ ...style(e), x: sv.scales, y: e.norm.mean, band: band(e, e.norm), points: true }))
    : [];
  const best = sv
    ? sv.estimators.reduce<BeyondSeries | null>(
        (b, e) => (Number.isFinite(e.current.mean) && (!b || e.current.mean < b.current.mean) ? e : b),
        null,
      )
    : null;

  const tv = timing.value;
  const timeSeries: Series[] = tv
    ? tv.estimators.map((e) => ({
        ...style(e),
        x: [e.ms],
        y: [e.relErrorA ?? e.relErrorOut],
        points: true,
        noLine: true,
      }))
    : [];
  const fastest = tv ? Math.min(...tv.estimators.map((e) => e.ms)) : null;
  const dimY = errorDomain(dimSeries);
  const scaleY = errorDomain(scaleSeries);
  const timeY = errorDomain(timeSeries);
  const timeX: [number, number] | undefined = tv
    ? [Math.max(1e-3, (fastest ?? 1) / 2), Math.max(tv.exactMs, ...tv.estimators.map((e) => e.ms)) * 2.5]
    : undefined;

  return (
    <Panel id="beyond" title={s.title} lead={s.lead}>
      <PanelOnly>
        <p className="note" data-beyond-learned="">
          {s.learnedNote}
        </p>
        <h3 ref={ref}>{s.mapsTitle}</h3>
        {/* a narrow column (a phone, a blog's iframe) stacks each row: name, kind, m′ and source on a line,
            the formula under them at full width (styles.css, a container query); the explicit roles keep
            the table a table to assistive technology when its parts are displayed as blocks */}
        <div className="table-wide estimators-wide">
          <table className="beyond-maps" data-estimators={set.length} role="table">
            <thead role="rowgroup">
              <tr role="row">
                {[s.colMap, s.colKind, s.colFormula, s.colDim, s.colSource].map((label) => (
                  <th key={label} scope="col" role="columnheader">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody role="rowgroup">
              {set.map((e) => {
                const cite = e.id === e.map ? MAP_INFO[e.map].cite : PROJECTION_INFO[e.projection!].cite;
                return (
                  <tr key={e.id} data-estimator={e.id} data-family={e.family} role="row">
                    <th scope="row" role="rowheader">
                      <SymbolSwatch {...estimatorMark(e)} /> {name(e)}
                    </th>
                    <td role="cell" className="est-kind">
                      {s.family[e.family]}
                    </td>
                    <td role="cell" className="est-formula">
                      {e.id === e.map ? (
                        <Formula inline tex={t.names.mapTex[e.map]} />
                      ) : (
                        s.projectionRow(t.names.projections[e.projection!])
                      )}
                    </td>
                    <td role="cell" className="est-dim" data-label={s.colDim}>
                      {estimatorDim(e, params.m, params.d)}
                    </td>
                    <td role="cell" className="est-source">
                      <a href={`#beyond-ref-${cite}`}>[{cites.indexOf(cite) + 1}]</a>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>

        <AnalysisSlot name="beyond-metrics" analysis={sweeps} height={BEYOND_METRICS_HEIGHT}>
          {(sv) => (
            <div className="metrics">
              {best && <Metric name="beyond-best-error" label={s.best(name(best), sv.m)} value={best.current.mean} />}
              {sv.estimators.map((e) => (
                <Metric
                  key={e.id}
                  name={`beyond-error-${e.id}`}
                  label={s.errorAt(name(e))}
                  value={Number.isFinite(e.current.mean) ? e.current.mean : null}
                />
              ))}
            </div>
          )}
        </AnalysisSlot>
      </PanelOnly>

      <div data-beyond-figure="dim">
        <AnalysisFigure
          title={s.dimTitle}
          name="beyond-error-vs-dim"
          pendingHeight={473}
          analysis={sweeps}
          chart={(v) => ({
            series: dimSeries,
            xLabel: s.xDim,
            yLabel: s.yErr,
            xScale: 'log',
            yScale: 'log',
            integerX: true,
            yDomain: dimY.domain,
            height: 320,
            tableCaption: s.tableDim,
            notes: [
              s.dimNote(v.seeds, v.rows, v.n),
              dimY.off.length ? s.offChart(dimY.off.join(', '), ERROR_CAP) : null,
            ],
          })}
        />
      </div>

      <div data-beyond-figure="scale">
        <AnalysisFigure
          title={s.scaleTitle}
          name="beyond-error-vs-scale"
          pendingHeight={473}
          analysis={sweeps}
          status={false}
          chart={(v) => ({
            series: scaleSeries,
            xLabel: s.xScale,
            yLabel: s.yErr,
            yScale: 'log',
            yDomain: scaleY.domain,
            height: 320,
            tableCaption: s.tableScale,
            markers: [{ x: params.scale, label: `s = ${params.scale}` }],
            notes: [
              s.scaleNote(v.m, v.normSeeds),
              scaleY.off.length ? s.offChart(scaleY.off.join(', '), ERROR_CAP) : null,
            ],
          })}
        />
      </div>

      <div data-beyond-figure="time">
        <AnalysisFigure
          title={s.timeTitle(params.n)}
          name="beyond-error-vs-time"
          pendingHeight={575}
          analysis={timing}
          before={(v) => <TimingMetrics v={v} name={(e) => name(e)} fastest={fastest} />}
          chart={(v) => ({
            series: timeSeries,
            xLabel: s.xTime,
            yLabel: s.yErrFull,
            xScale: 'log',
            yScale: 'log',
            xDomain: timeX,
            yDomain: timeY.domain,
            height: 320,
            tableCaption: s.tableTime,
            markers: [{ x: v.exactMs, label: s.exactLine(fmtMs(v.exactMs)) }],
            notes: [
              s.timeNote(
                v.backend.kind === 'webgpu' ? s.backendGpu(v.backend.adapter) : s.backendCpu,
                v.source === 'timestamp' ? s.sourceTimestamp : s.sourceWall,
                v.repeats,
              ),
              v.n > ROW_STATS_MAX_N ? s.noErrorA(ROW_STATS_MAX_N) : null,
              timeY.off.length ? s.offChart(timeY.off.join(', '), ERROR_CAP) : null,
            ],
          })}
        />
      </div>

      <PanelOnly>
        <h3>{s.refsHeading}</h3>
        <ol className="citations" data-beyond-refs="">
          {cites.map((k) => {
            const r = REFERENCES[CITED[k]];
            return (
              // bibliographic facts (authors, titles, venues) stay as published
              <li key={k} id={`beyond-ref-${k}`} data-cite={k} translate="no">
                <span>{r.who}</span>
                {r.title && (
                  <>
                    {', '}
                    <cite lang="en" translate="no">
                      “{r.title}”
                    </cite>
                  </>
                )}
                {', '}
                {r.venue}
                {', '}
                <a href={r.href}>{r.link ?? r.title}</a>
              </li>
            );
          })}
        </ol>
      </PanelOnly>
    </Panel>
  );
}

function TimingMetrics({
  v,
  name,
  fastest,
}: {
  v: EstimatorTimingResult;
  name: (e: EstimatorSpec) => string;
  fastest: number | null;
}) {
  const s = useStrings().beyond;
  return (
    <div className="metrics">
      <Metric name="beyond-fastest-ms" label={s.fastest} value={fastest} format={fmtMs} />
      {v.estimators.map((e) => (
        <Metric key={e.id} name={`beyond-time-${e.id}`} label={s.timeOf(name(e))} value={e.ms} format={fmtMs} />
      ))}
    </div>
  );
}
