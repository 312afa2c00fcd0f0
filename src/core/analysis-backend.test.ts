import { describe, expect, it } from 'vitest';
import { approxRowsForMaps, cpuAnalysisBackend, normalizedEntropies, relErrorOfRows } from './analysis-backend';
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

  it('an overflowing variant reads as an infinite error, as relErrorOverRows does', () => {
    expect(relErrorOfRows({ sqErr: Float64Array.of(1, Infinity), exactSq: Float64Array.of(1, 1) })).toBe(Infinity);
    expect(relErrorOfRows({ sqErr: Float64Array.of(0), exactSq: Float64Array.of(0) })).toBe(0);
  });
});
