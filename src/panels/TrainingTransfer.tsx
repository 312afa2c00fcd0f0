/**
 * The transfer experiment's view (src/engine/transfer-runner.ts): per target map, held-out accuracy
 * vs step of the swapped-and-fine-tuned model, the same map from scratch and (Hedgehog) the fitted
 * one — mean over seeds with the seeds' band, step 0 marked by dots, the trained softmax model's
 * accuracy as a line; the numbers as text (`data-metric="transfer-step0-accuracy"` /
 * `"transfer-final-accuracy"`, `data-run="<map>"`, `data-role`), the softmax heads' concentration,
 * FAVOR+'s step-0 accuracy per m, the Hedgehog fit's KL, the first seed's attention maps at step 0
 * and after the fine-tune, the curves as CSV and each run kind's weights (its first seed) as JSON.
 */
import { useMemo, useState } from 'react';
import { ExportFigure } from '../charts/ExportFigure';
import { fmtPct, fmtText } from '../charts/format';
import { LineChart, type Series } from '../charts/LineChart';
import { tableCsv } from '../export/csv';
import { downloadBlob } from '../export/download';
import { CsvDownloadButton } from '../ui/training/CsvDownloadButton';
import type { RunInfo, TransferRole } from '../engine/training-protocol';
import type { TrainKind, TrainingSetup } from '../engine/training-setup';
import { useStore, useTrainingController } from '../store/react';
import type { TrainingState } from '../store/training';
import { summarizeTransfer, type Spread, type TransferGroup, type TransferSummary } from '../store/training-transfer';
import { kindColor, kindName } from '../ui/training/kinds';
import { trainingFileName } from '../ui/training/TrainingCharts';
import { useStrings } from '../ui/strings';
import { TrainingMaps } from './TrainingMaps';

const ROLE_DASH: Record<TransferRole, string | undefined> = {
  softmax: undefined,
  finetune: undefined,
  scratch: '6 4',
  fitted: '2 3',
};
const PHASE2: TransferRole[] = ['finetune', 'fitted', 'scratch'];
const pm = (s: Spread) => `${fmtPct(s.mean)} ± ${fmtPct((s.hi - s.lo) / 2)}`;

/** Every run's held-out curve, step 0 (the report's evaluation) first: run, role, kind, seed, step, eval loss, eval accuracy. */
export function transferCsv(tr: Pick<TrainingState, 'runs' | 'curves' | 'transfer'>): string {
  const rows: (string | number | null)[][] = [];
  const step0 = new Map((tr.transfer?.step0 ?? []).map((x) => [x.run, x]));
  for (const r of tr.runs) {
    const c = tr.curves[r.index];
    const z = step0.get(r.index);
    if (z) rows.push([r.index, r.role ?? '', r.kind, r.seed, 0, z.loss, z.accuracy]);
    c?.evalSteps.forEach((s, k) =>
      rows.push([r.index, r.role ?? '', r.kind, r.seed, s, c.evalLoss[k], c.evalAccuracy[k]]),
    );
  }
  return tableCsv(['run', 'role', 'kind', 'seed', 'step', 'eval_loss', 'eval_accuracy'], rows);
}

