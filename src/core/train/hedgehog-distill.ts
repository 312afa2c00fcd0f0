/**
 * Hedgehog's attention distillation (Zhang et al. 2024, "The Hedgehog & the Porcupine"): before
 * fine-tuning a softmax model converted to Hedgehog, fit each head's feature maps (Wh, bh for
 * queries and keys) so its linear attention rows match the softmax model's, training nothing else.
 * Per layer l, head h, sequence b and query row i (the keys j the row may see: causal j ≤ i):
 *   P_ij = softmax attention of the trained model (its own Q, K: layer-wise, on the teacher's inputs)
 *   s_ij = φq(q_i)·φk(k_j),  Â_ij = s_ij / Σ_j' s_ij'   (φ > 0: Hedgehog's map is a pair of softmaxes)
 *   loss = mean over (l, h, b, i) of KL(P_i ‖ Â_i) = Σ_j P_ij (log P_ij − log Â_ij)
 * (the paper's soft-label cross-entropy minus P's own entropy, a constant: same gradient, 0 at a
 * perfect fit). ∂loss/∂s_ij = (Σ_j' P_ij' / den_i − P_ij / s_ij) / N, then dφq_i = Σ_j g_ij φk_j,
 * dφk_j = Σ_i g_ij φq_i, and feature-map-grad's Hedgehog backward gives dWh, dbh.
 * The fit: AdamW (no weight decay) on those tensors only, on the training batches
 * makeBatch(task, B, seed, t), t = 0, 1, …; its loss before and after on the held-out set.
 */
import { adamwStep } from './adamw';
import { like, sliceCols, type Arr } from './arr';
import type { HedgehogParams } from './attention-layer';
import { evalSet } from './eval-set';
import { featureBackward, featureForward, type FeatureOpts } from './feature-map-grad';
import { modelForward, type ParamLike } from './model';
import { headDim } from './model-params';
import { makeBatch } from './tasks/index';
import type { AttentionSpec, Batch, ModelConfig, ParamTensor, TrainConfig } from './types';

/** The teacher's attention of one layer on one batch: its Q, K (rows×D) and P (B·H·L·L). */
export interface TeacherLayer {
  q: Arr;
  k: Arr;
  p: Arr;
}

export interface DistillShape {
  B: number;
  L: number;
  H: number;
  dh: number;
  m: number;
  causal: boolean;
}

function opts(s: DistillShape, hh: HedgehogParams, h: number, side: 'q' | 'k'): FeatureOpts {
  const size = s.dh * s.m;
  return {
    L: s.L,
    B: s.B,
    m: s.m,
    hw: (side === 'q' ? hh.qw : hh.kw).subarray(h * size, (h + 1) * size),
    hb: (side === 'q' ? hh.qb : hh.kb).subarray(h * s.m, (h + 1) * s.m),
  };
}

/** The shape of distillHead's head: B sequences of L rows, H heads, F features, the mask. */
export interface DistillHeadShape {
  B: number;
  L: number;
  H: number;
  F: number;
  causal: boolean;
}

/**
 * The distillation's core for head h — the CPU twin of src/shaders/train-hedgehog-distill.wgsl
 * (which does every head in one pass): from the head's features φq, φk (rows×F, row b·L + i) and
 * the teacher's P (B·H·L·L, ((b·H + h)·L + i)·L + j) the KL of every row (B·L, unscaled) and
 * dφq, dφk (rows×F) of loss = Σ KL / `norm`: with s_ij = φq_i·φk_j, den_i = Σ_j s_ij, j over the
 * row's keys (causal j ≤ i), g_ij = (Σ_j' P_ij' / den_i − P_ij / s_ij) / norm,
 * dφq_i = Σ_j g_ij φk_j and dφk_j = Σ_i g_ij φq_i, both summed in increasing j (i) order.
 */
