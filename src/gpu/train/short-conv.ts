/**
 * The short causal convolution ('shift' | 'conv3') forward / backward (src/shaders/train-short-conv.wgsl;
 * CPU twin src/core/train/short-conv.ts). w: shift D; conv3 3×D (row s multiplies h_{t−s}).
 */
import code from '../../shaders/train-short-conv.wgsl?raw';
import type { ShortConv } from '../../core/train/types';
import type { KernelContext } from '../kernel-context';
import { dummyView, encodePass, gridX, packParams, type BufView } from './common';

export interface ShortConvShape {
  batch: number;
  seqLen: number;
  dim: number;
  mode: Exclude<ShortConv, 'none'>;
}

/** Taps and tap offset of a mode: shift reads h_{t−1} (1 tap, offset 1), conv3 h_t, h_{t−1}, h_{t−2}. */
function taps(mode: ShortConvShape['mode']): [number, number] {
  return mode === 'shift' ? [1, 1] : [3, 0];
}

/** Positions (of one channel) per invocation of `forward` and `dx` (train-short-conv.wgsl PER). */
const PER = 8;

function params(
  ctx: KernelContext,
  s: ShortConvShape,
  count: number,
  accumulate: boolean,
  wg = 64,
): [Uint32Array, number] {
  const groups = Math.ceil(count / wg);
  const [t, o] = taps(s.mode);
  return [packParams([s.batch, s.seqLen, s.dim, t, o, gridX(groups, ctx), accumulate ? 1 : 0, 0]), groups];
}

/** u = h + Σ_s w_s ⊙ h_{t−s−o}. */
export function encodeShortConvForward(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  a: ShortConvShape & { x: BufView; w: BufView; y: BufView; role?: string },
): void {
  const [p, groups] = params(ctx, a, a.batch * Math.ceil(a.seqLen / PER) * a.dim, false);
  encodePass(ctx, encoder, {
    shader: 'train-short-conv',
    code,
    entry: 'forward',
    role: a.role ?? 'train.conv.fwd',
    params: p,
    views: [a.x, a.w, dummyView(ctx), a.y],
    groups,
  });
}

/** dx (+)= du + Σ_s w_s ⊙ du_{t+s+o} (dx must not alias du); dw (+)= Σ du_t ⊙ h_{t−s−o}. */
export function encodeShortConvBackward(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  a: ShortConvShape & {
    x: BufView;
    w: BufView;
    dy: BufView;
    dx: BufView;
    accumulateDx: boolean;
    dw: BufView;
    accumulateParams: boolean;
    role?: string;
  },
): void {
  const role = a.role ?? 'train.conv.bwd';
  // dw: workgroups of 8
  const [pw, gw] = params(ctx, a, taps(a.mode)[0] * a.dim, a.accumulateParams, 8);
  encodePass(ctx, encoder, {
    shader: 'train-short-conv',
    code,
    entry: 'dw',
    role: `${role}.dw`,
    params: pw,
    views: [a.x, a.w, a.dy, a.dw],
    groups: gw,
  });
  const [px, gx] = params(ctx, a, a.batch * Math.ceil(a.seqLen / PER) * a.dim, a.accumulateDx);
  encodePass(ctx, encoder, {
    shader: 'train-short-conv',
    code,
    entry: 'dx',
    role: `${role}.dx`,
    params: px,
    views: [a.x, a.w, a.dy, a.dx],
    groups: gx,
  });
}
