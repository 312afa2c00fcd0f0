/**
 * Shared vocabulary of the attention engine. Pure types: used by src/core (the math), src/gpu (the
 * kernels' dispatchers), src/engine (the backend boundary) and the UI. Matrices are row-major
 * Float32Array with an explicit shape.
 */

export interface Matrix {
  readonly rows: number;
  readonly cols: number;
  /** row-major, length rows * cols */
  readonly data: Float32Array;
}

/**
 * Feature maps φ of linear attention. All act on the d^{-1/4}-scaled inputs x = q / d^{1/4},
 * y = k / d^{1/4}, so that softmax attention is exp(x·y) row-normalized.
 * - positive:       m^{-1/2} exp(Wx − ‖x‖²/2)                    (FAVOR+, m features)
 * - hyperbolic:     (2m)^{-1/2} exp(−‖x‖²/2) [exp(Wx), exp(−Wx)]  (2m features)
 * - trig:           m^{-1/2} exp(‖x‖²/2) [sin(Wx), cos(Wx)]        (2m features)
 * - relu:           relu(m^{-1/2} Wx) + 0.001                      (m features)
 * - elu1:           elu(x) + 1, no projection                      (d features)
 * - exp:            exp(Wx), the map of Su Jianlin's article (kexue.fm/archives/8338), no ‖·‖² terms (m features)
 * - double-softmax: φ_q = softmax over features of x, φ_k = softmax over positions of y (d features)
 * - oprf:           FAVOR++ / optimal positive random features (Likhosherstov et al. 2022):
 *                   m^{-1/2} (1−4A)^{d/4} exp(A‖ω_r‖² + √(1−4A) ω_r·x − ‖x‖²/2), A ≤ 0 chosen from Q, K (m features)
 * - taylor2:        [1, x, vec(x xᵀ)/√2], the second-order Taylor map of Based (Arora et al. 2024) (1 + d + d² features)
 * - cosformer:      [relu(x) cos(πi/2n), relu(x) sin(πi/2n)] at position i, cosFormer (Qin et al. 2022) (2d features)
 * - hedgehog:       [softmax(Wx) ‖ softmax(−Wx)] with W fitted to mimic softmax (Zhang et al. 2024; 2m features)
 */
export type FeatureMapKind =
  | 'positive'
  | 'hyperbolic'
  | 'trig'
  | 'relu'
  | 'elu1'
  | 'exp'
  | 'double-softmax'
  | 'oprf'
  | 'taylor2'
  | 'cosformer'
  | 'hedgehog';

export const FEATURE_MAPS: readonly FeatureMapKind[] = [
  'positive',
  'hyperbolic',
  'trig',
  'relu',
  'elu1',
  'exp',
  'double-softmax',
  'oprf',
  'taylor2',
  'cosformer',
  'hedgehog',
];

/**
 * Rows of W ∈ R^{m×d}: iid N(0, I); block-orthogonal with χ-distributed row norms; block-orthogonal
 * with norm √d; simplex: blocks of d directions forming a randomly rotated regular simplex
 * (pairwise cosine −1/(d−1)), χ-distributed norms (Reid et al. 2023).
 */
export type ProjectionKind = 'orthogonal-chi' | 'orthogonal-sqrtd' | 'iid' | 'simplex';
export const PROJECTIONS: readonly ProjectionKind[] = ['orthogonal-chi', 'orthogonal-sqrtd', 'iid', 'simplex'];

/** gaussian: dense attention; clustered / local: structured inputs whose exact attention is peaked. */
export type InputKind = 'gaussian' | 'clustered' | 'local';
export const INPUT_KINDS: readonly InputKind[] = ['gaussian', 'clustered', 'local'];

/**
 * How the exponential maps (STABILIZED_MAPS) are kept inside float32:
 * - shift: subtract the max of the projections (per query row; one global max over all keys) and
 *   nothing else — every shift cancels in the row normalization of Â, so this is the estimator
 *   itself (float32 holds the shifted values down to e^-87);
 * - ref:   the reference implementation's stabilizer: the same shift plus ε = 1e-6 (FEATURE_EPS)
 *   added to every feature. At large norms the true key features fall far below ε and ε floods
 *   them, flattening Â towards uniform.
 */
export type Stabilizer = 'shift' | 'ref';
export const STABILIZERS: readonly Stabilizer[] = ['shift', 'ref'];

/**
 * The maps the stabilizer acts on: the exponentials of a projection, shifted by their maxima and,
 * under 'ref', plus ε (src/core/feature-maps.ts, feature-maps-beyond.ts for oprf). Every other map
 * computes the same features under either stabilizer.
 */
export const STABILIZED_MAPS: readonly FeatureMapKind[] = ['positive', 'hyperbolic', 'exp', 'oprf'];

export function usesStabilizer(kind: FeatureMapKind): boolean {
  return STABILIZED_MAPS.includes(kind);
}

/** Everything needed to regenerate one experiment deterministically. Serializable (URL, JSON export). */
export interface AttentionParams {
  /** sequence length */
  n: number;
  /** head dimension of q, k (and v: d_v = d) */
  d: number;
  /** number of random projections (rows of W) */
  m: number;
  /** seed of Q, K, V */
  seed: number;
  /** seed of the random projection W ("redraw features" changes only this) */
  featureSeed: number;
  featureMap: FeatureMapKind;
  projection: ProjectionKind;
  causal: boolean;
  input: InputKind;
  /** standard deviation of q and k entries (norm / temperature scale) */
  scale: number;
  /** stabilizer of the exponential feature maps (URL `stab`) */
  stabilizer: Stabilizer;
}

/** Q, K, V (n×d) and W (m×d; 0 rows for maps without projection). */
export interface AttentionInputs {
  q: Matrix;
  k: Matrix;
  v: Matrix;
  w: Matrix;
}
