/**
 * The transfer experiment's core (the Performer blog's LM1B figure in miniature): a model trained
 * with exact softmax has its attention swapped to a feature map, keeping every weight.
 *   transferParams: the target model's parameter list — every tensor the two models share (same
 *     name, same shape: embeddings, norms, W_Q…W_O, MLP, short conv) copied bit for bit, every tensor
 *     only the target has (Hedgehog's Wh, bh) initialized as initParams does for the target's seed;
 *     FAVOR+'s W is not a parameter: the trainer draws it as usual (drawFeatureW(model, seed, 0)).
 *   evaluateModel: held-out loss and accuracy of a parameter list under a TrainConfig — what a
 *     trainer built from those parameters reports before its first step (same set, same draw).
 *   attentionConcentration: per layer and head of a softmax model, the mean entropy of its
 *     attention rows (nats) beside the uniform row's (log of the keys a row may see) and the mean
 *     largest weight — a sharp head (low entropy) is what a positive random-feature estimate of
 *     exp(q·k) needs many features for.
 */
import { drawFeatureW } from './feature-draws';
import { evalSet, pool } from './eval-set';
import { initParams, modelForward } from './model';
import type { Batch, ModelConfig, ParamTensor, TrainConfig } from './types';

export function transferParams(trained: readonly ParamTensor[], target: ModelConfig, seed: number): ParamTensor[] {
  const byName = new Map(trained.map((p) => [p.name, p]));
  return initParams(target, seed).map((p) => {
    const src = byName.get(p.name);
    if (!src) return p;
    if (src.shape.length !== p.shape.length || src.shape.some((n, i) => n !== p.shape[i])) {
      throw new RangeError(`transfer: ${p.name} has shape [${src.shape}] but the target needs [${p.shape}]`);
    }
    return { ...p, data: src.data.slice() };
  });
}

/** Throws unless `params` has exactly the names and shapes of initParams(model) in its order. */
export function checkParamsFit(params: readonly ParamTensor[], model: ModelConfig): void {
  const want = initParams(model, 0);
  const bad =
    params.length !== want.length ||
    want.some(
      (w, i) =>
        params[i].name !== w.name ||
        params[i].data.length !== w.data.length ||
        params[i].shape.some((n, j) => n !== w.shape[j]),
    );
  if (bad) throw new RangeError('trainer: the initial parameters do not fit the model');
}

export function evaluateModel(params: readonly ParamTensor[], cfg: TrainConfig): { loss: number; accuracy: number } {
  const w = drawFeatureW(cfg.model, cfg.seed, 0);
  return pool(evalSet(cfg).map((b) => modelForward(params, cfg.model, b, w)));
}

export interface HeadConcentration {
  layer: number;
  head: number;
  /** mean over rows of −Σ_j P_ij log P_ij (nats) */
  entropy: number;
  /** mean over rows of log(keys the row may see): the entropy of a uniform row */
  uniform: number;
  /** mean over rows of max_j P_ij */
  top: number;
}

export function attentionConcentration(
  params: readonly ParamTensor[],
  model: ModelConfig,
  batches: readonly Batch[],
): HeadConcentration[] {
  if (model.attention.kind !== 'softmax') throw new RangeError('concentration: needs a softmax model');
  const H = model.heads;
  const acc = Array.from({ length: model.layers * H }, () => ({ entropy: 0, uniform: 0, top: 0, rows: 0 }));
  for (const batch of batches) {
    const { batch: B, seqLen: L } = batch;
    const fwd = modelForward(params, model, batch, null);
    fwd.cache.layers.forEach((c, l) => {
      const p = c.att.p!;
      for (let b = 0; b < B; b++)
        for (let h = 0; h < H; h++) {
          const a = acc[l * H + h];
          for (let i = 0; i < L; i++) {
            const o = ((b * H + h) * L + i) * L;
            const n = model.causal ? i + 1 : L;
            let e = 0;
            let top = 0;
            for (let j = 0; j < n; j++) {
              const v = p[o + j];
              if (v > 0) e -= v * Math.log(v);
              if (v > top) top = v;
            }
            a.entropy += e;
            a.uniform += Math.log(n);
            a.top += top;
            a.rows++;
          }
        }
    });
  }
  return acc.map((a, i) => ({
    layer: Math.floor(i / H),
    head: i % H,
    entropy: a.entropy / a.rows,
    uniform: a.uniform / a.rows,
    top: a.top / a.rows,
  }));
}
