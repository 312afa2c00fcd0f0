/**
 * Text widths through a canvas's measureText, for charts that place labels by their size: reading an
 * SVG text's getComputedTextLength forces a layout of the page every time a label changes (every step
 * of a slider), measureText does not. The font is the element's computed one, read once per chart.
 */
let measureCtx: CanvasRenderingContext2D | null | undefined;

/** The CSS font shorthand an element is drawn in (getComputedStyle: read it once, not per frame). */
export function fontOf(el: Element): string {
  const cs = getComputedStyle(el);
  return `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
}

/** `text`'s width in `font`, or null where there is no 2D canvas (the caller measures the element itself). */
export function canvasTextWidth(text: string, font: string): number | null {
  if (measureCtx === undefined)
    measureCtx = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!measureCtx) return null;
  measureCtx.font = font;
  return measureCtx.measureText(text).width;
}

/** `text`'s width in `font` through the canvas, else as the drawn element `el` measures itself. */
export function drawnTextWidth(el: SVGTextElement, text: string, font: string): number {
  return (
    canvasTextWidth(text, font) ?? (typeof el.getComputedTextLength === 'function' ? el.getComputedTextLength() : 0)
  );
}
