import { describe, expect, it } from 'vitest';
import { colorTicks } from './color-ticks';

describe('colorTicks', () => {
  it('labels a linear bar at 0, ¼, ½, ¾ and its top, its ends kept inside the bar', () => {
    const t = colorTicks({ mode: 'linear', lo: 0, hi: 0.2 });
    expect(t.map((x) => x.text)).toEqual(['0', '0.05', '0.1', '0.15', '0.2']);
    expect(t.map((x) => x.pos)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(t.map((x) => x.align)).toEqual(['start', 'middle', 'middle', 'middle', 'end']);
  });

  it('labels a log bar at the powers of ten inside it, each at its log position, and its floor with ≤', () => {
    const t = colorTicks({ mode: 'log', lo: 9.38e-5, hi: 0.938 });
    expect(t.map((x) => x.text)).toEqual(['≤ 9.4×10⁻⁵', '10⁻²', '10⁻¹']);
    expect(t[1]!.pos).toBeCloseTo(Math.log10(1e-2 / 9.38e-5) / 4, 12);
    expect(t[2]!.pos).toBeCloseTo(Math.log10(0.1 / 9.38e-5) / 4, 12);
    // 10⁻⁴ (0.7% of the bar from the floor's label) and 10⁻³ (26%) would run into that label: left out
    expect(t.some((x) => x.text === '10⁻⁴' || x.text === '10⁻³')).toBe(false);
  });

  it('ends a power at the top of the bar inside it', () => {
    const t = colorTicks({ mode: 'log', lo: 1e-4, hi: 1 });
    expect(t.map((x) => x.text)).toEqual(['≤ 10⁻⁴', '10⁻²', '10⁻¹', '10⁰']);
    expect(t.at(-1)).toEqual({ pos: 1, text: '10⁰', align: 'end' });
  });
});
