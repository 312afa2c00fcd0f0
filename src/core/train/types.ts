/**
 * The tiny transformer trained in the browser (issue "Learning"): configuration, parameters and
 * the step record every backend (CPU twins in src/core/train, WGSL in src/gpu/train) produces.
 *
 * Shapes are row-major with explicit dimensions. Within one batch the activations of all B
 * sequences are stacked: X is (B·L)×D, position t of sequence b is row b·L + t. Heads split the
 * model width: head h owns columns h·dh … (h+1)·dh − 1 of Q, K, V (dh = D / H).
 *
 * Model (pre-norm):
 *   h⁰      = E[tok] + P[pos]                                   (token and position embeddings)
 *   per layer l:
 *     u     = shortConv(h)   if cfg.shortConv ≠ 'none'            (token shift / width-3 causal conv, per channel)
 *     a     = LN₁(u)                                             (layer norm with gain and bias)
 *     Q,K,V = a W_Q + b_Q, a W_K + b_K, a W_V + b_V
 *     O     = attention(Q, K, V) per head                        (see AttentionSpec)
 *     h     = u + O W_O + b_O
 *     if cfg.mlp: h = h + GELU(LN₂(h) W₁ + b₁) W₂ + b₂           (hidden width 4D)
 *   logits  = LN_f(h) E_outᵀ + b_out, E_out = E when tied
 *   loss    = mean over the loss-masked positions of −log softmax(logits)[target]
 * Optimizer: AdamW (β₁, β₂, ε, decoupled weight decay on matrices, not on gains, biases or embeddings).
 */
import type { FeatureMapKind, ProjectionKind } from '../types';

/** The attention of every layer: exact softmax, or linear attention with a feature map φ. */
export type AttentionSpec =
  | { kind: 'softmax' }
  | {
      kind: 'linear';
      /** the maps the trainer supports (their φ and Jacobian live in src/core/train/feature-map-grad.ts) */
      map: TrainFeatureMap;
      /** random features per head (positive: rows of W; hedgehog: the learned W's rows); ignored by elu1/relu/taylor2/cosformer */
      m: number;
      /** projection of FAVOR+ (positive) */
      proj: ProjectionKind;
      /** redraw FAVOR+'s W every `redraw` steps (0: never); the draw is seeded (featureSeed, layer, head, draw index) */
      redraw: number;
      /**
       * Su Jianlin's local truncation: linear attention whose matrix is kept only on |i − j| < window
       * (causal: i − window < j ≤ i); 0 = the full linear attention. Computed densely (Â = φ(Q)φ(K)ᵀ masked, row-normalized).
       */
      window: number;
    };

export type TrainFeatureMap = Extract<
  FeatureMapKind,
  'positive' | 'elu1' | 'relu' | 'taylor2' | 'cosformer' | 'hedgehog'
>;
export const TRAIN_FEATURE_MAPS: readonly TrainFeatureMap[] = [
  'positive',
  'elu1',
  'relu',
  'taylor2',
  'cosformer',
  'hedgehog',
];

export type ShortConv = 'none' | 'shift' | 'conv3';

export interface ModelConfig {
  vocab: number;
  /** maximum sequence length L (position embeddings) */
  seqLen: number;
  /** d_model D, ≤ 256 */
  dModel: number;
  /** heads H, ≤ 8, D % H = 0 */
  heads: number;
  /** 1–4 */
  layers: number;
  mlp: boolean;
  tied: boolean;
  causal: boolean;
  attention: AttentionSpec;
  /**
   * shift: u_t = h_t + w ⊙ h_{t−1} (w a learned per-channel vector, initialized to 0);
   * conv3: u_t = h_t + Σ_{s=0..2} c_s ⊙ h_{t−s} (learned, initialized to 0). Causal in both modes.
   */
  shortConv: ShortConv;
}

export interface OptimizerConfig {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
  /** linear warm-up steps, then cosine decay to 10% of lr at `steps` */
  warmup: number;
  /** global-norm gradient clipping (0: off) */
  clip: number;
}

export type TaskKind = 'mqar' | 'lm' | 'mlm';

export interface TaskConfig {
  kind: TaskKind;
  /** MQAR: key–value pairs per sequence; ignored by lm/mlm */
  pairs: number;
  /** sequence length (≤ model seqLen) */
  seqLen: number;
  /** vocabulary of the task's tokens (MQAR: 256, Zoology's basic generator) */
  vocab: number;
  /** mlm: fraction of positions masked */
  maskRate: number;
}

export interface TrainConfig {
  model: ModelConfig;
  task: TaskConfig;
  optimizer: OptimizerConfig;
  batch: number;
  steps: number;
  /** evaluate on a fixed held-out batch set every `evalEvery` steps */
  evalEvery: number;
  /** seed of the weights, the data and the feature draws (one seed reproduces one run bit-for-bit on one backend) */
  seed: number;
}

/** One batch: B sequences of L tokens, the target per position and a 0/1 loss mask (MQAR: the query positions). */
export interface Batch {
  batch: number;
  seqLen: number;
  /** B·L token ids */
  tokens: Int32Array;
  /** B·L targets (ignored where mask = 0) */
  targets: Int32Array;
  /** B·L, 1 where the position counts in loss and accuracy */
  mask: Uint8Array;
}

/** A named parameter tensor; the parameter set is an ordered list (the order fixes the flat layout and AdamW's state). */
export interface ParamTensor {
  name: string;
  shape: readonly number[];
  /** matrices get weight decay; gains, biases and embeddings do not */
  decay: boolean;
  data: Float32Array;
}

export interface StepRecord {
  step: number;
  loss: number;
  /** accuracy on the masked positions of the training batch */
  accuracy: number;
  /** held-out loss / accuracy, when this step was an eval step */
  evalLoss?: number;
  evalAccuracy?: number;
  /** learning rate used at this step */
  lr: number;
  gradNorm: number;
}
