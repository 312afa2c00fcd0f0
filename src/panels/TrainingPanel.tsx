/**
 * Panel "Learning": a tiny transformer trained in the browser with exact softmax and linear
 * attentions side by side. The settings (TrainingControls) live in the store and the
 * URL (`train=`); the comparison runs in the training worker; this panel draws its live curves,
 * the latest numbers per kind, and at the end the results, the "why" sentence, the learned
 * attention maps and the downloads.
 */
import { useMemo } from 'react';
import { defaultSetup } from '../engine/training-setup';
import { useStore } from '../store/react';
import { summarize } from '../store/training-summary';
import { TrainingCharts } from '../ui/training/TrainingCharts';
import { TrainingButtons, TrainingNumbers, TrainingProgressLine } from '../ui/training/TrainingRun';
import { useStrings } from '../ui/strings';
import { Panel } from './common';
import { TrainingControls } from './TrainingControls';
import { TrainingMaps } from './TrainingMaps';
import { TrainingResults } from './TrainingResults';
import { TrainingSeries } from './TrainingSeries';
import { TrainingTransfer } from './TrainingTransfer';

export function TrainingPanel() {
  const t = useStrings();
  const tt = t.training;
  const configured = useStore((s) => s.training.setup);
  const backendKind = useStore((s) => s.backend.info?.kind);
  const runs = useStore((s) => s.training.runs);
  const curves = useStore((s) => s.training.curves);
  const ran = useStore((s) => s.training.ran);
  const maps = useStore((s) => s.training.maps);
  const status = useStore((s) => s.training.status);
  // no `train=`: the default comparison of the page's backend (the CPU one is smaller)
  const setup = useMemo(
    () => configured ?? defaultSetup(backendKind === 'cpu' ? 'cpu' : 'webgpu'),
    [configured, backendKind],
  );
  const groups = useMemo(() => summarize({ runs, curves }), [runs, curves]);
  const shownSetup = ran ?? setup;
  const kinds = new Set(runs.map((r) => r.kind)).size;

  return (
    <Panel id="training" title={tt.title} lead={tt.lead}>
      <TrainingControls setup={setup} />
      <TrainingButtons />
      <TrainingProgressLine />
      {runs.length > 0 && shownSetup?.transfer && (
        <div data-training-runs={runs.length}>
          <TrainingTransfer setup={shownSetup} />
        </div>
      )}
      {runs.length > 0 && shownSetup && !shownSetup.transfer && (
        <div data-training-runs={runs.length}>
          <p className="note">{tt.runsNote(runs.length, kinds, shownSetup.seeds)}</p>
          <TrainingNumbers groups={groups} />
          <TrainingCharts groups={groups} setup={shownSetup} />
          <TrainingResults groups={groups} setup={shownSetup} />
          {status === 'done' && maps && <TrainingMaps maps={maps} runs={runs} setup={shownSetup} />}
        </div>
      )}
      <TrainingSeries usesM={setup.kinds.some((k) => /^(positive|hedgehog)/.test(k))} />
    </Panel>
  );
}
