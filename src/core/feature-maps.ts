/**
 * Feature maps φ of linear attention, exactly as in ARCHITECTURE.md (the WGSL kernels mirror this
 * file). All maps act on the d^{-1/4}-scaled inputs x = q·d^{-1/4}, y = k·d^{-1/4}, so that
 * softmax attention is exp(x·y) row-normalized and φ(x)·φ(y) estimates (or replaces) exp(x·y).
 *
 * With u_r = ω_r·x (ω_r the rows of W) and ε = 0 (stabilizer 'shift', the default) or FEATURE_EPS
 * (stabilizer 'ref', the reference implementation's):
 *   positive    query m^{-1/2}(exp(u_r − ‖x‖²/2 − max_r' u_r') + ε)
 *               key   m^{-1/2}(exp(u_r − ‖y‖²/2 − M_K) + ε),  M_K = max over all keys and r of u
 *   hyperbolic  (2m)^{-1/2}(exp(±u_r − ‖x‖²/2 − c) + ε), features [+u block | −u block],
 *               c = max_r |u_r| per query row; for keys one global max of |u|
 *   trig        m^{-1/2} exp(‖x‖²/2) [sin u | cos u]            (no stabilizer exists)
 *   relu        max(m^{-1/2} u_r, 0) + RELU_EPS
 *   elu1        elu(x_c) + 1 per coordinate                      (no projection, d features)
 *   exp         exp(u_r − max) + ε  (query: per-row max; key: global max)
 *   double-softmax  query softmax over the d coordinates; key softmax over the n positions
 *               (causal: exp(y_jc − M), one scalar M — see doubleSoftmaxKeys)
 *   oprf        m^{-1/2}(exp(A‖ω_r‖² + √(1−4A) u_r − ‖x‖²/2 − shift) + ε), A from Q and K
 *               (causal: a sequence-independent A, feature-maps-beyond.ts oprfCausalA)
 *   taylor2     [1, x, vec(x xᵀ)/√2]                            (no projection, 1 + d + d² features)
 *   cosformer   [relu(x_i) cos θ_i | relu(x_i) sin θ_i], θ_i = πi/(2n)  (no projection, 2d features)
 *   (the later maps: feature-maps-beyond.ts, with their sources and derivations)
 *   hedgehog    [softmax(u) | softmax(−u)] with W the fitted (learned) matrix, src/core/hedgehog.ts
 *
 * Why the shifts are harmless: subtracting a per-query constant multiplies the whole row of
 * φ(x_i)·φ(y_j) by one factor, and subtracting one global constant from all keys multiplies every
 * entry by one factor — both cancel in the row normalization of Â, so with 'shift' Â is the
 * estimator itself. ε does not cancel: it adds ε·Σ_r φ_r(x) + m·ε² (times ratio²) to every entry
 * of a row. At small norms that is negligible, but at large norms the true key features (≈ e^-24
 * at s = 2, d = 16, after the global key shift) fall far below ε, ε dominates every key, and Â
 * tends to uniform (normalized entropy 0.98 instead of the estimator's 0.50 there). Without ε a row
 * of Â can have an all-zero normalizer when every product φ(x_i)·φ(y_j) underflows float32
 * (extreme norms); linear attention then reports that row as zero and counts it
 * (`zeroNormalizerRows` of the job output) instead of dividing 0 by 0.
 *
 * Causal mode: row i of Â and output i may use positions ≤ i only, so no key feature may depend on
 * a statistic over all positions unless that statistic cancels exactly. A per-query shift and one
 * scalar key shift cancel (without ε); a per-coordinate normalizer over positions (double softmax),
 * a parameter fitted to all of Q and K (OPRF's A) and a key max weighed against ε ('ref') do not. The
 * causal variants: double-softmax keys exp(y_jc − M) with a scalar M; OPRF's A from a fixed ρ; under
 * 'ref', the key shift of the max maps is key 0's max (`causalKeyShift`), the one key every row sees.
 * src/core/causality.test.ts checks every map × stabilizer.
 *
 * Layout of the two-block maps (hyperbolic, trig): features 0..m−1 are the first block (exp(+u) /
 * sin u), m..2m−1 the second (exp(−u) / cos u).
 */
import { EngineError } from './errors';
import { FEATURE_MAP_SPECS, unreachable } from './feature-map-specs';
import { hedgehogFeatures } from './hedgehog';
import { projectScratch } from './project-rows';
import {
  cosformerFeatures,
  oprfCausalA,
  oprfFeatures,
  oprfParameter,
  taylor2Features,
  type MapContext,
} from './feature-maps-beyond';
import { LIMITS } from './limits';
import { FEATURE_MAPS, type FeatureMapKind, type Matrix, type Stabilizer } from './types';

export type { MapContext } from './feature-maps-beyond';