function MapChart({
  kind,
  groups,
  softmax,
  setup,
}: {
  kind: TrainKind;
  groups: TransferGroup[];
  softmax: TransferGroup | undefined;
  setup: TrainingSetup;
}) {
  const t = useStrings();
  const tx = t.training.transfer;
  const name = kindName(kind, t);
  const of = PHASE2.map((role) => groups.find((g) => g.role === role && g.kind === kind)).filter(
    (g): g is TransferGroup => !!g,
  );
  const series: Series[] = of.map((g) => ({
    id: `${g.role}-${kind}`,
    label: tx.roles[g.role],
    color: g.role === 'scratch' ? '#777' : kindColor(kind),
    dash: ROLE_DASH[g.role],
    x: g.accuracy.x,
    y: g.accuracy.mean,
    band: g.runs.length > 1 ? { lo: g.accuracy.lo, hi: g.accuracy.hi } : undefined,
  }));
  const dots = of
    .filter((g) => g.step0)
    .map((g) => ({
      x: 0,
      y: g.step0!.mean,
      label: tx.step0Dot(tx.roles[g.role]),
      color: g.role === 'scratch' ? '#777' : kindColor(kind),
    }));
  const title = tx.chart(name);
  return (
    <ExportFigure title={title} labels={t.export} fileName={(ext) => trainingFileName(setup, `transfer-${kind}`, ext)}>
      <h4>{title}</h4>
      <LineChart
        series={series}
        dots={dots}
        hLines={softmax?.final ? [{ y: softmax.final.mean, label: tx.softmaxLine(fmtPct(softmax.final.mean)) }] : []}
        xLabel={t.training.step}
        yLabel={t.training.accuracy}
        ariaLabel={title}
        xDomain={[0, Math.max(1, setup.tune)]}
        yDomain={[0, 1]}
        integerX
        height={220}
        tableCaption={title}
        notes={[of.some((g) => g.runs.length > 1) ? t.training.band : null]}
        labels={t.charts}
      />
    </ExportFigure>
  );
}

