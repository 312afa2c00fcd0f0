import { describe, expect, it } from 'vitest';
import { isEngineError } from '../core/errors';
import { fitHedgehogSync, hedgehogKey } from '../core/hedgehog-fit';
import { generateInputs } from '../core/inputs';
import { FEATURE_MAPS, STABILIZERS, type AttentionParams } from '../core/types';
import { compute } from './compute';
import { createCpuBackend } from './cpu-backend';
import type { ComputeRequest } from './protocol';
import {
  buildStateJson,
  denseState,
  EXPORT_MAX_N,
  exportStateJson,
  MATRIX_KEYS,
  shortestFloat32,
} from './export-state';

const params: AttentionParams = {
  n: 24,
  d: 8,
  m: 16,
  seed: 5,
  featureSeed: 9,
  featureMap: 'positive',
  projection: 'orthogonal-chi',
  causal: true,
  input: 'gaussian',
  scale: 0.8,
  stabilizer: 'shift',
};
const metrics = { 'rel-error-A': 0.25, 'mean-kl': null, 'compute-ms': 3.5 };
const backend = { kind: 'cpu' as const, reason: 'unit test' };

describe('state JSON export', () => {
  it('every matrix is a flat row-major array of numbers whose length matches its shape', () => {
    const json = JSON.parse(exportStateJson({ params, viewCells: 0, rowStats: false, rows: [] }, { backend, metrics }));
    const { n, d, m } = params;
    expect(json.shapes).toEqual({
      Q: [n, d],
      K: [n, d],
      V: [n, d],
      W: [m, d],
      A_exact: [n, n],
      A_approx: [n, n],
      out_exact: [n, d],
      out_approx: [n, d],
    });
    for (const key of MATRIX_KEYS) {
      expect(Array.isArray(json[key]), key).toBe(true);
      expect(json[key].length, key).toBe(json.shapes[key][0] * json.shapes[key][1]);
      expect(
        json[key].every((x: unknown) => typeof x === 'number' && Number.isFinite(x)),
        key,
      ).toBe(true);
    }
    expect(json.version).toBe(1);
    expect(json.params).toEqual(params);
    expect(json.backend).toEqual({ ...backend, matrices: 'cpu' });
    expect(json.inputs).toBe('generated');
  });

  it('metrics keep their data-metric names and values; non-finite values become null', () => {
    const json = JSON.parse(
      exportStateJson(
        { params, viewCells: 0, rowStats: false, rows: [] },
        { backend, metrics: { ...metrics, bad: NaN } },
      ),
    );
    expect(json.metrics).toEqual({ ...metrics, bad: null });
  });

  it('exports the compute path’s Q, exact output and error of A; A is row-major, causal and row-stochastic', async () => {
    const req = { params, viewCells: 0, rowStats: true, rows: [] };
    const r = await compute(1, req, createCpuBackend('unit test'));
    const s = buildStateJson(params, denseState(req), { backend, metrics: {} }, false);
    const inputs = generateInputs(params);
    expect(Float32Array.from(s.Q)).toEqual(inputs.q.data);
    // causal: A is lower triangular, its rows sum to 1
    expect(s.A_exact[0 * params.n + 5]).toBe(0);
    const row7 = s.A_exact.slice(7 * params.n, 8 * params.n);
    expect(row7.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
    let num = 0;
    let den = 0;
    for (let i = 0; i < s.A_exact.length; i++) {
      num += (s.A_approx[i]! - s.A_exact[i]!) ** 2;
      den += s.A_exact[i]! ** 2;
    }
    expect(Math.sqrt(num / den)).toBeCloseTo(r.metrics.relErrorA!, 5);
    expect(Float32Array.from(s.out_exact)).toEqual(r.output.exactOut.data);
  });

  it('Â is the compute’s for every map, stabilizer and mask: ε of stab=ref, the fitted W of hedgehog', async () => {
    // scale 1.5: the key features fall far enough below ε = 1e-6 that dropping it moves Â by ≫ 1e-6
    for (const featureMap of FEATURE_MAPS)
      for (const stabilizer of STABILIZERS)
        for (const causal of [false, true]) {
          const p: AttentionParams = { ...params, featureMap, stabilizer, causal, scale: 1.5 };
          const req: ComputeRequest = { params: p, viewCells: 0, rowStats: true, rows: [0, 11, p.n - 1] };
          if (featureMap === 'hedgehog')
            req.fitted = { key: hedgehogKey(p), w: fitHedgehogSync(p, generateInputs(p), 20).w };
          const r = await compute(1, req, createCpuBackend('unit test'));
          const s = buildStateJson(p, denseState(req), { backend, metrics: {} }, false);
          const what = `${featureMap} stab=${stabilizer} causal=${causal}`;
          for (const row of r.output.rows) {
            const exported = s.A_approx.slice(row.index * p.n, (row.index + 1) * p.n);
            const worst = Math.max(...exported.map((x, j) => Math.abs(x - row.approx[j]!)));
            expect(worst, `${what}: row ${row.index} of Â`).toBeLessThan(1e-6);
          }
          let num = 0;
          let den = 0;
          for (let i = 0; i < s.A_exact.length; i++) {
            num += (s.A_approx[i]! - s.A_exact[i]!) ** 2;
            den += s.A_exact[i]! ** 2;
          }
          const rel = Math.sqrt(num / den);
          expect(Math.abs(rel - r.metrics.relErrorA!), `${what}: error of A`).toBeLessThan(1e-6 * rel);
          let outDiff = 0;
          for (let i = 0; i < s.out_approx.length; i++)
            outDiff = Math.max(outDiff, Math.abs(s.out_approx[i]! - r.output.approxOut.data[i]!));
          expect(outDiff, `${what}: approximate output`).toBeLessThan(1e-5);
        }
  });

  it('uploaded inputs are exported as given and marked as uploaded', () => {
    const inputs = generateInputs({ ...params, seed: 77 });
    const json = JSON.parse(
      exportStateJson(
        { params, external: { q: inputs.q, k: inputs.k }, viewCells: 0, rowStats: false, rows: [] },
        { backend, metrics },
      ),
    );
    expect(json.inputs).toBe('uploaded');
    expect(json.trained).toBeUndefined();
    expect(Float32Array.from(json.K)).toEqual(inputs.k.data);
  });

  it('a trained head is exported as inputs "trained" with its selection, sequence and tokens', () => {
    const inputs = generateInputs({ ...params, seed: 78 });
    const trained = {
      model: 'grammar',
      layer: 1,
      head: 0,
      example: null,
      text: 'the cat sees .',
      tokens: [9, 18, 34, 2],
      forward: 'cpu' as const,
    };
    const json = JSON.parse(
      exportStateJson(
        { params, external: { q: inputs.q, k: inputs.k }, viewCells: 0, rowStats: false, rows: [] },
        { backend, metrics, trained },
      ),
    );
    expect(json.inputs).toBe('trained');
    expect(json.trained).toEqual(trained);
  });

  it(`refuses n > ${EXPORT_MAX_N} with an exceeds-limit error`, () => {
    let err: unknown = null;
    try {
      denseState({ params: { ...params, n: EXPORT_MAX_N + 1 }, viewCells: 0, rowStats: false, rows: [] });
    } catch (e) {
      err = e;
    }
    expect(isEngineError(err) && err.code === 'exceeds-limit').toBe(true);
  });

  it('numbers are written as the shortest decimal that reads back as the same float32', () => {
    const xs = Float32Array.from([0.1, 1 / 3, -2.5e-7, 123456.789, 0, 1, 3.4e38, 1e-40]);
    for (const x of xs) expect(Math.fround(shortestFloat32(x))).toBe(x);
    // 20,000 float32 values over the whole exponent range (subnormals included), each in ≤ 9 significant digits
    let seed = 12345;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 20_000; i++) {
      const x = Math.fround((rand() - 0.5) * 10 ** Math.floor(rand() * 80 - 42));
      const y = shortestFloat32(x);
      expect(Math.fround(y)).toBe(x);
      expect(y.toExponential().replace(/^-|e.*$|\./g, '').length, `${x} → ${y}`).toBeLessThanOrEqual(9);
    }
    expect(String(shortestFloat32(Math.fround(0.1)))).toBe('0.1');
    expect(String(shortestFloat32(Math.fround(0.5)))).toBe('0.5');
  });
});
