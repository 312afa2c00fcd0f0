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

/**
 * The rows of a batch grouped by token, for the token gradient's gather (train-embedding.wgsl
 * `dtok`): [Vi, start_0 … start_Vi, rows…] with Vi = 1 + the largest token, start_v the first
 * entry of token v's rows (ascending) after the Vi + 2 header words; negative tokens are left out.
 */
export function tokenIndex(tokens: Int32Array): Int32Array {
  let vi = 0;
  for (const t of tokens) vi = Math.max(vi, t + 1);
  const count = new Int32Array(vi + 1);
  for (const t of tokens) if (t >= 0) count[t + 1]!++;
  for (let v = 0; v < vi; v++) count[v + 1]! += count[v]!;
  const out = new Int32Array(2 + vi + count[vi]!);
  out[0] = vi;
  out.set(count, 1);
  const at = count.slice(0, vi);
  tokens.forEach((t, r) => {
    if (t >= 0) out[2 + vi + at[t]!++] = r;
  });
  return out;
}

/** h = E[tok] + P[pos] ((B·L)×D). */
export function encodeEmbedForward(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  a: EmbedShape & { tok: BufView; pos: BufView; h: BufView; role?: string },
): void {
  // 8 elements per invocation (train-embedding.wgsl PER)
  const groups = Math.ceil((a.batch * a.seqLen * a.dim) / 8 / 64);
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
  a: EmbedShape & {
    dh: BufView;
    dTok: BufView;
    dPos: BufView;
    accumulate: boolean;
    /** tokenIndex of the batch's tokens */
    byToken: BufView;
    role?: string;
  },
): void {
  const role = a.role ?? 'train.embed.bwd';
  const acc = a.accumulate ? 1 : 0;
  const gt = Math.ceil((a.vocab * a.dim) / 64);
  encodePass(ctx, encoder, {
    shader: 'train-embedding',
    code,
    entry: 'dtok',
    role: `${role}.tok`,
    params: packParams([a.batch, a.seqLen, a.dim, a.vocab, gridX(gt, ctx), acc, 0, 0]),
    views: [null, a.dh, null, a.dTok, a.byToken],
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
