// The trainer's softmax-attention, feature-map and linear-attention kernels
// (src/gpu/train/softmax-attention.ts, feature-maps.ts, linear-attention.ts) on SwiftShader next to
// their CPU twins (src/core/train/softmax-attention.ts, feature-map-grad.ts,
// linear-attention-train.ts), forward and backward: one error summary per output (for
// e2e/pages/train-attention-kernels.ts). Backward kernels get the twin's forward results (rounded
// to f32) as their saved tensors, so each comparison isolates one kernel.
import { sliceCols, putCols } from '../../src/core/train/arr';
import { featureBackward, featureCount, featureForward, type FeatureOpts } from '../../src/core/train/feature-map-grad';
import { linearAttentionBackward, linearAttentionForward } from '../../src/core/train/linear-attention-train';
import { softmaxAttentionBackward, softmaxAttentionForward } from '../../src/core/train/softmax-attention';
import { attentionMatrices } from '../../src/core/train/attention-layer';
import type { AttentionSpec, TrainFeatureMap } from '../../src/core/train/types';
import { createRng } from '../../src/core/rng';
import { encodeFeatureBackward, encodeFeatureForward } from '../../src/gpu/train/feature-maps';
import {
  encodeLinearAttentionBackward,
  encodeLinearAttentionForward,
  encodeLinearAttentionMap,
} from '../../src/gpu/train/linear-attention';
import { encodeSoftmaxAttentionBackward, encodeSoftmaxAttentionForward } from '../../src/gpu/train/softmax-attention';
import {
  compare,
  ctx,
  embed,
  extract,
  f32,
  f64,
  LINEAR_DPHI_FLOOR,
  normal,
  read,
  scopeOk,
  type Err,
} from './train-attention-common';

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

export async function softmax(cs: SoftmaxCase): Promise<Err[]> {
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

export async function feature(cs: FeatureCase): Promise<Err[]> {
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

export async function linear(cs: LinearCase): Promise<Err[]> {
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
