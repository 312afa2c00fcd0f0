/**
 * The head picker of `input=trained`: the model and the sequence, then every (layer, head) of the
 * model as a small multiple of its exact attention matrix A (one colour scale for all), each with
 * its measured line — mean row entropy, effective rank, FAVOR+ error at m = 64, 128, 256, 512
 * (src/core/trained/head-stats.ts) — and a sentence comparing them with Gaussian Q, K of the same
 * n, d and RMS. Clicking a head (or its button) puts it in force; the URL follows (layer=, head=).
 * The heads are the engine's forward pass in force (`upload.active.heads`, src/store/trained.ts),
 * not recomputed here; a line says which backend computed them (data-trained-backend).
 * The sequence (TrainedSequence.tsx) shows its tokens and, for the grammar model, takes typed text.
 */
import { useId, useMemo } from 'react';
import { Heatmap } from '../charts/Heatmap';
import { fmt, fmtInt } from '../charts/format';
import { heatScale, robustMax } from '../charts/palette';
import { exactAttentionMatrix } from '../core/exact-attention';
import { generateInputs } from '../core/inputs';
import { BUNDLES } from '../core/trained/bundles';
import { TRAINED_MODELS, type TrainedModelId, type TrainedSelection } from '../core/trained/configs';
import { FAVOR_M, headStats, SUMMARY_M, type HeadStats } from '../core/trained/head-stats';
import { EXAMPLE_COUNT } from '../core/trained/heads';
import { DEFAULT_PARAMS } from '../store/params';
import { useActions, useAppStore, useStore } from '../store/react';
import { cancelPendingTrained, selectTrained } from '../store/trained';
import type { TrainedRun } from '../store/upload-state';
import { useStrings } from '../ui/strings';
import { TrainedSequence } from './TrainedSequence';

const SIZE = 128;

interface HeadView {
  layer: number;
  head: number;
  a: Float32Array;
  stats: HeadStats;
}

/** The small multiples of the forward pass in force (the engine's: the same Q, K, V the panels compute on). */
function useHeadViews(run: TrainedRun): { views: HeadView[]; causal: boolean } {
  return useMemo(() => {
    const causal = BUNDLES[run.model].config.model.causal;
    const views = run.heads.flatMap((row, layer) =>
      row.map((h, head) => ({
        layer,
        head,
        a: exactAttentionMatrix(h.q, h.k, causal).data,
        stats: headStats(h, causal),
      })),
    );
    return { views, causal };
  }, [run]);
}

/** The synthetic reference: the same statistics on Gaussian Q, K of the chosen head's n, d and entry RMS. */
function useGaussianReference(n: number, d: number, rms: number, causal: boolean): HeadStats {
  return useMemo(
    () => headStats(generateInputs({ ...DEFAULT_PARAMS, n, d, scale: rms, input: 'gaussian' }), causal),
    [n, d, rms, causal],
  );
}

const span = (xs: number[]): [number, number] => [Math.min(...xs), Math.max(...xs)];

export function TrainedHeads() {
  const t = useStrings();
  const tt = t.trained;
  const store = useAppStore();
  const actions = useActions();
  const inForce = useStore((s) => s.upload.active?.trained ?? null);
  const run = useStore((s) => s.upload.active?.heads ?? null);
  const pending = useStore((s) => s.upload.pendingTrained?.selection ?? null);
  const modelId = useId();
  const exampleId = useId();
  if (!inForce || !run) return null;
  // the controls show the latest choice (its forward pass may still be on its way); the grid the head in force
  const sel = pending ?? inForce;
  // a new model starts at its first head; an example (or a new model) replaces typed text; layer and head keep the sequence
  const pick = (next: Partial<TrainedSelection>) => {
    const base: TrainedSelection = { model: sel.model, layer: sel.layer, head: sel.head, example: sel.example };
    if (next.model !== undefined && next.model !== sel.model) base.layer = base.head = 0;
    const to = next.model !== undefined || next.example !== undefined ? { ...base, ...next } : { ...sel, ...next };
    selectTrained(store, actions, to);
  };

  const bundle = BUNDLES[sel.model];
  return (
    <section className="panel trained-heads" aria-labelledby="trained-heads-heading" data-trained-model={sel.model}>
      <h2 id="trained-heads-heading">{tt.heading}</h2>
      <p className="lead">
        {tt.intro(fmtInt(bundle.parameters), fmt(bundle.evalLoss), `${fmt(100 * bundle.evalAccuracy)}%`)}
      </p>
      <div className="inline-control">
        <label htmlFor={modelId}>{tt.model}</label>
        <select
          id={modelId}
          value={sel.model}
          data-trained-key="model"
          onChange={(e) => pick({ model: e.target.value as TrainedModelId })}
        >
          {TRAINED_MODELS.map((m) => (
            <option key={m} value={m}>
              {tt.modelName(m, BUNDLES[m].config.model.layers, BUNDLES[m].config.model.heads)}
            </option>
          ))}
        </select>
        <label htmlFor={exampleId}>{tt.example}</label>
        <select
          id={exampleId}
          value={sel.text === undefined ? sel.example : 'text'}
          data-trained-key="example"
          onChange={(e) => e.target.value !== 'text' && pick({ example: Number(e.target.value) })}
        >
          {Array.from({ length: EXAMPLE_COUNT }, (_, i) => (
            <option key={i} value={i}>
              {tt.exampleName(i)}
            </option>
          ))}
          {sel.text !== undefined && <option value="text">{tt.typedOption}</option>}
        </select>
      </div>
      <p
        className="note"
        data-trained-backend={run.backend}
        data-trained-pending={pending ? 'true' : 'false'}
        aria-live="polite"
      >
        {pending ? tt.computing : tt.forwardPass(run.backend, run.adapter, fmt(run.ms, 2))}
        {pending && (
          <>
            {' '}
            <button
              type="button"
              className="small"
              data-action="cancel-head"
              onClick={() => cancelPendingTrained(store)}
            >
              {tt.cancelPending}
            </button>
          </>
        )}
      </p>
      <TrainedSequence sel={sel} onText={(text) => pick({ text })} />
      <HeadGrid sel={inForce} run={run} onPick={(layer, head) => pick({ layer, head })} />
    </section>
  );
}

