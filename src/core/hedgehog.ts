/**
 * Hedgehog-style learned feature map (Zhang, Bhatia, Kumbong, Ré, "The Hedgehog & the Porcupine:
 * Expressive Linear Attentions with Softmax Mimicry", ICLR 2024), fitted in the browser:
 *
 *   φ(x) = [softmax(W x) ‖ softmax(−W x)] ∈ R^{2m},   W ∈ R^{m×d} shared by queries and keys,
 *
 * on the d^{-1/4}-scaled inputs x = q·d^{-1/4}, y = k·d^{-1/4} like every other map. Columns 0..m−1
 * hold softmax(+Wx), m..2m−1 softmax(−Wx); each half sums to 1, so φ is positive and bounded and
 * needs no stabilizer (the max shift inside each softmax is exact, not an approximation).
 *
 * Training ("softmax mimicry"): minimize the cross-entropy between the rows of the exact attention
 * A and of the linear attention Â of φ on the fitted positions,
 *
 *   L(W) = (1/n) Σ_i [ −Σ_j A_ij log k_ij + log S_i ],   k_ij = φ(x_i)·φ(y_j),  S_i = Σ_j k_ij,
 *
 * (j over the allowed keys: j ≤ i when causal; −Σ_j A_ij log Â_ij = −Σ_j A_ij log k_ij + log S_i
 * because Σ_j A_ij = 1). Hand-derived gradient, checked against finite differences in hedgehog.test.ts:
 *
 *   G_ij    = ∂L/∂k_ij = (1/S_i − A_ij / k_ij) / n                     (0 for masked j)
 *   with a_i = softmax(W x_i), b_i = softmax(−W x_i), α_j = softmax(W y_j), β_j = softmax(−W y_j),
 *   k_ij = a_i·α_j + b_i·β_j:
 *   ∂L/∂a_i = Σ_j G_ij α_j =: g_i,   ∂L/∂b_i = Σ_j G_ij β_j =: h_i,
 *   ∂L/∂α_j = Σ_i G_ij a_i =: γ_j,   ∂L/∂β_j = Σ_i G_ij b_i =: η_j,
 *   softmax backward (p = softmax(z), ∂L/∂z = p ⊙ (g − p·g); for p = softmax(−z) the sign flips):
 *   ∂L/∂(W x_i) = a_i ⊙ (g_i − a_i·g_i) − b_i ⊙ (h_i − b_i·h_i)
 *   ∂L/∂(W y_j) = α_j ⊙ (γ_j − α_j·γ_j) − β_j ⊙ (η_j − β_j·η_j)
 *   ∂L/∂W      = Σ_i ∂L/∂(W x_i) x_iᵀ + Σ_j ∂L/∂(W y_j) y_jᵀ.
 *
 * Optimizer: Adam (β₁ 0.9, β₂ 0.999, ε 1e-8) for a fixed number of steps with a cosine learning-rate
 * schedule, in f64 with a fixed order of operations — so a seed gives the same W bits every time
 * (links with `map=hedgehog` reproduce). W starts at the experiment's random projection (the same
 * W FAVOR+ would use, from the feature seed).
 */
import { klDivergence, relativeError } from './metrics';
import { EngineError } from './errors';
import type { Matrix } from './types';

/** The fixed training recipe (part of what a link reproduces). */
export const HEDGEHOG_FIT = {
  /** Adam steps */
  steps: 160,
  /** peak learning rate; cosine-decayed to lrMin over the steps */
  lr: 0.08,
  lrMin: 0.004,
  /** the fit uses the first min(n, maxPositions) positions (the loss is O(n² m) per step) */
  maxPositions: 256,
} as const;

/** Learning rate at step t (0-based) of `steps`: cosine from lr to lrMin. */
export function hedgehogLearningRate(t: number, steps: number = HEDGEHOG_FIT.steps): number {
  const { lr, lrMin } = HEDGEHOG_FIT;
  return lrMin + 0.5 * (lr - lrMin) * (1 + Math.cos((Math.PI * t) / Math.max(1, steps)));
}

