// In-page driver for e2e/train-attention-kernels.spec.mjs: runs the trainer's attention kernels
// (src/gpu/train/softmax-attention.ts, feature-maps.ts, linear-attention.ts) on SwiftShader next to
// their CPU twins (src/core/train/softmax-attention.ts, feature-map-grad.ts,
// linear-attention-train.ts), forward and backward, and returns one error summary per output.
// The twins run in f64 on the f32 inputs the GPU gets; backward kernels get the twin's forward
// results (rounded to f32) as their saved tensors, so each comparison isolates one kernel.
// maxAbs = max |gpu − twin|; maxRel = maxAbs / max |twin|; ok = every entry within
// ATOL·max|twin| + RTOL·|twin| (f32 sums vs the twin's f64 sums; + LINEAR_DPHI_FLOOR for dφ).
import { sliceCols, putCols, type Arr } from '../../src/core/train/arr';
import { featureBackward, featureCount, featureForward, type FeatureOpts } from '../../src/core/train/feature-map-grad';
import { linearAttentionBackward, linearAttentionForward } from '../../src/core/train/linear-attention-train';
import { softmaxAttentionBackward, softmaxAttentionForward } from '../../src/core/train/softmax-attention';
import { attentionMatrices } from '../../src/core/train/attention-layer';
import { distillHead } from '../../src/core/train/hedgehog-distill';
import type { AttentionSpec, TrainFeatureMap } from '../../src/core/train/types';
import { createRng, type Rng } from '../../src/core/rng';
import type { KernelContext } from '../../src/gpu/kernel-context';
import { readFloats } from '../../src/gpu/readback';
import { encodeFeatureBackward, encodeFeatureForward } from '../../src/gpu/train/feature-maps';
import { encodeHedgehogDistill } from '../../src/gpu/train/hedgehog-distill';
import {
  encodeLinearAttentionBackward,
  encodeLinearAttentionForward,
  encodeLinearAttentionMap,
} from '../../src/gpu/train/linear-attention';
import { encodeSoftmaxAttentionBackward, encodeSoftmaxAttentionForward } from '../../src/gpu/train/softmax-attention';
import { pageKernelContext } from './train-gpu';

export const ATOL = 2e-5;
export const RTOL = 2e-4;
/**
 * dφ of linear attention is a difference of O(1) terms (S g against z·(g·out)); where the
 * attention row is nearly fixed (L = 1: Â = 1 whatever φ is) the true gradient is O(δ) and f32
 * resolves it only to ~1e-7 of the terms, so the check there is absolute (inputs are O(1)).
 */
export const LINEAR_DPHI_FLOOR = 1e-6;

const ctx = pageKernelContext;

interface Err {
  name: string;
  maxAbs: number;
  maxRel: number;
  ok: boolean;
}

function compare(name: string, got: Float32Array, want: Arr, floor = 0): Err {
  let maxRef = 0;
  for (let i = 0; i < want.length; i++) maxRef = Math.max(maxRef, Math.abs(want[i]!));
  let maxAbs = 0;
  let ok = got.length >= want.length;
  for (let i = 0; i < want.length; i++) {
    const e = Math.abs(got[i]! - want[i]!);
    if (!(e <= ATOL * maxRef + RTOL * Math.abs(want[i]!) + floor + 1e-12)) ok = false;
    if (!(e <= maxAbs)) maxAbs = e;
  }
  return { name, maxAbs, maxRel: maxRef > 0 ? maxAbs / maxRef : maxAbs, ok };
}

const normal = (rng: Rng, n: number, std = 1) => rng.fillNormal(new Float32Array(n), std);
const f64 = (x: Float32Array) => Float64Array.from(x);
const f32 = (x: Arr) => Float32Array.from(x);

/** rows×cols `x` placed in a buffer at element (r, c) = off + r·stride + c (other entries NaN, so stray reads show). */
function embed(x: Float32Array, rows: number, cols: number, off: number, stride: number): Float32Array {
  const out = new Float32Array(off + Math.max(0, rows - 1) * stride + cols + 1).fill(Number.NaN);
  for (let r = 0; r < rows; r++) out.set(x.subarray(r * cols, (r + 1) * cols), off + r * stride);
  return out;
}

