import { describe, expect, it } from 'vitest';
import { maxAbsBefore, maxChangeBefore, perturbFuture } from './causality-probe';
import { runAttentionJob } from './cpu-attention';
import { generateInputs } from './inputs';
import { FEATURE_MAPS, STABILIZERS, type AttentionParams } from './types';

// Causal mode: output i and row i of Â may depend only on positions ≤ i. Redraw the keys and values
// at positions ≥ T (queries unchanged) and nothing before T may move beyond float32 rounding.
const N = 64;
// t = 5 as well as 40: a statistic over a block of the first rows would pass t = 40 unseen
const TS = [5, 40];
const REL_TOL = 1e-6;

function params(featureMap: AttentionParams['featureMap'], stabilizer: AttentionParams['stabilizer']): AttentionParams {
  return {
    n: N,
    d: 8,
    m: 32,
    seed: 3,
    featureSeed: 4,
    featureMap,
    projection: 'orthogonal-chi',
    causal: true,
    input: 'gaussian',
    scale: 1,
    stabilizer,
  };
}

describe('causal linear attention sees no future (CPU twins)', () => {
  for (const map of FEATURE_MAPS) {
    for (const stabilizer of STABILIZERS) {
      it.each(TS)(
        `${map}, stabilizer ${stabilizer}, t = %i: outputs and Â rows before t ignore keys and values at ≥ t`,
        (T) => {
          const p = params(map, stabilizer);
          const inputs = generateInputs(p);
          const before = Array.from({ length: T }, (_, i) => i);
          const job = { featureMap: map, causal: true, stabilizer, viewCells: 0, rowStats: false, rows: before };
          const a = runAttentionJob({ ...job, inputs });
          const b = runAttentionJob({ ...job, inputs: perturbFuture(inputs, T, p.scale, 99) });
          const d = p.d;
          const outChange = maxChangeBefore(a.approxOut.data, b.approxOut.data, T, d);
          const outScale = maxAbsBefore(a.approxOut.data, T, d);
          let rowChange = 0;
          let rowScale = 0;
          a.rows.forEach((r, i) => {
            rowChange = Math.max(rowChange, maxChangeBefore(r.approx, b.rows[i]!.approx, 1, N));
            rowScale = Math.max(rowScale, maxAbsBefore(r.approx, 1, N));
          });
          console.log(
            `causality ${map} ${stabilizer} t=${T}: out ${outChange.toExponential(2)} Â ${rowChange.toExponential(2)}`,
          );
          expect(outChange).toBeLessThanOrEqual(REL_TOL * outScale);
          expect(rowChange).toBeLessThanOrEqual(REL_TOL * rowScale);
        },
      );
    }
  }
});
