/**
 * Text widths through one canvas's measureText kept for the page: charts place labels by their size
 * (an SVG text's getComputedTextLength forces a layout of the page every time a label changes, every
 * step of a slider; measureText does not), and an export wraps its caption by it. Here, below both.
 */
let measureCtx: CanvasRenderingContext2D | null | undefined;

/** `text`'s width in `font` (a CSS font shorthand), or null where there is no 2D canvas. */
export function canvasTextWidth(text: string, font: string): number | null {
  if (measureCtx === undefined)
    measureCtx = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!measureCtx) return null;
  measureCtx.font = font;
  return measureCtx.measureText(text).width;
}
