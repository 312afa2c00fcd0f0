import { scaleLog } from 'd3';
import { describe, expect, it } from 'vitest';
import { fmt } from './format';
import { logTicks, MIN_LOG_SPAN, widenLogDomain } from './log-domain';

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
