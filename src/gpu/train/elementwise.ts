/**
 * GELU (tanh approximation) forward / backward and the residual add (src/shaders/train-gelu.wgsl;
 * CPU twin src/core/train/gelu.ts).
 */
import code from '../../shaders/train-gelu.wgsl?raw';
import type { KernelContext } from '../kernel-context';
import { encodePass, gridX, packParams, type BufView } from './common';

function pass(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  entry: 'forward' | 'backward' | 'add',
  n: number,
  x: BufView,
  dy: BufView,
  y: BufView,
  accumulate: boolean,
  role: string,
): void {
  const groups = Math.ceil(n / 64);
  encodePass(ctx, encoder, {
    shader: 'train-gelu',
    code,
    entry,
    role,
    params: packParams([n, gridX(groups, ctx), accumulate ? 1 : 0, 0]),
    views: [x, dy, y],
    groups,
  });
}

/** y = GELU(x) over n elements. */
export function encodeGeluForward(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  a: { x: BufView; y: BufView; n: number; role?: string },
): void {
  pass(ctx, encoder, 'forward', a.n, a.x, a.x, a.y, false, a.role ?? 'train.gelu.fwd');
}

/** dx (+)= dy ⊙ GELU′(x). */
export function encodeGeluBackward(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  a: { x: BufView; dy: BufView; dx: BufView; n: number; accumulate?: boolean; role?: string },
): void {
  pass(ctx, encoder, 'backward', a.n, a.x, a.dy, a.dx, a.accumulate ?? false, a.role ?? 'train.gelu.bwd');
}

/** y (+)= a + b: the residual add. */
export function encodeAdd(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  a: { a: BufView; b: BufView; y: BufView; n: number; accumulate?: boolean; role?: string },
): void {
  pass(ctx, encoder, 'add', a.n, a.a, a.b, a.y, a.accumulate ?? false, a.role ?? 'train.add');
}
