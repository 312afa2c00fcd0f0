/**
 * The line chart's axes, drawn by d3 into the two groups the chart renders (`xAxisRef`,
 * `yAxisRef`): as many ticks as the plot's size allows, a log axis's on powers of ten or 1-2-5
 * values (logTicks). Redrawn only when a scale or the size changes (the chart keeps its scales
 * while the domains' numbers stay).
 */
import { axisBottom, axisLeft, format, select, type Axis } from 'd3';
import { useEffect, useRef } from 'react';
import { fmt } from './format';
import type { Scale } from './line-scales';
import { logTickLabels, logTicks } from './log-domain';

/**
 * A linear axis's ticks that are whole numbers: over a short domain (n = 1 or 2: positions 0 … 1)
 * d3's ticks fall between the integers, and an integer format printed them as 0 0 0 1 1 1.
 */
export function integerTicks(scale: { ticks(count: number): number[] }, count: number): number[] {
  return scale.ticks(count).filter(Number.isInteger);
}

const INTEGER = format('~d');

/**
 * Puts a log axis's ticks on `axis` and returns what draws their labels once the axis is drawn:
 * d3 writes each label's base, this adds the exponent (if any) as a raised, smaller <tspan> — d3's
 * next redraw of a tick replaces its text and with it the tspan.
 */
function logAxis(axis: Axis<number>, scale: Scale, count: number, digits: 2 | 3): (g: SVGGElement) => void {
  const ticks = logTicks(scale, count);
  const labels = new Map(logTickLabels(ticks, (v) => fmt(v, digits)).map((l, i) => [ticks[i]!, l]));
  axis.tickValues(ticks).tickFormat((v) => labels.get(v as number)!.base);
  return (g) => {
    select(g)
      .selectAll<SVGTextElement, number>('.tick text')
      .each(function (v) {
        const exp = labels.get(v)?.exp;
        if (exp) select(this).append('tspan').attr('class', 'tick-exp').attr('dy', '-0.45em').text(exp);
      });
  };
}

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
    const xa = axisBottom<number>(xs);
    let xExp: ((g: SVGGElement) => void) | null = null;
    if (xLog) xExp = logAxis(xa, xs, ticksX, 3);
    else if (integerX) xa.tickValues(integerTicks(xs, ticksX)).tickFormat((v) => INTEGER(v));
    else xa.ticks(ticksX, '~g');
    select(xAxisRef.current).call(xa);
    xExp?.(xAxisRef.current);
    const ticksY = Math.max(2, Math.min(7, Math.floor(innerH / 40)));
    const ya = axisLeft<number>(ys);
    const yExp = yLog ? logAxis(ya, ys, ticksY, 2) : null;
    if (!yLog) ya.ticks(ticksY).tickFormat((v) => fmt(v));
    select(yAxisRef.current).call(ya);
    yExp?.(yAxisRef.current);
  }, [xs, ys, innerW, innerH, xLog, yLog, integerX]);
  return { xAxisRef, yAxisRef };
}
