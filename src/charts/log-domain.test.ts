import { scaleLog } from 'd3';
import { describe, expect, it } from 'vitest';
import { fmt } from './format';
import { logTickLabels, logTicks, MIN_LOG_SPAN, widenLogDomain } from './log-domain';

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

describe('logTickLabels', () => {
  const text = (ticks: number[]) =>
    logTickLabels(ticks, (v) => fmt(v)).map((l) => (l.exp ? `${l.base}^${l.exp}` : l.base));

  it('keeps decimal labels where every tick reads as a decimal (0.001 … 100,000)', () => {
    expect(text([0.001, 0.1, 10, 1000, 100000])).toEqual(['0.001', '0.1', '10', '1,000', '100,000']);
  });

  it('writes every tick of an axis as a power of ten once one tick would need an exponent (no 1e−7 beside 0.001)', () => {
    expect(text([1e-7, 1e-5, 0.001, 0.1])).toEqual(['10^−7', '10^−5', '10^−3', '10^−1']);
    const s = scaleLog().domain([3e-8, 0.5]).range([0, 400]);
    expect(text(logTicks(s, 5))).toEqual(['10^−6', '10^−4', '10^−2']);
    expect(text([1, 100, 10000, 1e6])).toEqual(['10^0', '10^2', '10^4', '10^6']);
  });

  it('writes a 1-2-5 tick among powers as mantissa × 10^k (with the minus sign, not a hyphen)', () => {
    expect(text([2e-5, 5e-5, 1e-4])).toEqual(['2×10^−5', '5×10^−5', '10^−4']);
  });

  it('rounds ticks a float error away from a power (1e-7 · (1 ∓ 2⁻⁵²)) to that power', () => {
    expect(text([1e-7 * (1 - 2 ** -52), 1e-6 * (1 + 2 ** -52)])).toEqual(['10^−7', '10^−6']);
  });
});

describe('logTicks over a short span', () => {
  it('labels 1-2-5 values where fewer than three powers of ten are in range and all of them fit', () => {
    const s = scaleLog().domain([0.8, 50]).range([240, 0]);
    expect(logTicks(s, 6)).toEqual([1, 2, 5, 10, 20, 50]);
    const m = scaleLog().domain([4, 512]).range([0, 600]);
    expect(logTicks(m, 8)).toEqual([5, 10, 20, 50, 100, 200, 500]);
  });

  it('falls back to the two powers of ten where the 1-2-5 values would not fit', () => {
    const s = scaleLog().domain([0.8, 50]).range([120, 0]);
    expect(logTicks(s, 3)).toEqual([1, 10]);
  });

  it('keeps powers of ten over three decades or more', () => {
    const t = scaleLog().domain([0.5, 2000]).range([0, 600]);
    expect(logTicks(t, 8)).toEqual([1, 10, 100, 1000]);
  });
});
