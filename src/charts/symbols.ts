/**
 * Point symbols: the shape that tells apart series drawn as points only (a scatter of estimators,
 * a deterministic map's single point), where there is no line to carry a dash and two series may
 * share a colour (the Okabe–Ito palette has eight). d3's seven fill symbols and seven stroke
 * symbols, drawn by `symbolMark` at one area so that no shape looks heavier than another.
 */
import {
  symbol,
  symbolAsterisk,
  symbolCircle,
  symbolCross,
  symbolDiamond,
  symbolDiamond2,
  symbolPlus,
  symbolSquare,
  symbolSquare2,
  symbolStar,
  symbolTimes,
  symbolTriangle,
  symbolTriangle2,
  symbolWye,
  type SymbolType,
} from 'd3';

const SYMBOLS = {
  circle: { type: symbolCircle, fill: true },
  square: { type: symbolSquare, fill: true },
  triangle: { type: symbolTriangle, fill: true },
  diamond: { type: symbolDiamond, fill: true },
  cross: { type: symbolCross, fill: true },
  star: { type: symbolStar, fill: true },
  wye: { type: symbolWye, fill: true },
  'circle-open': { type: symbolCircle, fill: false },
  'square-open': { type: symbolSquare2, fill: false },
  'diamond-open': { type: symbolDiamond2, fill: false },
  'triangle-open': { type: symbolTriangle2, fill: false },
  plus: { type: symbolPlus, fill: false },
  times: { type: symbolTimes, fill: false },
  asterisk: { type: symbolAsterisk, fill: false },
} as const satisfies Record<string, { type: SymbolType; fill: boolean }>;

export type SymbolName = keyof typeof SYMBOLS;
export const SYMBOL_NAMES = Object.keys(SYMBOLS) as SymbolName[];

/**
 * Symbol areas (px²): a point-only series' marks (its whole drawing), a line's points (they only mark
 * its samples), a key beside a label (legend, read-out, table).
 */
export const SYMBOL_AREA = { point: 56, line: 30, key: 48 } as const;

/** Paths by symbol and area: a series draws one path at every point of every render. */
const paths = new Map<string, string>();

/** A symbol's path centred on (0, 0), of `area` px² (d3's size). */
export function symbolPath(name: SymbolName, area: number): string {
  const key = `${name} ${area}`;
  let d = paths.get(key);
  if (d === undefined) paths.set(key, (d = symbol(SYMBOLS[name].type, area)()!));
  return d;
}

/** SVG attributes of a symbol at (x, y): a filled shape, or an outline of the colour (stroke symbols). */
export function symbolMark(
  name: SymbolName,
  x: number,
  y: number,
  color: string,
  area: number,
): { d: string; transform: string; fill: string; stroke: string; strokeWidth: number } {
  const fill = SYMBOLS[name].fill;
  return {
    d: symbolPath(name, area),
    transform: `translate(${x},${y})`,
    fill: fill ? color : 'none',
    stroke: fill ? 'none' : color,
    strokeWidth: fill ? 0 : 1.5,
  };
}
