import { describe, expect, it } from 'vitest';
import { createRng, deriveSeed } from './rng';

function draws(seed: number, count: number): number[] {
  const rng = createRng(seed);
  return Array.from({ length: count }, () => rng.uniform());
}

describe('createRng', () => {
  it('is deterministic: the same seed gives identical streams', () => {
    expect(draws(42, 100)).toEqual(draws(42, 100));
    const a = createRng(7).fillNormal(new Float32Array(257));
    const b = createRng(7).fillNormal(new Float32Array(257));
    expect(Array.from(a)).toEqual(Array.from(b));
  });

  it('pins the first outputs of seed 0 (the cross-platform contract: pure 32-bit integer math)', () => {
    const rng = createRng(0);
    const first = [rng.nextUint32(), rng.nextUint32(), rng.nextUint32()];
    // Recorded once; a change here means every saved experiment URL would change.
    expect(first).toEqual([548183886, 1097162541, 2219297441]);
  });

  it('different seeds (even adjacent ones) give different streams', () => {
    const a = draws(1, 50);
    const b = draws(2, 50);
    expect(a).not.toEqual(b);
    const equalCount = a.filter((x, i) => x === b[i]).length;
    expect(equalCount).toBe(0);
  });

  it('uniform() lies in [0, 1) with mean ≈ 1/2', () => {
    const xs = draws(3, 20000);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    // sd of the mean = sqrt(1/12 / N) ≈ 0.002; allow 4 sd
    expect(Math.abs(mean - 0.5)).toBeLessThan(4 * Math.sqrt(1 / 12 / xs.length));
  });

  it('normal() has mean ≈ 0 and variance ≈ 1 (bounds from the sampling variance)', () => {
    const rng = createRng(11);
    const N = 40000;
    let s = 0;
    let s2 = 0;
    let s4 = 0;
    for (let i = 0; i < N; i++) {
      const z = rng.normal();
      s += z;
      s2 += z * z;
      s4 += z ** 4;
    }
    const mean = s / N;
    const variance = s2 / N - mean * mean;
    expect(Math.abs(mean)).toBeLessThan(4 / Math.sqrt(N)); // sd(mean) = 1/√N
    expect(Math.abs(variance - 1)).toBeLessThan(4 * Math.sqrt(2 / N)); // sd(var) ≈ √(2/N)
    expect(Math.abs(s4 / N - 3)).toBeLessThan(4 * Math.sqrt(96 / N)); // 4th moment of N(0,1) is 3
  });

  it('fillNormal scales by std and fills in place', () => {
    const out = new Float32Array(10000);
    const ret = createRng(5).fillNormal(out, 3);
    expect(ret).toBe(out);
    const v = out.reduce((s, x) => s + x * x, 0) / out.length;
    expect(Math.abs(v - 9)).toBeLessThan(4 * 9 * Math.sqrt(2 / out.length));
  });

  it('accepts any number as a seed without throwing (negative, fractional, huge, NaN)', () => {
    for (const seed of [-1, 0.5, 2 ** 40, Number.NaN, Infinity]) {
      const x = createRng(seed).uniform();
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
    expect(draws(-1, 5)).not.toEqual(draws(1, 5));
  });
});

describe('deriveSeed', () => {
  it('is deterministic and depends on both the seed and the stream name', () => {
    expect(deriveSeed(1, 'q')).toBe(deriveSeed(1, 'q'));
    expect(deriveSeed(1, 'q')).not.toBe(deriveSeed(1, 'k'));
    expect(deriveSeed(1, 'q')).not.toBe(deriveSeed(2, 'q'));
    const s = deriveSeed(123, 'v');
    expect(Number.isInteger(s) && s >= 0 && s < 2 ** 32).toBe(true);
  });

  it('substreams are uncorrelated', () => {
    const a = createRng(deriveSeed(9, 'q')).fillNormal(new Float32Array(20000));
    const b = createRng(deriveSeed(9, 'k')).fillNormal(new Float32Array(20000));
    let c = 0;
    for (let i = 0; i < a.length; i++) c += a[i]! * b[i]!;
    expect(Math.abs(c / a.length)).toBeLessThan(4 / Math.sqrt(a.length));
  });
});
