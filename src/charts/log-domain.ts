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