/** softmax(±z) of one row of length m into out[off..off+m) (max-shifted, exact). */
function softmaxInto(z: Float64Array, zOff: number, m: number, sign: 1 | -1, out: Float64Array, off: number): void {
  let mx = -Infinity;
  for (let r = 0; r < m; r++) mx = Math.max(mx, sign * z[zOff + r]!);
  let s = 0;
  for (let r = 0; r < m; r++) {
    const e = Math.exp(sign * z[zOff + r]! - mx);
    out[off + r] = e;
    s += e;
  }
  for (let r = 0; r < m; r++) out[off + r]! /= s;
}

/** φ of every row in f64 (n × 2m) from W given as f64 (m × d). */
function featuresF64(x: Matrix, w: Float64Array, m: number): Float64Array {
  const { rows: n, cols: d } = x;
  const z = new Float64Array(m);
  const out = new Float64Array(n * 2 * m);
  for (let i = 0; i < n; i++) {
    for (let r = 0; r < m; r++) {
      let s = 0;
      for (let c = 0; c < d; c++) s += w[r * d + c]! * x.data[i * d + c]!;
      z[r] = s;
    }
    softmaxInto(z, 0, m, 1, out, i * 2 * m);
    softmaxInto(z, 0, m, -1, out, i * 2 * m + m);
  }
  return out;
}

/** The Hedgehog features φ(x_i) = [softmax(W x_i) ‖ softmax(−W x_i)] of every row (x already scaled); n × 2m. */
export function hedgehogFeatures(x: Matrix, w: Matrix): Matrix {
  if (w.cols !== x.cols) {
    throw new EngineError('shape-mismatch', `W is ${w.rows}×${w.cols} but inputs have d = ${x.cols}`);
  }
  const f = featuresF64(x, Float64Array.from(w.data), w.rows);
  return { rows: x.rows, cols: 2 * w.rows, data: Float32Array.from(f) };
}

/** A fitting problem: scaled queries x, keys y (n × d) and the target attention A (n × n, rows sum to 1 over allowed keys). */
export interface HedgehogProblem {
  x: Matrix;
  y: Matrix;
  /** dense exact attention, row-major n × n (0 above the diagonal when causal) */
  target: Float64Array;
  causal: boolean;
}

/** Loss L(W) and, when `grad` is given, ∂L/∂W written into it (m × d). W in f64, m × d. */
export function hedgehogLossAndGrad(problem: HedgehogProblem, w: Float64Array, m: number, grad?: Float64Array): number {
  const { x, y, target, causal } = problem;
  const n = x.rows;
  const d = x.cols;
  const mp = 2 * m;
  const fq = featuresF64(x, w, m);
  const fk = featuresF64(y, w, m);
  const g = grad ? new Float64Array(n * n) : null;
  let loss = 0;
  const kRow = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const jEnd = causal ? i + 1 : n;
    let s = 0;
    for (let j = 0; j < jEnd; j++) {
      let k = 0;
      for (let r = 0; r < mp; r++) k += fq[i * mp + r]! * fk[j * mp + r]!;
      kRow[j] = k;
      s += k;
    }
    let ce = Math.log(s);
    for (let j = 0; j < jEnd; j++) {
      const a = target[i * n + j]!;
      if (a > 0) ce -= a * Math.log(kRow[j]!);
      if (g) g[i * n + j] = (1 / s - a / kRow[j]!) / n;
    }
    loss += ce / n;
  }
  if (!grad || !g) return loss;

  // gq_i = Σ_j G_ij φ(y_j)  (= [g_i ‖ h_i]),  gk_j = Σ_i G_ij φ(x_i)  (= [γ_j ‖ η_j])
  const gq = new Float64Array(n * mp);
  const gk = new Float64Array(n * mp);
  for (let i = 0; i < n; i++) {
    const jEnd = causal ? i + 1 : n;
    for (let j = 0; j < jEnd; j++) {
      const gij = g[i * n + j]!;
      for (let r = 0; r < mp; r++) {
        gq[i * mp + r] += gij * fk[j * mp + r]!;
        gk[j * mp + r] += gij * fq[i * mp + r]!;
      }
    }
  }
  grad.fill(0);
  const dz = new Float64Array(m);
  const backward = (f: Float64Array, gf: Float64Array, inp: Matrix): void => {
    for (let i = 0; i < n; i++) {
      const o = i * mp;
      let pa = 0;
      let pb = 0;
      for (let r = 0; r < m; r++) {
        pa += f[o + r]! * gf[o + r]!;
        pb += f[o + m + r]! * gf[o + m + r]!;
      }
      for (let r = 0; r < m; r++) dz[r] = f[o + r]! * (gf[o + r]! - pa) - f[o + m + r]! * (gf[o + m + r]! - pb);
      for (let r = 0; r < m; r++) {
        const v = dz[r]!;
        for (let c = 0; c < d; c++) grad[r * d + c] += v * inp.data[i * d + c]!;
      }
    }
  };
  backward(fq, gq, x);
  backward(fk, gk, y);
  return loss;
}

