/**
 * The later feature maps (after the Performer paper), CPU twins of FM_OPRF, FM_TAYLOR2, FM_COSFORMER in
 * src/shaders/feature-map-common.wgsl. Like every map they act on the scaled inputs
 * x = q·d^{-1/4}, y = k·d^{-1/4}. `feature-maps.ts` dispatches here.
 *
 * oprf — FAVOR++ / optimal positive random features (Likhosherstov et al., "Chefs' Random Tables:
 *   Non-Trigonometric Random Features", NeurIPS 2022). With ω ~ N(0, I_d) and A < 1/4,
 *     f_A(ω, x) = (1−4A)^{d/4} exp(A‖ω‖² + √(1−4A) ω·x − ‖x‖²/2)
 *   is unbiased: E f_A(ω,x) f_A(ω,y) = (1−4A)^{d/2} E exp(2A‖ω‖² + √(1−4A) ω·(x+y)) e^{−(‖x‖²+‖y‖²)/2}
 *   = exp(‖x+y‖²/2 − (‖x‖²+‖y‖²)/2) = e^{x·y} (Gaussian integral: E e^{2A‖ω‖² + b·ω} =
 *   (1−4A)^{−d/2} e^{‖b‖²/(2(1−4A))}). A = 0 is FAVOR+. Its second moment is
 *     E f⁴-term = (1−4A)^d (1−8A)^{−d/2} exp(2(1−4A)‖x+y‖²/(1−8A) − ‖x‖² − ‖y‖²)   (A < 1/8),
 *   and minimizing its log averaged over all pairs (x_i, y_j) gives the paper's closed form
 *     A* = (1 − 2ρ − √((2ρ + 1)² + 8ρ)) / 16,   ρ = (1/(n² d)) Σ_{i,j} ‖x_i + y_j‖²
 *   (set the derivative 16dA/((1−4A)(1−8A)) + 8dρ/(1−8A)² to 0: 16A² − (2 − 4ρ)A − ρ = 0, take the
 *   root below 1/8). A* ≤ 0, so every feature is positive AND bounded in ω. Σ_{i,j}‖x_i + y_j‖² /n² =
 *   mean‖x‖² + mean‖y‖² + 2 x̄·ȳ costs O(nd). The statistics are over all n² pairs, also in
 *   causal mode (a parameter choice, not part of the estimator's unbiasedness). The map:
 *     φ_r(x) = m^{-1/2} (1−4A)^{d/4} exp(A‖ω_r‖² + √(1−4A) ω_r·x − ‖x‖²/2)
 *   Stabilized like the positive map: the per-query-row max (global max over keys) of
 *   A‖ω_r‖² + √(1−4A) u_r is subtracted and the constant (1−4A)^{d/4} dropped — both cancel in Â.
 *
 *   Causal mode. ρ above averages over all n² pairs, so A — and with it every feature φ(k_j) and
 *   φ(q_i) — depends on keys after position i: row i of Â would see the future. A must not come from
 *   the sequence at all: a running prefix ρ_i would give row i its own A_i, i.e. features φ_{A_i}(k_j)
 *   that change with i, which breaks the prefix sums S_i = Σ_{j≤i} φ(k_j) v_jᵀ (every row would need
 *   its own sums, O(n²)). Unbiasedness holds for every A < 1/4, so the causal variant takes A from the
 *   distribution the estimator is tuned for instead of from the data: for q, k ~ N(0, I_d),
 *   x = q·d^{-1/4} and y = k·d^{-1/4} are N(0, d^{-1/2} I_d), so E‖x + y‖² = 2d·d^{-1/2} = 2√d and
 *     ρ_causal = E‖x + y‖²/d = 2/√d,   A_causal = A*(ρ_causal)
 *   (oprfCausalA): still an unbiased positive, bounded estimator, variance-optimal for unit-variance
 *   inputs and not for the current Q, K. Under the stabilizer 'ref' the key shift is key 0's max (see
 *   feature-maps.ts, causalKeyShift), as for the positive map.
 *
 * taylor2 — the second-order Taylor map of Based (Arora et al., "Simple linear attention language
 *   models balance the recall-throughput tradeoff", ICML 2024): φ(x) = [1, x, vec(x xᵀ)/√2], so
 *   φ(x)·φ(y) = 1 + x·y + (x·y)²/2, the second-order expansion of e^{x·y} (1 + elu is the first),
 *   positive for every x·y (discriminant 1 − 2 < 0). Layout: feature 0 is 1, 1..d are x_c,
 *   1 + d + a·d + b is x_a x_b / √2. 1 + d + d² features, no projection, no stabilizer.
 *
 * cosformer — cosFormer (Qin et al., "cosFormer: Rethinking Softmax in Attention", ICLR 2022):
 *   s_ij = relu(x_i)·relu(y_j) · cos(π(i − j)/(2M)), with M = n (the paper's choice: M is the
 *   sequence length, so |i − j| < M and the weight stays in (0, 1]). By cos(a − b) = cos a cos b +
 *   sin a sin b it splits into two linear attentions:
 *     φ(x_i) = [relu(x_i) cos θ_i | relu(x_i) sin θ_i],   θ_i = π i / (2M)
 *   (columns 0..d−1 cos, d..2d−1 sin; 2d features), in both modes (causal: prefix sums as usual).
 *   The feature depends on the position i — callers that pass a subset of rows give `positions`.
 */
