/**
 * Dispatchers of the trainer's feature maps φ (src/shaders/train-feature-maps.wgsl, the positive
 * map's blocked entries in train-feature-maps-positive.wgsl), forward and
 * backward, all heads in one pass. CPU twin: src/core/train/feature-map-grad.ts `featureForward` /
 * `featureBackward`, which works on one head's slice x (rows×dh); here x is a strided view of the
 * whole (B·L)×(H·dh) Q or K and φ is (B·L)×(H·F), head h in columns h·F … — the layout
 * linear-attention.ts reads. Parameters are per head, stacked: FAVOR+ W is H×m×dh, Hedgehog's Wh
 * H×dh×m and bh H×m (views, so they can live in a flat parameter buffer).
 */
import baseCode from '../../shaders/train-feature-maps.wgsl?raw';
import posCode from '../../shaders/train-feature-maps-positive.wgsl?raw';
import { EngineError } from '../../core/errors';
import type { TrainFeatureMap } from '../../core/train/types';
import type { KernelContext } from '../kernel-context';
import {
  aliasWritable,
  bindAt,
  checkBinding,
  dummy,
  dummyRw,
  grid,
  pass,
  resolveView,
  words,
  type View,
} from './attn-common';

/** Every map's entries; the positive map's blocked ones in their own file. */
const code = [baseCode, posCode].join('\n');
/** `hedgehog_params` writing dbh through dWh's binding (both views of one gradient buffer). */
const sharedCode = aliasWritable(code, 'dB', 'dW');

const MAP_ID: Record<TrainFeatureMap, number> = {
  positive: 0,
  elu1: 1,
  relu: 2,
  taylor2: 3,
  cosformer: 4,
  hedgehog: 5,
};

/** m ≤ this for positive and hedgehog. */
export const FEATURE_MAX_M = 1024;
export const FEATURE_MAX_DH = 256;

/** Features per head: positive m; elu1, relu dh; taylor2 1 + dh + dh²; cosformer 2dh; hedgehog 2m. */
export function featureCount(map: TrainFeatureMap, m: number, dh: number): number {
  switch (map) {
    case 'positive':
      return m;
    case 'elu1':
    case 'relu':
      return dh;
    case 'taylor2':
      return 1 + dh + dh * dh;
    case 'cosformer':
      return 2 * dh;
    case 'hedgehog':
      return 2 * m;
  }
}

export interface FeatureMapShape {
  map: TrainFeatureMap;
  B: number;
  L: number;
  H: number;
  dh: number;
  /** random features (positive) / hedgehog width; ignored by the other maps */
  m: number;
  side: 'query' | 'key';
}

export interface FeatureForwardArgs extends FeatureMapShape {
  /** Q or K, (B·L)×(H·dh) view */
  x: View;
  /** positive: W (H×m×dh, offset in elements); hedgehog: Wh (H×dh×m) */
  w?: View;
  /** hedgehog: bh (H×m) */
  b?: View;
  /** output φ, (B·L)×(H·F) dense (written) */
  phi: GPUBuffer;
  label?: string;
  /** uniform / scratch role prefix (default 'train.fm.fwd') */
  role?: string;
}

export interface FeatureBackwardArgs extends FeatureMapShape {
  x: View;
  w?: View;
  /** φ from the forward pass and dφ, both (B·L)×(H·F) */
  phi: GPUBuffer;
  dPhi: GPUBuffer;
  /** dx, (B·L)×(H·dh) view (written) */
  dx: View;
  /** hedgehog: dWh (H×dh×m) and dbh (H×m) views (written) */
  dw?: View;
  db?: View;
  label?: string;
  /** uniform / scratch role prefix (default 'train.fm.bwd') */
  role?: string;
}

function check(ctx: KernelContext, s: FeatureMapShape): number {
  if (s.dh > FEATURE_MAX_DH) throw new EngineError('exceeds-limit', `feature maps take dh ≤ ${FEATURE_MAX_DH}`);
  if ((s.map === 'positive' || s.map === 'hedgehog') && (s.m < 1 || s.m > FEATURE_MAX_M))
    throw new EngineError('exceeds-limit', `${s.map} takes 1 ≤ m ≤ ${FEATURE_MAX_M} (got ${s.m})`);
  const F = featureCount(s.map, s.m, s.dh);
  checkBinding(ctx, s.B * s.L * s.H * F, 'feature map φ');
  return F;
}