/**
 * The loss floor: mean row entropy (1/n) Σ_i H(A_i) of the target. L(W) = floor + mean KL(A_i ‖ Â_i),
 * so the gap to the floor is what the map still misses.
 */
export function hedgehogLossFloor(problem: HedgehogProblem): number {
  const n = problem.x.rows;
  let h = 0;
  for (const a of problem.target) if (a > 0) h -= a * Math.log(a);
  return h / n;
}

/** Adam on L(W), one `step()` at a time (so a worker can yield and cancel between steps). */
export interface HedgehogTrainer {
  readonly m: number;
  readonly d: number;
  readonly steps: number;
  /** steps taken so far */
  readonly t: number;
  /** one Adam step; returns the loss at the W before the step */
  step(): number;
  /** loss at the current W */
  loss(): number;
  /** the current W as float32 (m × d) */
  weights(): Matrix;
}

export function createHedgehogTrainer(
  problem: HedgehogProblem,
  w0: Matrix,
  steps: number = HEDGEHOG_FIT.steps,
): HedgehogTrainer {
  const { rows: m, cols: d } = w0;
  if (d !== problem.x.cols || d !== problem.y.cols) {
    throw new EngineError('shape-mismatch', `W is ${m}×${d} but inputs have d = ${problem.x.cols}`);
  }
  if (problem.target.length !== problem.x.rows * problem.y.rows) {
    throw new EngineError('shape-mismatch', 'target attention is not n × n');
  }
  const w = Float64Array.from(w0.data);
  const grad = new Float64Array(m * d);
  const mom = new Float64Array(m * d);
  const vel = new Float64Array(m * d);
  const b1 = 0.9;
  const b2 = 0.999;
  let t = 0;
  return {
    m,
    d,
    steps,
    get t() {
      return t;
    },
    step() {
      const l = hedgehogLossAndGrad(problem, w, m, grad);
      const lr = hedgehogLearningRate(t, steps);
      t += 1;
      const c1 = 1 - Math.pow(b1, t);
      const c2 = 1 - Math.pow(b2, t);
      for (let i = 0; i < w.length; i++) {
        const gi = grad[i]!;
        mom[i] = b1 * mom[i]! + (1 - b1) * gi;
        vel[i] = b2 * vel[i]! + (1 - b2) * gi * gi;
        w[i] -= (lr * (mom[i]! / c1)) / (Math.sqrt(vel[i]! / c2) + 1e-8);
      }
      return l;
    },
    loss: () => hedgehogLossAndGrad(problem, w, m),
    weights: () => ({ rows: m, cols: d, data: Float32Array.from(w) }),
  };
}

/** Dense linear attention Â (n × n, f64) of given features (rows normalized over allowed keys). */
export function denseLinearAttention(qf: Matrix, kf: Matrix, causal: boolean): Float64Array {
  const n = qf.rows;
  const mp = qf.cols;
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const jEnd = causal ? i + 1 : n;
    let s = 0;
    for (let j = 0; j < jEnd; j++) {
      let k = 0;
      for (let r = 0; r < mp; r++) k += qf.data[i * mp + r]! * kf.data[j * mp + r]!;
      out[i * n + j] = k;
      s += k;
    }
    if (s > 0) for (let j = 0; j < jEnd; j++) out[i * n + j]! /= s;
  }
  return out;
}

/** ‖Â − A‖_F / ‖A‖_F and mean KL(A_i ‖ Â_i) of dense n × n matrices. */
export function denseErrors(
  approx: Float64Array,
  exact: Float64Array,
  n: number,
): { relError: number; meanKL: number } {
  const a = exact.subarray(0, n * n);
  const b = approx.subarray(0, n * n);
  // the sum of the n row divergences is the divergence of the whole arrays
  return { relError: relativeError(b, a), meanKL: klDivergence(a, b) / n };
}