/** ε of the reference implementation's stabilizer (stabilizer 'ref'). */
export const FEATURE_EPS = 1e-6;

/** The ε added to every exponential feature under a stabilizer: 0 for 'shift', FEATURE_EPS for 'ref'. */
export function stabilizerEps(stabilizer: Stabilizer): number {
  return stabilizer === 'ref' ? FEATURE_EPS : 0;
}
export const RELU_EPS = 0.001;

/** Feature dimension m' of a map (FeatureMapSpec.dim): m, 2m, d, 2d or 1 + d + d². */
export function featureDim(kind: FeatureMapKind, m: number, d: number): number {
  return FEATURE_MAP_SPECS[kind].dim(m, d);
}

/**
 * Why a query row of Â can have a normalizer Σ_j φ(q_i)·φ(k_j) of exactly 0 under a map: cosFormer's
 * ReLU sends every query without a positive coordinate to φ(q_i) = 0 (common at small d: each
 * coordinate is ≤ 0 half the time); the other maps' features are positive (or signed, trig) and only
 * vanish when every product underflows float32 at extreme norms — which the stabilizer's ε prevents
 * for the maps that take it.
 */
export type ZeroNormalizerCause = 'relu' | 'underflow' | 'underflow-eps';
export function zeroNormalizerCause(kind: FeatureMapKind): ZeroNormalizerCause {
  if (kind === 'cosformer') return 'relu';
  return FEATURE_MAP_SPECS[kind].eps ? 'underflow-eps' : 'underflow';
}

/**
 * The maps the feature-map panel shows one query row under, in FEATURE_MAPS order: every map but
 * hedgehog (it needs a fitted W, which its training view shows) whose feature dimension at m
 * projections and head dimension d is within the limit (taylor2's d² grows past it at large d).
 */
export function rowComparisonMaps(m: number, d: number): FeatureMapKind[] {
  return FEATURE_MAPS.filter((map) => map !== 'hedgehog' && featureDim(map, m, d) <= LIMITS.featureDimMax);
}

/** Whether the map uses the projection W (FeatureMapSpec.projection; elu1, double-softmax, taylor2, cosformer do not). */
export function usesProjection(kind: FeatureMapKind): boolean {
  return FEATURE_MAP_SPECS[kind].projection;
}

/**
 * The context the data-dependent maps need (FeatureMapSpec.context), from the full scaled queries x
 * and keys y: OPRF's A — variance-optimal for these Q, K when bidirectional, the sequence-independent
 * `oprfCausalA` in causal mode — and cosFormer's sequence length M = n. `causal` also selects the
 * causal key statistics (see `features`).
 */
export function mapContext(kind: FeatureMapKind, x: Matrix, y: Matrix, causal = false): MapContext {
  const context = FEATURE_MAP_SPECS[kind].context;
  switch (context) {
    case 'oprf-a':
      return { oprfA: causal ? oprfCausalA(x.cols) : oprfParameter(x, y), length: y.rows, causal };
    case 'none':
    case 'positions':
      return { length: y.rows, causal };
    default:
      return unreachable(context);
  }
}

/** The scalar the GPU kernels read as FmParams.map_a: OPRF's A for unscaled Q, K; 0 for every other map. */
export function featureMapParam(kind: FeatureMapKind, q: Matrix, k: Matrix, causal = false): number {
  return mapContext(kind, scaleInputs(q), scaleInputs(k), causal).oprfA ?? 0;
}

/**
 * Whether the key stabilizer of a 'max' map is key 0's max instead of the max over all keys: in
 * causal mode under ε ('ref'). A scalar key shift cancels in Â's row normalization only while no ε
 * is added; with ε the max over all keys (future ones included) sets how much ε weighs against
 * every key feature, so it would let the future in. Key 0 is the one key every causal row sees.
 */
export function causalKeyShift(causal: boolean, eps: number): boolean {
  return causal && eps > 0;
}

/** x = q · d^{-1/4}, so that x·y = q·k/√d. */
export function scaleInputs(q: Matrix): Matrix {
  const s = Math.pow(q.cols, -0.25);
  const out = new Float32Array(q.data.length);
  for (let i = 0; i < out.length; i++) out[i] = q.data[i]! * s;
  return { rows: q.rows, cols: q.cols, data: out };
}

// ---- scalar curves for the feature-map panel --------------------------------------------------

/** e^x — the kernel every map is measured against. */
export function expCurve(x: number): number {
  return Math.exp(x);
}
/** elu(x) + 1: x + 1 for x > 0, e^x for x ≤ 0 (first-order Taylor expansion of e^x at 0, kept positive). */
export function elu1(x: number): number {
  return x > 0 ? x + 1 : Math.exp(x);
}
export function relu(x: number): number {
  return x > 0 ? x : 0;
}

