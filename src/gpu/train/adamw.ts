/**
 * The optimizer step on flat buffers: global gradient norm (→ stats[3]), clip scale (→ stats[4])
 * and AdamW (src/shaders/train-adamw.wgsl; CPU twins src/core/train/clip.ts, adamw.ts).
 */
import code from '../../shaders/train-adamw.wgsl?raw';
import type { OptimizerConfig } from '../../core/train/types';
import type { KernelContext } from '../kernel-context';
import { encodePass, gridX, packParams, type BufView } from './common';

const CHUNK = 4096;

/** Floats of the partial-sum scratch the norm needs for n gradient entries. */
export function gradNormScratch(n: number): number {
  return Math.max(1, Math.ceil(n / CHUNK));
}

/** stats[3] = ‖g‖₂ over n entries, stats[4] = clip > 0 ∧ ‖g‖ > clip ? clip/‖g‖ : 1. */
export function encodeGradNorm(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  a: { grads: BufView; n: number; partial: BufView; stats: BufView; clip: number; role?: string },
): void {
  const role = a.role ?? 'train.gnorm';
  const parts = gradNormScratch(a.n);
  encodePass(ctx, encoder, {
    shader: 'train-adamw',
    code,
    entry: 'partial',
    role: `${role}.partial`,
    params: packParams([a.n, gridX(parts, ctx), parts, 0], [0, 0, 0, 0, 0, 0, 0, a.clip]),
    views: [a.grads, a.partial],
    groups: parts,
  });
  encodePass(ctx, encoder, {
    shader: 'train-adamw',
    code,
    entry: 'norm',
    role: `${role}.norm`,
    params: packParams([a.n, 1, parts, 0], [0, 0, 0, 0, 0, 0, 0, a.clip]),
    views: [a.grads, a.partial, a.stats],
    groups: 1,
  });
}

export interface AdamwArgs {
  params: BufView;
  grads: BufView;
  m: BufView;
  v: BufView;
  /** 0/1 per entry: weight decay applies (matrices) */
  decay: BufView;
  /** stats[4] holds the clip scale (encodeGradNorm) */
  stats: BufView;
  /** scratch of encodeGradNorm (bound, unused) */
  partial: BufView;
  n: number;
  /** 1-based step */
  t: number;
  lr: number;
  opt: OptimizerConfig;
  role?: string;
}

export function encodeAdamw(ctx: KernelContext, encoder: GPUCommandEncoder, a: AdamwArgs): void {
  const groups = Math.ceil(a.n / 64);
  // the bias corrections rounded as the twin rounds them (f32 β, f32 power, f32 difference)
  const f = Math.fround;
  const bc1 = f(1 - f(Math.pow(f(a.opt.beta1), a.t)));
  const bc2 = f(1 - f(Math.pow(f(a.opt.beta2), a.t)));
  encodePass(ctx, encoder, {
    shader: 'train-adamw',
    code,
    entry: 'adamw',
    role: a.role ?? 'train.adamw',
    params: packParams(
      [a.n, gridX(groups, ctx), 0, 0],
      [a.lr, a.opt.beta1, a.opt.beta2, a.opt.eps, a.opt.weightDecay, bc1, bc2, a.opt.clip],
    ),
    views: [a.grads, a.partial, a.stats, a.params, a.m, a.v, a.decay],
    groups,
  });
}
