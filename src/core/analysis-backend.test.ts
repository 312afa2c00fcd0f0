import { describe, expect, it } from 'vitest';
import {
  approxRowsForMaps,
  cpuAnalysisBackend,
  cpuDense,
  normalizedEntropies,
  relErrorOfRows,
} from './analysis-backend';
import { keyFeatures, mapContext, queryFeatures, scaleInputs } from './feature-maps';
import { generateInputs } from './inputs';
import { klDivergence, rowEntropy } from './metrics';
import { approxRowsOf, evenRows, exactRowsOf, normEntropies, relErrorOverRows, subRows } from './sweeps';
import type { AttentionParams } from './types';

const P: AttentionParams = {
  n: 47,
  d: 5,
  m: 8,
  seed: 3,
  featureSeed: 4,
  featureMap: 'positive',
  projection: 'orthogonal-chi',
  causal: true,
  input: 'gaussian',
  scale: 0.7,
  stabilizer: 'shift',
};

describe('cpuAnalysisBackend', () => {
  it('gives the twins’ rows, errors and entropies bit for bit', async () => {
    const inputs = generateInputs(P);
    const rows = evenRows(P.n, 9);
    const x = scaleInputs(inputs.q);
    const y = scaleInputs(inputs.k);
    const b = await cpuAnalysisBackend.rowStats(
      { q: inputs.q, k: inputs.k, rows, causal: true },
      [
        { map: 'positive', w: inputs.w, stabilizer: 'shift' },
        { map: 'exp', keyMap: 'positive', w: inputs.w, stabilizer: 'ref' },
      ],
      { entropy: true, kl: true, fullRows: true },
    );
    const exact = exactRowsOf(inputs.q, inputs.k, rows, true);
    const mc = mapContext('positive', x, y, true);
    const approx = approxRowsOf(
      queryFeatures('positive', subRows(x, rows), inputs.w, 'shift', { ...mc, positions: rows }),
      keyFeatures('positive', y, inputs.w, 'shift', mc),
      rows,
      true,
    );
    expect(b.exactRows).toEqual(exact);
    expect(b.variants[0]!.rows).toEqual(approx);
    expect(relErrorOfRows(b.variants[0]!)).toBe(relErrorOverRows(approx, exact));
    expect(normalizedEntropies(b.variants[0]!.entropy!, rows, true, P.n)).toEqual(normEntropies(approx, rows, true));
    expect(normalizedEntropies(b.exactEntropy, rows, true, P.n)).toEqual(normEntropies(exact, rows, true));
    expect([...b.variants[0]!.kl!]).toEqual(exact.map((e, t) => klDivergence(e, approx[t]!)));
    const mixed = approxRowsForMaps('exp', 'positive', x, y, inputs.w, rows, true, 'ref');
    expect(b.variants[1]!.rows).toEqual(mixed);
    expect([...b.variants[1]!.entropy!]).toEqual(mixed.map((r) => rowEntropy(r)));
  });

  it('top-k masses: a causal row counts only the keys it sees, one value per k = 1, 2, 4, … ≤ n', async () => {
    const inputs = generateInputs({ ...P, featureMap: 'trig' });
    const rows = [0, 5, 30, 46];
    const b = await cpuAnalysisBackend.rowStats(
      { q: inputs.q, k: inputs.k, rows, causal: true },
      [{ map: 'trig', w: inputs.w, stabilizer: 'shift' }],
      { fullRows: true, topMass: true },
    );
    const L = 6; // 1, 2, 4, 8, 16, 32 ≤ 47
    const mass = b.variants[0]!.topMass!;
    expect(mass.length).toBe(rows.length * L);
    rows.forEach((r, t) => {
      const seen = [...b.variants[0]!.rows![t]!.subarray(0, r + 1)].sort((u, v) => v - u);
      for (let l = 0; l < L; l++) {
        const k = Math.min(2 ** l, r + 1);
        expect(mass[t * L + l]).toBeCloseTo(
          seen.slice(0, k).reduce((a, v) => a + v, 0),
          12,
        );
      }
      // once k reaches the row's keys: its whole mass (1 for the exact softmax row)
      if (r + 1 <= 2 ** (L - 1)) expect(b.exactTopMass![t * L + L - 1]).toBeCloseTo(1, 6);
      else expect(b.exactTopMass![t * L + L - 1]).toBeLessThan(1);
    });
    // trig has negative entries: had the masked zeros counted as entries, row 5's top-8 mass (all 6 keys) would exceed its total
    const row5 = b.variants[0]!.rows![1]!.subarray(0, 6);
    expect(mass[1 * L + 3]).toBeCloseTo(
      row5.reduce((a, v) => a + v, 0),
      6,
    );
  });

  it('an overflowing variant reads as an infinite error, as relErrorOverRows does', () => {
    expect(relErrorOfRows({ sqErr: Float64Array.of(1, Infinity), exactSq: Float64Array.of(1, 1) })).toBe(Infinity);
    expect(relErrorOfRows({ sqErr: Float64Array.of(0), exactSq: Float64Array.of(0) })).toBe(0);
  });

  it('window sums: a variant with output: false has zero output terms and the same matrix sums as without V', async () => {
    const inputs = generateInputs(P);
    const problem = { q: inputs.q, k: inputs.k, v: inputs.v, causal: true };
    const windows = [1, 4, 16];
    const elu = { map: 'elu1' as const, w: inputs.w, stabilizer: 'shift' as const };
    const positive = { map: 'positive' as const, w: inputs.w, stabilizer: 'shift' as const };
    const [lean, full] = await cpuDense.windowStats(problem, [{ ...elu, output: false }, positive], windows);
    const [withV] = await cpuDense.windowStats(problem, [elu], windows);
    const [noV] = await cpuDense.windowStats({ ...problem, v: undefined }, [elu], windows);
    expect(lean).toEqual(noV);
    expect(lean!.outSqErr.every((x) => x === 0) && lean!.outExactSq.every((x) => x === 0)).toBe(true);
    // the variant with V keeps its output terms
    expect(withV!.outSqErr.some((x) => x > 0)).toBe(true);
    expect(full!.outExactSq.some((x) => x > 0)).toBe(true);
    expect(lean!.sqErrApprox).toEqual(withV!.sqErrApprox);
  });
});
