/**
 * Domains and ticks of log axes. A log axis over a narrow range (one measured point, or three
 * timings within a few percent) gets no decade and no 1-2-5 value inside it, and d3 then offers
 * ticks like 290, 295, 300 that round to the same label. Such a domain is widened geometrically
 * around its centre until it spans a factor of `MIN_LOG_SPAN`, which always holds a 1-2-5 value.
 */
import type { ScaleContinuousNumeric } from 'd3';
import { sciParts, writesDecimal } from './format';

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

/**
 * Tick values of a log axis, at most `max`: the powers of ten where three or more are in range; over
 * a shorter span the 1-2-5 values where all of them fit (0.8 … 50: 1 2 5 10 20 50, not just 1 and 10),
 * else the powers of ten if there are two, else every value d3 offers, thinned.
 */
export function logTicks(scale: ScaleContinuousNumeric<number, number>, max: number): number[] {
  const all = scale.ticks(max);
  const mant = (t: number) => t / 10 ** Math.floor(Math.log10(t) + 1e-9);
  const decades = all.filter((t) => Math.abs(mant(t) - 1) < 1e-6);
  const oneTwoFive = all.filter((t) => [1, 2, 5].some((m) => Math.abs(mant(t) - m) < 1e-6));
  let pick =
    decades.length >= 3
      ? decades
      : oneTwoFive.length >= 2 && oneTwoFive.length <= max
        ? oneTwoFive
        : decades.length >= 2
          ? decades
          : oneTwoFive;
  if (pick.length < 2) pick = all;
  const step = Math.max(1, Math.ceil(pick.length / max));
  return pick.filter((_, i) => i % step === 0);
}

/** A log axis's tick label: `base` as text, and where set an exponent drawn raised after it. */
export interface LogTickLabel {
  base: string;
  exp: string | null;
}

/**
 * The labels of a log axis's ticks, one notation per axis. Where every tick reads well as a decimal
 * (0.001 … 100,000) they are `format`'s; where any does not, every tick is written as a power of ten
 * (10⁻⁷ 10⁻⁵ 10⁻³ 10⁻¹, not 1e−7 1e−5 0.001 0.1 — two notations on one axis read as two scales) and
 * a 1-2-5 value as 2×10⁻⁵. The exponent is separate so the chart can raise it with the UI face's own
 * digits (the bundled Inter subset has no superscript digits).
 */
export function logTickLabels(ticks: readonly number[], format: (v: number) => string): LogTickLabel[] {
  const decimal = ticks.every((t) => !(t > 0) || writesDecimal(t));
  if (decimal) return ticks.map((t) => ({ base: format(t), exp: null }));
  return ticks.map((t) => {
    if (!(t > 0) || !Number.isFinite(t)) return { base: format(t), exp: null };
    const { mantissa, exponent } = sciParts(t, 3);
    return { base: mantissa === 1 ? '10' : `${format(mantissa)}×10`, exp: String(exponent).replace('-', '\u2212') };
  });
}
