/**
 * The Hedgehog training view (mounted by the feature-map panel; self-contained, so another panel can
 * mount it too): Train / Cancel, progress, the live loss curve and the table "fitted vs held-out
 * error, Hedgehog vs random features at equal m′". The fit itself is the analysis HEDGEHOG_ID
 * (src/store/hedgehog-fit.ts); with map = hedgehog the controller starts it automatically.
 */
import type { AttentionParams } from '../core/types';
import { useMemo } from 'react';
import { useStrings } from '../ui/strings';
import { fmt, fmtMs, fmtText } from '../charts/format';
import { LineChart, type Series } from '../charts/LineChart';
import { MAP_COLORS } from '../charts/palette';
import { HEDGEHOG_FIT } from '../core/hedgehog';
import { hedgehogPositions } from '../core/hedgehog-fit';
import {
  currentFit,
  fitKeyOf,
  fitRequest,
  HEDGEHOG_ID,
  HEDGEHOG_OP,
  type HedgehogFitResult,
  type HedgehogProgressDetail,
} from '../store/hedgehog-fit';
import { useController, useStore } from '../store/react';
import { Metric, withDeferredParams } from './common';
import { Figure } from '../ui/Figure';
import { Formula } from '../ui/Formula';

export const HedgehogTraining = withDeferredParams('HedgehogTraining', HedgehogTrainingBody);

