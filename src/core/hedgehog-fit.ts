/**
 * The Hedgehog fit of one experiment, end to end and deterministic (src/core/hedgehog.ts has the map,
 * the loss and its gradient): which positions are fitted, where W starts, the training key that
 * names a fit, the held-out sequence and the comparison with random features at equal feature
 * dimension m' = 2m. The analysis worker drives it step by step (src/engine/hedgehog-op.ts); tests
 * run it synchronously.
 */
import { exactAttentionMatrix } from './exact-attention';
import { keyFeatures, queryFeatures, scaleInputs } from './feature-maps';
import {
  createHedgehogTrainer,
  denseErrors,
  denseLinearAttention,
  HEDGEHOG_FIT,
  hedgehogFeatures,
  type HedgehogProblem,
} from './hedgehog';
import { generateInputs, projectionFor } from './inputs';
import { randomProjection } from './projections';
import { createRng, deriveSeed } from './rng';
import { firstRows } from './sweeps';
import { LIMITS } from './limits';
import type { AttentionInputs, AttentionParams, Matrix } from './types';

/** Positions the fit uses: the first min(n, HEDGEHOG_FIT.maxPositions). */
export const hedgehogPositions = (n: number): number => Math.min(n, HEDGEHOG_FIT.maxPositions);

/**
 * The parameters a fit depends on (the training key). The map, the stabilizer and m's use by other
 * maps do not enter; `upload` names uploaded data (their Q, K replace the seeded ones).
 */
export function hedgehogKey(p: AttentionParams, upload?: string | null): string {
  const parts = [p.n, p.d, p.m, p.seed, p.featureSeed, p.projection, p.input, p.scale, p.causal, HEDGEHOG_FIT.steps];
  return `hedgehog|${parts.map(String).join('|')}${upload ? `|upload:${upload}` : ''}`;
}

/** Initial W: the experiment's random projection (from the feature seed), the W FAVOR+ would use. */
export function hedgehogInit(p: AttentionParams): Matrix {
  return projectionFor({ ...p, featureMap: 'positive' });
}

/** The fitting problem on the first `nFit` positions of Q, K. */
export function hedgehogProblem(q: Matrix, k: Matrix, nFit: number, causal: boolean): HedgehogProblem {
  const qs = firstRows(q, nFit);
  const ks = firstRows(k, nFit);
  return {
    x: scaleInputs(qs),
    y: scaleInputs(ks),
    target: Float64Array.from(exactAttentionMatrix(qs, ks, causal).data),
    causal,
  };
}

/** Seed of the held-out sequence: the next input seed (same kind, scale, n, d). */
export const heldOutSeed = (seed: number): number => seed + 1;

export interface HedgehogErrorRow {
  /** ‖Â − A‖_F / ‖A‖_F on the fitted positions */
  relError: number;
  meanKL: number;
}
export interface RandomFeatureErrors {
  mean: number;
  std: number;
  meanKL: number;
}
export interface HedgehogEvaluation {
  /** positions of each sequence the errors are over */
  positions: number;
  /** feature dimension m' = 2m of both maps */
  featureDim: number;
  /** input seed of the held-out sequence (null: uploaded data with no held-out positions) */
  heldOutSeed: number | null;
  /** where the held-out positions come from */
  heldOutSource: 'seed' | 'upload-tail' | 'none';
  fitted: { hedgehog: HedgehogErrorRow; init: HedgehogErrorRow; random: RandomFeatureErrors };
  heldOut: { hedgehog: HedgehogErrorRow; init: HedgehogErrorRow; random: RandomFeatureErrors } | null;
  /** feature seeds averaged for the random features */
  randomSeeds: number;
}

function hedgehogErrors(q: Matrix, k: Matrix, w: Matrix, causal: boolean, exact: Float64Array): HedgehogErrorRow {
  const x = scaleInputs(q);
  const y = scaleInputs(k);
  return denseErrors(denseLinearAttention(hedgehogFeatures(x, w), hedgehogFeatures(y, w), causal), exact, q.rows);
}

