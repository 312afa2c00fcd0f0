/**
 * Dispatchers of the trainer's linear attention (src/shaders/train-linear-attention-*.wgsl),
 * forward and backward; bidirectional, causal and the local window. CPU twin:
 * src/core/train/linear-attention-train.ts `linearAttentionForward` / `linearAttentionBackward`
 * (same layouts: φq, φk (B·L)×(H·F), head h in columns h·F …; v, out (B·L)×(H·dh); den (B·L)×H).
 *
 * Causal attention runs as a chunked prefix scan: an exclusive prefix state per chunk of
 * laChunk rows plus the chunk's own rows densely (so no L×L matrix ever exists, and the work is
 * O(L·F·dh + L·CHUNK·F)); the backward runs the same scan in reverse (exclusive suffix states of
 * φq gᵀ) — the "reverse prefix scan". The window (Su's local truncation) is computed densely over
 * its band. Scratch buffers are allocator roles under `role` (states `.s`/`.r`, G `.g`).
 * The kernels take their register blocks (the states' 8 × 8, the outputs' and gradients' 4 × 8)
 * from train-block8.wgsl, prepended (after the row indexing) like train-linear-attention-common.wgsl.
 */
import rowsCode from '../../shaders/train-attention-rows.wgsl?raw';
import block8Code from '../../shaders/train-block8.wgsl?raw';
import common from '../../shaders/train-linear-attention-common.wgsl?raw';
import stateCode from '../../shaders/train-linear-attention-state.wgsl?raw';
import fwdCode from '../../shaders/train-linear-attention-forward.wgsl?raw';
import bwdCode from '../../shaders/train-linear-attention-backward.wgsl?raw';
import { EngineError } from '../../core/errors';
import type { KernelContext } from '../kernel-context';
import {
  bindAt,
  checkBinding,
  dummy,
  grid,
  pass,
  resolveView,
  words,
  type ResolvedView,
  type View,
} from './attn-common';

/**
 * Rows per causal chunk: the smallest of these whose chunk states fit LA_STATE_BUDGET bytes (the
 * dense part of a causal row spans at most a chunk, the states cost B·H·⌈L/chunk⌉·F·(dh+1)
 * floats). 16 halves the rows' work against 64 at the trainer's sizes.
 */
export const LA_CHUNKS = [16, 32, 64, 128, 256, 512, 1024] as const;
export const LA_STATE_BUDGET = 64 * 2 ** 20;

/** The causal chunk of a shape (see LA_CHUNKS). */
export function laChunk(s: { B: number; L: number; H: number; F: number; dh: number }): number {
  for (const c of LA_CHUNKS) {
    if (s.B * s.H * Math.ceil(s.L / c) * s.F * (s.dh + 1) * 4 <= LA_STATE_BUDGET) return c;
  }
  return LA_CHUNKS[LA_CHUNKS.length - 1];
}
/**
 * Rows per causal chunk as the kernels run it: the laChunk states evened out over the sequence
 * (⌈L / ⌈L / laChunk⌉⌉), rounded up to a multiple of 4 — the blocked kernels' 4 rows share a
 * chunk — so never above laChunk; ⌈L / chunk⌉ states.
 */
export function causalChunk(s: { B: number; L: number; H: number; F: number; dh: number }): number {
  return 4 * Math.ceil(Math.ceil(s.L / Math.ceil(s.L / laChunk(s))) / 4);
}
export const LA_MAX_L = 1024;
export const LA_MAX_DH = 256;
/** δ of the denominator (the shaders' DELTA). */
export const LA_DELTA = 1e-6;

const STATE_SRC = [rowsCode, block8Code, common, stateCode].join('\n');
const FWD_SRC = [rowsCode, block8Code, common, fwdCode].join('\n');
const BWD_SRC = [rowsCode, block8Code, common, bwdCode].join('\n');

export interface LinearAttentionShape {
  B: number;
  L: number;
  H: number;
  /** features per head */
  F: number;
  dh: number;
  causal: boolean;
  /** > 0: local window |i − j| < window (causal: i − window < j ≤ i), dense; 0: full */
  window: number;
}

export interface LinearAttentionForwardArgs extends LinearAttentionShape {
  phiQ: GPUBuffer;
  phiK: GPUBuffer;
  v: View;
  /** (B·L)×(H·dh) view (written) */
  out: View;
  /** (B·L)×H, den = Σ_j φq_i·φk_j + δ (written) */
  den: GPUBuffer;
  label?: string;
  /** uniform / scratch role prefix (default 'train.la.fwd') */
  role?: string;
}

