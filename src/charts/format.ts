/** Number formatting shared by charts, tables and headline numbers. */
import { format } from 'd3';

const f3 = format('.3~g');
// 'r', not 'g': two significant digits in decimal notation (300, not 3e+2)
const f2 = format('.2~r');
const exp = format('.2~e');
const int = format(',d');

/** Compact, readable: 3 significant digits, exponent for very small/large values, ∞ and — for non-finite. */
export function fmt(v: number | null | undefined, digits: 2 | 3 = 3): string {
  if (v === null || v === undefined || Number.isNaN(v)) return '—';
  if (!Number.isFinite(v)) return v > 0 ? '∞' : '−∞';
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-3 || a >= 1e6)) return exp(v).replace('-', '−');
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
