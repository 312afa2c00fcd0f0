/**
 * Room for a line chart's axis titles, from the size of its tick labels. The page draws ticks at
 * 11 px and titles at 12 px, where fixed offsets fit; a slide draws them at 16–20 px and more, where
 * the same offsets put the x title on its tick labels and the y title on a wide one ("100,000",
 * "1e+11") — on every projected figure. The offsets and the margins that hold them grow with the
 * measured fonts and the widest y tick label, never below the page's.
 */
import { useEffect, useRef, type Dispatch, type RefObject, type SetStateAction } from 'react';
import { canvasTextWidth } from '../export/text-width';
import { drawnTextWidth, fontOf } from './measure-text';

export interface AxisRoom {
  /** baseline of the x title below the axis line */
  xLabelY: number;
  /** baseline of the (rotated) y title left of the axis line (negative) */
  yLabelX: number;
  /** the plot's left and bottom margins */
  left: number;
  bottom: number;
  /** the y title's font size where its CSS size would run past the plot's height (a long title on a short slide chart), else null */
  yTitlePx: number | null;
}

/** The page's fixed layout (11 px ticks, 12 px titles, y tick labels up to ~32 px wide). */
export const PAGE_ROOM: Readonly<AxisRoom> = Object.freeze({
  xLabelY: 34,
  yLabelX: -46,
  left: 58,
  bottom: 42,
  yTitlePx: null,
});

/** d3's tick length (6) and its label padding (3). */
const TICK = 9;
/** A face's ascent and descent, as fractions of its size (generous: Inter's are 0.97 and 0.24). */
const ASCENT = 0.97;
const DESCENT = 0.25;

/**
 * The room for ticks of `tickPx`, titles of `labelPx` and y tick labels up to `yTickWidth` px wide:
 * the x title's top a 2 px gap below the tick labels' bottom, the y title's descent side 2 px left of
 * the widest y tick label, the margins around both; each at least PAGE_ROOM's. A y title
 * `yTitleLength` px long (at `labelPx`) that is longer than `yExtent` (the plot's height and its top
 * margin: what it is centred on) gets the font size that fits it there, instead of running into the
 * heading above the chart.
 */
export function axisRoom(
  tickPx: number,
  labelPx: number,
  yTickWidth: number,
  yTitleLength = 0,
  yExtent = Infinity,
): AxisRoom {
  const xLabelY = Math.max(PAGE_ROOM.xLabelY, Math.ceil(TICK + (0.71 + DESCENT) * tickPx + ASCENT * labelPx + 2));
  const bottom = Math.max(PAGE_ROOM.bottom, Math.ceil(xLabelY + DESCENT * labelPx + 2));
  const yOff = Math.max(-PAGE_ROOM.yLabelX, Math.ceil(TICK + yTickWidth + DESCENT * labelPx + 2));
  const left = Math.max(PAGE_ROOM.left, Math.ceil(yOff + labelPx));
  const yTitlePx = yTitleLength > yExtent ? Math.floor((2 * labelPx * yExtent) / yTitleLength) / 2 : null;
  return { xLabelY, yLabelX: -yOff, left, bottom, yTitlePx };
}

/** The widest of the tick labels in `font` (canvas; without one, the elements measure themselves). */
function widest(texts: SVGTextElement[], font: string): number {
  let w = 0;
  for (const t of texts) w = Math.max(w, drawnTextWidth(t, t.textContent ?? '', font));
  return w;
}

/**
 * Measures the chart's axis room after each redraw of its axes (`deps`: what redraws them; declare
 * this after the axes' hook, so it runs after their effect) and hands it to `setRoom` (the chart's
 * state, initially PAGE_ROOM, read before the scales): the tick labels' and the title's computed font
 * sizes, the y tick labels' widest text. A new room only when it differs (a page chart measures
 * PAGE_ROOM and never re-renders for it).
 */
export function useMeasureAxisRoom(
  yAxisRef: RefObject<SVGGElement | null>,
  xTitleRef: RefObject<SVGTextElement | null>,
  yTitle: string,
  yExtent: number,
  setRoom: Dispatch<SetStateAction<AxisRoom>>,
  deps: readonly unknown[],
): void {
  const fonts = useRef<{ tick: string; title: string; tickPx: number; labelPx: number } | null>(null);
  useEffect(() => {
    const ticks = [...(yAxisRef.current?.querySelectorAll<SVGTextElement>('.tick text') ?? [])];
    const title = xTitleRef.current;
    if (!ticks.length || !title || typeof getComputedStyle !== 'function') return;
    if (!fonts.current) {
      fonts.current = {
        tick: fontOf(ticks[0]!),
        title: fontOf(title),
        tickPx: parseFloat(getComputedStyle(ticks[0]!).fontSize) || 11,
        labelPx: parseFloat(getComputedStyle(title).fontSize) || 12,
      };
    }
    const f = fonts.current;
    // without a canvas the title's length is unknown: then it keeps its size
    const titleLength = canvasTextWidth(yTitle, f.title) ?? 0;
    const next = axisRoom(f.tickPx, f.labelPx, widest(ticks, f.tick), titleLength, yExtent);
    setRoom((prev) =>
      prev.xLabelY === next.xLabelY &&
      prev.yLabelX === next.yLabelX &&
      prev.left === next.left &&
      prev.bottom === next.bottom &&
      prev.yTitlePx === next.yTitlePx
        ? prev
        : next,
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's deps are what redraws the axes
  }, deps);
}
