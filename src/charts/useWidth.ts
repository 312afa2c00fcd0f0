import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** Width of an element, kept current with a ResizeObserver (charts redraw on resize, not per frame). */
export function useWidth<T extends HTMLElement>(fallback = 320): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(Math.max(120, Math.floor(el.clientWidth)) || fallback);
    if (typeof ResizeObserver === 'undefined') return;
    let frame = 0;
    const ro = new ResizeObserver((entries) => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const w = Math.floor(entries[0]?.contentRect.width ?? 0);
        if (w > 0) setWidth((old) => (Math.abs(old - w) >= 1 ? w : old));
      });
    });
    ro.observe(el);
    return () => {
      cancelAnimationFrame(frame);
      ro.disconnect();
    };
  }, [fallback]);
  return [ref, width];
}
