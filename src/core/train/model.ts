/**
 * The tiny transformer of types.ts (pre-norm; formula in its header) as CPU twins: forward with a
 * cache, backward through the cache, loss and gradients, attention maps. Generic over the float
 * type: the trainer runs it in f32 on Float32Array parameters; the gradient check converts the
 * parameters to f64 (dtype 'f64') and perturbs them.
 * The output head computes logits = LN_f(h) E_outᵀ + b_out with the linear twin on E_outᵀ (D×V,
 * transposed per call — V×D is small), so tying E_out = E only adds the two gradients.
 */
import { addInto, like, transpose, type Arr } from './arr';
import {
  attentionBackward,
  attentionForward,
  attentionMatrices,
  type AttentionCache,
  type AttentionShape,
  type HedgehogParams,
} from './attention-layer';
import { crossEntropyForward } from './cross-entropy';
import { embedBackward, embedForward } from './embedding';
import { geluBackward, geluForward } from './gelu';
import { layerNormBackward, layerNormForward } from './layer-norm';
import { linearBackward, linearForward } from './linear';
import { headDim } from './model-params';
import { shortConvBackward, shortConvForward } from './short-conv';
import type { Batch, ModelConfig } from './types';

export { initParams } from './model-params';

/** A parameter tensor of any float type (ParamTensor is one with Float32Array data). */
export interface ParamLike {
  name: string;
  shape: readonly number[];
  decay: boolean;
  data: Arr;
}

/** FAVOR+'s fixed W per [layer][head] (m×dh), or null when the attention draws none. */
export type FeatureDraws = readonly (readonly Arr[])[] | null;

type LN = { y: Arr; mean: Arr; rstd: Arr };

interface LayerCache {
  h: Arr;
  u: Arr;
  ln1: LN;
  q: Arr;
  k: Arr;
  v: Arr;
  att: AttentionCache;
  h1: Arr;
  ln2?: LN;
  z?: Arr;
  g?: Arr;
}

export interface ForwardResult {
  loss: number;
  correct: number;
  count: number;
  logits: Arr;
  cache: { layers: LayerCache[]; hFinal: Arr; lnf: LN; dLogits: Arr; eoutT: Arr };
}

function lookup(params: readonly ParamLike[]): (name: string) => Arr {
  const map = new Map(params.map((p) => [p.name, p.data]));
  return (name) => {
    const d = map.get(name);
    if (!d) throw new RangeError(`model: missing parameter ${name}`);
    return d;
  };
}

function hedgehogOf(cfg: ModelConfig, get: (n: string) => Arr, l: number): HedgehogParams | null {
  if (cfg.attention.kind !== 'linear' || cfg.attention.map !== 'hedgehog') return null;
  const p = `l${l}.hh.`;
  return { qw: get(p + 'q.w'), qb: get(p + 'q.b'), kw: get(p + 'k.w'), kb: get(p + 'k.b') };
}

/** Copies the parameters to f64 for gradient checks ('f64'), or uses them as they are. */
export function withDtype(params: readonly ParamLike[], dtype: 'f32' | 'f64' = 'f32'): ParamLike[] {
  if (dtype === 'f32') return [...params];
  return params.map((p) => ({ ...p, data: Float64Array.from(p.data) }));
}

