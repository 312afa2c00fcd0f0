import { scaleLog } from 'd3';
import { describe, expect, it } from 'vitest';
import { fmt } from './format';
import { logTicks, measuredLogDomain, MIN_LOG_SPAN, widenLogDomain } from './log-domain';

describe('widenLogDomain', () => {
  it('widens a narrow domain geometrically around its centre to span MIN_LOG_SPAN', () => {
    const [lo, hi] = widenLogDomain(288, 304);
    expect(hi / lo).toBeCloseTo(MIN_LOG_SPAN, 10);
    expect(Math.sqrt(lo * hi)).toBeCloseTo(Math.sqrt(288 * 304), 8);
    expect(lo).toBeLessThan(288);
    expect(hi).toBeGreaterThan(304);
  });

  it('widens a single value (lo = hi)', () => {
    const [lo, hi] = widenLogDomain(1.06, 1.06);
    expect(lo).toBeCloseTo(0.53, 10);
    expect(hi).toBeCloseTo(2.12, 10);
  });

  it('leaves a domain that already spans a factor of MIN_LOG_SPAN unchanged', () => {
    expect(widenLogDomain(1, 1000)).toEqual([1, 1000]);
    expect(widenLogDomain(5, 20)).toEqual([5, 20]);
  });
});

describe('logTicks on a widened domain', () => {
  it('gives at least two distinct tick labels for timings within a few percent of each other (one layer point each)', () => {
    const s = scaleLog().domain(widenLogDomain(288, 304)).range([200, 0]);
    const labels = logTicks(s, 5).map((t) => fmt(t, 2));
    expect(labels.length).toBeGreaterThanOrEqual(2);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).toContain('200');
  });

  it('prefers powers of ten when the domain holds two of them', () => {
    const s = scaleLog().domain([0.3, 20000]).range([200, 0]);
    expect(logTicks(s, 6)).toEqual([1, 10, 100, 1000, 10000]);
  });
});

describe('measuredLogDomain', () => {
  const theory = (label: string, ...y: number[]) => ({ label, y });

  it('spans the measurements padded by ×/÷ 1.5 when no guide leaves them', () => {
    const r = measuredLogDomain([0.2, 0.8, 0.5], [theory('t', 0.3, 0.6)]);
    expect(r.domain![0]).toBeCloseTo(0.2 / 1.5, 12);
    expect(r.domain![1]).toBeCloseTo(0.8 * 1.5, 12);
    expect(r.off).toEqual([]);
  });

  it('lets a guide stretch the axis by its values within the headroom, and names it when it has values further out', () => {
    const near = measuredLogDomain([1, 2], [theory('near', 5, 20)]);
    expect(near.domain![1]).toBe(20);
    expect(near.off).toEqual([]);
    // an RMS theory twenty decades above the runs (error vs d at s = 1.5): one decade of headroom, then off the chart
    const far = measuredLogDomain([0.8, 1.2], [theory('far', 1.5, 1e5, 1e27), theory('near', 1.1)], 10);
    // the far values stretch nothing: the axis ends at the runs (and the guide's own values that fit)
    expect(far.domain![1]).toBeCloseTo(1.2 * 1.5, 12);
    expect(far.domain![0]).toBeCloseTo(0.8 / 1.5, 12);
    expect(far.off).toEqual(['far']);
  });

  it('clamps a guide below the measurements the same way', () => {
    const r = measuredLogDomain([1, 2], [theory('low', 1e-9, 0.2)], 10);
    expect(r.domain![0]).toBe(0.2);
    expect(r.off).toEqual(['low']);
  });

  it('ignores zeros, negatives and non-finite values; with no measurement it leaves the domain to the chart', () => {
    const r = measuredLogDomain([0, -1, NaN, Infinity, 3], [theory('t', 0, NaN, -2)]);
    expect(r.domain).toEqual([2, 4.5]);
    expect(r.off).toEqual([]);
    expect(measuredLogDomain([0, NaN], [theory('t', 1e9)])).toEqual({ domain: undefined, off: [] });
  });
});
