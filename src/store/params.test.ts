import { describe, expect, it } from 'vitest';
import { LIMITS } from '../core/limits';
import { coerceParam, D_STOPS, DEFAULT_PARAMS, invalidKeys, M_STOPS, N_STOPS, nearestStop, parseParam } from './params';

describe('parseParam (strict: URLs and typed text)', () => {
  it('stabilizer: shift (the default, the estimator itself) or ref (the reference ε); nothing else', () => {
    expect(DEFAULT_PARAMS.stabilizer).toBe('shift');
    expect(parseParam('stabilizer', 'ref')).toEqual({ ok: true, value: 'ref' });
    expect(parseParam('stabilizer', 'shift')).toEqual({ ok: true, value: 'shift' });
    expect(parseParam('stabilizer', 'eps')).toEqual({ ok: false, reason: 'not-an-option' });
    expect(invalidKeys({ ...DEFAULT_PARAMS, stabilizer: 'none' })).toEqual(['stabilizer']);
  });

  it('accepts exactly valid values', () => {
    expect(parseParam('n', '1024')).toEqual({ ok: true, value: 1024 });
    expect(parseParam('scale', '0.75')).toEqual({ ok: true, value: 0.75 });
    expect(parseParam('scale', '5e-1')).toEqual({ ok: true, value: 0.5 });
    expect(parseParam('featureMap', 'trig')).toEqual({ ok: true, value: 'trig' });
    expect(parseParam('causal', '1')).toEqual({ ok: true, value: true });
    expect(parseParam('causal', 'false')).toEqual({ ok: true, value: false });
  });

  it('rejects garbage, fractions, out-of-range and hostile values with a reason', () => {
    expect(parseParam('n', 'abc')).toEqual({ ok: false, reason: 'not-a-number' });
    expect(parseParam('n', '12.5')).toEqual({ ok: false, reason: 'not-an-integer' });
    expect(parseParam('n', '0')).toEqual({ ok: false, reason: 'out-of-range' });
    expect(parseParam('n', String(LIMITS.nMax + 1))).toEqual({ ok: false, reason: 'out-of-range' });
    expect(parseParam('n', '1e999')).toEqual({ ok: false, reason: 'not-an-integer' });
    expect(parseParam('n', '-5')).toEqual({ ok: false, reason: 'not-an-integer' });
    expect(parseParam('scale', 'NaN')).toEqual({ ok: false, reason: 'not-a-number' });
    expect(parseParam('scale', 'Infinity')).toEqual({ ok: false, reason: 'not-a-number' });
    expect(parseParam('featureMap', '<script>alert(1)</script>')).toEqual({ ok: false, reason: 'not-an-option' });
    expect(parseParam('featureMap', 'constructor')).toEqual({ ok: false, reason: 'not-an-option' });
    expect(parseParam('d', '9'.repeat(500))).toEqual({ ok: false, reason: 'too-long' });
    expect(parseParam('causal', 'maybe')).toEqual({ ok: false, reason: 'not-a-boolean' });
  });
});

describe('coerceParam (lenient: controls clamp)', () => {
  it('clamps numbers into the limits and says from what', () => {
    expect(coerceParam('m', 5000)).toEqual({ ok: true, value: LIMITS.mMax, clampedFrom: 5000 });
    expect(coerceParam('d', '0')).toEqual({ ok: true, value: LIMITS.dMin, clampedFrom: 0 });
    expect(coerceParam('n', Infinity)).toEqual({ ok: true, value: LIMITS.nMax, clampedFrom: Infinity });
  });
  it('still rejects what cannot be a value', () => {
    expect(coerceParam('n', NaN)).toEqual({ ok: false, reason: 'not-a-number' });
    expect(coerceParam('n', 'ten')).toEqual({ ok: false, reason: 'not-a-number' });
    expect(coerceParam('n', 3.5)).toEqual({ ok: false, reason: 'not-an-integer' });
    expect(coerceParam('projection', 7)).toEqual({ ok: false, reason: 'not-an-option' });
    expect(coerceParam('causal', 1)).toEqual({ ok: false, reason: 'not-a-boolean' });
  });
});

describe('defaults and slider stops', () => {
  it('the defaults obey every rule', () => {
    expect(invalidKeys({ ...DEFAULT_PARAMS })).toEqual([]);
    expect(invalidKeys({ ...DEFAULT_PARAMS, n: 0, featureMap: 'nope' })).toEqual(['n', 'featureMap']);
  });
  it('n stops are powers of two and 1.5× from 16 to 65,536', () => {
    expect(N_STOPS[0]).toBe(16);
    expect(N_STOPS.slice(0, 5)).toEqual([16, 24, 32, 48, 64]);
    expect(N_STOPS.at(-1)).toBe(LIMITS.nMax);
    expect(D_STOPS[0]).toBe(1);
    expect(D_STOPS.at(-1)).toBe(LIMITS.dMax);
    expect(M_STOPS.at(-1)).toBe(LIMITS.mMax);
  });
  it('nearestStop snaps on a log scale', () => {
    expect(N_STOPS[nearestStop(N_STOPS, 250)]).toBe(256);
    expect(N_STOPS[nearestStop(N_STOPS, 1)]).toBe(16);
  });
});
