/**
 * The parameter list of the tiny transformer (model.ts): names, shapes, order and initialization.
 * The order is the flat layout every backend shares (AdamW's state, the GPU's buffers, exports):
 *   tok V×D, pos Lmax×D,
 *   per layer l: [l.conv (shift: D; conv3: 3×D)], l.ln1.g, l.ln1.b, l.wq, l.bq, l.wk, l.bk, l.wv, l.bv,
 *     l.wo, l.bo, [hedgehog: l.hh.q.w H×dh×m, l.hh.q.b H×m, l.hh.k.w, l.hh.k.b],
 *     [mlp: l.ln2.g, l.ln2.b, l.w1 D×4D, l.b1, l.w2 4D×D, l.b2],
 *   lnf.g, lnf.b, [untied: out V×D], bout V.
 * Init (each tensor from its own stream deriveSeed(seed, name), so adding a tensor shifts no other):
 * embeddings N(0, 0.02²) (GPT-2); W_Q, W_K, W_V, W₁ N(0, 1/in) so pre-activations start at unit
 * scale; W_O, W₂ additionally ÷√(2·layers) (GPT-2's residual scaling, keeps the stream's variance
 * from growing with depth); gains 1, biases 0; short-conv taps 0 (the identity); Hedgehog's Wh the
 * identity on its first min(dh, m) columns plus N(0, 0.02²) (the paper starts from the identity, so
 * φ begins as softmax(±x)).
 */
import { createRng, deriveSeed } from '../rng';
import type { ModelConfig, ParamTensor } from './types';

interface Spec {
  name: string;
  shape: number[];
  decay: boolean;
  init: 'zero' | 'one' | 'emb' | { std: number } | 'hedgehog';
}

export function headDim(cfg: ModelConfig): number {
  return cfg.dModel / cfg.heads;
}

function specs(cfg: ModelConfig): Spec[] {
  const D = cfg.dModel;
  const H = cfg.heads;
  const dh = headDim(cfg);
  const V = cfg.vocab;
  const out: Spec[] = [
    { name: 'tok', shape: [V, D], decay: false, init: 'emb' },
    { name: 'pos', shape: [cfg.seqLen, D], decay: false, init: 'emb' },
  ];
  const resid = 1 / Math.sqrt(2 * cfg.layers);
  for (let l = 0; l < cfg.layers; l++) {
    const p = `l${l}.`;
    if (cfg.shortConv !== 'none') {
      const shape = cfg.shortConv === 'shift' ? [D] : [3, D];
      out.push({ name: p + 'conv', shape, decay: false, init: 'zero' });
    }
    out.push({ name: p + 'ln1.g', shape: [D], decay: false, init: 'one' });
    out.push({ name: p + 'ln1.b', shape: [D], decay: false, init: 'zero' });
    for (const x of ['q', 'k', 'v', 'o']) {
      const std = (x === 'o' ? resid : 1) / Math.sqrt(D);
      out.push({ name: p + 'w' + x, shape: [D, D], decay: true, init: { std } });
      out.push({ name: p + 'b' + x, shape: [D], decay: false, init: 'zero' });
    }
    if (cfg.attention.kind === 'linear' && cfg.attention.map === 'hedgehog') {
      const m = cfg.attention.m;
      for (const side of ['q', 'k']) {
        out.push({ name: `${p}hh.${side}.w`, shape: [H, dh, m], decay: true, init: 'hedgehog' });
        out.push({ name: `${p}hh.${side}.b`, shape: [H, m], decay: false, init: 'zero' });
      }
    }
    if (cfg.mlp) {
      out.push({ name: p + 'ln2.g', shape: [D], decay: false, init: 'one' });
      out.push({ name: p + 'ln2.b', shape: [D], decay: false, init: 'zero' });
      out.push({ name: p + 'w1', shape: [D, 4 * D], decay: true, init: { std: 1 / Math.sqrt(D) } });
      out.push({ name: p + 'b1', shape: [4 * D], decay: false, init: 'zero' });
      const std = resid / Math.sqrt(4 * D);
      out.push({ name: p + 'w2', shape: [4 * D, D], decay: true, init: { std } });
      out.push({ name: p + 'b2', shape: [D], decay: false, init: 'zero' });
    }
  }
  out.push({ name: 'lnf.g', shape: [D], decay: false, init: 'one' });
  out.push({ name: 'lnf.b', shape: [D], decay: false, init: 'zero' });
  if (!cfg.tied) out.push({ name: 'out', shape: [V, D], decay: false, init: 'emb' });
  out.push({ name: 'bout', shape: [V], decay: false, init: 'zero' });
  return out;
}

export function validateModelConfig(cfg: ModelConfig): void {
  const ok =
    Number.isInteger(cfg.dModel) &&
    cfg.dModel > 0 &&
    Number.isInteger(cfg.heads) &&
    cfg.heads > 0 &&
    cfg.dModel % cfg.heads === 0 &&
    cfg.layers >= 1 &&
    cfg.vocab >= 2 &&
    cfg.seqLen >= 1;
  if (!ok) throw new RangeError(`model config: invalid sizes ${JSON.stringify(cfg)}`);
  if (cfg.attention.kind === 'linear' && cfg.attention.m < 1 && ['positive', 'hedgehog'].includes(cfg.attention.map)) {
    throw new RangeError('model config: m must be ≥ 1');
  }
}

export function initParams(cfg: ModelConfig, seed: number): ParamTensor[] {
  validateModelConfig(cfg);
  return specs(cfg).map((s) => {
    const n = s.shape.reduce((a, b) => a * b, 1);
    const data = new Float32Array(n);
    const rng = createRng(deriveSeed(seed, s.name));
    if (s.init === 'one') data.fill(1);
    else if (s.init === 'emb') rng.fillNormal(data, 0.02);
    else if (s.init === 'hedgehog') {
      const [H, dh, m] = s.shape as [number, number, number];
      rng.fillNormal(data, 0.02);
      for (let h = 0; h < H; h++) for (let c = 0; c < Math.min(dh, m); c++) data[(h * dh + c) * m + c] += 1;
    } else if (s.init !== 'zero') rng.fillNormal(data, s.init.std);
    return { name: s.name, shape: s.shape, decay: s.decay, data };
  });
}
