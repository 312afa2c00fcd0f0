/**
 * The live curves of a training comparison: loss and accuracy vs step, one line per attention
 * kind (the mean over its seeds) with the seeds' min–max band, each in its own exportable figure
 * (PNG / SVG / CSV of the drawn points). Shared by the training panel and its lecture slide.
 */
import { memo, useMemo } from 'react';
import { ExportFigure } from '../../charts/ExportFigure';
import { LineChart, type Series } from '../../charts/LineChart';
import { chanceAccuracy, type TrainingSetup, type TrainTask } from '../../engine/training-setup';
import type { Band, KindGroup } from '../../store/training-summary';
import { useStrings, type Strings } from '../strings';
import { kindColor, kindDash, kindName } from './kinds';

/** At most this many points per drawn curve (every k-th step, the last one always kept). */
const MAX_POINTS = 600;

function thin(b: Band): Band {
  const n = b.x.length;
  if (n <= MAX_POINTS) return b;
  const every = Math.ceil(n / MAX_POINTS);
  const keep = (_: number, i: number) => i % every === 0 || i === n - 1;
  return { x: b.x.filter(keep), mean: b.mean.filter(keep), lo: b.lo.filter(keep), hi: b.hi.filter(keep) };
}

export function trainingFileName(setup: TrainingSetup | null, what: string, ext: string): string {
  const s = setup;
  const tail = s ? `-${s.task}-${s.kinds.join('-')}-d${s.dModel}-L${s.seqLen}-${s.steps}steps` : '';
  return `performer-training-${what}${tail}.${ext}`;
}

/**
 * An accuracy chart's chance line for `task` (none for the text tasks): with it the empty chart before
 * a run already says where every model starts.
 */
export function chanceLines(task: TrainTask | null, t: Strings): { y: number; label: string }[] | undefined {
  const chance = task === null ? null : chanceAccuracy(task);
  return chance === null ? undefined : [{ y: chance, label: t.training.chance(Math.round(1 / chance)) }];
}

export const TrainingCharts = memo(function TrainingCharts(props: {
  groups: KindGroup[];
  setup: TrainingSetup | null;
  /** lecture slides: the charts fill their box */
  fill?: boolean;
  height?: number;
  /** which charts (default: loss and accuracy) */
  only?: 'accuracy';
  /** lecture slides: the chart alone (no title, no export buttons), filling its box */
  bare?: boolean;
}) {
  const t = useStrings();
  const tt = t.training;
  const shown = useMemo(() => props.groups.filter((g) => g.best), [props.groups]);
  const series = (pick: (g: KindGroup) => Band): Series[] =>
    shown.map((g) => {
      const b = thin(pick(g));
      const seeds = g.runs.length;
      return {
        id: g.kind,
        label: kindName(g.kind, t),
        color: kindColor(g.kind),
        dash: kindDash(g.kind),
        x: b.x,
        y: b.mean,
        band: seeds > 1 ? { lo: b.lo, hi: b.hi } : undefined,
      };
    });
  const loss = series((g) => g.loss);
  const acc = series((g) => g.accuracy);
  const maxStep = Math.max(1, props.setup?.steps ?? 1);
  const charts: {
    key: string;
    title: string;
    series: Series[];
    y: string;
    yDomain?: [number, number];
    hLines?: { y: number; label: string }[];
  }[] = [
    {
      key: 'accuracy',
      title: tt.accChart,
      series: acc,
      y: tt.accuracy,
      yDomain: [0, 1],
      hLines: chanceLines(props.setup?.task ?? null, t),
    },
  ];
  if (props.only !== 'accuracy') charts.unshift({ key: 'loss', title: tt.lossChart, series: loss, y: tt.loss });
  const chart = (c: (typeof charts)[number]) => (
    <LineChart
      series={c.series}
      xLabel={tt.step}
      yLabel={c.y}
      ariaLabel={c.title}
      xDomain={[0, maxStep]}
      yDomain={c.yDomain}
      hLines={c.hLines}
      integerX
      height={props.height ?? 240}
      fill={props.fill}
      tableCaption={c.title}
      notes={[shown.some((g) => g.runs.length > 1) ? tt.band : null]}
      labels={t.charts}
    />
  );
  if (props.bare) return chart(charts[charts.length - 1]);
  return (
    <div className="training-charts" data-training-charts="">
      {charts.map((c) => (
        <ExportFigure
          key={c.key}
          title={c.title}
          labels={t.export}
          fileName={(ext) => trainingFileName(props.setup, c.key, ext)}
        >
          <h3>{c.title}</h3>
          {chart(c)}
        </ExportFigure>
      ))}
    </div>
  );
});
