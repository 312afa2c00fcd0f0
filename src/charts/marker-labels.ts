/**
 * The labels of a line chart's vertical reference lines: measured once drawn (through a canvas, not
 * the SVG's layout), then placed in rows (label-rows.ts) so nearby lines' labels never overlap.
 */
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { placeLabels, type LabelPlacement } from './label-rows';
import { drawnTextWidth, fontOf } from './measure-text';

/** Width per character of a marker label before it is measured (11 px text). */
const LABEL_CHAR_PX = 6.5;
/** A marker label's font size before it is read (styles.css .marker-label). */
const LABEL_FONT_PX = 11;

/** A marker label's width in its computed font (read once per chart into `font`), through a canvas. */
function measureLabel(el: SVGTextElement | null, label: string, font: { current: string | null }): number {
  if (!el) return 0;
  font.current ??= fontOf(el);
  return drawnTextWidth(el, label, font.current);
}

/**
 * Row, anchor and width of each marker's label in a plot `innerW` wide, and the labels' font size;
 * `markerText` holds the drawn text elements (the chart sets `markerText.current[i]` in each label's
 * ref) that are measured.
 */
export function useMarkerLabels(
  markers: readonly { x: number; label: string }[],
  xs: (x: number) => number,
  innerW: number,
): {
  markerText: { current: (SVGTextElement | null)[] };
  placed: (LabelPlacement & { width: number })[];
  fontPx: number;
} {
  const markerText = useRef<(SVGTextElement | null)[]>([]);
  const [labelWidths, setLabelWidths] = useState<number[]>([]);
  const markerKey = markers.map((m) => m.label).join('\u0000');
  const labelFont = useRef<string | null>(null);
  const [fontPx, setFontPx] = useState(LABEL_FONT_PX);
  useLayoutEffect(() => {
    const w = markers.map((m, i) => {
      const measured = measureLabel(markerText.current[i] ?? null, m.label, labelFont);
      return measured > 0 ? measured : m.label.length * LABEL_CHAR_PX;
    });
    setLabelWidths((prev) => (prev.length === w.length && prev.every((v, i) => v === w[i]) ? prev : w));
    // a slide draws the labels larger (styles.css): the boxes under them follow
    const px = Number(/([\d.]+)px/.exec(labelFont.current ?? '')?.[1]);
    if (px > 0) setFontPx(px);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the labels' text decides their width
  }, [markerKey]);
  const placed = useMemo(() => {
    const labels = markers.map((m, i) => ({
      x: xs(m.x),
      width: labelWidths[i] ?? m.label.length * LABEL_CHAR_PX,
    }));
    return placeLabels(labels, innerW).map((p, i) => ({ ...p, width: labels[i]!.width }));
  }, [markers, labelWidths, xs, innerW]);
  return { markerText, placed, fontPx };
}
