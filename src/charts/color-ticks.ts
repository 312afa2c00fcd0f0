/**
 * The labelled ticks under a heat scale's colour bar. A linear bar is labelled at 0, ¼, ½, ¾ and its
 * top. A log bar spans LOG_DECADES decades below its top, which is a data value (the top 0.5% of A),
 * so the decades from the top (0.94, 0.094, 0.0094, 9.38e−4, ≤ 9.38e−5) are odd numbers in two
 * notations; it is labelled instead at the powers of ten inside it, where a reader looks them up,
 * and at its bottom with what the first colour stands for (≤ 9.4×10⁻⁵).
 */
import { fmt, fmtSci } from './format';
import type { HeatScale } from './palette';

export interface ColorTick {
  /** 0 … 1 along the bar */
  pos: number;
  text: string;
  /** which end of the label sits at `pos` (the bar's ends keep theirs inside it) */
  align: 'start' | 'middle' | 'end';
}

/** A power of ten closer than this (as a fraction of the bar) to the floor's label would overlap it. */
const FLOOR_ROOM = 0.3;
/** A tick past this is drawn ending at its position, so it stays within the bar. */
const END_ZONE = 0.9;

export function colorTicks(scale: Pick<HeatScale, 'mode' | 'lo' | 'hi'>): ColorTick[] {
  if (scale.mode !== 'log' || !(scale.lo > 0) || !(scale.hi > scale.lo)) {
    return Array.from({ length: 5 }, (_, k) => ({
      pos: k / 4,
      text: fmt((scale.hi * k) / 4, 2),
      align: k === 0 ? 'start' : k === 4 ? 'end' : 'middle',
    }));
  }
  const span = Math.log10(scale.hi / scale.lo);
  const ticks: ColorTick[] = [{ pos: 0, text: `≤ ${fmtSci(scale.lo)}`, align: 'start' }];
  for (let k = Math.ceil(Math.log10(scale.lo) - 1e-9); 10 ** k <= scale.hi * (1 + 1e-9); k++) {
    const pos = Math.log10(10 ** k / scale.lo) / span;
    if (pos < FLOOR_ROOM) continue;
    ticks.push({ pos: Math.min(1, pos), text: fmtSci(10 ** k), align: pos > END_ZONE ? 'end' : 'middle' });
  }
  return ticks;
}
