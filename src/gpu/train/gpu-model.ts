/**
 * The tiny transformer (src/core/train/types.ts; CPU twin src/core/train/model.ts) as GPU passes:
 * parameters, gradients and Adam moments in flat buffers (tensor i at a 256-byte boundary, so a
 * tensor binds in place as a buffer range: flat-layout.ts), activations in buffers kept across
 * steps, and `encodeForward` / `encodeBackward` that put a whole step's passes (on a batch of
 * gpu-batch.ts) into one command encoder.
 * The pass order follows modelForward / modelBackward exactly (the same sums, the same residual
 * structure), so a GPU step and a CPU step differ only by f32 rounding.
 */
import { featureCount } from '../../core/train/feature-map-grad';
import { headDim } from '../../core/train/model-params';
import type { ModelConfig, ParamTensor } from '../../core/train/types';
import type { KernelContext } from '../kernel-context';
import type { View } from './attn-common';
import type { BufView } from './common';
import { encodeCrossEntropy } from './cross-entropy';
import { encodeGeluBackward, encodeGeluForward } from './elementwise';
import { encodeEmbedBackward, encodeEmbedForward } from './embedding';
import { encodeFeatureBackward, encodeFeatureForward } from './feature-maps';
import { ALIGN, flatLayout, type FlatLayout } from './flat-layout';
import type { GpuBatch } from './gpu-batch';
import { encodeLayerNormBackward, encodeLayerNormForward } from './layer-norm';
import { encodeLinearAttentionBackward, encodeLinearAttentionForward } from './linear-attention';
import { encodeLinearBackward, encodeLinearForward, encodeMatmulSum3 } from './linear';
import { encodeShortConvBackward, encodeShortConvForward } from './short-conv';
import { encodeSoftmaxAttentionBackward, encodeSoftmaxAttentionForward } from './softmax-attention';

interface LayerActs {
  hIn: GPUBuffer;
  u: GPUBuffer;
  ln1: GPUBuffer;
  mean1: GPUBuffer;
  rstd1: GPUBuffer;
  q: GPUBuffer;
  k: GPUBuffer;
  v: GPUBuffer;
  /** softmax P (B·H·L·L), or φ(Q), φ(K) and den */
  p: GPUBuffer | null;
  phiQ: GPUBuffer | null;
  phiK: GPUBuffer | null;
  den: GPUBuffer | null;
  ao: GPUBuffer;
  h1: GPUBuffer;
  ln2: GPUBuffer | null;
  mean2: GPUBuffer | null;
  rstd2: GPUBuffer | null;
  z: GPUBuffer | null;
  g: GPUBuffer | null;
}

export class GpuModel {
  readonly layout: FlatLayout;
  readonly params: GPUBuffer;
  readonly grads: GPUBuffer;
  readonly m1: GPUBuffer;
  readonly m2: GPUBuffer;
  readonly decay: GPUBuffer;
  /** [loss, correct, count, ‖g‖, clip scale, …] */
  readonly stats: GPUBuffer;
  readonly rowStats: GPUBuffer;
  readonly layers: LayerActs[] = [];
  readonly hOut: GPUBuffer;
  readonly lnf: GPUBuffer;
  readonly meanF: GPUBuffer;
  readonly rstdF: GPUBuffer;
  readonly logits: GPUBuffer;
  readonly dLogits: GPUBuffer;
  /** per layer the FAVOR+ W of every head (H×m×dh), uploaded by setFeatureW */
  readonly featureW: GPUBuffer[] = [];
  private readonly d: Record<string, GPUBuffer>;
  readonly F: number;

