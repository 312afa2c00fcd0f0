/**
 * Dispatchers of the trainer's softmax attention (src/shaders/train-softmax-attention-forward.wgsl,
 * -backward.wgsl). CPU twins: src/core/train/softmax-attention.ts `softmaxAttentionForward` /
 * `softmaxAttentionBackward` (same layouts: Q, K, V, out (B·L)×(H·dh), head h in columns h·dh …;
 * P is B·H·L·L). The forward keeps P for the backward pass and for the attention maps the panel
 * shows; the backward goes through a dS scratch of P's shape (allocator role `${role}.ds`).
 * Both passes share one uniform layout, the row indexing and the 8 × 8 register block
 * (train-softmax-attention-common.wgsl, train-attention-rows.wgsl, train-block8.wgsl, prepended to
 * each).
 */
import rowsCode from '../../shaders/train-attention-rows.wgsl?raw';
import block8Code from '../../shaders/train-block8.wgsl?raw';
import commonCode from '../../shaders/train-softmax-attention-common.wgsl?raw';
import fwdShader from '../../shaders/train-softmax-attention-forward.wgsl?raw';
import bwdShader from '../../shaders/train-softmax-attention-backward.wgsl?raw';
import { EngineError } from '../../core/errors';
import type { KernelContext } from '../kernel-context';
import { aliasWritable, bindAt, checkBinding, grid, pass, resolveView, words, type View } from './attn-common';

const fwdCode = [rowsCode, block8Code, commonCode, fwdShader].join('\n');
const bwdCode = [rowsCode, block8Code, commonCode, bwdShader].join('\n');

/** `cols` writing dV through dK's binding (dK and dV views of one buffer). */
const bwdShared = aliasWritable(bwdCode, 'dV', 'dK');

/** The longest sequence (the model's limit; P is B·H·L² floats). */
export const SOFTMAX_MAX_L = 1024;
/** The widest head (D ≤ 256). */
export const SOFTMAX_MAX_DH = 256;

export interface SoftmaxAttentionShape {
  B: number;
  L: number;
  H: number;
  dh: number;
  causal: boolean;
}

export interface SoftmaxAttentionForwardArgs extends SoftmaxAttentionShape {
  q: View;
  k: View;
  v: View;
  /** output (B·L)×(H·dh) (written) */
  out: View;
  /** P, B·H·L·L f32 (written, dense) */
  p: GPUBuffer;
  label?: string;
  /** uniform role (default 'train.sm.fwd'); give distinct roles to calls encoded into one encoder */
  role?: string;
}

export interface SoftmaxAttentionBackwardArgs extends SoftmaxAttentionShape {
  q: View;
  k: View;
  v: View;
  /** P from the forward pass */
  p: GPUBuffer;
  dOut: View;
  /** gradients (written, not accumulated) */
  dq: View;
  dk: View;
  dv: View;
  label?: string;
  /** uniform and scratch role prefix (default 'train.sm.bwd') */
  role?: string;
  /** dS scratch (B·H·L·L f32); default: the allocator's `${role}.ds` */
  ds?: GPUBuffer;
}

function check(ctx: KernelContext, s: SoftmaxAttentionShape): number {
  if (s.L > SOFTMAX_MAX_L || s.dh > SOFTMAX_MAX_DH)
    throw new EngineError(
      'exceeds-limit',
      `softmax attention training kernels take L ≤ ${SOFTMAX_MAX_L}, dh ≤ ${SOFTMAX_MAX_DH} (got L ${s.L}, dh ${s.dh})`,
    );
  const pFloats = s.B * s.H * s.L * s.L;
  checkBinding(ctx, pFloats, 'softmax attention P');
  return s.B * s.H * s.L;
}

/**
 * The views, grid and uniform words of a pass (train-softmax-attention-common.wgsl's Params): `o`
 * is the forward's output or the backward's dOut; `grads` dQ, dK, dV (backward; zeros otherwise).
 */