function sqNorms(x: Matrix): Float64Array {
  const out = new Float64Array(x.rows);
  for (let i = 0; i < x.rows; i++) {
    let s = 0;
    for (let c = 0; c < x.cols; c++) s += x.data[i * x.cols + c]! ** 2;
    out[i] = s;
  }
  return out;
}

export type FeatureSide = 'query' | 'key';

/**
 * Shared implementation. `stabilize = false` gives the textbook maps (no max subtraction, no ε):
 * the raw estimators, used by the tests to show the shifts cancel. `eps` is added to every
 * exponential feature (positive, hyperbolic, exp, oprf) when stabilizing. An exhaustive switch over
 * the maps: a new map does not compile until it has its case.
 */
function features(
  kind: FeatureMapKind,
  x: Matrix,
  w: Matrix,
  side: FeatureSide,
  stabilize: boolean,
  epsIn: number,
  ctx: MapContext = {},
): Matrix {
  const eps = stabilize ? epsIn : 0;
  const causal = ctx.causal ?? false;
  switch (kind) {
    case 'hedgehog':
      return hedgehogFeatures(x, w); // self-normalized: no stabilizer, no ε
    case 'taylor2':
      return taylor2Features(x);
    case 'cosformer':
      return cosformerFeatures(x, ctx);
    case 'oprf': {
      if (ctx.oprfA === undefined)
        throw new EngineError('invalid-size', 'the oprf map needs its parameter A (mapContext of Q and K)');
      const half = sqNorms(x).map((v) => v / 2);
      const keyRows = side === 'key' && causalKeyShift(causal, eps) ? 1 : x.rows;
      return oprfFeatures(projectScratch(x, w), half, w, ctx.oprfA, side === 'key', stabilize, eps, keyRows);
    }
    case 'elu1': {
      const out = new Float32Array(x.data.length);
      for (let i = 0; i < out.length; i++) out[i] = elu1(x.data[i]!);
      return { rows: x.rows, cols: x.cols, data: out };
    }
    case 'double-softmax':
      return side === 'query' ? rowSoftmax(x, stabilize) : doubleSoftmaxKeys(x, stabilize, causal);
    case 'relu': {
      const u = projectScratch(x, w);
      const s = 1 / Math.sqrt(w.rows);
      const out = new Float32Array(u.length);
      for (let i = 0; i < u.length; i++) out[i] = Math.max(s * u[i]!, 0) + RELU_EPS;
      return { rows: x.rows, cols: w.rows, data: out };
    }
    case 'trig':
      return trigFeatures(x, w);
    case 'positive':
    case 'hyperbolic':
    case 'exp':
      return expFeatures(kind, x, w, side, stabilize, eps, causal);
    default:
      return unreachable(kind);
  }
}

/** The shift (max over k < len of src[o + k·stride]; 0 when not stabilizing) and Σ exp(src − shift), in f64. */
function stridedShiftSum(src: Float32Array, o: number, stride: number, len: number, stabilize: boolean) {
  let mx = -Infinity;
  for (let k = 0; k < len; k++) mx = Math.max(mx, src[o + k * stride]!);
  if (!stabilize) mx = 0;
  let sum = 0;
  for (let k = 0; k < len; k++) sum += Math.exp(src[o + k * stride]! - mx);
  return { mx, sum };
}

/** out[o + k·stride] = softmax over k < len of src[o + k·stride] (max-shifted when stabilizing), f64 sums. */
function softmaxStrided(
  src: Float32Array,
  out: Float32Array,
  o: number,
  stride: number,
  len: number,
  stabilize: boolean,
) {
  const { mx, sum } = stridedShiftSum(src, o, stride, len, stabilize);
  for (let k = 0; k < len; k++) out[o + k * stride] = Math.exp(src[o + k * stride]! - mx) / sum;
}

/**
 * The d offsets o_c = M_c + log S_c of double-softmax's bidirectional keys (the log of each column's
 * normalizer over all n keys): exp(y_jc − o_c) is doubleSoftmaxKeys' entry, the form the GPU's row
 * batch takes it in (attention-row-list-features.wgsl).
 */
export function columnLogSums(y: Matrix): Float32Array {
  const out = new Float32Array(y.cols);
  for (let c = 0; c < y.cols; c++) {
    const { mx, sum } = stridedShiftSum(y.data, c, y.cols, y.rows, true);
    out[c] = mx + Math.log(sum);
  }
  return out;
}

/** Double softmax, query side: softmax over the d coordinates of each row. */
function rowSoftmax(x: Matrix, stabilize: boolean): Matrix {
  const { rows: n, cols: d } = x;
  const out = new Float32Array(n * d);
  for (let i = 0; i < n; i++) softmaxStrided(x.data, out, i * d, 1, d, stabilize);
  return { rows: n, cols: d, data: out };
}