export interface LinearAttentionBackwardArgs extends LinearAttentionShape {
  phiQ: GPUBuffer;
  phiK: GPUBuffer;
  v: View;
  /** den and out of the forward pass */
  den: GPUBuffer;
  out: View;
  dOut: View;
  /** gradients (written, not accumulated): dφq, dφk (B·L)×(H·F), dv a view */
  dPhiQ: GPUBuffer;
  dPhiK: GPUBuffer;
  dv: View;
  label?: string;
  /** uniform / scratch role prefix (default 'train.la.bwd') */
  role?: string;
}

type Mode = 0 | 1 | 2;

/**
 * Sequences up to this length run the full attention densely (as the window w = L, which admits
 * every j, or every j ≤ i when causal): at L ≤ 32 the L·(F + dh) dense work per row is below the
 * state's F·(dh + 1) and it saves the state passes (two forward, three backward on the causal path).
 */
export const LA_DENSE_MAX_L = 32;

function effectiveWindow(s: LinearAttentionShape): number {
  if (s.window > 0) return s.window;
  return s.L <= LA_DENSE_MAX_L ? s.L : 0;
}

function plan(ctx: KernelContext, s: LinearAttentionShape): { mode: Mode; nS: number; rows: number } {
  if (s.L > LA_MAX_L || s.dh > LA_MAX_DH)
    throw new EngineError(
      'exceeds-limit',
      `linear attention training kernels take L ≤ ${LA_MAX_L}, dh ≤ ${LA_MAX_DH} (got L ${s.L}, dh ${s.dh})`,
    );
  const mode: Mode = s.window > 0 ? 2 : s.causal ? 1 : 0;
  const nS = mode === 1 ? Math.ceil(s.L / causalChunk(s)) : 1;
  if (mode !== 2) checkBinding(ctx, s.B * s.H * nS * s.F * (s.dh + 1), 'linear attention state');
  checkBinding(ctx, s.B * s.L * s.H * s.F, 'linear attention features');
  return { mode, nS, rows: s.B * s.H * s.L };
}

interface Extra {
  /** the blocked kernels' scratch row length (blockSpan) */
  span?: number;
  smode?: number;
  y?: { off: number; ld: number; hs: number; ones: boolean };
  v?: ResolvedView;
  o?: ResolvedView;
  dO?: ResolvedView;
  dv?: ResolvedView;
}

function uniformWords(s: LinearAttentionShape, mode: Mode, nS: number, gx: number, e: Extra): Uint32Array {
  return words([
    s.B, s.L, s.H, s.F,
    s.dh, s.dh + 1, mode, s.causal ? 1 : 0,
    s.window, mode === 1 ? causalChunk(s) : s.L, nS, gx,
    e.smode ?? 0, e.y?.off ?? 0, e.y?.ld ?? 0, e.y?.hs ?? 0,
    e.y?.ones ? 1 : 0, e.v?.offset ?? 0, e.v?.stride ?? 0, e.o?.offset ?? 0,
    e.o?.stride ?? 0, e.dO?.offset ?? 0, e.dO?.stride ?? 0, e.dv?.offset ?? 0,
    e.dv?.stride ?? 0, e.span ?? 0, 0, 0,
  ]); // prettier-ignore
}

/**
 * Row length of the dense scratch of the blocked row / column kernels: the union of the dense
 * ranges of 4 consecutive rows (or keys) — a causal chunk (a multiple of 4, so a block never spans
 * two), at most 2·window + 2 columns for the window (window + 3 causal), none bidirectional.
 */
export function blockSpan(s: LinearAttentionShape, mode: Mode): number {
  if (mode === 0) return 1;
  if (mode === 1) return causalChunk(s);
  return Math.min(s.L, s.causal ? s.window + 3 : 2 * s.window + 2);
}

/** Dense scratch rows (B·H·L·span floats) of the blocked kernels under `role`. */
function blockScratch(ctx: KernelContext, s: LinearAttentionShape, mode: Mode, role: string): GPUBuffer {
  const n = s.B * s.H * s.L * blockSpan(s, mode);
  checkBinding(ctx, n, 'linear attention scratch');
  return ctx.alloc.storage(role, n * 4);
}

