/**
 * The lecture's learning slide: the training comparison (the page's configured one, or the
 * backend's default MQAR recall gap) trained live when the lecturer presses Train: the training
 * accuracy per attention kind, mean over seeds with their band, filling the slide.
 */
import { useMemo } from 'react';
import { fmtPct } from '../charts/format';
import { lectureSetup } from '../engine/training-setup';
import { useStore } from '../store/react';
import { summarize } from '../store/training-summary';
import { kindName } from '../ui/training/kinds';
import { TrainingCharts } from '../ui/training/TrainingCharts';
import { TrainingButtons, TrainingProgressLine } from '../ui/training/TrainingRun';
import { useStrings } from '../ui/strings';
import { chartSize, Frame, type Box } from './figure-frame';
import type { Step } from './story';

export function TrainingFigure({ step, box }: { step: Step; box: Box }) {
  const t = useStrings();
  const runs = useStore((s) => s.training.runs);
  const curves = useStore((s) => s.training.curves);
  const status = useStore((s) => s.training.status);
  const ran = useStore((s) => s.training.ran);
  const configured = useStore((s) => s.training.setup);
  const backendKind = useStore((s) => s.backend.info?.kind);
  const fallback = useMemo(() => lectureSetup(backendKind === 'cpu' ? 'cpu' : 'webgpu'), [backendKind]);
  const setup = ran ?? configured ?? fallback;
  const groups = useMemo(() => summarize({ runs, curves }), [runs, curves]);
  const { height } = chartSize(box);
  const stat = groups
    .filter((g) => g.best && g.latest)
    .map((g) => `${kindName(g.kind, t)} ${fmtPct(g.latest!.accuracy)}`)
    .join(' · ');
  return (
    <Frame
      kind={step.figure}
      // current once the live curves have points (a full comparison takes a while; it keeps drawing)
      ready={status === 'done' || (status !== 'error' && curves.some((c) => c.steps.length > 0))}
      controls={
        <div className="slide-training-run">
          <TrainingButtons lecture />
          <TrainingProgressLine compact />
        </div>
      }
      stat={stat || t.training.slideNote}
    >
      <div className="slide-chart">
        <TrainingCharts groups={groups} setup={setup} only="accuracy" bare fill height={height} />
      </div>
    </Frame>
  );
}