/** FAVOR+ positive features with m' = 2m random features, over `seeds` feature seeds. */
function randomErrors(
  p: AttentionParams,
  q: Matrix,
  k: Matrix,
  exact: Float64Array,
  seeds: number,
): RandomFeatureErrors {
  const x = scaleInputs(q);
  const y = scaleInputs(k);
  const mRf = Math.min(2 * p.m, LIMITS.mMax);
  const errs: number[] = [];
  let kl = 0;
  for (let s = 0; s < seeds; s++) {
    const w = randomProjection(p.projection, mRf, p.d, createRng(deriveSeed(p.featureSeed + s, 'w')));
    const e = denseErrors(
      denseLinearAttention(queryFeatures('positive', x, w), keyFeatures('positive', y, w), p.causal),
      exact,
      q.rows,
    );
    errs.push(e.relError);
    kl += e.meanKL / seeds;
  }
  const mean = errs.reduce((a, b) => a + b, 0) / errs.length;
  const std = Math.sqrt(errs.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, errs.length - 1));
  return { mean, std, meanKL: kl };
}

/**
 * Errors of the fitted W and of its initial value on the fitted positions and on held-out
 * positions, beside positive random features at the same m' = 2m. `inputs` are the experiment's
 * (generated or uploaded) Q, K; for uploaded data the held-out positions are the next nFit ones of
 * the upload when it has them.
 */
export function evaluateHedgehog(
  p: AttentionParams,
  inputs: Pick<AttentionInputs, 'q' | 'k'>,
  w: Matrix,
  uploaded: boolean,
  randomSeeds = 8,
): HedgehogEvaluation {
  const nFit = hedgehogPositions(inputs.q.rows);
  const w0 = hedgehogInit(p);
  const on = (q: Matrix, k: Matrix) => {
    const exact = Float64Array.from(exactAttentionMatrix(q, k, p.causal).data);
    return {
      hedgehog: hedgehogErrors(q, k, w, p.causal, exact),
      init: hedgehogErrors(q, k, w0, p.causal, exact),
      random: randomErrors(p, q, k, exact, randomSeeds),
    };
  };
  const fitted = on(firstRows(inputs.q, nFit), firstRows(inputs.k, nFit));
  let heldOut: HedgehogEvaluation['heldOut'] = null;
  let source: HedgehogEvaluation['heldOutSource'] = 'none';
  if (!uploaded) {
    const other = generateInputs({ ...p, seed: heldOutSeed(p.seed), n: nFit });
    heldOut = on(other.q, other.k);
    source = 'seed';
  } else if (inputs.q.rows >= 2 * nFit) {
    const tail = (m: Matrix) => ({ rows: nFit, cols: m.cols, data: m.data.slice(nFit * m.cols, 2 * nFit * m.cols) });
    heldOut = on(tail(inputs.q), tail(inputs.k));
    source = 'upload-tail';
  }
  return {
    positions: nFit,
    featureDim: 2 * p.m,
    heldOutSeed: source === 'seed' ? heldOutSeed(p.seed) : null,
    heldOutSource: source,
    fitted,
    heldOut,
    randomSeeds,
  };
}

/** Train synchronously (tests, scripts): the losses per step and the fitted W. */
export function fitHedgehogSync(
  p: AttentionParams,
  inputs: Pick<AttentionInputs, 'q' | 'k'>,
  steps: number = HEDGEHOG_FIT.steps,
): { w: Matrix; losses: number[]; finalLoss: number } {
  const problem = hedgehogProblem(inputs.q, inputs.k, hedgehogPositions(inputs.q.rows), p.causal);
  const trainer = createHedgehogTrainer(problem, hedgehogInit(p), steps);
  const losses: number[] = [];
  for (let t = 0; t < steps; t++) losses.push(trainer.step());
  return { w: trainer.weights(), losses, finalLoss: trainer.loss() };
}
