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
 * One side of an element (`clientWidth` / `clientHeight` at first, then the observed content box,
 * floored), kept current with a ResizeObserver (charts redraw on resize, not per frame); `fallback`
 * until it is measured.
 */
function useSide<T extends HTMLElement>(side: Side, fallback: number, min: number): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [value, setValue] = useState(fallback);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    // clientWidth is 0 inside a panel the browser skips (content-visibility: auto, off screen) — the min
    // clamp then drew the chart 120 px wide until it scrolled into view; offsetWidth forces its layout
    const size = side === 'width' ? el.clientWidth || el.offsetWidth : el.clientHeight || el.offsetHeight;
    setValue(Math.max(min, Math.floor(size)) || fallback);
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