export function distillHead(
  pq: Arr,
  pk: Arr,
  p: Arr,
  s: DistillHeadShape,
  h: number,
  norm = 1,
): { kl: Arr; dq: Arr; dk: Arr } {
  const { B, L, H, F, causal } = s;
  const rows = B * L;
  const kl = like(pq, rows);
  const dq = like(pq, rows * F);
  const dk = like(pq, rows * F);
  const sRow = like(pq, L);
  for (let b = 0; b < B; b++) {
    const pb = (b * H + h) * L * L;
    for (let i = 0; i < L; i++) {
      const qi = (b * L + i) * F;
      const n = causal ? i + 1 : L;
      let den = 0;
      let mass = 0;
      for (let j = 0; j < n; j++) {
        const kj = (b * L + j) * F;
        let dot = 0;
        for (let f = 0; f < F; f++) dot += pq[qi + f] * pk[kj + f];
        sRow[j] = dot;
        den += dot;
        mass += p[pb + i * L + j];
      }
      let rowKl = 0;
      for (let j = 0; j < n; j++) {
        const pij = p[pb + i * L + j];
        if (pij > 0) rowKl += pij * (Math.log(pij) - Math.log(sRow[j] / den));
        const g = (mass / den - pij / sRow[j]) / norm;
        if (g === 0) continue;
        const kj = (b * L + j) * F;
        for (let f = 0; f < F; f++) {
          dq[qi + f] += g * pk[kj + f];
          dk[kj + f] += g * pq[qi + f];
        }
      }
      kl[b * L + i] = rowKl;
    }
  }
  return { kl, dq, dk };
}

/**
 * The summed KL of one layer's rows and its gradients w.r.t. the layer's Hedgehog tensors, scaled
 * by 1 / `norm` (the number of rows the mean runs over; 1 gives the sum).
 */
export function distillLayer(
  t: TeacherLayer,
  hh: HedgehogParams,
  s: DistillShape,
  norm = 1,
): { loss: number; grads: HedgehogParams } {
  const { B, L, H, dh, m, causal } = s;
  const rows = B * L;
  const D = H * dh;
  const F = 2 * m;
  const x = t.q;
  const grads: HedgehogParams = {
    qw: like(x, H * dh * m),
    qb: like(x, H * m),
    kw: like(x, H * dh * m),
    kb: like(x, H * m),
  };
  let loss = 0;
  for (let h = 0; h < H; h++) {
    const qh = sliceCols(t.q, rows, D, h * dh, dh);
    const kh = sliceCols(t.k, rows, D, h * dh, dh);
    const oq = opts(s, hh, h, 'q');
    const ok = opts(s, hh, h, 'k');
    const pq = featureForward('hedgehog', qh, rows, dh, 'query', oq);
    const pk = featureForward('hedgehog', kh, rows, dh, 'key', ok);
    const { kl, dq, dk } = distillHead(pq, pk, t.p, { B, L, H, F, causal }, h, norm);
    for (let r = 0; r < rows; r++) loss += kl[r];
    const gq = featureBackward('hedgehog', qh, rows, dh, 'query', oq, pq, dq);
    const gk = featureBackward('hedgehog', kh, rows, dh, 'key', ok, pk, dk);
    grads.qw.set(gq.dhw!, h * dh * m);
    grads.qb.set(gq.dhb!, h * m);
    grads.kw.set(gk.dhw!, h * dh * m);
    grads.kb.set(gk.dhb!, h * m);
  }
  return { loss: loss / norm, grads };
}

/**
 * The student's Hedgehog attention, or a throw unless a fit can run: a Hedgehog student and (when
 * given) a softmax teacher. Both fits, CPU and GPU, start with it.
 */
export function checkFitModels(
  teacherModel: ModelConfig | null,
  cfg: TrainConfig,
): Extract<AttentionSpec, { kind: 'linear' }> {
  const a = cfg.model.attention;
  if (a.kind !== 'linear' || a.map !== 'hedgehog')
    throw new RangeError('distill: the student must be a Hedgehog model');
  if (teacherModel && teacherModel.attention.kind !== 'softmax')
    throw new RangeError('distill: the teacher must be a softmax model');
  return a;
}