  constructor(
    ctx: KernelContext,
    readonly cfg: ModelConfig,
    init: readonly ParamTensor[],
    readonly maxRows: number,
    readonly maxBatch: number,
    readonly maxLen: number,
  ) {
    const a = ctx.alloc;
    this.layout = flatLayout(init);
    const n = this.layout.total;
    const flat = new Float32Array(n);
    const decay = new Float32Array(n);
    init.forEach((p, i) => {
      const t = this.layout.tensors[i]!;
      flat.set(p.data, t.offset);
      if (p.decay) decay.fill(1, t.offset, t.offset + t.size);
    });
    this.params = a.upload('train.params', flat);
    this.grads = a.storage('train.grads', n * 4);
    this.m1 = a.upload('train.adam.m', new Float32Array(n));
    this.m2 = a.upload('train.adam.v', new Float32Array(n));
    this.decay = a.upload('train.decay', decay);
    this.stats = a.upload('train.stats', new Float32Array(8));
    this.rowStats = a.storage('train.rowstats', 2 * maxRows * 4);
    const D = cfg.dModel;
    const H = cfg.heads;
    const dh = headDim(cfg);
    const R = maxRows;
    const V = cfg.vocab;
    const at = cfg.attention;
    this.F = at.kind === 'linear' ? featureCount(at.map, at.m, dh) : 0;
    const buf = (role: string, floats: number) => a.storage(`train.${role}`, Math.max(1, floats) * 4);
    let hIn = buf('h0', R * D);
    for (let l = 0; l < cfg.layers; l++) {
      const p = `l${l}.`;
      const lin = at.kind === 'linear';
      const acts: LayerActs = {
        hIn,
        u: cfg.shortConv === 'none' ? hIn : buf(p + 'u', R * D),
        ln1: buf(p + 'ln1', R * D),
        mean1: buf(p + 'mean1', R),
        rstd1: buf(p + 'rstd1', R),
        q: buf(p + 'q', R * D),
        k: buf(p + 'k', R * D),
        v: buf(p + 'v', R * D),
        p: lin ? null : buf(p + 'p', maxBatch * H * maxLen * maxLen),
        phiQ: lin ? buf(p + 'phiq', R * H * this.F) : null,
        phiK: lin ? buf(p + 'phik', R * H * this.F) : null,
        den: lin ? buf(p + 'den', R * H) : null,
        ao: buf(p + 'ao', R * D),
        h1: buf(p + 'h1', R * D),
        ln2: cfg.mlp ? buf(p + 'ln2', R * D) : null,
        mean2: cfg.mlp ? buf(p + 'mean2', R) : null,
        rstd2: cfg.mlp ? buf(p + 'rstd2', R) : null,
        z: cfg.mlp ? buf(p + 'z', R * 4 * D) : null,
        g: cfg.mlp ? buf(p + 'g', R * 4 * D) : null,
      };
      this.layers.push(acts);
      hIn = cfg.mlp ? buf(`h${l + 1}`, R * D) : acts.h1;
      if (at.kind === 'linear' && at.map === 'positive') this.featureW.push(buf(p + 'favorw', H * at.m * dh));
    }
    this.hOut = hIn;
    this.lnf = buf('lnf', R * D);
    this.meanF = buf('meanf', R);
    this.rstdF = buf('rstdf', R);
    this.logits = buf('logits', R * V);
    this.dLogits = buf('dlogits', R * V);
    this.d = {
      dH: buf('d.h', R * D),
      dT: buf('d.t', R * D),
      dA: buf('d.a', R * D),
      dAo: buf('d.ao', R * D),
      dq: buf('d.q', R * D),
      dk: buf('d.k', R * D),
      dv: buf('d.v', R * D),
      dF: buf('d.f', R * D),
      dz: buf('d.z', cfg.mlp ? R * 4 * D : 1),
      dg: buf('d.g', cfg.mlp ? R * 4 * D : 1),
      dPhiQ: buf('d.phiq', R * H * Math.max(1, this.F)),
      dPhiK: buf('d.phik', R * H * Math.max(1, this.F)),
    };
  }

  /** A parameter tensor as a byte-range view of `buf` (params, grads, m or v). */
  view(buf: GPUBuffer, name: string): BufView {
    const t = this.layout.byName.get(name);
    if (!t) throw new RangeError(`gpu model: no parameter ${name}`);
    return { buffer: buf, offset: t.offset * 4, size: Math.ceil(Math.max(1, t.size) / ALIGN) * ALIGN * 4 };
  }

  /** A parameter tensor as an element-offset view (the attention dispatchers' View). */
  elemView(buf: GPUBuffer, name: string): View {
    const t = this.layout.byName.get(name)!;
    return { buffer: buf, offset: t.offset };
  }

