/**
 * Linear (kernelized) attention with features Q' = φ(Q), K' = φ(K) (n × m'):
 *   Â_ij = q'_i·k'_j / Σ_j' q'_i·k'_j'      (causal: j, j' ≤ i, Â_ij = 0 for j > i)
 *   bidirectional  out = D^{-1} Q' (K'ᵀ V),  D = diag(Q' (K'ᵀ 1))          — O(n m' d)
 *   causal         S_i = Σ_{j≤i} k'_j v_jᵀ,  z_i = Σ_{j≤i} k'_j,  out_i = q'_iᵀ S_i / q'_i·z_i
 * The sums K'ᵀV, K'ᵀ1 (and the prefix sums) are accumulated in f64 over j = 0, 1, …, n−1 in order,
 * so the result does not depend on any chunking choice.
 *
 * Denominators are not clamped: with trig features they can be ≈ 0 or negative, and the explainer
 * shows that instability honestly (the job layer reports non-finite results as errors). The one
 * guard is for an all-zero normalizer (every product φ(q_i)·φ(k_j) of the row is 0, which the
 * faithful 'shift' stabilizer allows at extreme norms): that row of Â and of the output is 0 rather
 * than 0/0, and `linearAttention` counts such rows so the UI can say so.
 */
import { EngineError } from './errors';
import { keyFeatures, mapContext, queryFeatures, scaleInputs } from './feature-maps';
import type { AttentionInputs, FeatureMapKind, Matrix, Stabilizer } from './types';

function checkFeatures(qf: Matrix, kf: Matrix): void {
  if (qf.cols !== kf.cols) {
    throw new EngineError('shape-mismatch', `φ(Q) is ${qf.rows}×${qf.cols}, φ(K) is ${kf.rows}×${kf.cols}`);
  }
}

/** out = Â V without forming Â. */
export function linearAttentionOutput(qf: Matrix, kf: Matrix, v: Matrix, causal: boolean): Matrix {
  return linearAttention(qf, kf, v, causal).out;
}

/**
 * out = Â V without forming Â, and the number of query rows whose normalizer φ(q_i)·Σ_j φ(k_j) is
 * exactly 0 (their output row is 0).
 */
export function linearAttention(
  qf: Matrix,
  kf: Matrix,
  v: Matrix,
  causal: boolean,
): { out: Matrix; zeroNormalizerRows: number } {
  checkFeatures(qf, kf);
  if (v.rows !== kf.rows) throw new EngineError('shape-mismatch', `V has ${v.rows} rows, φ(K) has ${kf.rows}`);
  const mp = qf.cols;
  const dv = v.cols;
  const n = qf.rows;
  const out = new Float32Array(n * dv);
  const S = new Float64Array(mp * dv); // Σ_j k'_j v_jᵀ
  const z = new Float64Array(mp); // Σ_j k'_j
  const num = new Float64Array(dv);
  let zeroRows = 0;

  const addKey = (j: number): void => {
    for (let r = 0; r < mp; r++) {
      const kr = kf.data[j * mp + r]!;
      z[r]! += kr;
      for (let c = 0; c < dv; c++) S[r * dv + c]! += kr * v.data[j * dv + c]!;
    }
  };
  const readQuery = (i: number): void => {
    num.fill(0);
    let den = 0;
    for (let r = 0; r < mp; r++) {
      const qr = qf.data[i * mp + r]!;
      den += qr * z[r]!;
      for (let c = 0; c < dv; c++) num[c]! += qr * S[r * dv + c]!;
    }
    if (den === 0) {
      zeroRows++;
      return; // out row stays 0
    }
    for (let c = 0; c < dv; c++) out[i * dv + c] = num[c]! / den;
  };

  if (causal) {
    for (let i = 0; i < n; i++) {
      if (i < kf.rows) addKey(i);
      readQuery(i);
    }
  } else {
    for (let j = 0; j < kf.rows; j++) addKey(j);
    for (let i = 0; i < n; i++) readQuery(i);
  }
  return { out: { rows: n, cols: dv, data: out }, zeroNormalizerRows: zeroRows };
}

/**
 * Writes row i of Â into `out` (length n_k): the numerators q'_i·k'_j over the allowed keys, divided
 * by their sum (accumulated in f64 in key order). Masked entries (causal, j > i) are 0; a row whose
 * sum is exactly 0 is all 0.
 */
export function linearAttentionRow(
  qf: Matrix,
  kf: Matrix,
  i: number,
  causal: boolean,
  out: Float32Array,
  scratch?: Float64Array,
): Float32Array {
  const mp = qf.cols;
  const n = kf.rows;
  const s = scratch && scratch.length >= n ? scratch : new Float64Array(n);
  const last = causal ? Math.min(i, n - 1) : n - 1;
  let den = 0;
  for (let j = 0; j < n; j++) {
    if (j > last) {
      s[j] = 0;
      continue;
    }
    let e = 0;
    for (let r = 0; r < mp; r++) e += qf.data[i * mp + r]! * kf.data[j * mp + r]!;
    s[j] = e;
    den += e;
  }
  for (let j = 0; j < n; j++) out[j] = j > last || den === 0 ? 0 : s[j]! / den;
  return out;
}

/** Dense Â (n × n). O(n²) memory — for small n (views, tests). */
export function linearAttentionMatrix(qf: Matrix, kf: Matrix, causal: boolean): Matrix {
  checkFeatures(qf, kf);
  const n = kf.rows;
  const data = new Float32Array(qf.rows * n);
  const scratch = new Float64Array(n);
  for (let i = 0; i < qf.rows; i++) linearAttentionRow(qf, kf, i, causal, data.subarray(i * n, (i + 1) * n), scratch);
  return { rows: qf.rows, cols: n, data };
}

/** φ(Q·d^{-1/4}) and φ(K·d^{-1/4}) with the inputs' projection W (`causal`: the maps' causal variants). */
export function performerFeatures(
  inputs: AttentionInputs,
  kind: FeatureMapKind,
  stabilizer: Stabilizer = 'shift',
  causal = false,
): { qf: Matrix; kf: Matrix } {
  const x = scaleInputs(inputs.q);
  const y = scaleInputs(inputs.k);
  const ctx = mapContext(kind, x, y, causal);
  return { qf: queryFeatures(kind, x, inputs.w, stabilizer, ctx), kf: keyFeatures(kind, y, inputs.w, stabilizer, ctx) };
}