/** The teacher's Q, K, P of every layer on one batch (a softmax model). */
export function teacherLayers(params: readonly ParamLike[], model: ModelConfig, batch: Batch): TeacherLayer[] {
  if (model.attention.kind !== 'softmax') throw new RangeError('distill: the teacher must be a softmax model');
  return modelForward(params, model, batch, null).cache.layers.map((c) => ({ q: c.q, k: c.k, p: c.att.p! }));
}

function hhOf(params: readonly ParamTensor[], l: number): HedgehogParams {
  const get = (n: string) => {
    const p = params.find((x) => x.name === `l${l}.${n}`);
    if (!p) throw new RangeError(`distill: missing l${l}.${n}`);
    return p.data;
  };
  return { qw: get('hh.q.w'), qb: get('hh.q.b'), kw: get('hh.k.w'), kb: get('hh.k.b') };
}

export interface HedgehogFit {
  /** one AdamW step on the next training batch; returns that batch's mean KL (before the update) */
  step(): number;
  /** mean KL on the held-out set */
  heldOutLoss(): number;
  /** the fitted parameter list (copies): the student's, with the fitted Hedgehog tensors */
  params(): ParamTensor[];
  readonly steps: number;
}

/**
 * What the transfer runner drives: this CPU fit, or the WebGPU one (src/gpu/train/hedgehog-fit.ts
 * `createGpuHedgehogFit`, the same methods with promises, and GPU buffers to dispose).
 */
export interface HedgehogFitLike {
  step(): number | Promise<number>;
  heldOutLoss(): number | Promise<number>;
  params(): ParamTensor[] | Promise<ParamTensor[]>;
  readonly steps: number;
  dispose?(): void;
}

/**
 * A fit of the Hedgehog tensors of `student` (a Hedgehog model's parameters — transferParams of
 * the teacher) to the teacher's softmax attention, under `cfg` (the student's TrainConfig: task,
 * batch, seed) for `steps` steps at learning rate `lr` (constant).
 */
export function createHedgehogFit(
  teacher: readonly ParamTensor[],
  teacherModel: ModelConfig,
  student: readonly ParamTensor[],
  cfg: TrainConfig,
  steps: number,
  lr: number,
): HedgehogFit {
  const a = checkFitModels(null, cfg); // the teacher is checked by teacherLayers
  const params = student.map((p) => ({ ...p, data: p.data.slice() }));
  const layers = cfg.model.layers;
  const hh = Array.from({ length: layers }, (_, l) => hhOf(params, l));
  const moments = hh.map((x) =>
    [x.qw, x.qb, x.kw, x.kb].map((d) => [new Float32Array(d.length), new Float32Array(d.length)] as const),
  );
  const optimizer = { ...cfg.optimizer, weightDecay: 0 };
  const heldOut = evalSet(cfg);
  let t = 0;

  const shapeOf = (b: Batch): DistillShape => ({
    B: b.batch,
    L: b.seqLen,
    H: cfg.model.heads,
    dh: headDim(cfg.model),
    m: a.m,
    causal: cfg.model.causal,
  });
  const lossOn = (b: Batch) => {
    const tl = teacherLayers(teacher, teacherModel, b);
    const s = shapeOf(b);
    const norm = layers * s.H * s.B * s.L;
    return tl.map((x, l) => distillLayer(x, hh[l], s, norm));
  };

  return {
    steps,
    step() {
      const r = lossOn(makeBatch(cfg.task, cfg.batch, cfg.seed, t));
      t++;
      r.forEach(({ grads }, l) => {
        const tensors = [hh[l].qw, hh[l].qb, hh[l].kw, hh[l].kb];
        const g = [grads.qw, grads.qb, grads.kw, grads.kb];
        tensors.forEach((p, i) => {
          const [m, v] = moments[l][i];
          adamwStep(p as Float32Array, g[i] as Float32Array, m, v, t, lr, optimizer, false);
        });
      });
      return r.reduce((s, x) => s + x.loss, 0);
    },
    heldOutLoss() {
      let sum = 0;
      for (const b of heldOut) sum += lossOn(b).reduce((s, x) => s + x.loss, 0);
      return sum / heldOut.length;
    },
    params() {
      return params.map((p) => ({ ...p, shape: [...p.shape], data: p.data.slice() }));
    },
  };
}
