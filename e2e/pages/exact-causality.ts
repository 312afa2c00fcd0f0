// Causality checks of the exact-kernels driver (e2e/pages/exact-kernels.ts): nothing before t
// depends on keys or values at ≥ t, on the WebGPU backend and on the CPU twin.
import type { AttentionJob, AttentionOutput } from '../../src/core/attention-job';
import { maxAbsBefore, maxChangeBefore, perturbFuture } from '../../src/core/causality-probe';
import { runAttentionJob } from '../../src/core/cpu-attention';
import { generateInputs } from '../../src/core/inputs';
import { FEATURE_MAPS, STABILIZERS, type FeatureMapKind, type Stabilizer } from '../../src/core/types';
import { backend, params } from './exact-common';

/** Every feature map and stabilizer (the one list in src/core/types.ts): what the specs iterate. */
export function lists() {
  return { maps: [...FEATURE_MAPS], stabilizers: [...STABILIZERS] };
}

interface CausalCase {
  map: FeatureMapKind;
  stabilizer: Stabilizer;
  n: number;
  d: number;
  m: number;
  t: number;
}

/**
 * Runs one causal job on the WebGPU backend and on the CPU twin, then again with the keys and values
 * at positions ≥ t redrawn (src/core/causality-probe.ts). Returns, per backend, the largest change of
 * the outputs and of the pinned Â rows before t, and the largest magnitude they are relative to.
 */
export async function causality(c: CausalCase) {
  const b = await backend();
  const p = params({
    n: c.n,
    d: c.d,
    m: c.m,
    featureMap: c.map,
    stabilizer: c.stabilizer,
    causal: true,
    scale: 1,
    seed: 3,
  });
  const inputs = generateInputs(p);
  const perturbed = perturbFuture(inputs, c.t, p.scale, 99);
  const rows = Array.from({ length: c.t }, (_, i) => i);
  const job = (ins: typeof inputs): AttentionJob => ({
    inputs: ins,
    featureMap: c.map,
    causal: true,
    stabilizer: c.stabilizer,
    viewCells: 0,
    rowStats: false,
    rows,
  });
  const measure = (a: AttentionOutput, z: AttentionOutput) => {
    let row = 0;
    let rowScale = 0;
    a.rows.forEach((r, i) => {
      row = Math.max(row, maxChangeBefore(r.approx, z.rows[i]!.approx, 1, c.n));
      rowScale = Math.max(rowScale, maxAbsBefore(r.approx, 1, c.n));
    });
    return {
      out: maxChangeBefore(a.approxOut.data, z.approxOut.data, c.t, c.d),
      outScale: maxAbsBefore(a.approxOut.data, c.t, c.d),
      row,
      rowScale,
    };
  };
  const gpuA = await b.run(job(inputs));
  const gpuB = await b.run(job(perturbed));
  return { gpu: measure(gpuA, gpuB), cpu: measure(runAttentionJob(job(inputs)), runAttentionJob(job(perturbed))) };
}
