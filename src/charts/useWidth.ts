import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

type Side = 'width' | 'height';

/**
 * Calls `onResize` whenever one of `els` changes size, at most once a frame (so a layout change it
 * causes lands in the next frame, not in a ResizeObserver loop); returns the cleanup.
 */
export function observeResize(els: readonly Element[], onResize: (entries: ResizeObserverEntry[]) => void): () => void {
  if (typeof ResizeObserver === 'undefined') return () => {};
  let frame = 0;
  const ro = new ResizeObserver((entries) => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => onResize(entries));
  });
  for (const el of els) ro.observe(el);
  return () => {
    cancelAnimationFrame(frame);
    ro.disconnect();
  };
}

/**
 * The element's content-box side in CSS px, unrounded: what a ResizeObserver reports as contentRect,
 * read before the first observation arrives — the border box from getBoundingClientRect, which lays the
 * element out on demand, less its padding and border. Inside a panel the browser skips (content-
 * visibility: auto, off screen) the other readings fail: clientWidth and the computed width read 0
 * (the min clamp then drew the chart 120 px wide, and the skipped panel's observer stays silent until
 * it is shown — progressive.spec compared such a chart with a fresh load's), and offsetWidth is rounded
 * to whole px (a chart 1 px wider than the same chart measured by its observer).
 */
function contentSize(el: HTMLElement, side: Side): number {
  const cs = getComputedStyle(el);
  const px = (v: string) => parseFloat(v) || 0;
  // offsetWidth first: in a skipped panel the first reading after a mount can still be the stale 0 (a
  // getBoundingClientRect or computed width read first said 0, the readings after it 300); offsetWidth
  // brings the layout up to date, the box then gives the unrounded side
  void el.offsetWidth;
  const box = el.getBoundingClientRect();
  return side === 'width'
    ? box.width - px(cs.paddingLeft) - px(cs.paddingRight) - px(cs.borderLeftWidth) - px(cs.borderRightWidth)
    : box.height - px(cs.paddingTop) - px(cs.paddingBottom) - px(cs.borderTopWidth) - px(cs.borderBottomWidth);
}

/**
 * One side of an element (its content box, floored: `contentSize` at first, then as observed), kept
 * current with a ResizeObserver (charts redraw on resize, not per frame); `fallback` until it is measured.
 */
function useSide<T extends HTMLElement>(side: Side, fallback: number, min: number): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [value, setValue] = useState(fallback);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setValue(Math.max(min, Math.floor(contentSize(el, side))) || fallback);
    return observeResize([el], (entries) => {
      const v = Math.floor(entries[0]?.contentRect[side] ?? 0);
      if (v > 0) setValue((old) => (Math.abs(old - Math.max(min, v)) >= 1 ? Math.max(min, v) : old));
    });
  }, [side, fallback, min]);
  return [ref, value];
}

/** Width of an element (at least 120 px). */
export function useWidth<T extends HTMLElement>(fallback = 320): [RefObject<T | null>, number] {
  return useSide<T>('width', fallback, 120);
}

/** Height of an element (at least `min` px), e.g. the plot area a chart is given to fill. */
export function useHeight<T extends HTMLElement>(fallback: number, min = 40): [RefObject<T | null>, number] {
  return useSide<T>('height', fallback, min);
}
