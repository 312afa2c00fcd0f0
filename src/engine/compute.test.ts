import { describe, expect, it } from 'vitest';
import { EngineError } from '../core/errors';
import type { AttentionParams } from '../core/types';
import { compute, jobFor, prepareInputs } from './compute';
import { createCpuBackend } from './cpu-backend';

const params: AttentionParams = {
  n: 64,
  d: 8,
  m: 32,
  seed: 3,
  featureSeed: 4,
  featureMap: 'positive',
  projection: 'orthogonal-chi',
  causal: false,
  input: 'gaussian',
  scale: 0.5,
  stabilizer: 'shift',
};
const cpu = createCpuBackend('unit test');

describe('compute (one request end to end on the CPU backend)', () => {
  it('returns outputs, view and headline metrics for the request', async () => {
    const r = await compute(7, { params, viewCells: 16, rowStats: true, rows: [0, 63] }, cpu);
    expect(r.id).toBe(7);
    expect(r.backend).toEqual({ kind: 'cpu', reason: 'unit test' });
    expect(r.output.exactOut.rows).toBe(64);
    expect(r.output.view?.cells).toBe(16);
    expect(r.output.rows.map((x) => x.index)).toEqual([0, 63]);
    expect(r.metrics.relErrorOut).toBeGreaterThan(0);
    expect(r.metrics.relErrorA).toBeGreaterThan(0);
    expect(r.metrics.relErrorA).toBeLessThan(0.5);
    expect(r.metrics.entropyExact).toBeGreaterThan(0.9);
  });

  it('leaves the matrix metrics empty when row statistics are not requested', async () => {
    const r = await compute(1, { params, viewCells: 0, rowStats: false, rows: [] }, cpu);
    expect(r.metrics.relErrorA).toBeNull();
    expect(r.output.view).toBeNull();
  });

  it('is deterministic: the same request gives the same numbers', async () => {
    const req = { params, viewCells: 0, rowStats: false, rows: [] };
    const a = await compute(1, req, cpu);
    const b = await compute(2, req, cpu);
    expect(a.output.approxOut.data).toEqual(b.output.approxOut.data);
  });

  it('rejects bad parameters with typed errors before any work', async () => {
    await expect(
      compute(1, { params: { ...params, n: 0 }, viewCells: 0, rowStats: false, rows: [] }, cpu),
    ).rejects.toMatchObject({
      code: 'invalid-size',
    });
    await expect(
      compute(1, { params: { ...params, d: 10_000 }, viewCells: 0, rowStats: false, rows: [] }, cpu),
    ).rejects.toBeInstanceOf(EngineError);
  });

  it('accepts external Q/K of the right shape and refuses the wrong shape', () => {
    const q = { rows: 64, cols: 8, data: new Float32Array(64 * 8).fill(0.1) };
    const inputs = prepareInputs({ params, external: { q, k: q }, viewCells: 0, rowStats: false, rows: [] });
    expect(inputs.q).toBe(q);
    expect(inputs.w.rows).toBe(32);
    const bad = { rows: 63, cols: 8, data: new Float32Array(63 * 8) };
    expect(() =>
      prepareInputs({ params, external: { q: bad, k: q }, viewCells: 0, rowStats: false, rows: [] }),
    ).toThrow(/63×8/);
  });

  it('drops pinned rows that no longer exist after n shrank', () => {
    const inputs = prepareInputs({ params, viewCells: 0, rowStats: false, rows: [] });
    const job = jobFor({ params, viewCells: 0, rowStats: false, rows: [3, 3, 100, -1] }, inputs);
    expect(job.rows).toEqual([3]);
  });

  it('passes the stabilizer to the backend: at s = 2 ref (ε) gives a flatter Â than shift', async () => {
    const p = { ...params, d: 16, m: 64, scale: 2 };
    const req = (stabilizer: 'shift' | 'ref') => ({
      params: { ...p, stabilizer },
      viewCells: 0,
      rowStats: true,
      rows: [],
    });
    expect(jobFor(req('ref'), prepareInputs(req('ref'))).stabilizer).toBe('ref');
    const shift = await compute(1, req('shift'), cpu);
    const ref = await compute(2, req('ref'), cpu);
    expect(ref.metrics.entropyApprox! - shift.metrics.entropyApprox!).toBeGreaterThan(0.1);
    expect(shift.output.zeroNormalizerRows).toBe(0);
  });
});
