import { describe, expect, it } from 'vitest';
import { fmt, fmtSci, fmtText } from './format';

describe('fmt', () => {
  it('writes every minus of an exponent form with the minus sign (−1e−6, not −1e-6)', () => {
    expect(fmt(-1e-6)).toBe('−1e−6');
    expect(fmt(2.5e-7)).toBe('2.5e−7');
    expect(fmt(-3e7)).toBe('−3e+7');
  });
});

describe('fmtSci', () => {
  it('writes mantissa × a power of ten to two significant digits, a bare power where the mantissa is 1', () => {
    expect(fmtSci(9.38e-5)).toBe('9.4×10⁻⁵');
    expect(fmtSci(0.001)).toBe('10⁻³');
    expect(fmtSci(0.938)).toBe('9.4×10⁻¹');
    expect(fmtSci(2.5e7)).toBe('2.5×10⁷');
  });

  it('writes a power of ten as a bare power with a superscript exponent, as the prose does (τ = 10⁻⁶)', () => {
    expect(fmtSci(1e-6)).toBe('10⁻⁶');
    expect(fmtSci(1e-10)).toBe('10⁻¹⁰');
    expect(fmtSci(1000)).toBe('10³');
    expect(fmtSci(1)).toBe('10⁰');
  });

  it('leaves zero and negative numbers to fmt', () => {
    expect(fmtSci(0)).toBe('0');
    expect(fmtSci(-1e-6)).toBe(fmt(-1e-6));
  });

  it('carries a mantissa that rounds to 10 into the exponent (9.96e-5 → 10⁻⁴, not 10×10⁻⁵)', () => {
    expect(fmtSci(9.96e-5)).toBe('10⁻⁴');
  });
});

describe('fmtText', () => {
  it('writes what fmt would put in e-notation as mantissa × a power of ten, to the same 3 significant digits', () => {
    expect(fmt(8.8e6)).toBe('8.8e+6');
    expect(fmtText(8.8e6)).toBe('8.8×10⁶');
    expect(fmtText(1.234e9)).toBe('1.23×10⁹');
    expect(fmtText(-2e-7)).toBe('−2×10⁻⁷');
    expect(fmtText(1e-4)).toBe('10⁻⁴');
  });

  it('is fmt everywhere else (0.001 … 999,999, zero, non-finite)', () => {
    for (const v of [0, 0.001, 0.5, 1.06, 961, 12345, 999999, -3.5, NaN, Infinity, null])
      expect(fmtText(v)).toBe(fmt(v));
  });
});
