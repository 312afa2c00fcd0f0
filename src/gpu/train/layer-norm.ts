/**
 * Layer norm forward / backward (src/shaders/train-layer-norm.wgsl; CPU twin
 * src/core/train/layer-norm.ts `layerNormForward` / `layerNormBackward`), eps = 1e-5.
 */
import code from '../../shaders/train-layer-norm.wgsl?raw';
import type { KernelContext } from '../kernel-context';
import { encodePass, gridX, packParams, type BufView } from './common';

export interface LayerNormForwardArgs {
  x: BufView;
  gain: BufView;
  bias: BufView;
  /** outputs: y rows×cols, mean and rstd per row */
  y: BufView;
  mean: BufView;
  rstd: BufView;
  rows: number;
  cols: number;
  role?: string;
}

export function encodeLayerNormForward(ctx: KernelContext, encoder: GPUCommandEncoder, a: LayerNormForwardArgs): void {
  encodePass(ctx, encoder, {
    shader: 'train-layer-norm',
    code,
    entry: 'forward',
    role: a.role ?? 'train.ln.fwd',
    // blocks of 4 rows (train-layer-norm.wgsl rows4)
    params: packParams([a.rows, a.cols, gridX(Math.ceil(a.rows / 256), ctx), 0]),
    views: [a.x, a.gain, a.bias, a.y, a.mean, a.rstd],
    groups: Math.ceil(a.rows / 256),
  });
}

export interface LayerNormBackwardArgs {
  dy: BufView;
  x: BufView;
  gain: BufView;
  mean: BufView;
  rstd: BufView;
  rows: number;
  cols: number;
  /** dx (+ dx when accumulateDx: the residual stream's gradient is added onto) */
  dx: BufView;
  accumulateDx: boolean;
  dgain: BufView;
  dbias: BufView;
  accumulateParams: boolean;
  role?: string;
}

export function encodeLayerNormBackward(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  a: LayerNormBackwardArgs,
): void {
  const role = a.role ?? 'train.ln.bwd';
  encodePass(ctx, encoder, {
    shader: 'train-layer-norm',
    code,
    entry: 'params',
    role: `${role}.params`,
    // 4 columns per invocation, workgroups of 4 (train-layer-norm.wgsl params)
    params: packParams([a.rows, a.cols, gridX(Math.ceil(a.cols / 16), ctx), a.accumulateParams ? 1 : 0]),
    views: [a.x, a.gain, a.dy, a.dgain, a.mean, a.rstd, a.dbias],
    groups: Math.ceil(a.cols / 16),
  });
  encodePass(ctx, encoder, {
    shader: 'train-layer-norm',
    code,
    entry: 'backward',
    role: `${role}.dx`,
    params: packParams([a.rows, a.cols, gridX(Math.ceil(a.rows / 256), ctx), a.accumulateDx ? 1 : 0]),
    views: [a.x, a.gain, a.dy, a.dx, a.mean, a.rstd],
    groups: Math.ceil(a.rows / 256),
  });
}