/** cosformer's (cos, sin)(πt / 2L) per position t, in f64 rounded once (the shader reads them). */
function trigTable(ctx: KernelContext, map: TrainFeatureMap, L: number, role: string): GPUBuffer {
  if (map !== 'cosformer') return dummy(ctx);
  const t = new Float32Array(2 * L);
  for (let i = 0; i < L; i++) {
    const a = (Math.PI * i) / (2 * L);
    t[2 * i] = Math.cos(a);
    t[2 * i + 1] = Math.sin(a);
  }
  return ctx.alloc.upload(`${role}.trig`, t);
}

function needsW(map: TrainFeatureMap): boolean {
  return map === 'positive' || map === 'hedgehog';
}

function paramView(ctx: KernelContext, map: TrainFeatureMap, v: View | undefined, what: string) {
  if (!v) {
    if (needsW(map)) throw new EngineError('shape-mismatch', `feature map ${map} needs ${what}`);
    return { buffer: dummy(ctx), offset: 0, stride: 0 };
  }
  return resolveView(v, 0);
}

function uniformWords(s: FeatureMapShape, F: number, gx: number, o: Record<string, number>): Uint32Array {
  return words([
    s.B * s.L, s.L, s.H, s.dh,
    F, s.m, MAP_ID[s.map], s.side === 'key' ? 1 : 0,
    o.offX!, o.ldX!, o.offW ?? 0, o.offB ?? 0,
    o.offDx ?? 0, o.ldDx ?? 0, o.offDw ?? 0, o.offDb ?? 0,
    gx, s.B, 0, 0,
  ]); // prettier-ignore
}

/** φ(x) for every head. Positive keys: two extra passes (the per-(b, h) shift, then exp). */
export function encodeFeatureForward(ctx: KernelContext, encoder: GPUCommandEncoder, a: FeatureForwardArgs): void {
  const F = check(ctx, a);
  const rows = a.B * a.L;
  if (rows === 0 || a.H === 0) return;
  const role = a.role ?? 'train.fm.fwd';
  const x = resolveView(a.x, a.H * a.dh);
  const w = paramView(ctx, a.map, a.w, 'w');
  const b = a.map === 'hedgehog' ? paramView(ctx, a.map, a.b, 'b') : { buffer: dummy(ctx), offset: 0, stride: 0 };
  const keyShift = a.map === 'positive' && a.side === 'key';
  const rowMax = keyShift ? ctx.alloc.storage(`${role}.rowmax`, rows * a.H * 4) : dummyRw(ctx);
  const label = a.label ?? `train φ ${a.map} ${a.side}`;
  const offs = { offX: x.offset, ldX: x.stride, offW: w.offset, offB: b.offset };
  const g = grid(ctx, Math.ceil((rows * a.H) / 64), 'feature forward');
  const uniform = ctx.alloc.uniform(role, uniformWords(a, F, g[0], offs));
  if (a.map === 'positive') {
    // blocks of 4 rows (forward_pos)
    const gp = grid(ctx, Math.ceil((Math.ceil(rows / 4) * a.H) / 64), 'feature forward');
    const up = ctx.alloc.uniform(`${role}.pos`, uniformWords(a, F, gp[0], offs));
    const pp = ctx.pipelines.pipeline('train-feature-maps', code, 'forward_pos');
    const entries: [number, GPUBuffer][] = [
      [0, up],
      [1, x.buffer],
      [2, w.buffer],
      [4, a.phi],
      [13, rowMax],
    ];
    pass(ctx, encoder, label, pp, bindAt(ctx, pp, entries, 'train-fm-fwd-pos'), gp);
  } else {
    const p = ctx.pipelines.pipeline('train-feature-maps', code, 'forward');
    const bind = bindAt(
      ctx,
      p,
      [
        [0, uniform],
        [1, x.buffer],
        [2, w.buffer],
        [3, b.buffer],
        [4, a.phi],
        [12, trigTable(ctx, a.map, a.L, role)],
      ],
      'train-fm-fwd',
    );
    pass(ctx, encoder, label, p, bind, g);
  }
  if (!keyShift) return;
  const shift = ctx.alloc.storage(`${role}.shift`, a.B * a.H * 4);
  const gs = grid(ctx, Math.ceil((a.B * a.H) / 64), 'feature key shift');
  const us = ctx.alloc.uniform(`${role}.shift.u`, uniformWords(a, F, gs[0], offs));
  const ps = ctx.pipelines.pipeline('train-feature-maps', code, 'key_shift');
  pass(ctx, encoder, `${label} shift`, ps, bindAt(ctx, ps, [[0, us], [5, shift], [13, rowMax]], 'train-fm-shift'), gs); // prettier-ignore
  const pa = ctx.pipelines.pipeline('train-feature-maps', code, 'key_apply');
  pass(ctx, encoder, `${label} exp`, pa, bindAt(ctx, pa, [[0, uniform], [4, a.phi], [5, shift]], 'train-fm-apply'), g); // prettier-ignore
}

