/**
 * The line chart's domains and scales, pure: the extent of a chart's values (finite, and positive on
 * a log axis), a log axis led by measurements rather than by reference curves, its linear or log
 * scales, and the index of a series' point nearest a hovered x.
 * Kept apart from the component so the arithmetic reads (and tests) without React or the DOM.
 */
import { scaleLinear, scaleLog, type ScaleContinuousNumeric } from 'd3';
import { widenLogDomain } from './log-domain';

export type Scale = ScaleContinuousNumeric<number, number>;

/** What the domain helpers read of a series (LineChart's Series has these fields). */
export interface SeriesValues {
  x: ArrayLike<number>;
  y: ArrayLike<number>;
  band?: { lo: ArrayLike<number>; hi: ArrayLike<number> };
}

export function extent(values: Iterable<number>, log: boolean): [number, number] | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (!Number.isFinite(v) || (log && v <= 0)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo <= hi ? [lo, hi] : null;
}

/** How far past the measurements (a factor, both ways) a guide curve may stretch a measured log axis. */
export const GUIDE_HEADROOM = 10;

/** A curve drawn for reference (a theory, a bound) that should not set the axis on its own. */
export interface GuideValues {
  label: string;
  y: ArrayLike<number>;
}

/**
 * A log y-domain led by the measurements: their extent (finite, positive) padded by ×/÷ 1.5, stretched
 * by the guide values that lie within `headroom` times of it (values further out do not stretch it:
 * drawn to the edge and cut there by the chart's clip path, they would only add empty decades). A
 * theory that is an RMS dominated by rare draws can sit twenty decades above every run; letting it set
 * the axis flattens the measured curves into one line. Guides with values outside are named in `off`,
 * for the figure to say so (the data table keeps their values). No measured value: no domain (the
 * chart takes its own extent).
 */
export function measuredLogDomain(
  measured: Iterable<number>,
  guides: readonly GuideValues[],
  headroom = GUIDE_HEADROOM,
): { domain: [number, number] | undefined; off: string[] } {
  const runs = extent(measured, true);
  if (!runs) return { domain: undefined, off: [] };
  const [floor, ceil] = [runs[0] / 1.5 / headroom, runs[1] * 1.5 * headroom];
  const inside = (v: number) => v >= floor && v <= ceil;
  const kept = guides.flatMap((g) => Array.from(g.y).filter(inside));
  const [lo, hi] = extent([runs[0] / 1.5, runs[1] * 1.5, ...kept], true)!;
  const off = guides.filter((g) => Array.from(g.y).some((v) => Number.isFinite(v) && v > 0 && !inside(v)));
  return { domain: [lo, hi], off: off.map((g) => g.label) };
}

export function* allY(series: SeriesValues[]): Iterable<number> {
  for (const s of series) {
    for (let i = 0; i < s.y.length; i++) yield s.y[i]!;
    if (s.band) {
      for (let i = 0; i < s.band.lo.length; i++) yield s.band.lo[i]!;
      for (let i = 0; i < s.band.hi.length; i++) yield s.band.hi[i]!;
    }
  }
}
export function* allX(series: SeriesValues[]): Iterable<number> {
  for (const s of series) for (let i = 0; i < s.x.length; i++) yield s.x[i]!;
}

export function makeScale(
  kind: 'linear' | 'log',
  domain: [number, number],
  range: [number, number],
  pad: boolean,
): Scale {
  if (kind === 'log') {
    return scaleLog()
      .domain(widenLogDomain(...domain))
      .range(range);
  }
  let [a, b] = domain;
  if (a === b) {
    a -= Math.abs(a) * 0.1 || 1;
    b += Math.abs(b) * 0.1 || 1;
  }
  const s = scaleLinear().domain([a, b]).range(range);
  return pad ? s.nice() : s;
}

export function nearestIndex(xs: ArrayLike<number>, x: number, log: boolean): number {
  let best = -1;
  let dist = Infinity;
  const tx = log ? Math.log(x) : x;
  for (let i = 0; i < xs.length; i++) {
    const v = xs[i]!;
    if (!Number.isFinite(v) || (log && v <= 0)) continue;
    const dd = Math.abs((log ? Math.log(v) : v) - tx);
    if (dd < dist) {
      dist = dd;
      best = i;
    }
  }
  return best;
}
