/**
 * The speed panel's "one Transformer layer" view: layer time vs n for exact / Performer / dummy
 * attention, the ratio to the dummy layer (→ 1 once attention stops mattering), and where the
 * time of the layer goes (projections, attention, feed-forward) at the largest common n.
 */
import { useStrings } from '../ui/strings';
import { fmt, fmtInt, fmtMs } from '../charts/format';
import { DataTable } from '../charts/DataTable';
import { LineChart, type Series } from '../charts/LineChart';
import { EXACT_COLOR, OKABE_ITO } from '../charts/palette';
import { LAYER_METHODS, type SpeedMethod, type SpeedPoint, type SpeedResult } from '../core/speed-model';
import { Metric } from './common';
import { Figure } from '../ui/Figure';
import { METHOD_STYLE, methodSeries, nAxis } from '../ui/speed/SpeedCharts';
import type { SpeedView } from '../ui/speed/speed-view';

const PART_KEYS = ['projections', 'attention', 'ffn'] as const;
const PART_COLORS = { projections: OKABE_ITO.sky, attention: OKABE_ITO.vermillion, ffn: OKABE_ITO.green };

function PartsBars({
  rows,
  label,
  partLabel,
}: {
  rows: SpeedPoint[];
  label: (m: SpeedMethod) => string;
  partLabel: (k: (typeof PART_KEYS)[number]) => string;
}) {
  const max = Math.max(...rows.map((p) => p.medianMs));
  const W = 560;
  const rowH = 26;
  const left = 200;
  const H = rows.length * rowH + 26;
  return (
    <svg
      viewBox={`0 0 ${W} ${H}`}
      width={W}
      height={H}
      role="img"
      aria-label={rows.map((p) => `${label(p.method)}: ${fmtMs(p.medianMs)}`).join('; ')}
      className="speed-parts"
    >
      {rows.map((p, i) => {
        let x = left;
        const y = i * rowH + 4;
        return (
          <g key={p.method}>
            <text x={left - 6} y={y + 14} textAnchor="end" fontSize="12" fill="currentColor">
              {label(p.method)}
            </text>
            {PART_KEYS.map((k) => {
              const w = ((p.parts?.[k] ?? 0) / max) * (W - left - 70);
              const r = <rect key={k} x={x} y={y} width={Math.max(0, w)} height={rowH - 8} fill={PART_COLORS[k]} />;
              x += w;
              return r;
            })}
            <text x={x + 4} y={y + 14} fontSize="12" fill="currentColor">
              {fmtMs(p.medianMs)}
            </text>
          </g>
        );
      })}
      {PART_KEYS.map((k, i) => (
        <g key={k} transform={`translate(${left + i * 170 - 150}, ${rows.length * rowH + 8})`}>
          <rect width="10" height="10" fill={PART_COLORS[k]} />
          <text x="14" y="9" fontSize="11" fill="currentColor">
            {partLabel(k)}
          </text>
        </g>
      ))}
    </svg>
  );
}