/** dx = (∂φ/∂x)ᵀ dφ for every head; hedgehog also dWh, dbh (one extra pass over the rows). */
export function encodeFeatureBackward(ctx: KernelContext, encoder: GPUCommandEncoder, a: FeatureBackwardArgs): void {
  const F = check(ctx, a);
  const rows = a.B * a.L;
  if (rows === 0 || a.H === 0) return;
  const role = a.role ?? 'train.fm.bwd';
  const x = resolveView(a.x, a.H * a.dh);
  const dx = resolveView(a.dx, a.H * a.dh);
  const w = paramView(ctx, a.map, a.w, 'w');
  const hh = a.map === 'hedgehog';
  const du = hh ? ctx.alloc.storage(`${role}.du`, rows * a.H * a.m * 4) : dummyRw(ctx);
  const label = a.label ?? `train φ ${a.map} ${a.side} bwd`;
  const base = { offX: x.offset, ldX: x.stride, offW: w.offset, offDx: dx.offset, ldDx: dx.stride };
  if (a.map === 'positive') {
    // blocks of 4 rows (backward_pos)
    const gp = grid(ctx, Math.ceil((Math.ceil(rows / 4) * a.H) / 64), 'feature backward');
    const up = ctx.alloc.uniform(role, uniformWords(a, F, gp[0], base));
    const pp = ctx.pipelines.pipeline('train-feature-maps', code, 'backward_pos');
    const entries: [number, GPUBuffer][] = [
      [0, up],
      [1, x.buffer],
      [2, w.buffer],
      [6, a.phi],
      [7, a.dPhi],
      [8, dx.buffer],
    ];
    pass(ctx, encoder, label, pp, bindAt(ctx, pp, entries, 'train-fm-bwd-pos'), gp);
    return;
  }
  const g = grid(ctx, Math.ceil((rows * a.H) / 64), 'feature backward');
  const uniform = ctx.alloc.uniform(role, uniformWords(a, F, g[0], base));
  const p = ctx.pipelines.pipeline('train-feature-maps', code, 'backward');
  const bind = bindAt(
    ctx,
    p,
    [
      [0, uniform],
      [1, x.buffer],
      [2, w.buffer],
      [6, a.phi],
      [7, a.dPhi],
      [8, dx.buffer],
      [9, du],
      [12, trigTable(ctx, a.map, a.L, role)],
    ],
    'train-fm-bwd',
  );
  pass(ctx, encoder, label, p, bind, g);
  if (!hh) return;
  if (!a.dw || !a.db) throw new EngineError('shape-mismatch', 'hedgehog backward needs dw and db');
  const dw = resolveView(a.dw, 0);
  const db = resolveView(a.db, 0);
  const threads = a.H * (a.dh + 1) * a.m;
  const g2 = grid(ctx, Math.ceil(threads / 64), 'hedgehog parameter gradients');
  const u2 = ctx.alloc.uniform(
    `${role}.params.u`,
    uniformWords(a, F, g2[0], { ...base, offDw: dw.offset, offDb: db.offset }),
  );
  const shared = dw.buffer === db.buffer;
  const p2 = shared
    ? ctx.pipelines.pipeline('train-feature-maps-shared', sharedCode, 'hedgehog_params')
    : ctx.pipelines.pipeline('train-feature-maps', code, 'hedgehog_params');
  const bind2 = bindAt(
    ctx,
    p2,
    [[0, u2], [1, x.buffer], [9, du], [10, dw.buffer], ...(shared ? [] : [[11, db.buffer] as const])],
    'train-fm-hh-params',
  );
  pass(ctx, encoder, `${label} params`, p2, bind2, g2);
}