function HeadGrid({
  sel,
  run,
  onPick,
}: {
  sel: TrainedSelection;
  run: TrainedRun;
  onPick: (layer: number, head: number) => void;
}) {
  const t = useStrings();
  const tt = t.trained;
  const { views, causal } = useHeadViews(run);
  const active = useStore((s) => s.upload.active);
  // the row a token chip (TrainedSequence) or the comparison pins or previews, outlined in every head
  const pinnedRow = useStore((s) => s.ui.pinnedRow);
  const hoveredRow = useStore((s) => s.ui.hoveredRow);
  const gauss = useGaussianReference(active?.n ?? 1, active?.d ?? 1, active?.rms ?? 1, causal);
  const scale = useMemo(() => heatScale(robustMax(views.map((v) => v.a)).top, 'linear'), [views]);
  const at = FAVOR_M.indexOf(SUMMARY_M);
  const n = Math.round(Math.sqrt(views[0]?.a.length ?? 0));
  return (
    <>
      <div className="heatmaps head-picker" data-head-count={views.length}>
        {views.map((v) => {
          const on = v.layer === sel.layer && v.head === sel.head;
          const s = v.stats;
          return (
            <div
              key={`${v.layer}-${v.head}`}
              className={`head-pick${on ? ' selected' : ''}`}
              data-head-pick={`${v.layer}-${v.head}`}
              data-selected={on ? 'true' : 'false'}
              data-entropy={s.entropy}
              data-eff-rank={s.effectiveRank}
              data-favor-error={s.favorError.join(',')}
            >
              <Heatmap
                labels={t.charts}
                metric={`trained-head-${v.layer}-${v.head}`}
                title={tt.headTitle(v.layer, v.head)}
                data={v.a}
                cells={n}
                block={1}
                n={n}
                scale={scale}
                size={SIZE}
                pinnedRow={pinnedRow}
                hoveredRow={hoveredRow}
                onPickRow={() => onPick(v.layer, v.head)}
                resultId={`${sel.model}-${sel.text ?? sel.example}-${v.layer}-${v.head}`}
              />
              <p className="note">
                {tt.headLine(
                  fmt(s.entropy, 2),
                  fmt(s.effectiveRank, 2),
                  s.favorError.map((e) => fmt(e, 2)).join(' / '),
                  FAVOR_M.join(' / '),
                )}
              </p>
              <button
                type="button"
                className="small"
                aria-pressed={on}
                data-action="pick-head"
                onClick={() => onPick(v.layer, v.head)}
              >
                {on ? tt.selected : tt.pick(v.layer, v.head)}
              </button>
            </div>
          );
        })}
      </div>
      <p className="note" data-trained-summary="">
        {tt.summary({
          heads: views.length,
          entropy: span(views.map((v) => v.stats.entropy)),
          entropyUniform: views[0]?.stats.entropyUniform ?? 0,
          rank: span(views.map((v) => v.stats.effectiveRank)),
          favor: span(views.map((v) => v.stats.favorError[at]!)),
          gauss: { entropy: gauss.entropy, rank: gauss.effectiveRank, favor: gauss.favorError[at]! },
          m: SUMMARY_M,
        })}
      </p>
    </>
  );
}