function extract(x: Float32Array, rows: number, cols: number, off: number, stride: number): Float32Array {
  const out = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) out.set(x.subarray(off + r * stride, off + r * stride + cols), r * cols);
  return out;
}

async function scopeOk(c: KernelContext) {
  const e = await c.device.popErrorScope();
  if (e) throw new Error(`WebGPU validation: ${e.message}`);
}

async function read(c: KernelContext, buf: GPUBuffer, n: number) {
  return readFloats(c.device, buf, n);
}

export interface SoftmaxCase {
  B: number;
  L: number;
  H: number;
  dh: number;
  causal: boolean;
  /** Q, K, V read from one fused (B·L)×3D buffer (columns 0, D, 2D), dQ/dK/dV written into one */
  fused?: boolean;
  seed?: number;
}

async function softmax(cs: SoftmaxCase): Promise<Err[]> {
  const c = await ctx();
  const { B, L, H, dh, causal } = cs;
  const D = H * dh;
  const rows = B * L;
  const rng = createRng(cs.seed ?? 3);
  const q = normal(rng, rows * D);
  const k = normal(rng, rows * D);
  const v = normal(rng, rows * D);
  const dO = normal(rng, rows * D);
  const fw = softmaxAttentionForward(f64(q), f64(k), f64(v), B, L, H, dh, causal);
  const bw = softmaxAttentionBackward(f64(q), f64(k), f64(v), fw.p, f64(dO), B, L, H, dh, causal);
  const stride = cs.fused ? 3 * D + 1 : D;
  const view = (buf: GPUBuffer, i: number) => (cs.fused ? { buffer: buf, offset: i * D + 1, stride } : buf);
  let qkv: GPUBuffer[];
  if (cs.fused) {
    const all = new Float32Array(1 + rows * stride).fill(Number.NaN);
    [q, k, v].forEach((x, i) => {
      for (let r = 0; r < rows; r++) all.set(x.subarray(r * D, (r + 1) * D), 1 + r * stride + i * D);
    });
    const g = c.alloc.upload('t.qkv', all);
    qkv = [g, g, g];
  } else qkv = [c.alloc.upload('t.q', q), c.alloc.upload('t.k', k), c.alloc.upload('t.v', v)];
  const out = c.alloc.storage('t.out', rows * D * 4);
  const p = c.alloc.storage('t.p', B * H * L * L * 4);
  const pIn = c.alloc.upload('t.pin', f32(fw.p));
  const gdO = c.alloc.upload('t.do', dO);
  const gradLen = cs.fused ? 1 + rows * stride : rows * D;
  const dqkv = cs.fused
    ? Array(3).fill(c.alloc.upload('t.dqkv', new Float32Array(gradLen).fill(Number.NaN)))
    : ['t.dq', 't.dk', 't.dv'].map((r) => c.alloc.storage(r, rows * D * 4));
  const shape = { B, L, H, dh, causal };
  c.device.pushErrorScope('validation');
  const enc = c.device.createCommandEncoder();
  encodeSoftmaxAttentionForward(c, enc, {
    ...shape,
    q: view(qkv[0]!, 0),
    k: view(qkv[1]!, 1),
    v: view(qkv[2]!, 2),
    out,
    p,
  });
  encodeSoftmaxAttentionBackward(c, enc, {
    ...shape,
    q: view(qkv[0]!, 0),
    k: view(qkv[1]!, 1),
    v: view(qkv[2]!, 2),
    p: pIn,
    dOut: gdO,
    dq: view(dqkv[0]!, 0),
    dk: view(dqkv[1]!, 1),
    dv: view(dqkv[2]!, 2),
  });
  c.device.queue.submit([enc.finish()]);
  await scopeOk(c);
  const res = [
    compare('out', await read(c, out, rows * D), fw.out),
    compare('P', await read(c, p, B * H * L * L), fw.p),
  ];
  const names = ['dq', 'dk', 'dv'] as const;
  for (let i = 0; i < 3; i++) {
    const raw = await read(c, dqkv[i]!, gradLen);
    const got = cs.fused ? extract(raw, rows, D, 1 + i * D, stride) : raw;
    res.push(compare(names[i]!, got, bw[names[i]!]));
  }
  if (cs.fused) {
    // entries outside the three column blocks stay untouched (NaN)
    const raw = await read(c, dqkv[0]!, gradLen);
    let untouched = Number.isNaN(raw[0]!);
    for (let r = 0; r < rows; r++) untouched &&= Number.isNaN(raw[1 + r * stride + 3 * D]!) || r === rows - 1;
    res.push({ name: 'outside views', maxAbs: 0, maxRel: 0, ok: untouched });
  }
  return res;
}