function prepare(
  ctx: KernelContext,
  a: SoftmaxAttentionShape & { q: View; k: View; v: View },
  oView: View,
  what: string,
  grads: readonly ReturnType<typeof resolveView>[] = [],
) {
  const D = a.H * a.dh;
  const q = resolveView(a.q, D);
  const k = resolveView(a.k, D);
  const v = resolveView(a.v, D);
  const o = resolveView(oView, D);
  // one invocation per block of 8 rows (or keys) in workgroups of 16 (attn_block8 in train-attention-rows.wgsl)
  const g = grid(ctx, Math.ceil((a.B * a.H * Math.ceil(a.L / 8)) / 16), what);
  const [dq, dk, dv] = grads;
  const u = words([
    a.B, a.L, a.H, a.dh,
    a.causal ? 1 : 0, g[0], { f32: 1 / Math.sqrt(a.dh) }, 0,
    q.offset, q.stride, k.offset, k.stride,
    v.offset, v.stride, o.offset, o.stride,
    dq?.offset ?? 0, dq?.stride ?? 0, dk?.offset ?? 0, dk?.stride ?? 0,
    dv?.offset ?? 0, dv?.stride ?? 0, 0, 0,
  ]); // prettier-ignore
  return { q, k, v, o, g, u };
}

/** out = softmax(QKᵀ/√dh [causal mask]) V per head; writes P. One pass. */
export function encodeSoftmaxAttentionForward(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  a: SoftmaxAttentionForwardArgs,
): void {
  const rows = check(ctx, a);
  if (rows === 0 || a.dh === 0) return;
  const { q, k, v, o, g, u } = prepare(ctx, a, a.out, 'softmax attention forward');
  const uniform = ctx.alloc.uniform(a.role ?? 'train.sm.fwd', u);
  const pipeline = ctx.pipelines.pipeline('train-softmax-attention-forward', fwdCode, 'main');
  const bind = bindAt(
    ctx,
    pipeline,
    [
      [0, uniform],
      [1, q.buffer],
      [2, k.buffer],
      [3, v.buffer],
      [4, o.buffer],
      [5, a.p],
    ],
    'train-sm-fwd',
  );
  pass(ctx, encoder, a.label ?? 'train softmax attention fwd', pipeline, bind, g);
}

/** dQ, dK, dV of softmax attention from P and dOut. Two passes (rows: dS and dQ; cols: dK, dV). */
export function encodeSoftmaxAttentionBackward(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  a: SoftmaxAttentionBackwardArgs,
): void {
  const rows = check(ctx, a);
  if (rows === 0 || a.dh === 0) return;
  const D = a.H * a.dh;
  const dq = resolveView(a.dq, D);
  const dk = resolveView(a.dk, D);
  const dv = resolveView(a.dv, D);
  // blocks of 8 rows (rows) or keys (cols): attn_block8
  const { q, k, v, o: dO, g, u } = prepare(ctx, a, a.dOut, 'softmax attention backward', [dq, dk, dv]);
  const role = a.role ?? 'train.sm.bwd';
  const ds = a.ds ?? ctx.alloc.storage(`${role}.ds`, a.B * a.H * a.L * a.L * 4);
  const uniform = ctx.alloc.uniform(role, u);
  const rowsP = ctx.pipelines.pipeline('train-softmax-attention-backward', bwdCode, 'rows');
  const shared = dk.buffer === dv.buffer;
  const colsP = shared
    ? ctx.pipelines.pipeline('train-softmax-attention-backward-shared', bwdShared, 'cols')
    : ctx.pipelines.pipeline('train-softmax-attention-backward', bwdCode, 'cols');
  const label = a.label ?? 'train softmax attention bwd';
  pass(
    ctx,
    encoder,
    `${label} rows`,
    rowsP,
    bindAt(
      ctx,
      rowsP,
      [
        [0, uniform],
        [2, k.buffer],
        [3, v.buffer],
        [4, a.p],
        [5, dO.buffer],
        [6, ds],
        [7, dq.buffer],
      ],
      'train-sm-bwd-rows',
    ),
    g,
  );
  pass(
    ctx,
    encoder,
    `${label} cols`,
    colsP,
    bindAt(
      ctx,
      colsP,
      [
        [0, uniform],
        [1, q.buffer],
        [4, a.p],
        [5, dO.buffer],
        [6, ds],
        [8, dk.buffer],
        ...(shared ? [] : [[9, dv.buffer] as const]),
      ],
      'train-sm-bwd-cols',
    ),
    g,
  );
}
