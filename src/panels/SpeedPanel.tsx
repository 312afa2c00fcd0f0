/**
 * Panel 6 — speed: the Performer blog's headline figure measured live (time vs n, log-log, exact vs
 * Performer vs dummy attention), bytes and GFLOP/s vs n, the FLOP model and both crossovers, and a
 * one-Transformer-layer view. Runs only on demand (Run / Cancel), in the engine worker, on the
 * page's backend: the GPU kernels on WebGPU, the CPU twins on the fallback (and says which).
 */
import type { AttentionParams } from '../core/types';
import { useId, useMemo, useState } from 'react';
import { useStrings } from '../ui/strings';
import { fmt, fmtInt, fmtMs } from '../charts/format';
import { ATTENTION_METHODS, LAYER_METHODS, type SpeedMethod } from '../core/speed-model';
import { tableCsv } from '../export/csv';
import { downloadBlob } from '../export/download';
import { useStore } from '../store/react';
import { Metric, Panel, withDeferredParams } from './common';
import { SpeedCharts, SpeedFlopChart } from '../ui/speed/SpeedCharts';
import { Figure } from '../ui/Figure';
import { SpeedLayer } from './SpeedLayer';
import { RESULT_COLUMNS, resultRows, speedView } from '../ui/speed/speed-view';
import { crossoverText, RunStatus } from '../ui/speed/SpeedRunStatus';
import { shownResult, useSpeedRun } from '../ui/speed/useSpeedRun';

const BLOG_URL = 'https://research.google/blog/rethinking-attention-with-performers/';
export const SPEED_BUDGETS_S = [2, 10, 30, 120] as const;

export const SpeedPanel = withDeferredParams('SpeedPanel', SpeedPanelBody);

