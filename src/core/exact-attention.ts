/**
 * Exact softmax attention, the ground truth: s_ij = q_i·k_j / √d, A = row-softmax(s) (causal: keys
 * j > i masked), out = A V.
 *
 * `exactAttentionOutput` is the CPU twin of the fused GPU kernel: it streams over the keys of each
 * query row with the online-softmax recurrence (running max m, running sum ℓ, running weighted sum
 * of values), so it never allocates the n×n matrix:
 *   m' = max(m, s),  ℓ' = ℓ·e^{m−m'} + e^{s−m'},  acc' = acc·e^{m−m'} + e^{s−m'}·v_j,  out = acc/ℓ.
 * All accumulation is in f64.
 */
import { EngineError } from './errors';
import type { Matrix } from './types';

function checkQK(q: Matrix, k: Matrix): void {
  if (q.cols !== k.cols) throw new EngineError('shape-mismatch', `Q is ${q.rows}×${q.cols}, K is ${k.rows}×${k.cols}`);
}

/** Scores of one query row against all keys (or keys 0..i when causal; later entries −∞). */
export function scoreRow(q: Matrix, k: Matrix, i: number, causal: boolean, out: Float64Array): Float64Array {
  const d = q.cols;
  const inv = 1 / Math.sqrt(d);
  const last = causal ? Math.min(i, k.rows - 1) : k.rows - 1;
  for (let j = 0; j < k.rows; j++) {
    if (j > last) {
      out[j] = -Infinity;
      continue;
    }
    let s = 0;
    for (let c = 0; c < d; c++) s += q.data[i * d + c]! * k.data[j * d + c]!;
    out[j] = s * inv;
  }
  return out;
}

/** Writes row i of A (length n, masked entries 0) into `out`. */
export function exactAttentionRow(
  q: Matrix,
  k: Matrix,
  i: number,
  causal: boolean,
  out: Float32Array,
  scratch?: Float64Array,
): Float32Array {
  const n = k.rows;
  const s = scratch && scratch.length >= n ? scratch : new Float64Array(n);
  scoreRow(q, k, i, causal, s);
  let mx = -Infinity;
  for (let j = 0; j < n; j++) mx = Math.max(mx, s[j]!);
  let sum = 0;
  for (let j = 0; j < n; j++) {
    const e = s[j] === -Infinity ? 0 : Math.exp(s[j]! - mx);
    s[j] = e;
    sum += e;
  }
  for (let j = 0; j < n; j++) out[j] = s[j]! / sum;
  return out;
}

/** Dense A (n_q × n_k). O(n²) memory — for small n (views, tests). */
export function exactAttentionMatrix(q: Matrix, k: Matrix, causal: boolean): Matrix {
  checkQK(q, k);
  const n = k.rows;
  const data = new Float32Array(q.rows * n);
  const scratch = new Float64Array(n);
  for (let i = 0; i < q.rows; i++) exactAttentionRow(q, k, i, causal, data.subarray(i * n, (i + 1) * n), scratch);
  return { rows: q.rows, cols: n, data };
}

/** out = A V by online softmax, one pass over the keys per query row; O(n·d) memory. */
export function exactAttentionOutput(q: Matrix, k: Matrix, v: Matrix, causal: boolean): Matrix {
  checkQK(q, k);
  if (v.rows !== k.rows) throw new EngineError('shape-mismatch', `V has ${v.rows} rows, K has ${k.rows}`);
  const d = q.cols;
  const dv = v.cols;
  const inv = 1 / Math.sqrt(d);
  const out = new Float32Array(q.rows * dv);
  const acc = new Float64Array(dv);
  for (let i = 0; i < q.rows; i++) {
    const last = causal ? Math.min(i, k.rows - 1) : k.rows - 1;
    let mx = -Infinity;
    let l = 0;
    acc.fill(0);
    for (let j = 0; j <= last; j++) {
      let s = 0;
      for (let c = 0; c < d; c++) s += q.data[i * d + c]! * k.data[j * d + c]!;
      s *= inv;
      if (s > mx) {
        // New running max: rescale what has been accumulated so far (e^{−∞} = 0 on the first key).
        const corr = Math.exp(mx - s);
        l *= corr;
        for (let c = 0; c < dv; c++) acc[c]! *= corr;
        mx = s;
      }
      const p = Math.exp(s - mx);
      l += p;
      for (let c = 0; c < dv; c++) acc[c]! += p * v.data[j * dv + c]!;
    }
    for (let c = 0; c < dv; c++) out[i * dv + c] = acc[c]! / l;
  }
  return { rows: q.rows, cols: dv, data: out };
}

/** Per query row: max_j s_ij and Σ_j exp(s_ij − max) over the allowed keys (the softmax normalizers). */
export function exactRowNormalizers(q: Matrix, k: Matrix, causal: boolean): { max: Float32Array; sum: Float32Array } {
  checkQK(q, k);
  const max = new Float32Array(q.rows);
  const sum = new Float32Array(q.rows);
  const s = new Float64Array(k.rows);
  for (let i = 0; i < q.rows; i++) {
    scoreRow(q, k, i, causal, s);
    let mx = -Infinity;
    for (let j = 0; j < k.rows; j++) mx = Math.max(mx, s[j]!);
    let l = 0;
    for (let j = 0; j < k.rows; j++) if (s[j] !== -Infinity) l += Math.exp(s[j]! - mx);
    max[i] = mx;
    sum[i] = l;
  }
  return { max, sum };
}