  /** FAVOR+'s W of every layer ([layer][head] m×dh). */
  setFeatureW(ctx: KernelContext, draws: readonly (readonly Float32Array[])[]): void {
    draws.forEach((heads, l) => {
      const all = new Float32Array(heads.reduce((s, w) => s + w.length, 0));
      let o = 0;
      for (const w of heads) {
        all.set(w, o);
        o += w.length;
      }
      ctx.device.queue.writeBuffer(this.featureW[l]!, 0, all);
    });
  }

  /**
   * Forward through the loss: logits, dLogits and stats[0..2] (loss, correct, count). `attention`:
   * stop after the last layer's attention (every layer's q, k, P / φ are then in `layers`: what
   * the Hedgehog fit's teacher needs).
   */
  encodeForward(ctx: KernelContext, enc: GPUCommandEncoder, b: GpuBatch, upTo: 'loss' | 'attention' = 'loss'): void {
    const { cfg } = this;
    const B = b.batch;
    const L = b.seqLen;
    const R = B * L;
    const D = cfg.dModel;
    const H = cfg.heads;
    const dh = headDim(cfg);
    const at = cfg.attention;
    const P = (name: string) => this.view(this.params, name);
    encodeEmbedForward(ctx, enc, {
      tokens: b.tokens,
      batch: B,
      seqLen: L,
      dim: D,
      vocab: cfg.vocab,
      tok: P('tok'),
      pos: P('pos'),
      h: this.layers[0]!.hIn,
    });
    this.layers.forEach((a, l) => {
      const p = `l${l}.`;
      if (cfg.shortConv !== 'none')
        encodeShortConvForward(ctx, enc, { batch: B, seqLen: L, dim: D, mode: cfg.shortConv, x: a.hIn, w: P(p + 'conv'), y: a.u });
      encodeLayerNormForward(ctx, enc, { x: a.u, gain: P(p + 'ln1.g'), bias: P(p + 'ln1.b'), y: a.ln1, mean: a.mean1, rstd: a.rstd1, rows: R, cols: D });
      for (const [x, out] of [['q', a.q], ['k', a.k], ['v', a.v]] as const)
        encodeLinearForward(ctx, enc, { x: a.ln1, w: P(p + 'w' + x), b: P(p + 'b' + x), y: out, rows: R, inDim: D, outDim: D });
      if (at.kind === 'softmax') {
        encodeSoftmaxAttentionForward(ctx, enc, { B, L, H, dh, causal: cfg.causal, q: a.q, k: a.k, v: a.v, out: a.ao, p: a.p!, role: `${p}sm.fwd` });
      } else {
        const hh = at.map === 'hedgehog';
        for (const side of ['query', 'key'] as const) {
          const s = side === 'query' ? 'q' : 'k';
          encodeFeatureForward(ctx, enc, {
            map: at.map, B, L, H, dh, m: at.m, side,
            x: side === 'query' ? a.q : a.k,
            w: hh ? this.elemView(this.params, `${p}hh.${s}.w`) : at.map === 'positive' ? this.featureW[l]! : undefined,
            b: hh ? this.elemView(this.params, `${p}hh.${s}.b`) : undefined,
            phi: side === 'query' ? a.phiQ! : a.phiK!,
            role: `${p}fm.${s}.fwd`,
          }); // prettier-ignore
        }
        encodeLinearAttentionForward(ctx, enc, {
          B, L, H, F: this.F, dh, causal: cfg.causal, window: at.window,
          phiQ: a.phiQ!, phiK: a.phiK!, v: a.v, out: a.ao, den: a.den!, role: `${p}la.fwd`,
        }); // prettier-ignore
      }
      if (upTo === 'attention' && l === cfg.layers - 1) return;
      encodeLinearForward(ctx, enc, { x: a.ao, w: P(p + 'wo'), b: P(p + 'bo'), y: a.h1, residual: a.u, rows: R, inDim: D, outDim: D });
      if (cfg.mlp) {
        const next = this.layers[l + 1]?.hIn ?? this.hOut;
        encodeLayerNormForward(ctx, enc, { x: a.h1, gain: P(p + 'ln2.g'), bias: P(p + 'ln2.b'), y: a.ln2!, mean: a.mean2!, rstd: a.rstd2!, rows: R, cols: D });
        encodeLinearForward(ctx, enc, { x: a.ln2!, w: P(p + 'w1'), b: P(p + 'b1'), y: a.z!, rows: R, inDim: D, outDim: 4 * D });
        encodeGeluForward(ctx, enc, { x: a.z!, y: a.g!, n: R * 4 * D });
        encodeLinearForward(ctx, enc, { x: a.g!, w: P(p + 'w2'), b: P(p + 'b2'), y: next, residual: a.h1, rows: R, inDim: 4 * D, outDim: D });
      }
    }); // prettier-ignore
    if (upTo === 'attention') return;
    encodeLayerNormForward(ctx, enc, { x: this.hOut, gain: P('lnf.g'), bias: P('lnf.b'), y: this.lnf, mean: this.meanF, rstd: this.rstdF, rows: R, cols: D }); // prettier-ignore
    encodeLinearForward(ctx, enc, {
      x: this.lnf,
      w: P(cfg.tied ? 'tok' : 'out'),
      wTransposed: true,
      b: P('bout'),
      y: this.logits,
      rows: R,
      inDim: D,
      outDim: cfg.vocab,
    });
    encodeCrossEntropy(ctx, enc, {
      logits: this.logits,
      targets: b.targets,
      mask: b.mask,
      rows: R,
      vocab: cfg.vocab,
      dLogits: this.dLogits,
      rowStats: this.rowStats,
      stats: this.stats,
    });
  }

