/**
 * The causality probe shared by the CPU property test (causality.test.ts) and the GPU one
 * (e2e/exact-kernels.spec.mjs): in causal mode, row i of Â and output i may depend only on
 * positions ≤ i. The probe redraws the keys and values at positions ≥ t (queries unchanged) and
 * measures how far the outputs and the Â rows before t moved — exactly 0 in exact arithmetic for a
 * causal map, rounding-sized in float32.
 */
import { createRng } from './rng';
import type { AttentionInputs, Matrix } from './types';

/**
 * A copy of `inputs` whose K and V rows ≥ t are redrawn: keys N(0, (2·scale)²) — twice the norm scale,
 * so that a statistic over all keys (a max, a mean) moves whenever it includes the future — and
 * values N(0, 1).
 */
export function perturbFuture(inputs: AttentionInputs, t: number, scale: number, seed: number): AttentionInputs {
  const rng = createRng(seed);
  const redraw = (a: Matrix, std: number): Matrix => {
    const data = Float32Array.from(a.data);
    const tail = data.subarray(t * a.cols);
    rng.fillNormal(tail, std);
    return { rows: a.rows, cols: a.cols, data };
  };
  return { ...inputs, k: redraw(inputs.k, 2 * scale), v: redraw(inputs.v, 1) };
}

/** max_{i < t, c} |a_ic − b_ic| over the first t rows of two row-major matrices with `cols` columns. */
export function maxChangeBefore(a: ArrayLike<number>, b: ArrayLike<number>, t: number, cols: number): number {
  let worst = 0;
  for (let e = 0; e < t * cols; e++) worst = Math.max(worst, Math.abs(a[e]! - b[e]!));
  return worst;
}

/** max |x| over the first t rows (the scale a change is relative to). */
export function maxAbsBefore(a: ArrayLike<number>, t: number, cols: number): number {
  let worst = 0;
  for (let e = 0; e < t * cols; e++) worst = Math.max(worst, Math.abs(a[e]!));
  return worst;
}
