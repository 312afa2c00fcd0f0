/**
 * Token + position embedding forward / backward (src/shaders/train-embedding.wgsl; CPU twin
 * src/core/train/embedding.ts `embedForward` / `embedBackward`). Tokens are an i32 buffer of B·L ids.
 */
import code from '../../shaders/train-embedding.wgsl?raw';
import type { KernelContext } from '../kernel-context';
import { encodePass, gridX, packParams, type BufView } from './common';

export interface EmbedShape {
  tokens: BufView;
  batch: number;
  seqLen: number;
  dim: number;
  vocab: number;
}

/** h = E[tok] + P[pos] ((B·L)×D). */
export function encodeEmbedForward(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  a: EmbedShape & { tok: BufView; pos: BufView; h: BufView; role?: string },
): void {
  const groups = Math.ceil((a.batch * a.seqLen * a.dim) / 64);
  encodePass(ctx, encoder, {
    shader: 'train-embedding',
    code,
    entry: 'forward',
    role: a.role ?? 'train.embed.fwd',
    params: packParams([a.batch, a.seqLen, a.dim, a.vocab, gridX(groups, ctx), 0, 0, 0]),
    views: [a.tokens, a.tok, a.pos, a.h],
    groups,
  });
}

/** dE (+)= the rows of dh gathered per token (V×D); dP (+)= Σ_b dh (L×D, the first L rows of the table). */
export function encodeEmbedBackward(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  a: EmbedShape & { dh: BufView; dTok: BufView; dPos: BufView; accumulate: boolean; role?: string },
): void {
  const role = a.role ?? 'train.embed.bwd';
  const acc = a.accumulate ? 1 : 0;
  const gt = Math.ceil((a.vocab * Math.ceil(a.dim / 16)) / 16);
  encodePass(ctx, encoder, {
    shader: 'train-embedding',
    code,
    entry: 'dtok',
    role: `${role}.tok`,
    params: packParams([a.batch, a.seqLen, a.dim, a.vocab, gridX(gt, ctx), acc, 0, 0]),
    views: [a.tokens, a.dh, null, a.dTok],
    groups: gt,
  });
  const gp = Math.ceil((a.seqLen * a.dim) / 64);
  encodePass(ctx, encoder, {
    shader: 'train-embedding',
    code,
    entry: 'dpos',
    role: `${role}.pos`,
    params: packParams([a.batch, a.seqLen, a.dim, a.vocab, gridX(gp, ctx), acc, 0, 0]),
    views: [a.tokens, a.dh, null, a.dPos],
    groups: gp,
  });
}
