/**
 * Dispatcher of the Hedgehog distillation's core (src/shaders/train-hedgehog-distill.wgsl,
 * prepended with train-attention-rows.wgsl): from the student's features φq, φk ((B·L)×(H·F), the
 * layout encodeFeatureForward writes) and the teacher's P (B·H·L·L, the layout
 * encodeSoftmaxAttentionForward writes) the per-row KL(P_i ‖ Â_i) and dφq, dφk of Σ KL / norm.
 * Two passes (`rows`: KL, g into the scratch G, dφq; `cols`: dφk). CPU twin:
 * src/core/train/hedgehog-distill.ts `distillHead` (one head at a time).
 */
import rowsCode from '../../shaders/train-attention-rows.wgsl?raw';
import shader from '../../shaders/train-hedgehog-distill.wgsl?raw';
import type { KernelContext } from '../kernel-context';
import { bindAt, checkBinding, grid, pass, words } from './attn-common';

const code = [rowsCode, shader].join('\n');

export interface HedgehogDistillArgs {
  B: number;
  L: number;
  H: number;
  /** features per head (2m) */
  F: number;
  causal: boolean;
  /** the mean's count N: g_ij carries 1/N (KL stays unscaled) */
  norm: number;
  phiQ: GPUBuffer;
  phiK: GPUBuffer;
  /** teacher P, B·H·L·L */
  p: GPUBuffer;
  /** per-row KL (B·H·L, row (b·H + h)·L + i) written from element `klOffset` */
  kl: GPUBuffer;
  klOffset?: number;
  /** dφq, dφk (written) */
  dPhiQ: GPUBuffer;
  dPhiK: GPUBuffer;
  /** false: the `rows` pass only (KL and dφq; the held-out loss needs no dφk) */
  gradients?: boolean;
  /** scratch G, B·H·L·L f32; default the allocator's `${role}.g` */
  g?: GPUBuffer;
  /** uniform / scratch role (default 'train.hhd') */
  role?: string;
  label?: string;
}

export function encodeHedgehogDistill(ctx: KernelContext, encoder: GPUCommandEncoder, a: HedgehogDistillArgs): void {
  const n = a.B * a.H * a.L;
  if (n === 0 || a.F === 0) return;
  checkBinding(ctx, a.B * a.H * a.L * a.L, 'Hedgehog distillation scratch');
  checkBinding(ctx, a.B * a.L * a.H * a.F, 'Hedgehog features');
  const role = a.role ?? 'train.hhd';
  const g = a.g ?? ctx.alloc.storage(`${role}.g`, a.B * a.H * a.L * a.L * 4);
  const gr = grid(ctx, Math.ceil(n / 64), 'Hedgehog distillation');
  const uniform = ctx.alloc.uniform(
    role,
    words([a.B, a.L, a.H, 0, a.F, a.causal ? 1 : 0, gr[0], a.klOffset ?? 0, { f32: a.norm }, 0, 0, 0]),
  );
  const label = a.label ?? 'train hedgehog distill';
  const pr = ctx.pipelines.pipeline('train-hedgehog-distill', code, 'rows');
  const rowsBind: [number, GPUBuffer][] = [
    [0, uniform],
    [1, a.phiQ],
    [2, a.phiK],
    [3, a.p],
    [4, g],
    [5, a.kl],
    [6, a.dPhiQ],
  ];
  pass(ctx, encoder, `${label} rows`, pr, bindAt(ctx, pr, rowsBind, 'train-hhd-rows'), gr);
  if (a.gradients === false) return;
  const pc = ctx.pipelines.pipeline('train-hedgehog-distill', code, 'cols');
  const colsBind: [number, GPUBuffer][] = [
    [0, uniform],
    [1, a.phiQ],
    [4, g],
    [7, a.dPhiK],
  ];
  pass(ctx, encoder, `${label} cols`, pc, bindAt(ctx, pc, colsBind, 'train-hhd-cols'), gr);
}