export function SpeedLayer({ result, view, dimmed }: { result: SpeedResult; view: SpeedView; dimmed: boolean }) {
  const t = useStrings();
  const s = t.speed;
  const label = (m: SpeedMethod) => s.methods[m] ?? m;
  const cfg = result.layerConfig;
  if (!cfg) return <p className="note">{s.notRun}</p>;
  const layerN = result.points.filter((p) => p.method.startsWith('layer-')).map((p) => p.n);
  const lm = view.layerModel;
  const axis = nAxis(s.xN, Math.max(lm?.top ?? 0, ...layerN));
  // the dotted model curves, of time (ms) or of the ratio to the dummy layer
  const modelSeries = (y: 'ms' | 'ratio'): Series[] => {
    if (!lm) return [];
    const kinds = [
      { kind: 'exact', label: s.modelLayerExact, color: EXACT_COLOR, on: lm.model.cExact > 0 },
      { kind: 'performer', label: s.modelLayerPerformer, color: METHOD_STYLE['layer-performer'].color, on: true },
    ] as const;
    return kinds
      .filter((k) => k.on)
      .map((k) => ({
        id: `model-${y}-${k.kind}`,
        label: k.label,
        color: k.color,
        dash: '1 4',
        width: 1.4,
        quiet: true,
        x: lm.curves[k.kind].x,
        y: lm.curves[k.kind][y],
      }));
  };
  const halfN = lm?.model.exactHalfN ?? null;
  const halfMarkers =
    halfN !== null && halfN <= (lm?.top ?? 0)
      ? [{ x: halfN, label: s.layerHalfMarker(fmtInt(halfN)), color: EXACT_COLOR }]
      : [];
  const ratioSeries: Series[] = [
    { id: 'ratio-exact', label: s.methods['layer-exact']!, color: EXACT_COLOR, points: true, ...view.layerRatio.exact },
    {
      id: 'ratio-performer',
      label: s.methods['layer-performer']!,
      color: METHOD_STYLE['layer-performer'].color,
      points: true,
      ...view.layerRatio.performer,
    },
  ].filter((x) => x.x.length > 0);
  // largest n measured by all three layers
  const common = view.by['layer-dummy']
    .map((p) => p.n)
    .filter((n) => LAYER_METHODS.every((m) => view.by[m].some((p) => p.n === n)));
  const nTop = common.length ? Math.max(...common) : null;
  const partRows =
    nTop === null ? [] : LAYER_METHODS.map((m) => view.by[m].find((p) => p.n === nTop)!).filter((p) => p.parts);
  const hasParts = partRows.length > 0 && partRows.some((p) => (p.parts?.attention ?? 0) + (p.parts?.ffn ?? 0) > 0);
  // each ratio at the largest n its layer shares with the dummy layer, with that n in the label
  const lastOf = (r: { x: number[]; y: number[] }) =>
    r.x.length ? { n: r.x[r.x.length - 1]!, v: r.y[r.y.length - 1]! } : null;
  const perfLast = lastOf(view.layerRatio.performer);
  const exactLast = lastOf(view.layerRatio.exact);
  return (
    <div className="speed-layer" data-speed-layer="">
      <h3>{s.layerTitle}</h3>
      <p className="lead">{s.layerLead(cfg.dModel, cfg.heads, cfg.dFf)}</p>
      {result.backend === 'cpu' && <p className="note">{s.layerCpu(cfg.dModel, cfg.heads, cfg.dFf)}</p>}
      <div className="metrics">
        <Metric
          name="speed-layer-performer-vs-dummy"
          label={s.layerPerformerMetric(perfLast ? fmtInt(perfLast.n) : '—')}
          value={perfLast?.v ?? null}
          format={(v) => `${fmt(v)}×`}
        />
        <Metric
          name="speed-layer-exact-vs-dummy"
          label={s.layerExactMetric(exactLast ? fmtInt(exactLast.n) : '—')}
          value={exactLast?.v ?? null}
          format={(v) => `${fmt(v)}×`}
        />
        <Metric name="speed-layer-half-n" label={s.layerHalfMetric} value={halfN} format={(v) => `≈ ${fmtInt(v)}`} />
      </div>
      <div className="grid-2">
        <div className="sub">
          <h4>{s.layerTimeTitle}</h4>
          <Figure name="speed-layer-time" title={s.layerTimeTitle}>
            <LineChart
              labels={t.charts}
              series={[...methodSeries(LAYER_METHODS, view.by, label, (p) => p.medianMs), ...modelSeries('ms')]}
              markers={halfMarkers}
              notes={lm ? [s.layerModelNote] : []}
              {...axis}
              yLabel={s.yMs}
              yScale="log"
              ariaLabel={s.layerTimeTitle}
              tableCaption={s.tableLayer}
              height={280}
              dimmed={dimmed}
            />
          </Figure>
        </div>
        <div className="sub">
          <h4>{s.layerRatioTitle}</h4>
          <Figure name="speed-layer-ratio" title={s.layerRatioTitle}>
            <LineChart
              labels={t.charts}
              series={[...ratioSeries, ...modelSeries('ratio')]}
              markers={halfMarkers}
              {...axis}
              yLabel={s.yRatio}
              yScale="log"
              hLines={[{ y: 1, label: s.methods['layer-dummy']! }]}
              ariaLabel={s.layerRatioTitle}
              tableCaption={s.tableRatio}
              height={280}
              dimmed={dimmed}
            />
          </Figure>
        </div>
      </div>
      {nTop !== null && (
        <>
          <h4>
            {s.partsTitle} — n = {fmtInt(nTop)}
          </h4>
          {hasParts ? (
            <Figure name="speed-layer-parts" title={`${s.partsTitle} — n = ${nTop}`}>
              <PartsBars rows={partRows} label={label} partLabel={(k) => s.parts[k]} />
              <DataTable
                caption={s.partsTable}
                labels={t.charts}
                columns={[t.charts.series, s.component, s.yMs]}
                rows={() =>
                  partRows.flatMap((p) => PART_KEYS.map((k) => [label(p.method), s.parts[k], p.parts?.[k] ?? null]))
                }
              />
            </Figure>
          ) : (
            <p className="note">{s.partsNone}</p>
          )}
        </>
      )}
    </div>
  );
}
