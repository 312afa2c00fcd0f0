import { describe, expect, it } from 'vitest';
import type { AttentionJob } from './attention-job';
import { EngineError, type EngineErrorCode } from './errors';
import { LIMITS } from './limits';
import { matrix } from './matrix';
import type { AttentionParams } from './types';
import { validateJob, validateParams } from './validate';

const params: AttentionParams = {
  n: 64,
  d: 16,
  m: 32,
  seed: 1,
  featureSeed: 2,
  featureMap: 'positive',
  projection: 'orthogonal-chi',
  causal: false,
  input: 'gaussian',
  scale: 0.5,
  stabilizer: 'shift',
};

function codeOf(f: () => void): EngineErrorCode | 'no error' {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(EngineError);
    return (e as EngineError).code;
  }
  return 'no error';
}

function job(n = 4, d = 3, m = 5): AttentionJob {
  return {
    inputs: { q: matrix(n, d), k: matrix(n, d), v: matrix(n, d), w: matrix(m, d) },
    featureMap: 'positive',
    causal: false,
    viewCells: 0,
    rowStats: false,
    rows: [],
  };
}

describe('validateParams', () => {
  it('accepts valid parameters, including the smallest sizes', () => {
    expect(codeOf(() => validateParams(params))).toBe('no error');
    expect(codeOf(() => validateParams({ ...params, n: 1, d: 1, m: 1 }))).toBe('no error');
  });

  it("'invalid-size' for n, d, m that are 0, negative, fractional or NaN", () => {
    for (const bad of [0, -3, 2.5, NaN]) {
      expect(codeOf(() => validateParams({ ...params, n: bad }))).toBe('invalid-size');
      expect(codeOf(() => validateParams({ ...params, d: bad }))).toBe('invalid-size');
      expect(codeOf(() => validateParams({ ...params, m: bad }))).toBe('invalid-size');
    }
  });

  it('m = 0 is invalid for maps with a projection, allowed for elu1 and double-softmax', () => {
    expect(codeOf(() => validateParams({ ...params, m: 0, featureMap: 'trig' }))).toBe('invalid-size');
    expect(codeOf(() => validateParams({ ...params, m: 0, featureMap: 'elu1' }))).toBe('no error');
    expect(codeOf(() => validateParams({ ...params, m: 0, featureMap: 'double-softmax' }))).toBe('no error');
  });

  it("'exceeds-limit' beyond LIMITS", () => {
    expect(codeOf(() => validateParams({ ...params, n: LIMITS.nMax + 1 }))).toBe('exceeds-limit');
    expect(codeOf(() => validateParams({ ...params, d: LIMITS.dMax + 1 }))).toBe('exceeds-limit');
    expect(codeOf(() => validateParams({ ...params, m: LIMITS.mMax + 1 }))).toBe('exceeds-limit');
    expect(codeOf(() => validateParams({ ...params, n: LIMITS.nMax, d: LIMITS.dMax, m: LIMITS.mMax }))).toBe(
      'no error',
    );
  });

  it('rejects unknown enums and non-finite seeds or scale (hostile URLs)', () => {
    expect(codeOf(() => validateParams({ ...params, featureMap: 'softmax' as never }))).toBe('invalid-size');
    expect(codeOf(() => validateParams({ ...params, projection: 'x' as never }))).toBe('invalid-size');
    expect(codeOf(() => validateParams({ ...params, input: 'x' as never }))).toBe('invalid-size');
    expect(codeOf(() => validateParams({ ...params, seed: Infinity }))).toBe('invalid-size');
    expect(codeOf(() => validateParams({ ...params, scale: NaN }))).toBe('invalid-size');
    expect(codeOf(() => validateParams({ ...params, scale: -1 }))).toBe('invalid-size');
  });
});

describe('validateJob', () => {
  it('accepts a consistent job', () => {
    expect(codeOf(() => validateJob(job()))).toBe('no error');
    expect(codeOf(() => validateJob({ ...job(1, 1, 1), viewCells: 1, rowStats: true, rows: [0] }))).toBe('no error');
  });

  it("'invalid-size' for n = 0 and for m = 0 with a projection map", () => {
    expect(codeOf(() => validateJob(job(0, 3, 5)))).toBe('invalid-size');
    expect(codeOf(() => validateJob(job(4, 3, 0)))).toBe('invalid-size');
    expect(codeOf(() => validateJob({ ...job(4, 3, 0), featureMap: 'elu1' }))).toBe('no error');
  });

  it("'exceeds-limit' for d beyond LIMITS, too many view cells, or a row index ≥ n", () => {
    expect(codeOf(() => validateJob(job(2, LIMITS.dMax + 1, 1)))).toBe('exceeds-limit');
    expect(codeOf(() => validateJob({ ...job(), viewCells: LIMITS.viewCellsMax + 1 }))).toBe('exceeds-limit');
    expect(codeOf(() => validateJob({ ...job(), rows: [4] }))).toBe('exceeds-limit');
    expect(codeOf(() => validateJob({ ...job(), rows: [-1] }))).toBe('invalid-size');
  });

  it("'shape-mismatch' when Q, K, V, W do not fit together", () => {
    const j = job();
    expect(codeOf(() => validateJob({ ...j, inputs: { ...j.inputs, k: matrix(5, 3) } }))).toBe('shape-mismatch');
    expect(codeOf(() => validateJob({ ...j, inputs: { ...j.inputs, v: matrix(4, 2) } }))).toBe('shape-mismatch');
    expect(codeOf(() => validateJob({ ...j, inputs: { ...j.inputs, w: matrix(5, 2) } }))).toBe('shape-mismatch');
    const lying = { rows: 4, cols: 3, data: new Float32Array(11) };
    expect(codeOf(() => validateJob({ ...j, inputs: { ...j.inputs, q: lying } }))).toBe('shape-mismatch');
  });

  it("'non-finite-input' names the matrix and the first bad index", () => {
    for (const [name, key] of [
      ['Q', 'q'],
      ['K', 'k'],
      ['V', 'v'],
      ['W', 'w'],
    ] as const) {
      const j = job();
      const bad = matrix(j.inputs[key].rows, 3);
      bad.data[4] = NaN;
      bad.data[7] = Infinity;
      try {
        validateJob({ ...j, inputs: { ...j.inputs, [key]: bad } });
        expect.unreachable();
      } catch (e) {
        expect((e as EngineError).code).toBe('non-finite-input');
        expect((e as EngineError).detail).toMatchObject({ matrix: name, index: 4, row: 1, col: 1 });
        expect((e as EngineError).message).toContain(`${name}[1, 1]`);
      }
    }
  });
});
