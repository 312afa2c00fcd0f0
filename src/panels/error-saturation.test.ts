import { describe, expect, it } from 'vitest';
import { SATURATED_ERROR, saturatedSweep } from './error-saturation';

describe('saturatedSweep', () => {
  it('is true when every point of the sweep is at least the floor (the defaults: positive features near 1 at every m)', () => {
    expect(saturatedSweep([1.18, 1.15, 1.12, 1.07, 0.997])).toBe(true);
    expect(saturatedSweep([0.82, 0.9, 1.03], SATURATED_ERROR)).toBe(true);
  });

  it('is false as soon as one point is below the floor (s = 0.5: the error falls from 0.83 to 0.11)', () => {
    expect(saturatedSweep([0.829, 0.623, 0.436, 0.238, 0.106])).toBe(false);
    expect(saturatedSweep([1.2, 1.1, 0.69])).toBe(false);
  });

  it('skips non-finite points and is false for a sweep with none', () => {
    expect(saturatedSweep([NaN, 1.1, Infinity])).toBe(true);
    expect(saturatedSweep([NaN, NaN])).toBe(false);
    expect(saturatedSweep([])).toBe(false);
  });
});
