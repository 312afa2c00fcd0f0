/**
 * An embed of one figure (`?embed=<panel>&figure=<id>`, src/store/embed.ts EMBED_FIGURES): the panel
 * renders that figure alone — no lead, formula, headline numbers or other figures — and asks only
 * for the analyses it draws. `AnalysisFigure` filters itself by its name; the rest of a panel marks
 * its blocks with `PanelOnly` (prose and numbers of the whole panel) or `FigureOnly` (a figure drawn
 * without AnalysisFigure), and passes `shows(id)` as its analysis requests' `enabled`.
 */
import { useCallback, type ReactNode } from 'react';
import type { EmbedFigureId } from '../store/embed';
import { useStore } from '../store/react';
import { defaultRow, type PanelId } from '../store/store';
import { useStrings, type Strings } from './strings';
import type { FeatureMapKind } from '../core/types';

/** The id of a figure's heading on the full page: an embed's credit links there (`#figure-<id>`). */
export function figureAnchor(id: EmbedFigureId): string {
  return `figure-${id}`;
}

/** The figure shown alone, or null (the whole panel, and always on the full page). */
export function useFigureFocus(): EmbedFigureId | null {
  return useStore((s) => (s.ui.embed ? s.ui.embedFigure : null));
}

/** Whether a figure is shown: every one without a focus, else only the focused one. */
export function useShowsFigure(): (id: EmbedFigureId) => boolean {
  const focus = useFigureFocus();
  return useCallback((id: EmbedFigureId) => focus === null || focus === id, [focus]);
}

/** What belongs to the whole panel (its prose, its headline numbers): not in a one-figure embed. */
export function PanelOnly({ children }: { children: ReactNode }) {
  return useFigureFocus() === null ? children : null;
}

/** A figure drawn without AnalysisFigure: shown unless another figure is focused. */
export function FigureOnly({ id, children }: { id: EmbedFigureId; children: ReactNode }) {
  return useShowsFigure()(id) ? children : null;
}

/** Where a title names them: the sequence length, the map's name and the query row shown. */
interface TitleAt {
  n: number;
  map: FeatureMapKind;
  row: number;
}

/**
 * Each figure's title as its panel draws it (the same strings), for the embed dialog's list, an
 * embed's heading and its frame's title.
 */
const TITLES: Record<EmbedFigureId, (t: Strings, at: TitleAt) => string> = {
  heatmaps: (t, at) => t.main.heatmapsTitle(t.main.exact, t.main.approx(t.names.maps[at.map]), t.main.diff),
  'attention-row': (t, at) => t.main.rowTitle(at.row, false),
  'error-vs-m': (t) => t.error.sweepTitle,
  'error-vs-scale': (t) => t.error.normTitle,
  'entropy-vs-scale': (t) => t.error.normEntropyTitle,
  'error-vs-d': (t) => t.error.dTitle,
  'entry-error': (t) => t.error.blowTitle,
  'entropy-histogram': (t) => t.sparsity.histTitle,
  'top-k-mass': (t) => t.sparsity.topTitle,
  'entropy-vs-n': (t) => t.sparsity.nTitle,
  'local-truncation': (t) => t.sparsity.localTitle,
  'feature-map-curves': (t) => t.features.curvesTitle,
  'map-rows': (t, at) => t.features.rowsTitle(at.row),
  'beyond-error-vs-dim': (t) => t.beyond.dimTitle,
  'beyond-error-vs-scale': (t) => t.beyond.scaleTitle,
  'beyond-error-vs-time': (t, at) => t.beyond.timeTitle(at.n),
};

/** Figure titles at the current parameters (the query row shown, the map's name). */
export function useFigureTitles(): (id: EmbedFigureId) => string {
  const t = useStrings();
  const n = useStore((s) => s.params.n);
  const map = useStore((s) => s.params.featureMap);
  const row = useStore((s) => s.ui.pinnedRow ?? defaultRow(s.params.n));
  return useCallback((id: EmbedFigureId) => TITLES[id](t, { n, map, row }), [t, n, map, row]);
}

/**
 * What an embed shows, as its heading and its frame's title say it: the panel's name, and the
 * figure's title when it shows one figure alone.
 */
export function useEmbedName(): (panel: PanelId, figure: EmbedFigureId | null) => string {
  const names = useStrings().embedding.panelNames;
  const titleOf = useFigureTitles();
  return useCallback(
    (panel: PanelId, figure: EmbedFigureId | null) => {
      const name = names[panel] ?? panel;
      return figure ? `${name} — ${titleOf(figure)}` : name;
    },
    [names, titleOf],
  );
}

/** The id of a panel's section: a link (an embed's credit, a lecture note) lands there (`#panel-<id>`). */
export function panelAnchor(id: PanelId): string {
  return `panel-${id}`;
}