export function modelForward(
  params: readonly ParamLike[],
  cfg: ModelConfig,
  batch: Batch,
  featureW: FeatureDraws,
  dtype?: 'f32' | 'f64',
): ForwardResult {
  const ps = dtype ? withDtype(params, dtype) : params;
  const get = lookup(ps);
  const B = batch.batch;
  const L = batch.seqLen;
  const D = cfg.dModel;
  const rows = B * L;
  const s: AttentionShape = { B, L, H: cfg.heads, dh: headDim(cfg), causal: cfg.causal };
  if (L > cfg.seqLen) throw new RangeError(`model: batch length ${L} > seqLen ${cfg.seqLen}`);
  let h = embedForward(batch.tokens, B, L, get('tok'), get('pos'), D);
  const layers: LayerCache[] = [];
  for (let l = 0; l < cfg.layers; l++) {
    const p = `l${l}.`;
    const u = cfg.shortConv === 'none' ? h : shortConvForward(h, B, L, D, cfg.shortConv, get(p + 'conv'));
    const ln1 = layerNormForward(u, rows, D, get(p + 'ln1.g'), get(p + 'ln1.b'));
    const q = linearForward(ln1.y, rows, D, get(p + 'wq'), get(p + 'bq'), D);
    const k = linearForward(ln1.y, rows, D, get(p + 'wk'), get(p + 'bk'), D);
    const v = linearForward(ln1.y, rows, D, get(p + 'wv'), get(p + 'bv'), D);
    const att = attentionForward(cfg.attention, s, q, k, v, featureW ? featureW[l] : null, hedgehogOf(cfg, get, l));
    const h1 = linearForward(att.out, rows, D, get(p + 'wo'), get(p + 'bo'), D);
    addInto(h1, u);
    const c: LayerCache = { h, u, ln1, q, k, v, att, h1 };
    h = h1;
    if (cfg.mlp) {
      c.ln2 = layerNormForward(h1, rows, D, get(p + 'ln2.g'), get(p + 'ln2.b'));
      c.z = linearForward(c.ln2.y, rows, D, get(p + 'w1'), get(p + 'b1'), 4 * D);
      c.g = geluForward(c.z);
      h = linearForward(c.g, rows, 4 * D, get(p + 'w2'), get(p + 'b2'), D);
      addInto(h, h1);
    }
    layers.push(c);
  }
  const lnf = layerNormForward(h, rows, D, get('lnf.g'), get('lnf.b'));
  const eoutT = transpose(get(cfg.tied ? 'tok' : 'out'), cfg.vocab, D);
  const logits = linearForward(lnf.y, rows, D, eoutT, get('bout'), cfg.vocab);
  const ce = crossEntropyForward(logits, rows, cfg.vocab, batch.targets, batch.mask);
  return {
    loss: ce.loss,
    correct: ce.correct,
    count: ce.count,
    logits,
    cache: { layers, hFinal: h, lnf, dLogits: ce.dLogits, eoutT },
  };
}

