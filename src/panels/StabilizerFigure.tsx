/**
 * What the stabilizer does, shown where it matters: the entropy of the Performer's Â (positive
 * features) against the norm scale under the faithful max shift and under the reference
 * implementation's ε = 1e-6 (from the norm sweep), and the main panel's notice when rows of Â have an
 * all-zero normalizer. The figure is drawn once per page: beside the error against s in the error
 * panel; the sparsity panel, whose story it also tells, draws it only where the error panel is not on
 * the page (its embed, `hide=error`) and otherwise links to it.
 */
import { Figure } from '../ui/Figure';
import { useStrings } from '../ui/strings';
import { LineChart, type Series } from '../charts/LineChart';
import { EXACT_COLOR, MAP_COLORS } from '../charts/palette';
import type { NormSweepResult } from '../store/analyses';
import type { FeatureMapKind, Stabilizer } from '../core/types';
import { zeroNormalizerCause } from '../core/feature-maps';
import { useStore } from '../store/react';
import { figureAnchor } from '../ui/figure-focus';

/** The id of the error panel's entropy-vs-s heading (the sparsity panel links to it). */
export const ENTROPY_VS_SCALE_ID = figureAnchor('entropy-vs-scale');

/** Whether the error panel, and with it the entropy-vs-s figure with and without ε, is on this page. */
export function useErrorPanelOnPage(): boolean {
  return useStore((s) => s.ui.embed === null && !s.ui.hidden.includes('error'));
}

/** The sparsity panel's pointer to the error panel's entropy-vs-s figure (instead of drawing it a second time). */
export function StabilizerElsewhere() {
  const t = useStrings();
  return (
    <p className="note" data-stabilizer-elsewhere="">
      {t.stab.elsewhere}
      <a href={`#${ENTROPY_VS_SCALE_ID}`}>{t.error.normEntropyTitle}</a>
      {t.stab.elsewhereEnd}
    </p>
  );
}

export const REF_DASH = '6 3';

/** Entropy vs s: softmax A, positive Â without ε (solid), positive Â with ε (dashed). */
export function useStabilizerEntropySeries(nv: NormSweepResult | null): Series[] {
  const t = useStrings();
  if (!nv) return [];
  const by = (st: Stabilizer) => nv.stabilizers.find((x) => x.stabilizer === st)!;
  return [
    { id: 'exact', label: t.error.entropyExact, color: EXACT_COLOR, x: nv.scales, y: nv.entropyExact, points: true },
    {
      id: 'shift',
      label: t.stab.seriesShift,
      color: MAP_COLORS.positive,
      x: nv.scales,
      y: by('shift').entropy,
      points: true,
    },
    {
      id: 'ref',
      label: t.stab.seriesRef,
      color: MAP_COLORS.positive,
      dash: REF_DASH,
      x: nv.scales,
      y: by('ref').entropy,
      points: true,
    },
  ];
}

/**
 * Error of A vs s of positive features under the stabilizer the experiment does not use (the
 * experiment's own is the chart's main positive series), for the error panel's norm chart.
 */
export function useOtherStabilizerErrorSeries(nv: NormSweepResult | null, current: Stabilizer): Series[] {
  const t = useStrings();
  if (!nv) return [];
  return nv.stabilizers
    .filter((st) => st.stabilizer !== current)
    .map((st) => ({
      id: `stab-${st.stabilizer}`,
      label: st.stabilizer === 'ref' ? t.stab.errorRef : t.stab.errorShift,
      color: MAP_COLORS.positive,
      dash: st.stabilizer === 'ref' ? REF_DASH : '1 2',
      width: 1.5,
      x: nv.scales,
      y: st.error,
    }));
}

/** The one-figure, one-sentence explanation of how a 1e-6 constant flattens Â at large norms (title: t.stab.figureTitle, set by the caller). */
export function StabilizerFigure({ nv, scale, stale }: { nv: NormSweepResult; scale: number; stale: boolean }) {
  const t = useStrings();
  const series = useStabilizerEntropySeries(nv);
  return (
    <figure className="stabilizer-figure" data-figure="stabilizer">
      <Figure name="entropy-vs-scale-by-stabilizer" title={t.stab.figureTitle}>
        <LineChart
          labels={t.charts}
          series={series}
          xLabel={t.error.xScale}
          yLabel={t.error.yEntropy}
          ariaLabel={t.stab.figureTitle}
          tableCaption={t.stab.table}
          yDomain={[0, 1]}
          markers={[{ x: scale, label: `s = ${scale}` }]}
          dimmed={stale}
        />
      </Figure>
      <figcaption className="note">{t.stab.flattenNote}</figcaption>
    </figure>
  );
}

/** Rows of Â whose normalizer is exactly 0 (shown as 0 rows), and why under this map (main comparison, rank panel). */
export function ZeroNormalizerNotice({ rows, n, map }: { rows: number; n: number; map: FeatureMapKind }) {
  const t = useStrings();
  if (rows <= 0) return null;
  return (
    <p className="note warn" role="status" data-zero-normalizer-rows={rows}>
      {t.stab.zeroRows(rows, n, zeroNormalizerCause(map))}
    </p>
  );
}
