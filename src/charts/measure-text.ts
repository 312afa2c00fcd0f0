/**
 * Text widths for charts that place labels by their size, through the canvas of
 * src/export/text-width.ts (not the SVG's layout). The font is the element's computed one, read once
 * per chart.
 */
import { canvasTextWidth } from '../export/text-width';

/** The CSS font shorthand an element is drawn in (getComputedStyle: read it once, not per frame). */
export function fontOf(el: Element): string {
  const cs = getComputedStyle(el);
  return `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
}

/** `text`'s width in `font` through the canvas, else as the drawn element `el` measures itself. */
export function drawnTextWidth(el: SVGTextElement, text: string, font: string): number {
  return (
    canvasTextWidth(text, font) ?? (typeof el.getComputedTextLength === 'function' ? el.getComputedTextLength() : 0)
  );
}