export interface FeatureCase {
  map: TrainFeatureMap;
  side: 'query' | 'key';
  B: number;
  L: number;
  H: number;
  dh: number;
  m: number;
  /** x read from a strided view (offset 2, stride D + 3), dx written into one */
  strided?: boolean;
  seed?: number;
}

async function feature(cs: FeatureCase): Promise<Err[]> {
  const c = await ctx();
  const { map, side, B, L, H, dh, m } = cs;
  const D = H * dh;
  const rows = B * L;
  const F = featureCount(map, m, dh);
  const rng = createRng(cs.seed ?? 5);
  const x = normal(rng, rows * D);
  const w = normal(rng, H * m * dh); // positive: H×m×dh
  const hw = normal(rng, H * dh * m, 0.5); // hedgehog: H×dh×m
  const hb = normal(rng, H * m, 0.5);
  const dPhi = normal(rng, rows * H * F);
  const phiWant = new Float64Array(rows * H * F);
  const dxWant = new Float64Array(rows * D);
  const dhwWant = new Float64Array(H * dh * m);
  const dhbWant = new Float64Array(H * m);
  for (let h = 0; h < H; h++) {
    const xh = sliceCols(f64(x), rows, D, h * dh, dh);
    const opts: FeatureOpts = {
      L,
      B,
      m,
      w: f64(w.subarray(h * m * dh, (h + 1) * m * dh)),
      hw: f64(hw.subarray(h * dh * m, (h + 1) * dh * m)),
      hb: f64(hb.subarray(h * m, (h + 1) * m)),
    };
    const phi = featureForward(map, xh, rows, dh, side, opts);
    putCols(phiWant, rows, H * F, h * F, F, phi);
    const dph = sliceCols(f64(dPhi), rows, H * F, h * F, F);
    const g = featureBackward(map, xh, rows, dh, side, opts, phi, dph);
    putCols(dxWant, rows, D, h * dh, dh, g.dx);
    if (g.dhw) dhwWant.set(g.dhw, h * dh * m);
    if (g.dhb) dhbWant.set(g.dhb, h * m);
  }
  const off = cs.strided ? 2 : 0;
  const stride = cs.strided ? D + 3 : D;
  const gx = c.alloc.upload('t.x', embed(x, rows, D, off, stride));
  const xv = { buffer: gx, offset: off, stride };
  // parameters at an offset inside a larger buffer (as in a flat parameter buffer)
  const POFF = 7;
  const params = new Float32Array(POFF + H * dh * m * 2 + H * m).fill(Number.NaN);
  const isHh = map === 'hedgehog';
  params.set(isHh ? hw : w, POFF);
  params.set(hb, POFF + H * dh * m);
  const gp = c.alloc.upload('t.params', params);
  const wv = { buffer: gp, offset: POFF };
  const bv = { buffer: gp, offset: POFF + H * dh * m };
  const phi = c.alloc.storage('t.phi', rows * H * F * 4);
  const phiIn = c.alloc.upload('t.phiin', f32(phiWant));
  const gdPhi = c.alloc.upload('t.dphi', dPhi);
  const gdx = c.alloc.upload('t.dx', new Float32Array(off + rows * stride + 1).fill(Number.NaN));
  const grads = c.alloc.upload('t.grads', new Float32Array(3 + H * dh * m + H * m).fill(Number.NaN));
  // strided cases: dbh in a buffer of its own (the unshared binding); else dWh, dbh in one buffer
  const gradsB = cs.strided ? c.alloc.upload('t.gradsb', new Float32Array(H * m).fill(Number.NaN)) : grads;
  const shape = { map, side, B, L, H, dh, m };
  c.device.pushErrorScope('validation');
  const enc = c.device.createCommandEncoder();
  encodeFeatureForward(c, enc, { ...shape, x: xv, w: wv, b: bv, phi });
  encodeFeatureBackward(c, enc, {
    ...shape,
    x: xv,
    w: wv,
    phi: phiIn,
    dPhi: gdPhi,
    dx: { buffer: gdx, offset: off, stride },
    dw: { buffer: grads, offset: 3 },
    db: cs.strided ? gradsB : { buffer: grads, offset: 3 + H * dh * m },
  });
  c.device.queue.submit([enc.finish()]);
  await scopeOk(c);
  const res = [
    compare('φ', await read(c, phi, rows * H * F), phiWant),
    compare('dx', extract(await read(c, gdx, off + rows * stride + 1), rows, D, off, stride), dxWant),
  ];
  if (isHh) {
    const g = await read(c, grads, 3 + H * dh * m + H * m);
    res.push(compare('dWh', g.subarray(3, 3 + H * dh * m), dhwWant));
    const gb = cs.strided ? await read(c, gradsB, H * m) : g.subarray(3 + H * dh * m);
    res.push(compare(cs.strided ? 'dbh (own buf)' : 'dbh', gb, dhbWant));
  }
  return res;
}

