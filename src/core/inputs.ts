/**
 * Deterministic synthetic inputs for one experiment. Q, K, V come from `seed` (independent named
 * substreams, so changing one input kind's recipe never shifts another's numbers); W comes from
 * `featureSeed` alone, so "redraw features" changes Â but never A.
 *
 * Input kinds (every kind has E‖q_i‖² = E‖k_j‖² = d·scale², so `scale` means the same thing —
 * the norm / temperature knob — throughout; V is always iid N(0, 1)):
 * - 'gaussian'  q, k entries iid N(0, scale²). Scores q·k/√d have std scale², so at small scale A
 *               is nearly uniform (average pooling) and sharpens as scale grows.
 * - 'clustered' every position i carries a topic label c_i ∈ {0..C−1}, C = min(8, n); q_i and k_i
 *               are scale·(α√d μ_{c_i} + β ξ) with random unit centres μ_c, α = 0.9, β = √(1−α²),
 *               independent noise ξ ~ N(0, I_d). Same-topic scores are ≈ scale²α²√d, cross-topic
 *               ≈ 0, so each query's attention concentrates on the keys of its own cluster: a
 *               block pattern (after sorting by topic), scattered in position order.
 * - 'local'     positional structure: q_i = scale·(α√2 pe(i) + β ξ), k_j likewise, with sinusoidal
 *               codes pe(i) = [sin(ω_t i), cos(ω_t i)]_t, ω_t geometric from 1 down to 1/max(4, √n)
 *               rad per position. pe(i)·pe(j) = Σ_t cos(ω_t (i−j)) peaks at i = j and decays with |i−j|,
 *               so attention is a band about max(4, √n) positions wide around the diagonal
 *               (causal: a recency window). For odd d
 *               the last coordinate is noise only; at d ≤ 2 the single frequency makes the
 *               pattern periodic rather than local.
 * Structure only shows once it beats the softmax's log n "crowd": the peak score is ≈ scale²α²√d,
 * so like gaussian inputs the structured kinds are nearly uniform at small scale and sharpen as
 * scale (or d) grows — e.g. n = 128, d = 16: clustered puts ~86% of the attention on its own
 * cluster at scale 1.2; local's mean attention distance |i − j| drops from ~40 to ~2 at scale 2.
 */
import { deriveSeed, createRng, type Rng } from './rng';
import { usesProjection } from './feature-maps';
import { randomProjection } from './projections';
import { validateParams } from './validate';
import type { AttentionInputs, AttentionParams, Matrix } from './types';

/** Weight of the structured part in 'clustered' and 'local' inputs (the rest is noise). */
export const STRUCTURE_WEIGHT = 0.9;
/** Number of topics of 'clustered' inputs (fewer if n is smaller). */
export const MAX_CLUSTERS = 8;

function gaussianMatrix(rows: number, cols: number, std: number, rng: Rng): Matrix {
  return { rows, cols, data: rng.fillNormal(new Float32Array(rows * cols), std) };
}

/** signal (n×d, f64 rows of squared norm ≈ d) mixed with noise: scale·(α·signal + β·ξ). */
function mixWithNoise(signal: Float64Array, n: number, d: number, scale: number, rng: Rng): Matrix {
  const a = STRUCTURE_WEIGHT;
  const b = Math.sqrt(1 - a * a);
  const data = new Float32Array(n * d);
  for (let t = 0; t < n * d; t++) data[t] = scale * (a * signal[t]! + b * rng.normal());
  return { rows: n, cols: d, data };
}

function clusteredSignals(n: number, d: number, seed: number): Float64Array {
  const c = Math.min(MAX_CLUSTERS, n);
  const centreRng = createRng(deriveSeed(seed, 'centres'));
  const centres = new Float64Array(c * d);
  for (let t = 0; t < c; t++) {
    let norm = 0;
    for (let u = 0; u < d; u++) {
      const z = centreRng.normal();
      centres[t * d + u] = z;
      norm += z * z;
    }
    const s = Math.sqrt(d / Math.max(norm, 1e-30)); // √d · unit vector
    for (let u = 0; u < d; u++) centres[t * d + u]! *= s;
  }
  const labels = clusterLabels(n, seed);
  const signal = new Float64Array(n * d);
  for (let i = 0; i < n; i++) signal.set(centres.subarray(labels[i]! * d, (labels[i]! + 1) * d), i * d);
  return signal;
}

/** Topic label of each position for 'clustered' inputs (for the explainer's annotations). */
export function clusterLabels(n: number, seed: number): Int32Array {
  const c = Math.min(MAX_CLUSTERS, n);
  const labelRng = createRng(deriveSeed(seed, 'labels'));
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.min(c - 1, Math.floor(labelRng.uniform() * c));
  return out;
}

/**
 * Width (in positions) of the 'local' band: the slowest code frequency is 1/window rad per position,
 * so positions further apart than ~window have decorrelated codes. √n keeps the band narrow
 * relative to n while still several positions wide at small n.
 */
export function localWindow(n: number): number {
  return Math.max(4, Math.sqrt(n));
}

/** √2·[sin(ω_t i), cos(ω_t i)]_t for t < ⌊d/2⌋ (odd d: last coordinate 0); squared norm 2⌊d/2⌋. */
export function positionCodes(n: number, d: number): Float64Array {
  const pairs = Math.floor(d / 2);
  const out = new Float64Array(n * d);
  const minOmega = 1 / localWindow(n);
  for (let t = 0; t < pairs; t++) {
    const omega = pairs === 1 ? 1 : Math.pow(minOmega, t / (pairs - 1));
    for (let i = 0; i < n; i++) {
      out[i * d + 2 * t] = Math.SQRT2 * Math.sin(omega * i);
      out[i * d + 2 * t + 1] = Math.SQRT2 * Math.cos(omega * i);
    }
  }
  return out;
}

export function generateInputs(p: AttentionParams): AttentionInputs {
  validateParams(p);
  return { ...queriesAndKeys(p), v: valuesFor(p), w: projectionFor(p) };
}

/** Q and K alone, identical to those `generateInputs` draws (their streams come from `seed`, not V's or W's). */
export function queriesAndKeys(p: AttentionParams): { q: Matrix; k: Matrix } {
  const { n, d, seed, scale } = p;
  const qRng = createRng(deriveSeed(seed, 'q'));
  const kRng = createRng(deriveSeed(seed, 'k'));

  let q: Matrix;
  let k: Matrix;
  if (p.input === 'gaussian') {
    q = gaussianMatrix(n, d, scale, qRng);
    k = gaussianMatrix(n, d, scale, kRng);
  } else {
    const signal = p.input === 'clustered' ? clusteredSignals(n, d, seed) : positionCodes(n, d);
    q = mixWithNoise(signal, n, d, scale, qRng);
    k = mixWithNoise(signal, n, d, scale, kRng);
  }
  return { q, k };
}

/** W alone (from `featureSeed`): all that bring-your-own Q/K still needs generated. 0×d without a projection. */
export function projectionFor(p: AttentionParams): Matrix {
  return usesProjection(p.featureMap)
    ? randomProjection(p.projection, p.m, p.d, createRng(deriveSeed(p.featureSeed, 'w')))
    : { rows: 0, cols: p.d, data: new Float32Array(0) };
}

/** V alone (from `seed`), identical to the V that `generateInputs` draws. */
export function valuesFor(p: AttentionParams): Matrix {
  return gaussianMatrix(p.n, p.d, 1, createRng(deriveSeed(p.seed, 'v')));
}