/**
 * Double softmax, key side. Bidirectional: softmax over the n positions of each coordinate,
 * exp(y_jc − M_c) / Σ_j' exp(y_j'c − M_c). Causal: that per-coordinate normalizer runs over all
 * positions, future ones included, and does not cancel (each coordinate c has its own), so the causal
 * variant drops it: exp(y_jc − M) with one scalar M = max over all j, c, which multiplies every key
 * feature by the same factor and cancels in Â's row normalization (there is no ε to break that).
 */
function doubleSoftmaxKeys(y: Matrix, stabilize: boolean, causal: boolean): Matrix {
  const { rows: n, cols: d } = y;
  const out = new Float32Array(n * d);
  if (causal) {
    let mx = -Infinity;
    for (let e = 0; e < n * d; e++) mx = Math.max(mx, y.data[e]!);
    if (!stabilize || n === 0) mx = 0;
    for (let e = 0; e < n * d; e++) out[e] = Math.exp(y.data[e]! - mx);
  } else {
    for (let c = 0; c < d; c++) softmaxStrided(y.data, out, c, d, n, stabilize);
  }
  return { rows: n, cols: d, data: out };
}

/** m^{-1/2} exp(‖x‖²/2) [sin u | cos u] (no stabilizer exists). */
function trigFeatures(x: Matrix, w: Matrix): Matrix {
  const n = x.rows;
  const m = w.rows;
  const mp = 2 * m;
  const u = projectScratch(x, w);
  const norms = sqNorms(x);
  const out = new Float32Array(n * mp);
  const s = 1 / Math.sqrt(m);
  for (let i = 0; i < n; i++) {
    const amp = s * Math.exp(norms[i]! / 2);
    for (let r = 0; r < m; r++) {
      const ur = u[i * m + r]!;
      out[i * mp + r] = amp * Math.sin(ur);
      out[i * mp + m + r] = amp * Math.cos(ur);
    }
  }
  return { rows: n, cols: mp, data: out };
}

/** positive, hyperbolic, exp: exp of a shifted projection (+ ε). */
function expFeatures(
  kind: 'positive' | 'hyperbolic' | 'exp',
  x: Matrix,
  w: Matrix,
  side: FeatureSide,
  stabilize: boolean,
  eps: number,
  causal: boolean,
): Matrix {
  const spec = FEATURE_MAP_SPECS[kind];
  const n = x.rows;
  const m = w.rows;
  const mp = spec.dim(m, x.cols);
  const u = projectScratch(x, w);
  const norms = sqNorms(x);
  const out = new Float32Array(n * mp);
  const hyper = kind === 'hyperbolic';
  const ratio = spec.ratio(m);
  // Offsets: per row for queries, one value for all keys (0 when unstabilized).
  const rowMax = (i: number): number => {
    let mx = -Infinity;
    for (let r = 0; r < m; r++) {
      const v = u[i * m + r]!;
      mx = Math.max(mx, hyper ? Math.abs(v) : v);
    }
    return mx;
  };
  const keyRows = causalKeyShift(causal, eps) ? Math.min(1, n) : n;
  let keyMax = -Infinity;
  if (stabilize && side === 'key') for (let i = 0; i < keyRows; i++) keyMax = Math.max(keyMax, rowMax(i));
  for (let i = 0; i < n; i++) {
    const shift = !stabilize ? 0 : side === 'key' ? keyMax : rowMax(i);
    const base = (spec.norm ? norms[i]! / 2 : 0) + shift;
    for (let r = 0; r < m; r++) {
      const ur = u[i * m + r]!;
      out[i * mp + r] = ratio * (Math.exp(ur - base) + eps);
      if (hyper) out[i * mp + m + r] = ratio * (Math.exp(-ur - base) + eps);
    }
  }
  return { rows: n, cols: mp, data: out };
}

/** φ(x_i) for every query row (x already scaled by d^{-1/4}); n × m'. */
export function queryFeatures(
  kind: FeatureMapKind,
  x: Matrix,
  w: Matrix,
  stabilizer: Stabilizer = 'shift',
  ctx?: MapContext,
): Matrix {
  return features(kind, x, w, 'query', true, stabilizerEps(stabilizer), ctx);
}

/** φ(y_j) for every key row (y already scaled by d^{-1/4}); n × m'. Stabilizers are global over keys. */
export function keyFeatures(
  kind: FeatureMapKind,
  y: Matrix,
  w: Matrix,
  stabilizer: Stabilizer = 'shift',
  ctx?: MapContext,
): Matrix {
  return features(kind, y, w, 'key', true, stabilizerEps(stabilizer), ctx);
}

/** The textbook map without max subtraction or ε (may overflow; for tests and explanations). */
export function rawFeatures(kind: FeatureMapKind, x: Matrix, w: Matrix, side: FeatureSide, ctx?: MapContext): Matrix {
  return features(kind, x, w, side, false, 0, ctx);
}
