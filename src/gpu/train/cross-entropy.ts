/**
 * Masked cross-entropy with its gradient and the loss / correct / count reduction
 * (src/shaders/train-cross-entropy.wgsl; CPU twin src/core/train/cross-entropy.ts). Targets are an
 * i32 buffer, the mask a u32 buffer (0/1) of `rows` entries; `stats` receives [loss, correct, count]
 * at floats 0–2 (the trainer's one readback also holds the gradient norm at 3).
 */
import code from '../../shaders/train-cross-entropy.wgsl?raw';
import type { KernelContext } from '../kernel-context';
import { encodePass, gridX, packParams, type BufView } from './common';

export interface CrossEntropyArgs {
  logits: BufView;
  targets: BufView;
  mask: BufView;
  rows: number;
  vocab: number;
  /** rows×vocab, overwritten with mask·(softmax − onehot)/count */
  dLogits: BufView;
  /** scratch of 2·rows floats (per-row loss and correct) */
  rowStats: BufView;
  stats: BufView;
  role?: string;
}

export function encodeCrossEntropy(ctx: KernelContext, encoder: GPUCommandEncoder, a: CrossEntropyArgs): void {
  const role = a.role ?? 'train.ce';
  const groups = Math.ceil(a.rows / 64);
  encodePass(ctx, encoder, {
    shader: 'train-cross-entropy',
    code,
    entry: 'count',
    role: `${role}.count`,
    params: packParams([a.rows, a.vocab, 1, 0]),
    views: [null, null, a.mask, null, null, a.stats],
    groups: 1,
  });
  encodePass(ctx, encoder, {
    shader: 'train-cross-entropy',
    code,
    entry: 'rows',
    role: `${role}.rows`,
    params: packParams([a.rows, a.vocab, gridX(groups, ctx), 0]),
    views: [a.logits, a.targets, a.mask, a.dLogits, a.rowStats, a.stats],
    groups,
  });
  encodePass(ctx, encoder, {
    shader: 'train-cross-entropy',
    code,
    entry: 'reduce',
    role: `${role}.reduce`,
    params: packParams([a.rows, a.vocab, 1, 0]),
    views: [null, null, null, null, a.rowStats, a.stats],
    groups: 1,
  });
}
