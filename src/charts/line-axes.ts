/**
 * The line chart's axes, drawn by d3 into the two groups the chart renders (`xAxisRef`,
 * `yAxisRef`): as many ticks as the plot's size allows, a log axis's on powers of ten or 1-2-5
 * values (logTicks). Redrawn only when a scale or the size changes (the chart keeps its scales
 * while the domains' numbers stay).
 */
import { axisBottom, axisLeft, select } from 'd3';
import { useEffect, useRef } from 'react';
import { fmt } from './format';
import type { Scale } from './line-scales';
import { logTicks } from './log-domain';

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
    else xa.ticks(ticksX, integerX ? '~d' : '~g');
    select(xAxisRef.current).call(xa);
    const ticksY = Math.max(2, Math.min(7, Math.floor(innerH / 40)));
    const ya = axisLeft(ys);
    if (yLog) ya.tickValues(logTicks(ys, ticksY)).tickFormat((v) => fmt(v as number, 2));
    else ya.ticks(ticksY).tickFormat((v) => fmt(v as number));
    select(yAxisRef.current).call(ya);
  }, [xs, ys, innerW, innerH, xLog, yLog, integerX]);
  return { xAxisRef, yAxisRef };
}