function HedgehogTrainingBody({ params }: { params: AttentionParams }) {
  const t = useStrings();
  const s = t.hedgehog;
  const controller = useController();
  const upload = useStore((st) => st.upload);
  // the fit's entry only: the other analyses' updates (every step of every panel) leave this alone
  const entry = useStore((st) => st.analyses[HEDGEHOG_ID]);
  const key = fitKeyOf({ params, upload });
  const fit: HedgehogFitResult | null = currentFit({ params, upload, analyses: { [HEDGEHOG_ID]: entry } });
  const running = entry?.status === 'running' && entry.key === key;
  const live = (entry?.progress?.detail as HedgehogProgressDetail | undefined)?.losses;
  // a cancelled run keeps its last progress (controller.ts), so its partial curve stays on screen
  const stopped = !running && !fit && entry?.key === key && entry.status === 'cancelled';
  const shownLosses = running || stopped ? live : fit?.losses;
  const losses = useMemo(() => shownLosses ?? [], [shownLosses]);
  const steps = HEDGEHOG_FIT.steps;
  const positions = hedgehogPositions(params.n);

  const train = () => {
    const r = fitRequest({ params, upload });
    controller.requestAnalysis(HEDGEHOG_OP, r.payload, r.key, true);
  };

  const series: Series[] = useMemo(
    () => [{ id: 'loss', label: s.lossSeries, color: MAP_COLORS.hedgehog, x: losses.map((_, i) => i + 1), y: losses }],
    [losses, s.lossSeries],
  );

  const ev = fit?.evaluation;
  const status = running
    ? entry?.progress?.label === 'evaluate'
      ? s.evaluating
      : s.training(entry?.progress?.done ?? 0, steps)
    : null;

  return (
    <div
      className="sub hedgehog-training"
      data-hedgehog={running ? 'running' : fit ? 'done' : entry?.key === key ? entry.status : 'idle'}
    >
      <h3>{s.title}</h3>
      <p>{s.lead}</p>
      <Formula tex={t.names.mapTex.hedgehog} />
      <Formula tex={s.lossFormula} />
      <p className="note">
        {s.recipe(steps, positions)} <code>src/core/hedgehog.ts</code>
        {s.recipeEnd} <cite translate="no">{s.cite}</cite>
      </p>
      <div className="progress-row" aria-live="polite">
        {running ? (
          <>
            <progress
              max={steps + 1}
              value={entry?.progress?.done ?? 0}
              aria-label={status ?? ''}
              data-hedgehog-progress
            />
            {/* before the status, whose width changes every fit step: Cancel does not move */}
            <button
              type="button"
              className="small"
              onClick={() => controller.cancelAnalysis(HEDGEHOG_ID)}
              data-action="hedgehog-cancel"
            >
              {s.cancel}
            </button>
            <span className="note">{status}</span>
          </>
        ) : (
          <>
            <button type="button" className="small" onClick={train} data-action="hedgehog-train">
              {fit ? s.retrain : s.train}
            </button>
            <span className="note">
              {fit
                ? s.done(fmtMs(fit.trainMs), fit.steps)
                : entry?.key === key && entry.status === 'cancelled'
                  ? s.cancelled
                  : entry?.key === key && entry.status === 'error'
                    ? `${s.failed} ${entry.error?.message ?? ''}`
                    : s.idle}
            </span>
          </>
        )}
      </div>
      {params.featureMap === 'hedgehog' && <p className="note">{s.autoNote}</p>}
      <div data-hedgehog-loss-points={losses.length}>
        <Figure name="hedgehog-loss" title={s.lossTitle}>
          <LineChart
            labels={t.charts}
            series={series}
            xLabel={s.lossX}
            yLabel={s.lossY}
            ariaLabel={s.lossTitle}
            tableCaption={s.lossTable}
            xDomain={[1, steps]}
            integerX
            height={200}
            noLegend
            hLines={fit ? [{ y: fit.lossFloor, label: s.lossFloor }] : undefined}
            notes={[fit ? s.lossFloorNote(fmtText(fit.lossFloor), fmtText(fit.finalLoss - fit.lossFloor)) : null]}
          />
        </Figure>
      </div>
      {fit && ev && (
        <>
          <div className="metrics">
            <Metric
              name="hedgehog-fitted-error"
              label={s.metricFitted}
              value={ev.fitted.hedgehog.relError}
              hint={s.metricHint}
            />
            <Metric
              name="hedgehog-heldout-error"
              label={s.metricHeldOut}
              value={ev.heldOut?.hedgehog.relError ?? null}
            />
            <Metric name="hedgehog-random-error" label={s.metricRandom} value={ev.fitted.random.mean} />
            <Metric name="hedgehog-final-loss" label={s.metricLoss} value={fit.finalLoss} />
          </div>
          <h4>{s.tableTitle(ev.featureDim)}</h4>
          <div className="table-wide">
            <table className="hedgehog-table" data-hedgehog-table>
              <thead>
                <tr>
                  <th scope="col">{s.colMap}</th>
                  <th scope="col">{s.colFitted(ev.positions)}</th>
                  <th scope="col">{s.colHeldOut}</th>
                  <th scope="col">{s.colKl}</th>
                </tr>
              </thead>
              <tbody>
                {(
                  [
                    [
                      'hedgehog',
                      s.rowHedgehog,
                      ev.fitted.hedgehog.relError,
                      ev.heldOut?.hedgehog.relError,
                      null,
                      ev.fitted.hedgehog.meanKL,
                    ],
                    [
                      'init',
                      s.rowInit,
                      ev.fitted.init.relError,
                      ev.heldOut?.init.relError,
                      null,
                      ev.fitted.init.meanKL,
                    ],
                    [
                      'random',
                      s.rowRandom(ev.randomSeeds),
                      ev.fitted.random.mean,
                      ev.heldOut?.random.mean,
                      [ev.fitted.random.std, ev.heldOut?.random.std],
                      ev.fitted.random.meanKL,
                    ],
                  ] as const
                ).map(([id, label, fitted, held, sd, kl]) => (
                  <tr key={id} data-row={id}>
                    <th scope="row">{label}</th>
                    <td data-col="fitted" data-value={fitted}>
                      {fmt(fitted)}
                      {sd ? ` ± ${fmt(sd[0])}` : ''}
                    </td>
                    <td data-col="held-out" data-value={held ?? ''}>
                      {held === undefined ? '—' : fmt(held)}
                      {sd && sd[1] !== undefined ? ` ± ${fmt(sd[1])}` : ''}
                    </td>
                    <td data-col="kl">{fmt(kl)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="note">
            {ev.heldOutSource === 'seed'
              ? s.heldOutSeed(ev.heldOutSeed ?? 0)
              : ev.heldOutSource === 'upload-tail'
                ? s.heldOutTail
                : s.heldOutNone}
          </p>
        </>
      )}
    </div>
  );
}