function Numbers({ sum, setup }: { sum: TransferSummary; setup: TrainingSetup }) {
  const t = useStrings();
  const tx = t.training.transfer;
  const rows = setup.kinds.flatMap((kind) =>
    PHASE2.map((role) => sum.groups.find((g) => g.role === role && g.kind === kind)).filter(
      (g): g is TransferGroup => !!g,
    ),
  );
  return (
    <table className="data" data-transfer-results="">
      <caption>{tx.table}</caption>
      <thead>
        <tr>
          <th scope="col">{tx.colMap}</th>
          <th scope="col">{tx.colRole}</th>
          <th scope="col">{tx.colStep0}</th>
          <th scope="col">{tx.colFinal(setup.tune)}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((g) => (
          <tr key={`${g.role}-${g.kind}`}>
            <th scope="row">{kindName(g.kind, t)}</th>
            <td>{tx.roles[g.role]}</td>
            <td
              data-metric="transfer-step0-accuracy"
              data-run={g.kind}
              data-role={g.role}
              data-value={g.step0?.mean ?? ''}
              data-loss={g.step0Loss ?? ''}
            >
              {g.step0 ? pm(g.step0) : '—'}
            </td>
            <td
              data-metric="transfer-final-accuracy"
              data-run={g.kind}
              data-role={g.role}
              data-step={g.final?.step ?? ''}
              data-value={g.final?.mean ?? ''}
            >
              {g.final ? pm(g.final) : '—'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function TrainingTransfer({ setup }: { setup: TrainingSetup }) {
  const t = useStrings();
  const tx = t.training.transfer;
  const runs = useStore((s) => s.training.runs);
  const curves = useStore((s) => s.training.curves);
  const report = useStore((s) => s.training.transfer);
  const maps = useStore((s) => s.training.maps);
  const status = useStore((s) => s.training.status);
  const backend = useStore((s) => s.training.backend);
  const labelBy = (names: Record<TransferRole, string>) => (r: RunInfo) =>
    r.role === 'softmax' || !r.role ? names.softmax : `${kindName(r.kind, t)}: ${names[r.role]}`;
  const sum = useMemo(() => summarizeTransfer({ runs, curves, transfer: report }), [runs, curves, report]);
  const softmax = sum.groups.find((g) => g.role === 'softmax');
  const tr = { runs, curves, transfer: report };
  const ctl = useTrainingController();
  const [error, setError] = useState<string | null>(null);
  // one run's parameters as JSON (name, shape, values of every tensor), like the comparison's weights
  const saveWeights = async (run: number) => {
    if (!ctl) return;
    setError(null);
    try {
      const params = await ctl.weights(run);
      const info = runs[run];
      const json = JSON.stringify({
        kind: info.kind,
        role: info.role,
        run: info,
        setup,
        params: params.map((p) => ({ name: p.name, shape: p.shape, decay: p.decay, data: Array.from(p.data) })),
      });
      downloadBlob(
        new Blob([json], { type: 'application/json' }),
        trainingFileName(setup, `weights-${info.role}-${info.kind}`, 'json'),
      );
    } catch (e) {
      setError(t.training.weightsFailed(e instanceof Error ? e.message : String(e)));
    }
  };
  return (
    <section className="training-transfer" data-training-transfer={report ? '2' : '1'}>
      <h3>{tx.title}</h3>
      <p className="note">{tx.lead}</p>
      <p className="note">
        {tx.phase(report ? 2 : 1)} {setup.kinds.includes('hedgehog') && setup.fit > 0 ? tx.fitOn(backend) : ''}
      </p>
      {softmax?.final && (
        <p data-metric="transfer-softmax-accuracy" data-value={softmax.final.mean} data-step={softmax.final.step}>
          {tx.softmaxFinal(pm(softmax.final), softmax.final.step)}
        </p>
      )}
      {report && (
        <div className="training-charts" data-transfer-charts="">
          {setup.kinds.map((k) => (
            <MapChart key={k} kind={k} groups={sum.groups} softmax={softmax} setup={setup} />
          ))}
        </div>
      )}
      {report && <Numbers sum={sum} setup={setup} />}
      {sum.concentration.length > 0 && (
        <div className="note" data-transfer-heads="">
          {tx.heads}
          <ul>
            {sum.concentration.map((h) => (
              <li
                key={`${h.layer}-${h.head}`}
                data-metric="transfer-head-entropy"
                data-layer={h.layer}
                data-head={h.head}
                data-value={h.entropy}
              >
                {tx.head(h.layer + 1, h.head + 1, fmtText(h.entropy), fmtText(h.uniform), fmtText(h.top))}
              </li>
            ))}
          </ul>
        </div>
      )}
      {sum.favorM.length > 0 && (
        <p className="note" data-transfer-favor-m="">
          {tx.favorM}{' '}
          {sum.favorM.map((x, i) => (
            <span key={x.m} data-metric="transfer-favor-m-accuracy" data-m={x.m} data-value={x.mean} data-loss={x.loss}>
              {i > 0 ? ', ' : ''}
              {tx.favorMItem(x.m, pm(x))}
            </span>
          ))}
        </p>
      )}
      {sum.fits.map((f) => (
        <p
          key={f.kind}
          className="note"
          data-metric="transfer-fit-kl"
          data-run={f.kind}
          data-before={f.before.mean}
          data-value={f.after.mean}
        >
          {tx.fitDone(kindName(f.kind, t), f.steps, fmtText(f.before.mean), fmtText(f.after.mean))}
        </p>
      ))}
      {report && <p className="note">{tx.why}</p>}
      {report && report.maps.length > 0 && (
        <TrainingMaps
          maps={report.maps}
          runs={runs}
          setup={setup}
          title={tx.mapsAt0}
          lead={tx.mapsLead}
          label={labelBy(tx.roles0)}
          tag={(r) => `${r.role}-${r.kind}-step0`}
        />
      )}
      {status === 'done' && maps && maps.length > 0 && (
        <TrainingMaps
          maps={maps}
          runs={runs}
          setup={setup}
          title={tx.mapsAfter(setup.tune)}
          lead={tx.mapsLead}
          label={labelBy(tx.roles)}
          tag={(r) => `${r.role}-${r.kind}`}
        />
      )}
      {runs.length > 0 && (
        <div className="training-downloads">
          <CsvDownloadButton
            action="transfer-csv"
            label={tx.csv}
            csv={() => transferCsv(tr)}
            fileName={trainingFileName(setup, 'transfer-curves', 'csv')}
          />
          {status === 'done' &&
            sum.groups.map((g) => (
              <button
                key={`${g.role}-${g.kind}`}
                type="button"
                className="small"
                data-action="transfer-weights"
                data-run={g.kind}
                data-role={g.role}
                onClick={() => void saveWeights(g.runs[0])}
              >
                {t.training.weights(labelBy(tx.roles)(runs[g.runs[0]]))}
              </button>
            ))}
        </div>
      )}
      {error && (
        <p className="note warn" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