export interface LinearCase {
  B: number;
  L: number;
  H: number;
  F: number;
  dh: number;
  causal: boolean;
  window: number;
  seed?: number;
}

async function linear(cs: LinearCase): Promise<Err[]> {
  const c = await ctx();
  const { B, L, H, F, dh, causal, window } = cs;
  const D = H * dh;
  const rows = B * L;
  const rng = createRng(cs.seed ?? 7);
  // positive features, as every map but relu/cosformer gives (those can have zero rows: den = δ)
  const pos = (n: number) => Float32Array.from({ length: n }, () => rng.uniform());
  const phiQ = pos(rows * H * F);
  const phiK = pos(rows * H * F);
  const v = normal(rng, rows * D);
  const dO = normal(rng, rows * D);
  const fw = linearAttentionForward(f64(phiQ), f64(phiK), f64(v), B, L, H, F, dh, causal, window);
  const bw = linearAttentionBackward(
    f64(phiQ),
    f64(phiK),
    f64(v),
    fw.den,
    fw.out,
    f64(dO),
    B,
    L,
    H,
    F,
    dh,
    causal,
    window,
  );
  const gq = c.alloc.upload('t.phiq', phiQ);
  const gk = c.alloc.upload('t.phik', phiK);
  const gv = c.alloc.upload('t.v', v);
  const out = c.alloc.storage('t.out', rows * D * 4);
  const den = c.alloc.storage('t.den', rows * H * 4);
  const outIn = c.alloc.upload('t.outin', f32(fw.out));
  const denIn = c.alloc.upload('t.denin', f32(fw.den));
  const gdO = c.alloc.upload('t.do', dO);
  const dq = c.alloc.storage('t.dphiq', rows * H * F * 4);
  const dk = c.alloc.storage('t.dphik', rows * H * F * 4);
  const dv = c.alloc.storage('t.dv', rows * D * 4);
  const shape = { B, L, H, F, dh, causal, window };
  c.device.pushErrorScope('validation');
  const enc = c.device.createCommandEncoder();
  encodeLinearAttentionForward(c, enc, { ...shape, phiQ: gq, phiK: gk, v: gv, out, den });
  encodeLinearAttentionBackward(c, enc, {
    ...shape,
    phiQ: gq,
    phiK: gk,
    v: gv,
    den: denIn,
    out: outIn,
    dOut: gdO,
    dPhiQ: dq,
    dPhiK: dk,
    dv,
  });
  const amap = c.alloc.storage('t.amap', B * H * L * L * 4);
  encodeLinearAttentionMap(c, enc, { B, L, H, F, causal, window, phiQ: gq, phiK: gk, den: denIn, out: amap });
  c.device.queue.submit([enc.finish()]);
  await scopeOk(c);
  // the map's twin reads sequence 0
  const spec = { kind: 'linear', map: 'elu1', m: F, proj: 'iid', redraw: 0, window } as AttentionSpec;
  const mapsWant = attentionMatrices(
    spec,
    { B: 1, L, H, dh, causal },
    { out: fw.out, phiQ: f64(phiQ), phiK: f64(phiK), den: fw.den, F },
  );
  const mapWant = new Float64Array(H * L * L);
  mapsWant.forEach((m, h) => mapWant.set(m, h * L * L));
  return [
    compare('Â (seq 0)', await read(c, amap, H * L * L), mapWant),
    compare('out', await read(c, out, rows * D), fw.out),
    compare('den', await read(c, den, rows * H), fw.den),
    compare('dφq', await read(c, dq, rows * H * F), bw.dPhiQ, LINEAR_DPHI_FLOOR),
    compare('dφk', await read(c, dk, rows * H * F), bw.dPhiK, LINEAR_DPHI_FLOOR),
    compare('dv', await read(c, dv, rows * D), bw.dv),
  ];
}

