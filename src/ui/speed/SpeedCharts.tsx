/**
 * The speed panel's attention figures: time vs n with the FLOP model and both crossovers marked,
 * bytes vs n, GFLOP/s vs n. Each is a <Figure> (PNG/SVG/CSV; the CSV is the chart's table: every
 * measured point of every method).
 */
import { useStrings } from '../strings';
import { fmtInt } from '../../charts/format';
import { LineChart, type LineChartProps, type Marker, type Series } from '../../charts/LineChart';
import { EXACT_COLOR, OKABE_ITO } from '../../charts/palette';
import {
  attentionFlops,
  predictedCrossover,
  sweepLengths,
  type SpeedMethod,
  type SpeedPoint,
  type SpeedResult,
} from '../../core/speed-model';
import { Figure } from '../Figure';
import type { SpeedView } from './speed-view';

export const METHOD_STYLE: Record<SpeedMethod, { color: string; dash?: string }> = {
  exact: { color: EXACT_COLOR },
  'performer-bidirectional': { color: OKABE_ITO.vermillion },
  'performer-causal': { color: OKABE_ITO.blue, dash: '6 3' },
  dummy: { color: OKABE_ITO.grey, dash: '2 3' },
  'layer-exact': { color: EXACT_COLOR },
  'layer-performer': { color: OKABE_ITO.vermillion },
  'layer-dummy': { color: OKABE_ITO.grey, dash: '2 3' },
};

export function methodSeries(
  methods: readonly SpeedMethod[],
  by: Record<SpeedMethod, SpeedPoint[]>,
  label: (m: SpeedMethod) => string,
  y: (p: SpeedPoint) => number | null,
): Series[] {
  return methods
    .map((m) => {
      const ps = by[m].filter((p) => {
        const v = y(p);
        return v !== null && v > 0;
      });
      return {
        id: m,
        label: label(m),
        ...METHOD_STYLE[m],
        points: true,
        x: ps.map((p) => p.n),
        y: ps.map((p) => y(p)!),
      };
    })
    .filter((s) => s.x.length > 0);
}

const ATT: SpeedMethod[] = ['exact', 'performer-bidirectional', 'performer-causal', 'dummy'];

/**
 * Time vs n (log-log) for the four attention methods, the FLOP model at the measured rates, and the
 * measured and FLOP-model crossovers: the blog's figure. Also the lecture's speed slide.
 */
export function SpeedTimeChart({
  result,
  view,
  dimmed,
  height,
  notes,
  model = true,
  fill,
}: {
  result: SpeedResult;
  view: SpeedView;
  dimmed: boolean;
  height: number;
  notes?: (string | null)[];
  /** draw the FLOP-model curves (the slide leaves them out: two fewer legend rows on a projector) */
  model?: boolean;
  /** fill the container's height (the lecture slide) */
  fill?: boolean;
}) {
  const t = useStrings();
  const s = t.speed;
  const label = (m: SpeedMethod) => s.methods[m] ?? m;
  const timeSeries: Series[] = [
    ...methodSeries(ATT, view.by, label, (p) => p.medianMs),
    ...(model && view.model.exact
      ? [
          {
            id: 'model-exact',
            label: s.modelExact,
            color: EXACT_COLOR,
            dash: '1 4',
            width: 1,
            quiet: true,
            ...view.model.exact,
          },
        ]
      : []),
    ...(model && view.model.bidir
      ? [
          {
            id: 'model-performer',
            label: s.modelPerformer,
            color: OKABE_ITO.vermillion,
            dash: '1 4',
            width: 1,
            quiet: true,
            ...view.model.bidir,
          },
        ]
      : []),
  ];
  const markers: Marker[] = [];
  if (view.crossover.kind === 'at')
    markers.push({ x: view.crossover.n, label: s.markMeasured(fmtInt(view.crossover.n)), color: OKABE_ITO.vermillion });
  const top = attentionTop(result);
  if (view.predicted !== null && view.predicted >= 32 && view.predicted <= top * 2)
    markers.push({ x: view.predicted, label: s.markModel(fmtInt(view.predicted)), color: OKABE_ITO.grey });
  return (
    <LineChart
      labels={t.charts}
      series={timeSeries}
      {...nAxis(s.xN, top)}
      yLabel={s.yMs}
      yScale="log"
      markers={markers}
      ariaLabel={s.timeTitle}
      tableCaption={s.tableTime}
      height={height}
      fill={fill}
      dimmed={dimmed}
      notes={notes ?? [s.sweepNote(result.d, result.m)]}
    />
  );
}