  /** Backward from dLogits into the (zeroed, then accumulated) flat gradient buffer. */
  encodeBackward(ctx: KernelContext, enc: GPUCommandEncoder, b: GpuBatch): void {
    const { cfg, d } = this;
    const B = b.batch;
    const L = b.seqLen;
    const R = B * L;
    const D = cfg.dModel;
    const H = cfg.heads;
    const dh = headDim(cfg);
    const at = cfg.attention;
    const P = (name: string) => this.view(this.params, name);
    const G = (name: string) => this.view(this.grads, name);
    const head = cfg.tied ? 'tok' : 'out';
    encodeLinearBackward(ctx, enc, {
      x: this.lnf, w: P(head), dy: this.dLogits, rows: R, inDim: D, outDim: cfg.vocab,
      dx: d.dF!, accumulateDx: false, dw: G(head), db: G('bout'), accumulateParams: true, wTransposed: true,
    }); // prettier-ignore
    let dH = d.dH!;
    let dT = d.dT!;
    encodeLayerNormBackward(ctx, enc, {
      dy: d.dF!, x: this.hOut, gain: P('lnf.g'), mean: this.meanF, rstd: this.rstdF, rows: R, cols: D,
      dx: dH, accumulateDx: false, dgain: G('lnf.g'), dbias: G('lnf.b'), accumulateParams: true,
    }); // prettier-ignore
    for (let l = cfg.layers - 1; l >= 0; l--) {
      const a = this.layers[l]!;
      const p = `l${l}.`;
      if (cfg.mlp) {
        encodeLinearBackward(ctx, enc, {
          x: a.g!, w: P(p + 'w2'), dy: dH, rows: R, inDim: 4 * D, outDim: D,
          dx: d.dg!, accumulateDx: false, dw: G(p + 'w2'), db: G(p + 'b2'), accumulateParams: true,
        }); // prettier-ignore
        encodeGeluBackward(ctx, enc, { x: a.z!, dy: d.dg!, dx: d.dz!, n: R * 4 * D });
        encodeLinearBackward(ctx, enc, {
          x: a.ln2!, w: P(p + 'w1'), dy: d.dz!, rows: R, inDim: D, outDim: 4 * D,
          dx: d.dA!, accumulateDx: false, dw: G(p + 'w1'), db: G(p + 'b1'), accumulateParams: true,
        }); // prettier-ignore
        encodeLayerNormBackward(ctx, enc, {
          dy: d.dA!, x: a.h1, gain: P(p + 'ln2.g'), mean: a.mean2!, rstd: a.rstd2!, rows: R, cols: D,
          dx: dH, accumulateDx: true, dgain: G(p + 'ln2.g'), dbias: G(p + 'ln2.b'), accumulateParams: true,
        }); // prettier-ignore
      }
      encodeLinearBackward(ctx, enc, {
        x: a.ao, w: P(p + 'wo'), dy: dH, rows: R, inDim: D, outDim: D,
        dx: d.dAo!, accumulateDx: false, dw: G(p + 'wo'), db: G(p + 'bo'), accumulateParams: true,
      }); // prettier-ignore
      if (at.kind === 'softmax') {
        encodeSoftmaxAttentionBackward(ctx, enc, {
          B, L, H, dh, causal: cfg.causal, q: a.q, k: a.k, v: a.v, p: a.p!, dOut: d.dAo!,
          dq: d.dq!, dk: d.dk!, dv: d.dv!, role: `${p}sm.bwd`,
        }); // prettier-ignore
      } else {
        encodeLinearAttentionBackward(ctx, enc, {
          B, L, H, F: this.F, dh, causal: cfg.causal, window: at.window,
          phiQ: a.phiQ!, phiK: a.phiK!, v: a.v, den: a.den!, out: a.ao, dOut: d.dAo!,
          dPhiQ: d.dPhiQ!, dPhiK: d.dPhiK!, dv: d.dv!, role: `${p}la.bwd`,
        }); // prettier-ignore
        const hh = at.map === 'hedgehog';
        for (const side of ['query', 'key'] as const) {
          const s = side === 'query' ? 'q' : 'k';
          encodeFeatureBackward(ctx, enc, {
            map: at.map, B, L, H, dh, m: at.m, side,
            x: side === 'query' ? a.q : a.k,
            w: hh ? this.elemView(this.params, `${p}hh.${s}.w`) : at.map === 'positive' ? this.featureW[l]! : undefined,
            phi: side === 'query' ? a.phiQ! : a.phiK!,
            dPhi: side === 'query' ? d.dPhiQ! : d.dPhiK!,
            dx: side === 'query' ? d.dq! : d.dk!,
            dw: hh ? this.elemView(this.grads, `${p}hh.${s}.w`) : undefined,
            db: hh ? this.elemView(this.grads, `${p}hh.${s}.b`) : undefined,
            role: `${p}fm.${s}.bwd`,
          }); // prettier-ignore
        }
      }
      // dA = dq·Wqᵀ + dk·Wkᵀ + dv·Wvᵀ in one pass where the three weights lie at one stride
      const wq = this.layout.byName.get(p + 'wq')!;
      const bs = this.layout.byName.get(p + 'wk')!.offset - wq.offset;
      const fused = this.layout.byName.get(p + 'wv')!.offset - wq.offset === 2 * bs;
      (['q', 'k', 'v'] as const).forEach((x, i) =>
        encodeLinearBackward(ctx, enc, {
          x: a.ln1, w: P(p + 'w' + x), dy: d['d' + x]!, rows: R, inDim: D, outDim: D,
          dx: fused ? null : d.dA!, accumulateDx: i > 0, dw: G(p + 'w' + x), db: G(p + 'b' + x), accumulateParams: true,
        }),
      ); // prettier-ignore
      if (fused)
        encodeMatmulSum3(ctx, enc, {
          a: [d.dq!, d.dk!, d.dv!], b: { buffer: this.params, offset: wq.offset * 4, size: (2 * bs + wq.size) * 4 },
          bs, c: d.dA!, m: R, n: D, k: D, role: `${p}qkv.dx`,
        }); // prettier-ignore
      encodeLayerNormBackward(ctx, enc, {
        dy: d.dA!, x: a.u, gain: P(p + 'ln1.g'), mean: a.mean1, rstd: a.rstd1, rows: R, cols: D,
        dx: dH, accumulateDx: true, dgain: G(p + 'ln1.g'), dbias: G(p + 'ln1.b'), accumulateParams: true,
      }); // prettier-ignore
      if (cfg.shortConv !== 'none') {
        encodeShortConvBackward(ctx, enc, {
          batch: B, seqLen: L, dim: D, mode: cfg.shortConv, x: a.hIn, w: P(p + 'conv'), dy: dH,
          dx: dT, accumulateDx: false, dw: G(p + 'conv'), accumulateParams: true,
        }); // prettier-ignore
        [dH, dT] = [dT, dH];
      }
    }
    encodeEmbedBackward(ctx, enc, {
      tokens: b.tokens, batch: B, seqLen: L, dim: D, vocab: cfg.vocab,
      dh: dH, dTok: G('tok'), dPos: G('pos'), accumulate: true, byToken: b.byToken,
    }); // prettier-ignore
  }
}