import type { Matrix } from './types';

/** What the position- and data-dependent maps need besides x and W. */
export interface MapContext {
  /** OPRF's A (from `oprfParameter` over the full scaled Q and K); required for 'oprf' */
  oprfA?: number;
  /** positions of x's rows in the sequence (cosFormer); default 0, 1, …, rows − 1 */
  positions?: ArrayLike<number>;
  /** the sequence length M of cosFormer's cos(π(i − j)/2M); default x.rows */
  length?: number;
  /** causal attention: the maps use their causal variants (statistics over all positions are replaced) */
  causal?: boolean;
}

/** ρ = (1/(n_x n_y d)) Σ_{i,j} ‖x_i + y_j‖² of OPRF's variance-optimal A (f64). */
export function oprfRho(x: Matrix, y: Matrix): number {
  const d = x.cols;
  const mean = (a: Matrix): { sq: number; mu: Float64Array } => {
    const mu = new Float64Array(d);
    let sq = 0;
    for (let i = 0; i < a.rows; i++) {
      for (let c = 0; c < d; c++) {
        const v = a.data[i * d + c]!;
        mu[c]! += v;
        sq += v * v;
      }
    }
    const inv = a.rows > 0 ? 1 / a.rows : 0;
    for (let c = 0; c < d; c++) mu[c]! *= inv;
    return { sq: sq * inv, mu };
  };
  const mx = mean(x);
  const my = mean(y);
  let dot = 0;
  for (let c = 0; c < d; c++) dot += mx.mu[c]! * my.mu[c]!;
  return d > 0 ? Math.max(0, (mx.sq + my.sq + 2 * dot) / d) : 0;
}

/** A*(ρ) = (1 − 2ρ − √((2ρ+1)² + 8ρ)) / 16 ≤ 0 (Chefs' Random Tables, OPRF). */
export function oprfA(rho: number): number {
  return (1 - 2 * rho - Math.sqrt((2 * rho + 1) ** 2 + 8 * rho)) / 16;
}

/** ρ of the causal variant: E‖x + y‖²/d = 2/√d for q, k ~ N(0, I_d) (sequence-independent). */
export function oprfCausalRho(d: number): number {
  return d > 0 ? 2 / Math.sqrt(d) : 0;
}

/** OPRF's A in causal mode: A*(2/√d), fixed before the sequence (see the header). */
export function oprfCausalA(d: number): number {
  return oprfA(oprfCausalRho(d));
}

/** The variance-minimizing A of OPRF for these scaled queries x and keys y. */
export function oprfParameter(x: Matrix, y: Matrix): number {
  return oprfA(oprfRho(x, y));
}

/**
 * OPRF features from the projections u (n×m, f64) and half squared norms of x. `stabilize`
 * subtracts the max exponent (per row for queries; for keys the max over the first `keyRows` rows,
 * all of them unless causal under 'ref') and drops (1−4A)^{d/4}; `eps` is added to every feature
 * (stabilizer 'ref').
 */