/**
 * The KL of a row is Σ_j P_ij (log P_ij − log Â_ij): O(1) terms (|log| ≲ 10 here) whose f32
 * rounding (~6e-8 each) does not shrink with the KL, so near a perfect fit (L = 1: KL = 0) the
 * check is absolute.
 */
export const KL_FLOOR = 2e-6;

export interface DistillCase {
  B: number;
  L: number;
  H: number;
  /** Hedgehog width: F = 2m features per head */
  m: number;
  causal: boolean;
  seed?: number;
}

/** Hedgehog-like features: per (row, head) two softmaxes of m normals (positive, rows sum to 2). */
function hedgehogFeatures(rng: Rng, rows: number, H: number, m: number): Float32Array {
  const out = new Float32Array(rows * H * 2 * m);
  for (let r = 0; r < rows * H; r++) {
    const u = normal(rng, m);
    for (const sign of [1, -1]) {
      let mx = -Infinity;
      for (const x of u) mx = Math.max(mx, sign * x);
      let sum = 0;
      for (const x of u) sum += Math.exp(sign * x - mx);
      const o = r * 2 * m + (sign > 0 ? 0 : m);
      u.forEach((x, f) => (out[o + f] = Math.exp(sign * x - mx) / sum));
    }
  }
  return out;
}

async function distill(cs: DistillCase): Promise<Err[]> {
  const c = await ctx();
  const { B, L, H, m, causal } = cs;
  const F = 2 * m;
  const rows = B * L;
  const rng = createRng(cs.seed ?? 9);
  const phiQ = hedgehogFeatures(rng, rows, H, m);
  const phiK = hedgehogFeatures(rng, rows, H, m);
  // the teacher's P: softmax attention of random Q, K (v unused), scaled up so some rows are peaked
  const dh = 3;
  const q = normal(rng, rows * H * dh, 2);
  const k = normal(rng, rows * H * dh, 2);
  const p = f32(softmaxAttentionForward(f64(q), f64(k), f64(q), B, L, H, dh, causal).p);
  const norm = 3 * H * rows; // as the fit's mean over 3 layers
  const klWant = new Float64Array(B * H * L);
  const dqWant = new Float64Array(rows * H * F);
  const dkWant = new Float64Array(rows * H * F);
  for (let h = 0; h < H; h++) {
    const pq = sliceCols(f64(phiQ), rows, H * F, h * F, F);
    const pk = sliceCols(f64(phiK), rows, H * F, h * F, F);
    const r = distillHead(pq, pk, f64(p), { B, L, H, F, causal }, h, norm);
    for (let b = 0; b < B; b++) klWant.set(r.kl.subarray(b * L, (b + 1) * L), (b * H + h) * L);
    putCols(dqWant, rows, H * F, h * F, F, r.dq);
    putCols(dkWant, rows, H * F, h * F, F, r.dk);
  }
  const KLOFF = 5; // the fit writes each layer's rows at an offset
  const kl = c.alloc.upload('t.kl', new Float32Array(KLOFF + B * H * L).fill(Number.NaN));
  const dq = c.alloc.storage('t.dphiq', rows * H * F * 4);
  const dk = c.alloc.storage('t.dphik', rows * H * F * 4);
  c.device.pushErrorScope('validation');
  const enc = c.device.createCommandEncoder();
  encodeHedgehogDistill(c, enc, {
    B,
    L,
    H,
    F,
    causal,
    norm,
    phiQ: c.alloc.upload('t.phiq', phiQ),
    phiK: c.alloc.upload('t.phik', phiK),
    p: c.alloc.upload('t.p', p),
    kl,
    klOffset: KLOFF,
    dPhiQ: dq,
    dPhiK: dk,
  });
  c.device.queue.submit([enc.finish()]);
  await scopeOk(c);
  const klGot = await read(c, kl, KLOFF + B * H * L);
  return [
    compare('KL rows', klGot.subarray(KLOFF), klWant, KL_FLOOR),
    { name: 'before offset', maxAbs: 0, maxRel: 0, ok: klGot.subarray(0, KLOFF).every(Number.isNaN) },
    compare('dφq', await read(c, dq, rows * H * F), dqWant),
    compare('dφk', await read(c, dk, rows * H * F), dkWant),
  ];
}

