/**
 * Colours. Series use the Okabe–Ito palette (distinguishable with the common colour-vision
 * deficiencies) plus line dashes, so no series is told apart by hue alone. Heatmaps use viridis
 * (perceptually uniform, monotone in lightness, colour-blind safe) through a 256-entry lookup table.
 */
import { color as d3color, interpolateViridis } from 'd3';
import type { FeatureMapKind, ProjectionKind } from '../core/types';
import type { EstimatorSpec } from '../core/estimators';
import type { SymbolName } from './symbols';
import { heatIndexer, NEGATIVE_COLOR } from './heat-colour';

export { NEGATIVE_COLOR };

export const OKABE_ITO = {
  black: '#000000',
  orange: '#E69F00',
  sky: '#56B4E9',
  green: '#009E73',
  yellow: '#F0E442',
  blue: '#0072B2',
  vermillion: '#D55E00',
  purple: '#CC79A7',
  grey: '#7a7a7a',
} as const;

/** "exact" is drawn in the text colour (var(--fg)), so it stays visible in both themes. */
export const EXACT_COLOR = 'var(--fg)';

/**
 * Okabe–Ito's yellow on the dark theme; on the light one a darker yellow (#B5A200, styles.css
 * --series-yellow): #F0E442 on the light panel has a contrast of 1.2:1, a line or an asterisk in it
 * all but vanishes (worse on a projector); #B5A200 has 2.4:1, Okabe–Ito orange's 2.1:1.
 */
export const SERIES_YELLOW = 'var(--series-yellow)';

export const MAP_COLORS: Record<FeatureMapKind, string> = {
  positive: OKABE_ITO.blue,
  hyperbolic: OKABE_ITO.green,
  trig: OKABE_ITO.vermillion,
  relu: OKABE_ITO.purple,
  elu1: OKABE_ITO.orange,
  exp: OKABE_ITO.sky,
  'double-softmax': OKABE_ITO.grey,
  oprf: OKABE_ITO.blue,
  taylor2: OKABE_ITO.orange,
  cosformer: SERIES_YELLOW,
  hedgehog: '#8c564b',
};

export const MAP_DASH: Record<FeatureMapKind, string | undefined> = {
  positive: undefined,
  hyperbolic: '6 3',
  trig: '2 2',
  relu: '8 3 2 3',
  elu1: '4 4',
  exp: '1 3',
  'double-softmax': '10 4',
  oprf: '12 3 3 3',
  taylor2: '1 2',
  cosformer: '5 2 1 2',
  hedgehog: '12 3 2 3 2 3',
};

/**
 * Each map's point symbol: positive and FAVOR++ share blue, 1 + elu and Taylor-2 orange, so where a
 * series is only points (no line, no dash) the shape tells them apart. One symbol per map.
 */
export const MAP_SYMBOL: Record<FeatureMapKind, SymbolName> = {
  positive: 'circle',
  hyperbolic: 'square',
  trig: 'triangle',
  relu: 'diamond',
  elu1: 'cross',
  exp: 'star',
  'double-softmax': 'wye',
  oprf: 'circle-open',
  taylor2: 'times',
  cosformer: 'asterisk',
  hedgehog: 'triangle-open',
};

/** Positive features under another projection than the experiment's (the beyond panel's variants): outlines in positive's blue, one per projection. */
export const PROJECTION_SYMBOL: Record<ProjectionKind, SymbolName> = {
  'orthogonal-chi': 'plus',
  'orthogonal-sqrtd': 'square-open',
  iid: 'diamond-open',
  simplex: 'triangle-open',
};

/** An estimator's colour and symbol: its map's, and for a projection variant of positive features the projection's symbol. */
export function estimatorMark(e: EstimatorSpec): { color: string; symbol: SymbolName } {
  return {
    color: MAP_COLORS[e.map],
    symbol: e.id === e.map ? MAP_SYMBOL[e.map] : PROJECTION_SYMBOL[e.projection!],
  };
}

export interface HeatScale {
  mode: 'linear' | 'log';
  lo: number;
  hi: number;
  /** RGB lookup, 256 entries */
  lut: Uint8ClampedArray;
  /** index 0 … 255 of a value (values ≤ lo → 0, ≥ hi → 255), −1 for negatives */
  index(v: number): number;
  css(v: number): string;
}

const LUT = (() => {
  const lut = new Uint8ClampedArray(256 * 3);
  for (let i = 0; i < 256; i++) {
    const c = d3color(interpolateViridis(i / 255))!.rgb();
    lut[i * 3] = c.r;
    lut[i * 3 + 1] = c.g;
    lut[i * 3 + 2] = c.b;
  }
  return lut;
})();

/** Log scales span four decades below the maximum. */
export const LOG_DECADES = 4;

/**
 * Robust top of a linear colour scale: the q-quantile of the finite non-negative values of the
 * arrays (one pass for the max, one for a 2,048-bin histogram), so a few spikes do not flatten the
 * picture; larger values are drawn in the top colour. Also returns the true max.
 */
export function robustMax(arrays: ArrayLike<number>[], q = 0.995): { top: number; max: number } {
  let max = 0;
  let count = 0;
  for (const a of arrays)
    for (let i = 0; i < a.length; i++) {
      const v = a[i]!;
      if (v > max && Number.isFinite(v)) max = v;
    }
  if (!(max > 0)) return { top: 1, max: 0 };
  const bins = 2048;
  const hist = new Uint32Array(bins);
  for (const a of arrays)
    for (let i = 0; i < a.length; i++) {
      const v = a[i]!;
      if (!(v >= 0) || !Number.isFinite(v)) continue;
      hist[Math.min(bins - 1, Math.floor((v / max) * bins))]!++;
      count++;
    }
  const target = q * count;
  let acc = 0;
  for (let b = 0; b < bins; b++) {
    acc += hist[b]!;
    if (acc >= target) return { top: Math.max(((b + 1) / bins) * max, max * 1e-6), max };
  }
  return { top: max, max };
}

export function heatScale(max: number, mode: 'linear' | 'log'): HeatScale {
  const hi = max > 0 && Number.isFinite(max) ? max : 1;
  const lo = mode === 'log' ? hi * 10 ** -LOG_DECADES : 0;
  const index = heatIndexer(mode, lo, hi);
  const css = (v: number): string => {
    const i = index(v);
    if (i < 0) return NEGATIVE_COLOR;
    return `rgb(${LUT[i * 3]},${LUT[i * 3 + 1]},${LUT[i * 3 + 2]})`;
  };
  return { mode, lo, hi, lut: LUT, index, css };
}