/** One `state` pass: St = Σ X Yᵀ over the whole sequence (smode 0), exclusive prefixes (1) or suffixes (2). */
function encodeState(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  s: LinearAttentionShape,
  mode: Mode,
  nS: number,
  smode: number,
  x: GPUBuffer,
  y: { buffer: GPUBuffer; off: number; ld: number; hs: number; ones: boolean },
  st: GPUBuffer,
  role: string,
  label: string,
): void {
  // one invocation per 8 × 8 block of (f, c) (train-linear-attention-state.wgsl)
  const threads = s.B * s.H * Math.ceil(s.F / 8) * Math.ceil((s.dh + 1) / 8);
  const g = grid(ctx, Math.ceil(threads / 64), 'linear attention state');
  const uniform = ctx.alloc.uniform(role, uniformWords(s, mode, nS, g[0], { smode, y }));
  const p = ctx.pipelines.pipeline('train-linear-attention-state', STATE_SRC, 'state');
  const bind = bindAt(
    ctx,
    p,
    [
      [0, uniform],
      [1, x],
      [2, y.buffer],
      [3, st],
    ],
    'train-la-state',
  );
  pass(ctx, encoder, label, p, bind, g);
}

function forwardState(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  a: LinearAttentionForwardArgs | LinearAttentionBackwardArgs,
  mode: Mode,
  nS: number,
  role: string,
  label: string,
): GPUBuffer {
  const v = resolveView(a.v, a.H * a.dh);
  // the window has no state; its kernels still declare the binding (a uniform branch skips it)
  if (mode === 2) return dummy(ctx);
  const st = ctx.alloc.storage(`${role}.s`, a.B * a.H * nS * a.F * (a.dh + 1) * 4);
  encodeState(
    ctx,
    encoder,
    a,
    mode,
    nS,
    mode === 1 ? 1 : 0,
    a.phiK,
    { buffer: v.buffer, off: v.offset, ld: v.stride, hs: a.dh, ones: true },
    st,
    `${role}.s.u`,
    `${label} state`,
  );
  return st;
}

/** out, den of linear attention. Passes: state (not for the window), rows. */
export function encodeLinearAttentionForward(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  args: LinearAttentionForwardArgs,
): void {
  const a = { ...args, window: effectiveWindow(args) };
  const { mode, nS, rows } = plan(ctx, a);
  if (rows === 0) return;
  const role = a.role ?? 'train.la.fwd';
  const label = a.label ?? 'train linear attention fwd';
  const D = a.H * a.dh;
  const v = resolveView(a.v, D);
  const o = resolveView(a.out, D);
  const st = forwardState(ctx, encoder, a, mode, nS, role, label);
  // one invocation per block of 4 rows (attn_block)
  const g = grid(ctx, Math.ceil((a.B * a.H * Math.ceil(a.L / 4)) / 64), 'linear attention forward');
  const span = blockSpan(a, mode);
  const uniform = ctx.alloc.uniform(role, uniformWords(a, mode, nS, g[0], { v, o, span }));
  const p = ctx.pipelines.pipeline('train-linear-attention-forward', FWD_SRC, 'main');
  const entries: [number, GPUBuffer][] = [
    [0, uniform],
    [8, a.phiQ],
    [9, a.phiK],
    [10, v.buffer],
    [11, o.buffer],
    [12, a.den],
    [17, blockScratch(ctx, a, mode, `${role}.a`)],
  ];
  entries.push([3, st]);
  pass(ctx, encoder, `${label} rows`, p, bindAt(ctx, p, entries, 'train-la-fwd'), g);
}

/**
 * dφq, dφk, dv of linear attention. Passes: forward state S, G = [dOut/den, −dOut·out/den],
 * reverse state R (both skipped for the window), rows (dφq), cols (dφk, dv).
 */
