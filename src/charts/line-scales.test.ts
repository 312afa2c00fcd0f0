import { describe, expect, it } from 'vitest';
import { measuredLogDomain } from './line-scales';

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