/** The sweep's widest range of n (64 … 65,536): the FLOP model's x axis before any run. */
const FLOP_NS = sweepLengths(16);

/**
 * Before any run: the FLOP counts themselves — 4n²d for exact attention, 8nm′d for the Performer,
 * per head, log-log — and their equal-FLOP crossover n = 2m′: what the measured times should follow,
 * so the panel and the lecture's slide show the argument before anything is timed.
 */
export function SpeedFlopChart({
  d,
  m,
  height,
  fill,
  notes,
}: {
  d: number;
  /** m′ (positive features: m) */
  m: number;
  height: number;
  fill?: boolean;
  notes?: (string | null)[];
}) {
  const t = useStrings();
  const s = t.speed;
  const curve = (method: 'exact' | 'performer-bidirectional') => FLOP_NS.map((n) => attentionFlops(method, n, d, m));
  const series: Series[] = [
    { id: 'exact', label: s.flopExact, ...METHOD_STYLE.exact, x: FLOP_NS, y: curve('exact') },
    {
      id: 'performer-bidirectional',
      label: s.flopPerformer,
      ...METHOD_STYLE['performer-bidirectional'],
      x: FLOP_NS,
      y: curve('performer-bidirectional'),
    },
  ];
  const equal = predictedCrossover(m);
  return (
    <LineChart
      labels={t.charts}
      series={series}
      {...nAxis(s.xN, FLOP_NS[FLOP_NS.length - 1]!)}
      yLabel={s.yFlops}
      yScale="log"
      markers={[{ x: equal, label: s.markEqual(fmtInt(equal)), color: OKABE_ITO.grey }]}
      ariaLabel={s.flopTitle}
      tableCaption={s.tableFlops}
      height={height}
      fill={fill}
      notes={notes ?? [s.flopNote(d, m)]}
    />
  );
}

/** Largest n of the attention sweep (at least 64). */
function attentionTop(result: SpeedResult): number {
  return Math.max(64, ...result.points.filter((p) => !p.method.startsWith('layer-')).map((p) => p.n));
}

/**
 * The n axis every speed figure shares: log, whole n, 2^6 … `top` with a little room around it, so
 * end points are not drawn on the axes.
 */
export function nAxis(xLabel: string, top: number): Pick<LineChartProps, 'xLabel' | 'xScale' | 'integerX' | 'xDomain'> {
  return { xLabel, xScale: 'log', integerX: true, xDomain: [45, Math.max(128, top) * 1.4] };
}

export function SpeedCharts({ result, view, dimmed }: { result: SpeedResult; view: SpeedView; dimmed: boolean }) {
  const t = useStrings();
  const s = t.speed;
  const label = (m: SpeedMethod) => s.methods[m] ?? m;
  const cpu = result.backend === 'cpu';
  const axis = nAxis(s.xN, attentionTop(result));
  return (
    <>
      <h3>{s.timeTitle}</h3>
      <Figure name="speed-time" title={s.timeTitle}>
        <SpeedTimeChart result={result} view={view} dimmed={dimmed} height={340} />
      </Figure>
      <div className="grid-2">
        <div className="sub">
          <h3>{cpu ? s.bytesTitleCpu : s.bytesTitle}</h3>
          <Figure name="speed-bytes" title={cpu ? s.bytesTitleCpu : s.bytesTitle}>
            <LineChart
              labels={t.charts}
              series={methodSeries(ATT, view.by, label, (p) => p.bytes)}
              {...axis}
              yLabel={s.yBytes}
              yScale="log"
              ariaLabel={cpu ? s.bytesTitleCpu : s.bytesTitle}
              tableCaption={s.tableBytes}
              height={260}
              dimmed={dimmed}
            />
          </Figure>
        </div>
        <div className="sub">
          <h3>{s.gflopsTitle}</h3>
          <Figure name="speed-gflops" title={s.gflopsTitle}>
            <LineChart
              labels={t.charts}
              series={methodSeries(ATT.slice(0, 3), view.by, label, (p) => p.gflops)}
              {...axis}
              yLabel={s.yGflops}
              yScale="linear"
              ariaLabel={s.gflopsTitle}
              tableCaption={s.tableGflops}
              height={260}
              dimmed={dimmed}
            />
          </Figure>
        </div>
      </div>
    </>
  );
}