function SpeedPanelBody({ params }: { params: AttentionParams }) {
  const t = useStrings();
  const s = t.speed;
  const backend = useStore((st) => st.backend.info);
  const [budgetS, setBudgetS] = useState<number>(10);
  const [layer, setLayer] = useState(true);
  const { state, run, cancel } = useSpeedRun();
  const budgetId = useId();
  const layerId = useId();
  const running = state.status === 'running';

  // while running, the live points replace the previous result in the charts
  const shown = useMemo(() => shownResult(state, backend), [state, backend]);
  const view = useMemo(() => (shown ? speedView(shown) : null), [shown]);
  const live = running && state.live.length > 0;
  const r = state.result;

  const start = () => run({ d: params.d, m: params.m, budgetMs: budgetS * 1000, layer });
  const download = () => {
    if (!r) return;
    downloadBlob(
      new Blob([tableCsv(RESULT_COLUMNS, resultRows(r))], { type: 'text/csv;charset=utf-8' }),
      `performer-speed-d${r.d}-m${r.m}-${r.backend}.csv`,
    );
  };
  const cross = view ? crossoverText(view.crossover, s) : { value: null };
  const label = (m: SpeedMethod) => s.methods[m] ?? m;

  return (
    <Panel id="speed" title={s.title} lead={s.lead} formula={s.formula} formulaNote={s.formulaNote}>
      <div className="speed-controls">
        <div className="inline-control">
          <label htmlFor={budgetId}>{s.budget}</label>
          <select
            id={budgetId}
            value={budgetS}
            disabled={running}
            data-ui="speedBudget"
            onChange={(e) => setBudgetS(Number(e.target.value))}
          >
            {SPEED_BUDGETS_S.map((b) => (
              <option key={b} value={b}>
                {s.budgetOption(b)}
              </option>
            ))}
          </select>
          <span className="help">{s.budgetHelp}</span>
        </div>
        <div className="inline-control">
          <input
            id={layerId}
            type="checkbox"
            checked={layer}
            disabled={running}
            onChange={(e) => setLayer(e.target.checked)}
          />
          <label htmlFor={layerId}>{s.layerToggle}</label>
        </div>
        <div className="inline-control">
          <button
            type="button"
            className="primary"
            data-action="speed-run"
            disabled={running || !backend}
            onClick={start}
          >
            {r ? s.rerun : s.run}
          </button>
          <span className="help">{s.heavy}</span>
        </div>
      </div>
      <div className="speed-status" data-speed-state={state.status}>
        {running && <RunStatus state={state} onCancel={cancel} />}
        {state.status === 'cancelled' && <p className="note">{s.cancelled}</p>}
        {state.status === 'error' && (
          <p className="note warn" role="alert">
            {s.failed(state.error ?? '')}
          </p>
        )}
        {state.status === 'done' && r && <p className="note took">{s.took(fmtMs(r.elapsedMs), fmtMs(r.budgetMs))}</p>}
      </div>
      {!shown || !view ? (
        <div data-speed-empty="">
          <p className="note">{s.idle}</p>
          <h3>{s.flopTitle}</h3>
          <Figure name="speed-flops" title={s.flopTitle}>
            <SpeedFlopChart d={params.d} m={params.m} height={300} />
          </Figure>
        </div>
      ) : (
        <div
          data-speed-result={live ? 'live' : 'done'}
          data-speed-points={[...ATTENTION_METHODS, ...LAYER_METHODS].map((m) => `${m}:${view.by[m].length}`).join(',')}
        >
          <p className="note" data-speed-timing={shown.timing}>
            {shown.timing === 'cpu' ? s.timing.cpu(shown.device) : s.timing[shown.timing](shown.device)}
          </p>
          {live && <p className="note">{s.liveNote}</p>}
          <div className="metrics" data-speed-backend={shown.backend}>
            <Metric
              name="speed-crossover"
              label={s.crossover}
              value={cross.value}
              text={cross.value === null ? undefined : cross.text}
            />
            <Metric
              name="speed-crossover-model"
              label={s.crossoverModel}
              value={view.predicted}
              format={(v) => `≈ ${fmtInt(v)}`}
            />
            <Metric name="speed-gflops-exact" label={s.gflopsExact} value={view.rate.exact} format={(v) => fmt(v)} />
            <Metric
              name="speed-gflops-performer"
              label={s.gflopsPerformer}
              value={view.rate.bidir}
              format={(v) => fmt(v)}
            />
            <Metric name="speed-gflops-causal" label={s.gflopsCausal} value={view.rate.causal} format={(v) => fmt(v)} />
            <Metric name="speed-max-n-exact" label={s.maxN(label('exact'))} value={view.maxN.exact} format={fmtInt} />
            <Metric
              name="speed-max-n-performer"
              label={s.maxN(label('performer-bidirectional'))}
              value={view.maxN['performer-bidirectional']}
              format={fmtInt}
            />
          </div>
          <SpeedCharts result={shown} view={view} dimmed={false} />
          {!live && Object.keys(shown.stops).length > 0 && (
            <details className="speed-stops">
              <summary>{s.stops}</summary>
              <ul>
                {[...ATTENTION_METHODS, ...LAYER_METHODS].map((m) => {
                  const st = shown.stops[m];
                  if (!st) return null;
                  const text =
                    st.kind === 'budget'
                      ? s.stopBudget(label(m), fmtInt(st.nextN), fmtMs(st.predictedMs))
                      : st.kind === 'range'
                        ? s.stopRange(label(m), fmtInt(st.maxN))
                        : s.stopError(label(m), fmtInt(st.n), st.message);
                  return (
                    <li key={m} data-stop={m} data-stop-kind={st.kind}>
                      {text}
                    </li>
                  );
                })}
              </ul>
            </details>
          )}
          {r && !live && (
            <button type="button" className="small" data-action="speed-csv" onClick={download}>
              {s.downloadAll}
            </button>
          )}
          <SpeedLayer result={shown} view={view} dimmed={false} />
          <p className="note speed-cite">
            {s.citePrefix}{' '}
            <a href={BLOG_URL} target="_blank" rel="noopener noreferrer">
              “Rethinking Attention with Performers”
            </a>
            , {s.blogCite}.
          </p>
        </div>
      )}
    </Panel>
  );
}
