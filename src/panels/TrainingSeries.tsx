/**
 * The series view: sweep the MQAR pairs or FAVOR+'s m (final held-out accuracy vs the swept value,
 * one line per kind — Zoology's figure in miniature), or train the same kinds as a causal LM and
 * as a bidirectional MLM (Su Jianlin: the linear model's gap is small in the first, larger in the
 * second), from the records the finished comparisons leave (src/store/training-series.ts).
 */
import { ExportFigure } from '../charts/ExportFigure';
import { fmtPct } from '../charts/format';
import { LineChart, type Series } from '../charts/LineChart';
import type { TrainKind } from '../engine/training-setup';
import { useStore, useTrainingController } from '../store/react';
import { isTraining } from '../store/training';
import { seriesRecords, type ComparisonRecord, type SeriesKind } from '../store/training-series';
import { kindColor, kindDash, kindName } from '../ui/training/kinds';
import { chanceLines, trainingFileName } from '../ui/training/TrainingCharts';
import { useStrings } from '../ui/strings';

function SweepChart({ records, kind }: { records: ComparisonRecord[]; kind: 'pairs' | 'm' }) {
  const t = useStrings();
  const tt = t.training;
  const kinds = [...new Set(records.flatMap((r) => r.finals.map((f) => f.kind)))] as TrainKind[];
  const series: Series[] = kinds.map((k) => {
    const pts = records
      .map((r) => ({ x: kind === 'pairs' ? r.setup.pairs : r.setup.m, f: r.finals.find((f) => f.kind === k) }))
      .filter((p) => p.f);
    return {
      id: k,
      label: kindName(k, t),
      color: kindColor(k),
      dash: kindDash(k),
      points: true,
      x: pts.map((p) => p.x),
      y: pts.map((p) => p.f!.accuracy),
      band: {
        lo: pts.map((p) => p.f!.accuracy - p.f!.accuracySpread),
        hi: pts.map((p) => p.f!.accuracy + p.f!.accuracySpread),
      },
    };
  });
  const title = kind === 'pairs' ? tt.pairsChart : tt.mChart;
  const tasks = new Set(records.map((r) => r.setup.task));
  const chance = chanceLines(tasks.size === 1 ? [...tasks][0]! : null, t);
  return (
    <ExportFigure
      title={title}
      labels={t.export}
      fileName={(ext) => trainingFileName(records[0]?.setup ?? null, `sweep-${kind}`, ext)}
    >
      <h3>{title}</h3>
      <LineChart
        series={series}
        xLabel={kind === 'pairs' ? tt.pairsAxis : tt.mAxis}
        yLabel={tt.accuracy}
        ariaLabel={title}
        xScale="log"
        yDomain={[0, 1]}
        hLines={chance}
        integerX
        height={220}
        tableCaption={title}
        labels={t.charts}
      />
    </ExportFigure>
  );
}

function GapTable({ records }: { records: ComparisonRecord[] }) {
  const t = useStrings();
  const tt = t.training;
  const kinds = [...new Set(records.flatMap((r) => r.finals.map((f) => f.kind)))] as TrainKind[];
  return (
    <table className="data" data-training-gaps="">
      <caption>{tt.gapTable}</caption>
      <thead>
        <tr>
          <th scope="col">{tt.colTask}</th>
          {kinds.map((k) => (
            <th key={k} scope="col">
              {kindName(k, t)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {records.map((r, i) => {
          const soft = r.finals.find((f) => f.kind === 'softmax');
          return (
            <tr key={i} data-gap-task={r.setup.task}>
              <th scope="row">{tt.tasks[r.setup.task]}</th>
              {kinds.map((k) => {
                const f = r.finals.find((x) => x.kind === k);
                return (
                  <td key={k} data-gap-run={k} data-value={f?.accuracy ?? ''}>
                    {f ? fmtPct(f.accuracy) : '—'}
                    {f && soft && k !== 'softmax' ? ` (${fmtPct(f.accuracy - soft.accuracy)})` : ''}
                  </td>
                );
              })}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function TrainingSeries({ usesM }: { usesM: boolean }) {
  const tt = useStrings().training;
  const ctl = useTrainingController();
  const busy = useStore((s) => isTraining(s.training));
  const series = useStore((s) => s.training.series);
  const history = useStore((s) => s.training.history);
  if (!ctl) return null;
  // the running series, else the last one finished
  const last = [...history].reverse().find((r) => r.series);
  const id = series?.id ?? last?.series?.id ?? null;
  const kind: SeriesKind | null = series?.kind ?? last?.series?.kind ?? null;
  const records = id === null ? [] : seriesRecords(history, id);
  const buttons: [SeriesKind, string, boolean][] = [
    ['pairs', tt.seriesPairs, true],
    ['m', tt.seriesM, usesM],
    ['lm-mlm', tt.seriesLmMlm, true],
  ];
  return (
    <section className="training-series" data-training-series={kind ?? ''}>
      <h3>{tt.seriesTitle}</h3>
      <p className="note">{tt.seriesLead}</p>
      <div className="training-downloads">
        {buttons.map(([k, label, ok]) => (
          <button
            key={k}
            type="button"
            className="small"
            data-action={`train-series-${k}`}
            disabled={busy || !ok}
            onClick={() => ctl.startSeries(k)}
          >
            {label}
          </button>
        ))}
        <button
          type="button"
          className="small"
          data-action="train-series-transfer"
          disabled={busy}
          onClick={() => ctl.startTransfer()}
        >
          {tt.transfer.button}
        </button>
      </div>
      {series && <p className="note">{tt.seriesProgress(series.total - series.queue.length, series.total)}</p>}
      {records.length > 0 &&
        kind !== null &&
        (kind === 'lm-mlm' ? <GapTable records={records} /> : <SweepChart records={records} kind={kind} />)}
    </section>
  );
}
