/**
 * Colouring a heatmap: values → RGBA pixels through a 256-entry RGB lookup table. Pure (no DOM, no
 * d3), so the colouring worker (heat-colour-worker.ts) and the main-thread fallback run the same code.
 */

/** What a HeatScale is, as plain data that can cross to a worker. */
export interface HeatScaleSpec {
  mode: 'linear' | 'log';
  lo: number;
  hi: number;
  /** RGB lookup, 256 entries */
  lut: Uint8ClampedArray;
}

/** index 0 … 255 of a value (values ≤ lo → 0, ≥ hi → 255), −1 for negatives. */
export function heatIndexer(mode: 'linear' | 'log', lo: number, hi: number): (v: number) => number {
  const logLo = Math.log(lo);
  const span = mode === 'log' ? Math.log(hi) - logLo : hi;
  return (v: number): number => {
    if (v < 0) return -1;
    const t = mode === 'log' ? (v <= lo ? 0 : (Math.log(v) - logLo) / span) : v / span;
    return Math.max(0, Math.min(255, Math.round(t * 255)));
  };
}

/** Colour of negative entries (trig features can make Â negative): outside viridis, clearly "other". */
export const NEGATIVE_COLOR = '#ff00aa';
const NEG = [1, 3, 5].map((i) => parseInt(NEGATIVE_COLOR.slice(i, i + 2), 16)) as [number, number, number];

/** cells × cells values (row-major) → cells × cells RGBA pixels; NaN and negatives in NEGATIVE_COLOR. */
export function colourCells(
  data: ArrayLike<number>,
  cells: number,
  scale: HeatScaleSpec,
): Uint8ClampedArray<ArrayBuffer> {
  const px = new Uint8ClampedArray(cells * cells * 4);
  const index = heatIndexer(scale.mode, scale.lo, scale.hi);
  const lut = scale.lut;
  for (let k = 0; k < cells * cells; k++) {
    const v = data[k]!;
    const i = Number.isNaN(v) ? -1 : index(v);
    const o = k * 4;
    if (i < 0) {
      px[o] = NEG[0];
      px[o + 1] = NEG[1];
      px[o + 2] = NEG[2];
    } else {
      px[o] = lut[i * 3]!;
      px[o + 1] = lut[i * 3 + 1]!;
      px[o + 2] = lut[i * 3 + 2]!;
    }
    px[o + 3] = 255;
  }
  return px;
}
