/**
 * At the end of a comparison: each kind's learned attention on one held-out example, drawn with the
 * explainer's heatmap (one shared colour scale, so the kinds compare), for a chosen layer and head.
 */
import { useId, useMemo, useState } from 'react';
import { Heatmap } from '../charts/Heatmap';
import { heatScale, robustMax } from '../charts/palette';
import { ExportFigure } from '../charts/ExportFigure';
import type { RunInfo, RunMaps } from '../engine/training-protocol';
import type { TrainingSetup } from '../engine/training-setup';
import { kindName } from '../ui/training/kinds';
import { trainingFileName } from '../ui/training/TrainingCharts';
import { useStrings } from '../ui/strings';

const SIZE = 220;

export function TrainingMaps({
  maps,
  runs,
  setup,
  title,
  lead,
  label,
  tag,
}: {
  maps: RunMaps[];
  runs: RunInfo[];
  setup: TrainingSetup | null;
  /** the transfer view: its own heading and lead, runs named by role and told apart by `tag` */
  title?: string;
  lead?: string;
  label?: (run: RunInfo) => string;
  tag?: (run: RunInfo) => string;
}) {
  const t = useStrings();
  const tt = t.training;
  const layers = maps[0]?.maps.length ?? 0;
  const heads = maps[0]?.maps[0]?.length ?? 0;
  const [layer, setLayer] = useState(0);
  const [head, setHead] = useState(0);
  const [row, setRow] = useState<number | null>(null);
  const layerId = useId();
  const headId = useId();
  const l = Math.min(layer, Math.max(0, layers - 1));
  const h = Math.min(head, Math.max(0, heads - 1));
  // memoized on its inputs: a hover (setRow) re-renders, and the colour scale's robust max sorts every map
  const shown = useMemo(
    () =>
      maps.map((m) => ({ m, data: m.maps[l]?.[h] })).filter((x): x is { m: RunMaps; data: Float32Array } => !!x.data),
    [maps, l, h],
  );
  const scale = useMemo(() => heatScale(robustMax(shown.map((x) => x.data)).top, 'linear'), [shown]);
  if (!shown.length) return null;
  return (
    <section className="training-maps" data-training-maps={shown.length}>
      <h3>{title ?? tt.mapsTitle}</h3>
      <p className="note">{lead ?? tt.mapsLead}</p>
      <div className="inline-control">
        <label htmlFor={layerId}>{tt.layer}</label>
        <select id={layerId} value={l} onChange={(e) => setLayer(Number(e.target.value))}>
          {Array.from({ length: layers }, (_, i) => (
            <option key={i} value={i}>
              {i + 1}
            </option>
          ))}
        </select>
        <label htmlFor={headId}>{tt.head}</label>
        <select id={headId} value={h} onChange={(e) => setHead(Number(e.target.value))}>
          {Array.from({ length: heads }, (_, i) => (
            <option key={i} value={i}>
              {i + 1}
            </option>
          ))}
        </select>
      </div>
      <div className="heatmaps">
        {shown.map(({ m, data }) => {
          const run = runs[m.run];
          const name = run ? (label ?? ((r: RunInfo) => kindName(r.kind, t)))(run) : String(m.run);
          const id = run ? (tag ?? ((r: RunInfo) => r.kind))(run) : String(m.run);
          const mapTitle = tt.mapTitle(name, l, h);
          return (
            <ExportFigure
              key={m.run}
              title={mapTitle}
              labels={t.export}
              table={false}
              fileName={(ext) => trainingFileName(setup, `map-${id}-l${l + 1}-h${h + 1}`, ext)}
            >
              <Heatmap
                labels={t.charts}
                metric={`train-map-${id}`}
                title={mapTitle}
                data={data}
                cells={m.seqLen}
                block={1}
                n={m.seqLen}
                scale={scale}
                size={SIZE}
                pinnedRow={row}
                hoveredRow={null}
                onPickRow={setRow}
                resultId={`${m.run}-${l}-${h}`}
              />
            </ExportFigure>
          );
        })}
      </div>
    </section>
  );
}