export function oprfFeatures(
  u: Float64Array,
  halfNorms: Float64Array,
  w: Matrix,
  a: number,
  key: boolean,
  stabilize: boolean,
  eps: number,
  keyRows: number = halfNorms.length,
): Matrix {
  const n = halfNorms.length;
  const m = w.rows;
  const d = w.cols;
  const b = Math.sqrt(1 - 4 * a);
  const wn = new Float64Array(m);
  for (let r = 0; r < m; r++) {
    let s = 0;
    for (let c = 0; c < d; c++) s += w.data[r * d + c]! ** 2;
    wn[r] = a * s;
  }
  const expo = new Float64Array(n * m);
  const rowMax = new Float64Array(n).fill(-Infinity);
  let globalMax = -Infinity;
  for (let i = 0; i < n; i++) {
    for (let r = 0; r < m; r++) {
      const e = wn[r]! + b * u[i * m + r]!;
      expo[i * m + r] = e;
      rowMax[i] = Math.max(rowMax[i]!, e);
    }
    if (i < keyRows) globalMax = Math.max(globalMax, rowMax[i]!);
  }
  const ratio = 1 / Math.sqrt(m);
  const logD = stabilize ? 0 : (d / 4) * Math.log(1 - 4 * a);
  const out = new Float32Array(n * m);
  for (let i = 0; i < n; i++) {
    const shift = !stabilize ? 0 : key ? globalMax : rowMax[i]!;
    const base = halfNorms[i]! + shift - logD;
    for (let r = 0; r < m; r++) out[i * m + r] = ratio * (Math.exp(expo[i * m + r]! - base) + eps);
  }
  return { rows: n, cols: m, data: out };
}

/** Feature dimension of the second-order Taylor map: 1 + d + d². */
export function taylor2Dim(d: number): number {
  return 1 + d + d * d;
}

/** φ(x) = [1, x, vec(x xᵀ)/√2] per row. */
export function taylor2Features(x: Matrix): Matrix {
  const { rows: n, cols: d } = x;
  const mp = taylor2Dim(d);
  const out = new Float32Array(n * mp);
  const h = Math.SQRT1_2;
  for (let i = 0; i < n; i++) {
    const o = i * mp;
    out[o] = 1;
    for (let a = 0; a < d; a++) {
      const xa = x.data[i * d + a]!;
      out[o + 1 + a] = xa;
      for (let b = 0; b < d; b++) out[o + 1 + d + a * d + b] = xa * x.data[i * d + b]! * h;
    }
  }
  return { rows: n, cols: mp, data: out };
}

/** θ_i = π·i / (2M): cosFormer's angle of position i for sequence length M. */
export function cosformerAngle(position: number, length: number): number {
  return (Math.PI * position) / (2 * Math.max(length, 1));
}

/** φ(x_i) = [relu(x_i) cos θ_i | relu(x_i) sin θ_i] (2d features). */
export function cosformerFeatures(x: Matrix, ctx: MapContext = {}): Matrix {
  const { rows: n, cols: d } = x;
  const len = ctx.length ?? n;
  const out = new Float32Array(n * 2 * d);
  for (let i = 0; i < n; i++) {
    const th = cosformerAngle(ctx.positions ? ctx.positions[i]! : i, len);
    const cs = Math.cos(th);
    const sn = Math.sin(th);
    for (let c = 0; c < d; c++) {
      const v = Math.max(x.data[i * d + c]!, 0);
      out[i * 2 * d + c] = v * cs;
      out[i * 2 * d + d + c] = v * sn;
    }
  }
  return { rows: n, cols: 2 * d, data: out };
}

/** 1 + x + x²/2 — the second-order Taylor polynomial of eˣ, positive everywhere. */
export function taylor2Curve(x: number): number {
  return 1 + x + (x * x) / 2;
}

/** OPRF's single-entry estimate of e^{x·y} (f64, unstabilized): (1/m) Σ_r f_A(ω_r, x) f_A(ω_r, y). */
export function oprfKernelEstimate(x: ArrayLike<number>, y: ArrayLike<number>, w: Matrix, a: number): number {
  const d = w.cols;
  const b = Math.sqrt(1 - 4 * a);
  let hx = 0;
  let hy = 0;
  for (let c = 0; c < d; c++) {
    hx += x[c]! * x[c]!;
    hy += y[c]! * y[c]!;
  }
  const logD2 = (d / 2) * Math.log(1 - 4 * a);
  let s = 0;
  for (let r = 0; r < w.rows; r++) {
    let wn = 0;
    let us = 0;
    for (let c = 0; c < d; c++) {
      const wc = w.data[r * d + c]!;
      wn += wc * wc;
      us += wc * (x[c]! + y[c]!);
    }
    s += Math.exp(logD2 + 2 * a * wn + b * us - (hx + hy) / 2);
  }
  return s / w.rows;
}