export function encodeLinearAttentionBackward(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  args: LinearAttentionBackwardArgs,
): void {
  const a = { ...args, window: effectiveWindow(args) };
  const { mode, nS, rows } = plan(ctx, a);
  if (rows === 0) return;
  const role = a.role ?? 'train.la.bwd';
  const label = a.label ?? 'train linear attention bwd';
  const D = a.H * a.dh;
  const nc = a.dh + 1;
  const v = resolveView(a.v, D);
  const o = resolveView(a.out, D);
  const dO = resolveView(a.dOut, D);
  const dv = resolveView(a.dv, D);
  const st = forwardState(ctx, encoder, a, mode, nS, role, label);

  const gbuf = ctx.alloc.storage(`${role}.g`, a.B * a.L * a.H * nc * 4);
  const gg = grid(ctx, Math.ceil((a.B * a.L * a.H) / 64), 'linear attention G');
  const ug = ctx.alloc.uniform(`${role}.g.u`, uniformWords(a, mode, nS, gg[0], { o, dO }));
  const pg = ctx.pipelines.pipeline('train-linear-attention-state', STATE_SRC, 'gext');
  pass(ctx, encoder, `${label} G`, pg, bindAt(ctx, pg, [[0, ug], [4, o.buffer], [5, dO.buffer], [6, a.den], [7, gbuf]], 'train-la-g'), gg); // prettier-ignore

  const rt = mode === 2 ? dummy(ctx) : ctx.alloc.storage(`${role}.r`, a.B * a.H * nS * a.F * nc * 4);
  if (mode !== 2)
    encodeState(ctx, encoder, a, mode, nS, mode === 1 ? 2 : 0, a.phiQ, { buffer: gbuf, off: 0, ld: a.H * nc, hs: nc, ones: false }, rt, `${role}.r.u`, `${label} reverse state`); // prettier-ignore

  const g = grid(ctx, Math.ceil((a.B * a.H * Math.ceil(a.L / 4)) / 64), 'linear attention backward');
  const uniform = ctx.alloc.uniform(role, uniformWords(a, mode, nS, g[0], { v, dv, span: blockSpan(a, mode) }));
  // dense scratch rows: rows' da (then cols' a), cols' da
  const sa = blockScratch(ctx, a, mode, `${role}.sa`);
  const sd = blockScratch(ctx, a, mode, `${role}.sd`);
  const pr = ctx.pipelines.pipeline('train-linear-attention-backward', BWD_SRC, 'rows');
  const er: [number, GPUBuffer][] = [
    [0, uniform],
    [7, gbuf],
    [9, a.phiK],
    [10, v.buffer],
    [13, a.dPhiQ],
    [18, sa],
  ];
  er.push([3, st]);
  pass(ctx, encoder, `${label} rows`, pr, bindAt(ctx, pr, er, 'train-la-bwd-rows'), g);
  const pc = ctx.pipelines.pipeline('train-linear-attention-backward', BWD_SRC, 'cols');
  const ec: [number, GPUBuffer][] = [
    [0, uniform],
    [7, gbuf],
    [8, a.phiQ],
    [9, a.phiK],
    [10, v.buffer],
    [14, a.dPhiK],
    [15, dv.buffer],
    [17, sa],
    [18, sd],
  ];
  ec.push([3, rt]);
  pass(ctx, encoder, `${label} cols`, pc, bindAt(ctx, pc, ec, 'train-la-bwd-cols'), g);
}

export interface LinearAttentionMapArgs {
  B: number;
  L: number;
  H: number;
  F: number;
  causal: boolean;
  window: number;
  phiQ: GPUBuffer;
  phiK: GPUBuffer;
  /** den of the forward pass */
  den: GPUBuffer;
  /** B·H·L·L (P's layout), written: Â_ij = φq_i·φk_j / den_i where allowed, else 0 */
  out: GPUBuffer;
  label?: string;
  role?: string;
}

/**
 * The L×L matrices linear attention actually uses (the panel's attention maps), in P's layout so
 * the trainer reads softmax and linear maps alike. Twin: core/train/attention-layer.ts
 * `attentionMatrices`. Only for display: it is the L×L matrix the training kernels avoid.
 */
export function encodeLinearAttentionMap(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  a: LinearAttentionMapArgs,
): void {
  const n = a.B * a.H * a.L * a.L;
  if (n === 0) return;
  checkBinding(ctx, n, 'linear attention map');
  const mode: Mode = a.window > 0 ? 2 : a.causal ? 1 : 0;
  const g = grid(ctx, Math.ceil(n / 64), 'linear attention map');
  const shape = { ...a, dh: 0 };
  const uniform = ctx.alloc.uniform(a.role ?? 'train.la.map', uniformWords(shape, mode, 1, g[0], {}));
  const p = ctx.pipelines.pipeline('train-linear-attention-forward', FWD_SRC, 'amap');
  const entries: [number, GPUBuffer][] = [
    [0, uniform],
    [8, a.phiQ],
    [9, a.phiK],
    [12, a.den],
    [16, a.out],
  ];
  pass(ctx, encoder, a.label ?? 'train linear attention map', p, bindAt(ctx, p, entries, 'train-la-map'), g);
}