(window as unknown as { trainAttentionKernels: unknown }).trainAttentionKernels = {
  info: async () => ({ adapter: (await ctx()).adapter }),
  softmax,
  feature,
  linear,
  distill,
};

/** The timing helpers' inputs (q, k, v, dOut: seeded normals) and outputs of one layer. */
function layerBuffers(c: KernelContext, s: { B: number; L: number; H: number; dh: number }) {
  const D = s.H * s.dh;
  const rows = s.B * s.L;
  const rng = createRng(1);
  const q = c.alloc.upload('b.q', normal(rng, rows * D, 0.5));
  const k = c.alloc.upload('b.k', normal(rng, rows * D, 0.5));
  const v = c.alloc.upload('b.v', normal(rng, rows * D));
  const dO = c.alloc.upload('b.do', normal(rng, rows * D));
  const out = (role: string) => c.alloc.storage(role, rows * D * 4);
  return { rows, rng, q, k, v, dO, o: out('b.o'), dq: out('b.dq'), dk: out('b.dk'), dv: out('b.dv') };
}

/** Wall time (ms, median of `reps`) of one forward + backward of softmax or linear attention (with φ) at a trainer-like shape. */
async function timeLayer(
  kind: 'softmax' | TrainFeatureMap,
  s: { B: number; L: number; H: number; dh: number; m: number; causal: boolean },
  reps = 3,
) {
  const c = await ctx();
  const { B, L, H, dh, m, causal } = s;
  const { rows, rng, q, k, v, dO, o, dq, dk, dv } = layerBuffers(c, s);
  const F = kind === 'softmax' ? 0 : featureCount(kind, m, dh);
  const w = c.alloc.upload('b.w', normal(rng, H * dh * Math.max(1, m) + H * Math.max(1, m), 0.3));
  const times: number[] = [];
  for (let r = 0; r < reps; r++) {
    const enc = c.device.createCommandEncoder();
    if (kind === 'softmax') {
      const p = c.alloc.storage('b.p', B * H * L * L * 4);
      encodeSoftmaxAttentionForward(c, enc, { B, L, H, dh, causal, q, k, v, out: o, p });
      encodeSoftmaxAttentionBackward(c, enc, { B, L, H, dh, causal, q, k, v, p, dOut: dO, dq, dk, dv });
    } else {
      const pq = c.alloc.storage('b.pq', rows * H * F * 4);
      const pk = c.alloc.storage('b.pk', rows * H * F * 4);
      const dpq = c.alloc.storage('b.dpq', rows * H * F * 4);
      const dpk = c.alloc.storage('b.dpk', rows * H * F * 4);
      const den = c.alloc.storage('b.den', rows * H * 4);
      const fs = { map: kind, B, L, H, dh, m };
      const bv = { buffer: w, offset: H * dh * m };
      encodeFeatureForward(c, enc, { ...fs, side: 'query', x: q, w, b: bv, phi: pq, role: 'b.fq' });
      encodeFeatureForward(c, enc, { ...fs, side: 'key', x: k, w, b: bv, phi: pk, role: 'b.fk' });
      const ls = { B, L, H, F, dh, causal, window: 0 };
      encodeLinearAttentionForward(c, enc, { ...ls, phiQ: pq, phiK: pk, v, out: o, den });
      encodeLinearAttentionBackward(c, enc, {
        ...ls,
        phiQ: pq,
        phiK: pk,
        v,
        den,
        out: o,
        dOut: dO,
        dPhiQ: dpq,
        dPhiK: dpk,
        dv,
      });
      const gw = c.alloc.storage('b.gw', (H * dh * m + H * m) * 4);
      const hh = { dw: gw, db: { buffer: gw, offset: H * dh * m } };
      encodeFeatureBackward(c, enc, { ...fs, side: 'query', x: q, w, phi: pq, dPhi: dpq, dx: dq, ...hh, role: 'b.bq' });
      encodeFeatureBackward(c, enc, { ...fs, side: 'key', x: k, w, phi: pk, dPhi: dpk, dx: dk, ...hh, role: 'b.bk' });
    }
    const t0 = performance.now();
    c.device.queue.submit([enc.finish()]);
    await c.device.queue.onSubmittedWorkDone();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

(window as unknown as { trainAttentionTime: unknown }).trainAttentionTime = timeLayer;

/** Per-pass wall times (ms) of one layer: each encode function submitted alone (diagnostics). */
async function timePasses(s: { B: number; L: number; H: number; dh: number; F: number; causal: boolean }) {
  const c = await ctx();
  const { B, L, H, dh, F, causal } = s;
  const { rows, rng, q, k, v, dO, o, dq, dk, dv } = layerBuffers(c, s);
  const p = c.alloc.storage('b.p', B * H * L * L * 4);
  const pq = c.alloc.upload(
    'b.pq',
    Float32Array.from({ length: rows * H * F }, () => rng.uniform()),
  );
  const pk = c.alloc.upload(
    'b.pk',
    Float32Array.from({ length: rows * H * F }, () => rng.uniform()),
  );
  const dpq = c.alloc.storage('b.dpq', rows * H * F * 4);
  const dpk = c.alloc.storage('b.dpk', rows * H * F * 4);
  const den = c.alloc.storage('b.den', rows * H * 4);
  const ls = { B, L, H, F, dh, causal, window: 0 };
  const steps: [string, (e: GPUCommandEncoder) => void][] = [
    ['sm fwd', (e) => encodeSoftmaxAttentionForward(c, e, { B, L, H, dh, causal, q, k, v, out: o, p })],
    ['sm bwd', (e) => encodeSoftmaxAttentionBackward(c, e, { B, L, H, dh, causal, q, k, v, p, dOut: dO, dq, dk, dv })],
    ['la fwd', (e) => encodeLinearAttentionForward(c, e, { ...ls, phiQ: pq, phiK: pk, v, out: o, den })],
    [
      'la bwd',
      (e) =>
        encodeLinearAttentionBackward(c, e, {
          ...ls,
          phiQ: pq,
          phiK: pk,
          v,
          den,
          out: o,
          dOut: dO,
          dPhiQ: dpq,
          dPhiK: dpk,
          dv,
        }),
    ],
    ['elu1 fwd', (e) => encodeFeatureForward(c, e, { map: 'elu1', B, L, H, dh, m: 0, side: 'query', x: q, phi: dpq })],
    [
      'elu1 fwd 1 row',
      (e) => encodeFeatureForward(c, e, { map: 'elu1', B: 1, L: 1, H: 1, dh, m: 0, side: 'query', x: q, phi: dpq }),
    ],
    [
      'elu1 fwd 64 rows',
      (e) => encodeFeatureForward(c, e, { map: 'elu1', B: 1, L: 64, H: 1, dh, m: 0, side: 'query', x: q, phi: dpq }),
    ],
    [
      'elu1 fwd 512 rows',
      (e) => encodeFeatureForward(c, e, { map: 'elu1', B: 1, L: 512, H: 1, dh, m: 0, side: 'query', x: q, phi: dpq }),
    ],
  ];
  const res: Record<string, number> = {};
  for (const [name, f] of steps) {
    let best = Infinity;
    for (let r = 0; r < 3; r++) {
      const enc = c.device.createCommandEncoder();
      f(enc);
      const t0 = performance.now();
      c.device.queue.submit([enc.finish()]);
      await c.device.queue.onSubmittedWorkDone();
      best = Math.min(best, performance.now() - t0);
    }
    res[name] = best;
  }
  return res;
}

(window as unknown as { trainAttentionPasses: unknown }).trainAttentionPasses = timePasses;
