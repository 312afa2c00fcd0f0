/** Number formatting shared by charts, tables and headline numbers. */
import { format } from 'd3';

const f3 = format('.3~g');
// 'r', not 'g': two significant digits in decimal notation (300, not 3e+2)
const f2 = format('.2~r');
const exp = format('.2~e');
const int = format(',d');

/** Whether `fmt` writes |v| = `a` in decimal notation (0 and 0.001 … 999,999); outside, an exponent form. */
export function writesDecimal(a: number): boolean {
  return a === 0 || (a >= 1e-3 && a < 1e6);
}

/** Compact, readable: 3 significant digits, exponent for very small/large values, ∞ and — for non-finite. */
export function fmt(v: number | null | undefined, digits: 2 | 3 = 3): string {
  if (v === null || v === undefined || Number.isNaN(v)) return '—';
  if (!Number.isFinite(v)) return v > 0 ? '∞' : '−∞';
  const a = Math.abs(v);
  if (!writesDecimal(a)) return exp(v).replace(/-/g, '−');
  if (a >= 1000) return int(Math.round(v)).replace('-', '−');
  return (digits === 2 ? f2 : f3)(v).replace('-', '−');
}

export function fmtInt(v: number): string {
  return Number.isFinite(v) ? int(Math.round(v)) : '—';
}

export function fmtPct(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return fmt(v);
  return `${f3(v * 100)}%`;
}

export function fmtMs(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  return v < 10 ? `${v.toFixed(1)} ms` : v < 10_000 ? `${Math.round(v)} ms` : `${(v / 1000).toFixed(1)} s`;
}

/** The superscript minus and digits, and the plain characters they raise (U+2212 for the minus). */
export const SUPERSCRIPT_CHARS = '⁻⁰¹²³⁴⁵⁶⁷⁸⁹';
export const PLAIN_CHARS = '−0123456789';

const superscript = (k: number): string =>
  [...String(k).replace('-', '−')].map((c) => SUPERSCRIPT_CHARS[PLAIN_CHARS.indexOf(c)]).join('');

/**
 * a > 0 as mantissa × 10^exponent, the mantissa in [1, 10) rounded to `precision` significant digits
 * (one that rounds to 10 carries into the exponent; a float a hair below a power counts as that power).
 */
export function sciParts(a: number, precision: number): { mantissa: number; exponent: number } {
  let exponent = Math.floor(Math.log10(a) + 1e-9);
  let mantissa = Number((a / 10 ** exponent).toPrecision(precision));
  if (mantissa >= 10) {
    mantissa /= 10;
    exponent += 1;
  }
  return { mantissa, exponent };
}

/** a > 0 as mantissa×10^k (trailing zeros dropped), a bare power where the mantissa is 1. */
function sci(a: number, precision: number): string {
  const { mantissa, exponent } = sciParts(a, precision);
  return mantissa === 1 ? `10${superscript(exponent)}` : `${mantissa}×10${superscript(exponent)}`;
}

/** A positive number in scientific notation as prose writes it, to 2 significant digits: 9.4×10⁻⁵, 10⁻³ (τ = 10⁻⁶). */
export function fmtSci(v: number): string {
  if (!(v > 0) || !Number.isFinite(v)) return fmt(v);
  return sci(v, 2);
}

/**
 * `fmt` for prose and headline numbers: where `fmt` would write an exponent form (8.8e+6, 1e−7), the
 * notation of the page's text and its axes (8.8×10⁶, 10⁻⁷); `fmt` everywhere else. Tables keep `fmt`.
 */
export function fmtText(v: number | null | undefined, digits: 2 | 3 = 3): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return fmt(v);
  const a = Math.abs(v);
  if (writesDecimal(a)) return fmt(v, digits);
  return `${v < 0 ? '−' : ''}${sci(a, digits)}`;
}
