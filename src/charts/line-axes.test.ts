import { describe, expect, it } from 'vitest';
import { scaleLinear } from 'd3';
import { integerTicks } from './line-axes';

describe('integerTicks', () => {
  const ticks = (hi: number, count: number) => integerTicks(scaleLinear().domain([0, hi]), count);

  it('keeps only whole positions over a short domain (n = 1, 2: no 0 0 0 1 1 1)', () => {
    expect(ticks(1, 3)).toEqual([0, 1]);
    expect(ticks(1, 5)).toEqual([0, 1]);
    expect(ticks(2, 5)).toEqual([0, 1, 2]);
  });

  it('is d3’s ticks where they are whole already', () => {
    expect(ticks(256, 5)).toEqual([0, 50, 100, 150, 200, 250]);
    expect(ticks(255, 8)).toEqual(scaleLinear().domain([0, 255]).ticks(8));
  });
});
