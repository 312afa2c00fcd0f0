/**
 * Domains and ticks of log axes. A log axis over a narrow range (one measured point, or three
 * timings within a few percent) gets no decade and no 1-2-5 value inside it, and d3 then offers
 * ticks like 290, 295, 300 that round to the same label. Such a domain is widened geometrically
 * around its centre until it spans a factor of `MIN_LOG_SPAN`, which always holds a 1-2-5 value.
 */
import type { ScaleContinuousNumeric } from 'd3';

/** Smallest hi/lo ratio of a log axis: ×/÷ 2 around the geometric centre. */
export const MIN_LOG_SPAN = 4;

/** [lo, hi] (0 < lo ≤ hi) widened geometrically to span at least MIN_LOG_SPAN; wider domains unchanged. */
export function widenLogDomain(lo: number, hi: number): [number, number] {
  if (!(lo > 0) || !(hi >= lo) || !Number.isFinite(hi)) return [lo, hi];
  if (hi / lo >= MIN_LOG_SPAN) return [lo, hi];
  const centre = Math.sqrt(lo * hi);
  const half = Math.sqrt(MIN_LOG_SPAN);
  return [centre / half, centre * half];
}

/** Tick values of a log axis: powers of ten when at least two are in range, else 1-2-5 values; at most `max`. */
export function logTicks(scale: ScaleContinuousNumeric<number, number>, max: number): number[] {
  const all = scale.ticks(max);
  const mant = (t: number) => t / 10 ** Math.floor(Math.log10(t) + 1e-9);
  const decades = all.filter((t) => Math.abs(mant(t) - 1) < 1e-6);
  let pick = decades.length >= 2 ? decades : all.filter((t) => [1, 2, 5].some((m) => Math.abs(mant(t) - m) < 1e-6));
  if (pick.length < 2) pick = all;
  const step = Math.max(1, Math.ceil(pick.length / max));
  return pick.filter((_, i) => i % step === 0);
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
 * by the guide values that lie within `headroom` times of it (values further out do not stretch it). A theory that is an RMS dominated by rare
 * draws can sit twenty decades above every run; letting it set the axis flattens the measured curves
 * into one line. Guides that leave the domain are named in `off`, for the figure to say so (the
 * chart's clip path cuts them at the edge; the data table keeps their values). No measured value:
 * no domain (the chart takes its own extent).
 */
export function measuredLogDomain(
  measured: Iterable<number>,
  guides: readonly GuideValues[],
  headroom = GUIDE_HEADROOM,
): { domain: [number, number] | undefined; off: string[] } {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of measured)
    if (Number.isFinite(v) && v > 0) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  if (!(lo <= hi)) return { domain: undefined, off: [] };
  const floor = lo / 1.5 / headroom;
  const ceil = hi * 1.5 * headroom;
  let dLo = lo / 1.5;
  let dHi = hi * 1.5;
  const off: string[] = [];
  for (const g of guides) {
    let leaves = false;
    for (let i = 0; i < g.y.length; i++) {
      const v = g.y[i]!;
      if (!(Number.isFinite(v) && v > 0)) continue;
      if (v > ceil || v < floor) {
        leaves = true; // drawn to the edge and cut there: stretching the axis toward it would only add empty decades
        continue;
      }
      dLo = Math.min(dLo, v);
      dHi = Math.max(dHi, v);
    }
    if (leaves) off.push(g.label);
  }
  return { domain: [dLo, dHi], off };
}
