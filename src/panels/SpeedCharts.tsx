/**
 * The speed panel's attention figures: time vs n with the FLOP model and both crossovers marked,
 * bytes vs n, GFLOP/s vs n. Each is a <Figure> (PNG/SVG/CSV; the CSV is the chart's table: every
 * measured point of every method).
 */
import { useStrings } from '../app/strings';
import { fmtInt } from '../charts/format';
import { LineChart, type Marker, type Series } from '../charts/LineChart';
import { EXACT_COLOR, OKABE_ITO } from '../charts/palette';
import type { SpeedMethod, SpeedPoint, SpeedResult } from '../core/speed-model';
import { Figure } from './Figure';
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

export function SpeedCharts({ result, view, dimmed }: { result: SpeedResult; view: SpeedView; dimmed: boolean }) {
  const t = useStrings();
  const s = t.speed;
  const label = (m: SpeedMethod) => s.methods[m] ?? m;
  const timeSeries: Series[] = [
    ...methodSeries(ATT, view.by, label, (p) => p.medianMs),
    ...(view.model.exact
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
    ...(view.model.bidir
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
  const top = Math.max(64, ...result.points.filter((p) => !p.method.startsWith('layer-')).map((p) => p.n));
  if (view.predicted !== null && view.predicted >= 32 && view.predicted <= top * 2)
    markers.push({ x: view.predicted, label: s.markModel(fmtInt(view.predicted)), color: OKABE_ITO.grey });
  const cpu = result.backend === 'cpu';
  // a little room around 2^6 … the largest n, so end points are not drawn on the axes
  const xDomain: [number, number] = [45, Math.max(128, top) * 1.4];
  return (
    <>
      <h3>{s.timeTitle}</h3>
      <Figure name="speed-time" title={s.timeTitle}>
        <LineChart
          labels={t.charts}
          series={timeSeries}
          xLabel={s.xN}
          yLabel={s.yMs}
          xScale="log"
          yScale="log"
          integerX
          xDomain={xDomain}
          markers={markers}
          ariaLabel={s.timeTitle}
          tableCaption={s.tableTime}
          height={340}
          dimmed={dimmed}
          notes={[s.sweepNote(result.d, result.m)]}
        />
      </Figure>
      <div className="grid-2">
        <div className="sub">
          <h3>{cpu ? s.bytesTitleCpu : s.bytesTitle}</h3>
          <Figure name="speed-bytes" title={cpu ? s.bytesTitleCpu : s.bytesTitle}>
            <LineChart
              labels={t.charts}
              series={methodSeries(ATT, view.by, label, (p) => p.bytes)}
              xLabel={s.xN}
              yLabel={s.yBytes}
              xScale="log"
              yScale="log"
              integerX
              xDomain={xDomain}
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
              xLabel={s.xN}
              yLabel={s.yGflops}
              xScale="log"
              yScale="linear"
              integerX
              xDomain={xDomain}
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