/** Gradients of the mean masked loss, one per parameter, in the parameters' order. */
export function modelBackward(
  params: readonly ParamLike[],
  cfg: ModelConfig,
  batch: Batch,
  featureW: FeatureDraws,
  fwd: ForwardResult,
): Arr[] {
  const get = lookup(params);
  const grads = new Map<string, Arr>(params.map((p) => [p.name, like(p.data, p.data.length)]));
  const acc = (name: string, g: Arr) => addInto(grads.get(name)!, g);
  const B = batch.batch;
  const L = batch.seqLen;
  const D = cfg.dModel;
  const V = cfg.vocab;
  const rows = B * L;
  const s: AttentionShape = { B, L, H: cfg.heads, dh: headDim(cfg), causal: cfg.causal };
  const { layers, hFinal, lnf, dLogits, eoutT } = fwd.cache;

  const head = linearBackward(lnf.y, rows, D, eoutT, V, dLogits);
  acc(cfg.tied ? 'tok' : 'out', transpose(head.dw, D, V));
  acc('bout', head.db);
  const f = layerNormBackward(head.dx, hFinal, rows, D, get('lnf.g'), lnf.mean, lnf.rstd);
  acc('lnf.g', f.dgain);
  acc('lnf.b', f.dbias);
  let dh = f.dx;
  for (let l = cfg.layers - 1; l >= 0; l--) {
    const p = `l${l}.`;
    const c = layers[l];
    if (cfg.mlp) {
      const d2 = linearBackward(c.g!, rows, 4 * D, get(p + 'w2'), D, dh);
      acc(p + 'w2', d2.dw);
      acc(p + 'b2', d2.db);
      const dz = geluBackward(c.z!, d2.dx);
      const d1 = linearBackward(c.ln2!.y, rows, D, get(p + 'w1'), 4 * D, dz);
      acc(p + 'w1', d1.dw);
      acc(p + 'b1', d1.db);
      const dl = layerNormBackward(d1.dx, c.h1, rows, D, get(p + 'ln2.g'), c.ln2!.mean, c.ln2!.rstd);
      acc(p + 'ln2.g', dl.dgain);
      acc(p + 'ln2.b', dl.dbias);
      addInto(dl.dx, dh);
      dh = dl.dx;
    }
    const dO = linearBackward(c.att.out, rows, D, get(p + 'wo'), D, dh);
    acc(p + 'wo', dO.dw);
    acc(p + 'bo', dO.db);
    const hh = hedgehogOf(cfg, get, l);
    const da = attentionBackward(cfg.attention, s, c.q, c.k, c.v, c.att, dO.dx, featureW ? featureW[l] : null, hh);
    if (da.hh) {
      acc(p + 'hh.q.w', da.hh.qw);
      acc(p + 'hh.q.b', da.hh.qb);
      acc(p + 'hh.k.w', da.hh.kw);
      acc(p + 'hh.k.b', da.hh.kb);
    }
    const dln1 = like(dh, rows * D);
    for (const [x, dx] of [
      ['q', da.dq],
      ['k', da.dk],
      ['v', da.dv],
    ] as const) {
      const d = linearBackward(c.ln1.y, rows, D, get(p + 'w' + x), D, dx);
      acc(p + 'w' + x, d.dw);
      acc(p + 'b' + x, d.db);
      addInto(dln1, d.dx);
    }
    const d1 = layerNormBackward(dln1, c.u, rows, D, get(p + 'ln1.g'), c.ln1.mean, c.ln1.rstd);
    acc(p + 'ln1.g', d1.dgain);
    acc(p + 'ln1.b', d1.dbias);
    addInto(d1.dx, dh); // the residual u → h1
    if (cfg.shortConv === 'none') dh = d1.dx;
    else {
      const dc = shortConvBackward(c.h, B, L, D, cfg.shortConv, get(p + 'conv'), d1.dx);
      acc(p + 'conv', dc.dw);
      dh = dc.dx;
    }
  }
  const e = embedBackward(batch.tokens, B, L, V, D, dh);
  acc('tok', e.dTok);
  grads.get('pos')!.set(addedPrefix(grads.get('pos')!, e.dPos));
  return params.map((p) => grads.get(p.name)!);
}

/** dPos has L rows; the parameter has Lmax ≥ L: add into its first rows. */
function addedPrefix(full: Arr, prefix: Arr): Arr {
  const out = full.slice();
  for (let i = 0; i < prefix.length; i++) out[i] += prefix[i];
  return out;
}

export function lossAndGrads(
  params: readonly ParamLike[],
  cfg: ModelConfig,
  batch: Batch,
  featureW: FeatureDraws,
): { loss: number; correct: number; count: number; grads: Arr[] } {
  const fwd = modelForward(params, cfg, batch, featureW);
  const grads = modelBackward(params, cfg, batch, featureW, fwd);
  return { loss: fwd.loss, correct: fwd.correct, count: fwd.count, grads };
}

/** [layer][head] the L×L attention matrix the model uses on one sequence (tokens of length L). */
export function attentionMaps(
  params: readonly ParamLike[],
  cfg: ModelConfig,
  tokens: Int32Array,
  featureW: FeatureDraws,
): Float32Array[][] {
  const L = tokens.length;
  const batch: Batch = { batch: 1, seqLen: L, tokens, targets: new Int32Array(L), mask: new Uint8Array(L) };
  const fwd = modelForward(params, cfg, batch, featureW);
  const s: AttentionShape = { B: 1, L, H: cfg.heads, dh: headDim(cfg), causal: cfg.causal };
  return fwd.cache.layers.map((c) => attentionMatrices(cfg.attention, s, c.att));
}
