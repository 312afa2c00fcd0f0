/**
 * The comparison's outcome: the final held-out numbers per kind (and per learning rate with the
 * sweep), the "why" sentence tied to the sparsity and rank panels, and the downloads — every
 * run's curves as CSV and each kind's trained weights as JSON (name, shape, values per tensor).
 */
import { useState } from 'react';
import { fmt, fmtPct } from '../charts/format';
import { tableCsv } from '../export/csv';
import { downloadBlob } from '../export/download';
import { CsvDownloadButton } from '../ui/training/CsvDownloadButton';
import type { TrainingSetup } from '../engine/training-setup';
import { useStore, useTrainingController } from '../store/react';
import type { TrainingState } from '../store/training';
import { extremes, whyKind, type KindGroup } from '../store/training-summary';
import { kindName } from '../ui/training/kinds';
import { trainingFileName } from '../ui/training/TrainingCharts';
import { useStrings } from '../ui/strings';

const CSV_COLUMNS = ['run', 'kind', 'seed', 'lr', 'step', 'loss', 'accuracy', 'eval_loss', 'eval_accuracy'];

export function curvesCsv(tr: Pick<TrainingState, 'runs' | 'curves'>): string {
  const rows: (string | number | null)[][] = [];
  tr.runs.forEach((r, i) => {
    const c = tr.curves[i];
    if (!c) return;
    let e = 0;
    for (let k = 0; k < c.steps.length; k++) {
      const step = c.steps[k];
      const ev = c.evalSteps[e] === step ? e++ : -1;
      rows.push([
        r.index,
        r.kind,
        r.seed,
        r.lr,
        step,
        c.loss[k],
        c.accuracy[k],
        ev >= 0 ? c.evalLoss[ev] : null,
        ev >= 0 ? c.evalAccuracy[ev] : null,
      ]);
    }
  });
  return tableCsv(CSV_COLUMNS, rows);
}

export function TrainingResults({ groups, setup }: { groups: KindGroup[]; setup: TrainingSetup | null }) {
  const t = useStrings();
  const tt = t.training;
  const ctl = useTrainingController();
  const tr = useStore((s) => s.training);
  const [error, setError] = useState<string | null>(null);
  const done = tr.status === 'done';
  const ex = done ? extremes(groups) : null;
  const sweep = groups.some((g) => g.lrFactor !== 1);

  const saveWeights = async (g: KindGroup) => {
    if (!ctl) return;
    setError(null);
    try {
      const run = g.runs[0];
      const params = await ctl.weights(run);
      const json = JSON.stringify({
        kind: g.kind,
        run: tr.runs[run],
        setup: tr.ran,
        params: params.map((p) => ({ name: p.name, shape: p.shape, decay: p.decay, data: Array.from(p.data) })),
      });
      downloadBlob(
        new Blob([json], { type: 'application/json' }),
        trainingFileName(setup, `weights-${g.kind}`, 'json'),
      );
    } catch (e) {
      setError(tt.weightsFailed(e instanceof Error ? e.message : String(e)));
    }
  };

  if (!groups.some((g) => g.final) && !done) return null;
  return (
    <section className="training-results">
      <h3>{tt.results}</h3>
      <table className="data" data-training-results="">
        <thead>
          <tr>
            <th scope="col">{tt.colKind}</th>
            <th scope="col">{tt.colLr}</th>
            <th scope="col">{tt.colAcc}</th>
            <th scope="col">{tt.colLoss}</th>
            <th scope="col">{tt.colSeeds}</th>
          </tr>
        </thead>
        <tbody>
          {groups.map((g) => (
            <tr key={`${g.kind}-${g.lrFactor}`} data-result-run={g.kind} data-best={g.best ? '1' : '0'}>
              <th scope="row">
                {kindName(g.kind, t)}
                {sweep && g.best ? ` (${tt.best})` : ''}
              </th>
              <td>{fmt(g.lr)}</td>
              <td data-final-accuracy={g.final?.accuracy ?? ''}>
                {g.final ? `${fmtPct(g.final.accuracy)} ± ${fmtPct(g.final.accuracySpread)}` : '—'}
              </td>
              <td>{g.final ? `${fmt(g.final.loss)} ± ${fmt(g.final.lossSpread)}` : '—'}</td>
              <td>{g.runs.length}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {ex && setup && (
        <p className="training-why" data-training-why={whyKind(setup.task, ex.best, ex.worst)}>
          {(whyKind(setup.task, ex.best, ex.worst) === 'expected'
            ? tt.why[setup.task]
            : whyKind(setup.task, ex.best, ex.worst) === 'close'
              ? tt.whyClose
              : tt.whyOther)(
            kindName(ex.best.kind, t),
            fmtPct(ex.best.final!.accuracy),
            kindName(ex.worst.kind, t),
            fmtPct(ex.worst.final!.accuracy),
          )}{' '}
          (<a href="#panel-sparsity">{tt.sparsityLink}</a>, <a href="#panel-rank">{tt.rankLink}</a>)
        </p>
      )}
      <div className="training-downloads">
        <CsvDownloadButton
          action="train-csv"
          label={tt.csv}
          csv={() => curvesCsv(tr)}
          fileName={trainingFileName(setup, 'curves', 'csv')}
        />
        {done &&
          groups
            .filter((g) => g.best)
            .map((g) => (
              <button
                key={g.kind}
                type="button"
                className="small"
                data-action="train-weights"
                data-run={g.kind}
                onClick={() => void saveWeights(g)}
              >
                {tt.weights(kindName(g.kind, t))}
              </button>
            ))}
      </div>
      {error && (
        <p className="note warn" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
