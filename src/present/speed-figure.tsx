/**
 * The lecture's speed slide: the blog's figure — time per head vs n, log-log, for exact, Performer
 * and dummy attention with the measured and FLOP-model crossovers — measured live on this machine.
 * Timing is heavy, so it runs when the lecturer presses Run (a fixed 10 s budget, attention only),
 * with the speed panel's progress line and Cancel; points appear as they are measured.
 */
import { useMemo } from 'react';
import { useStrings } from '../ui/strings';
import { fmtText } from '../charts/format';
import { SpeedFlopChart, SpeedTimeChart } from '../ui/speed/SpeedCharts';
import { crossoverText, RunStatus } from '../ui/speed/SpeedRunStatus';
import { speedView } from '../ui/speed/speed-view';
import { shownResult, useSpeedRun } from '../ui/speed/useSpeedRun';
import { useStore } from '../store/react';
import { chartSize, Frame, type Box } from './figure-frame';
import type { Step } from './story';

/** Budget of the slide's run: long enough to pass the crossover on a software rasterizer. */
export const SLIDE_SPEED_BUDGET_S = 10;

export function SpeedFigure({ step, box }: { step: Step; box: Box }) {
  const t = useStrings();
  const p = t.present;
  const s = t.speed;
  const params = useStore((st) => st.params);
  const backend = useStore((st) => st.backend.info);
  const { state, run, cancel } = useSpeedRun();
  const running = state.status === 'running';
  const budgetMs = SLIDE_SPEED_BUDGET_S * 1000;
  const shown = useMemo(() => shownResult(state, backend), [state, backend]);
  const view = useMemo(() => (shown ? speedView(shown) : null), [shown]);
  // a run for other d, m than the slide's is dimmed until it is run again (live points too)
  const current = !!shown && shown.d === params.d && shown.m === params.m;
  const budget = s.budgetOption(SLIDE_SPEED_BUDGET_S);
  // the chart may use the slide's width (fewer legend rows); it fills the height the Run line,
  // its legend and the stat line leave
  const { height } = chartSize(box);
  const cross = view ? crossoverText(view.crossover, s) : null;
  const stat =
    view && shown && !running
      ? current
        ? p.speedStat(
            cross?.text ?? '—',
            fmtText(view.rate.exact),
            fmtText(view.rate.bidir),
            shown.backend === 'webgpu' ? 'WebGPU' : 'CPU',
          )
        : p.speedStale
      : running
        ? null
        : p.speedIdle;
  return (
    <Frame
      kind={step.figure}
      ready={state.status === 'done' && current}
      controls={
        <div className="slide-speed-run" data-speed-state={state.status}>
          {running ? (
            <RunStatus state={state} onCancel={cancel} />
          ) : (
            <button
              type="button"
              className="primary"
              data-action="slide-speed-run"
              disabled={!backend}
              onClick={() => run({ d: params.d, m: params.m, budgetMs, layer: false })}
            >
              {state.result ? p.speedRerun(budget) : p.speedRun(budget)}
            </button>
          )}
          {state.status === 'error' && (
            <p className="note warn" role="alert">
              {s.failed(state.error ?? '')}
            </p>
          )}
        </div>
      }
      stat={stat}
    >
      {shown && view ? (
        <div className="slide-chart">
          <SpeedTimeChart result={shown} view={view} dimmed={!current} height={height} fill notes={[]} model={false} />
        </div>
      ) : (
        // before a run the FLOP counts and their crossover, so the slide argues before it measures
        !running && (
          <div className="slide-chart" data-speed-flops="">
            <SpeedFlopChart d={params.d} m={params.m} height={height} fill notes={[]} />
          </div>
        )
      )}
    </Frame>
  );
}
