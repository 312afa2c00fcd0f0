/**
 * The line chart's axes, drawn by d3 into the two groups the chart renders (`xAxisRef`,
 * `yAxisRef`): as many ticks as the plot's size allows, a log axis's on powers of ten or 1-2-5
 * values (logTicks). Redrawn only when a scale or the size changes (the chart keeps its scales
 * while the domains' numbers stay).
 */
import { axisBottom, axisLeft, format, select } from 'd3';
import { useEffect, useRef } from 'react';
import { fmt } from './format';
import type { Scale } from './line-scales';
import { logTicks } from './log-domain';

/**
 * A linear axis's ticks that are whole numbers: over a short domain (n = 1 or 2: positions 0 … 1)
 * d3's ticks fall between the integers, and an integer format printed them as 0 0 0 1 1 1.
 */
export function integerTicks(scale: { ticks(count: number): number[] }, count: number): number[] {
  return scale.ticks(count).filter(Number.isInteger);
}

const INTEGER = format('~d');

export function useLineAxes(
  xs: Scale,
  ys: Scale,
  innerW: number,
  innerH: number,
  xLog: boolean,
  yLog: boolean,
  integerX: boolean | undefined,
): { xAxisRef: React.RefObject<SVGGElement | null>; yAxisRef: React.RefObject<SVGGElement | null> } {
  const xAxisRef = useRef<SVGGElement>(null);
  const yAxisRef = useRef<SVGGElement>(null);
  useEffect(() => {
    if (!xAxisRef.current || !yAxisRef.current) return;
    const ticksX = Math.max(2, Math.min(8, Math.floor(innerW / 70)));
    const xa = axisBottom(xs);
    if (xLog) xa.tickValues(logTicks(xs, ticksX)).tickFormat((v) => fmt(v as number));
    else if (integerX) xa.tickValues(integerTicks(xs, ticksX)).tickFormat((v) => INTEGER(v as number));
    else xa.ticks(ticksX, '~g');
    select(xAxisRef.current).call(xa);
    const ticksY = Math.max(2, Math.min(7, Math.floor(innerH / 40)));
    const ya = axisLeft(ys);
    if (yLog) ya.tickValues(logTicks(ys, ticksY)).tickFormat((v) => fmt(v as number, 2));
    else ya.ticks(ticksY).tickFormat((v) => fmt(v as number));
    select(yAxisRef.current).call(ya);
  }, [xs, ys, innerW, innerH, xLog, yLog, integerX]);
  return { xAxisRef, yAxisRef };
}
