// Timing aids of the train-attention-kernels driver (e2e/pages/train-attention-kernels.ts): the wall
// time of one layer's forward + backward, and of each pass submitted alone (diagnostics, not checks).
import { featureCount } from '../../src/core/train/feature-map-grad';
import type { TrainFeatureMap } from '../../src/core/train/types';
import { createRng } from '../../src/core/rng';
import type { KernelContext } from '../../src/gpu/kernel-context';
import { encodeFeatureBackward, encodeFeatureForward } from '../../src/gpu/train/feature-maps';
import { encodeLinearAttentionBackward, encodeLinearAttentionForward } from '../../src/gpu/train/linear-attention';
import { encodeSoftmaxAttentionBackward, encodeSoftmaxAttentionForward } from '../../src/gpu/train/softmax-attention';
import { ctx, normal } from './train-attention-common';

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

/** One layer's linear-attention forward and backward arguments (the backward's are the forward's and the gradients'). */
function linearArgs(
  shape: { B: number; L: number; H: number; F: number; dh: number; causal: boolean; window: number },
  b: Record<'pq' | 'pk' | 'v' | 'o' | 'den' | 'dO' | 'dpq' | 'dpk' | 'dv', GPUBuffer>,
) {
  const fwd = { ...shape, phiQ: b.pq, phiK: b.pk, v: b.v, out: b.o, den: b.den };
  return { fwd, bwd: { ...fwd, dOut: b.dO, dPhiQ: b.dpq, dPhiK: b.dpk, dv: b.dv } };
}

/** Wall time (ms, median of `reps`) of one forward + backward of softmax or linear attention (with φ) at a trainer-like shape. */
export async function timeLayer(
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
      const la = linearArgs(ls, { pq, pk, v, o, den, dO, dpq, dpk, dv });
      encodeLinearAttentionForward(c, enc, la.fwd);
      encodeLinearAttentionBackward(c, enc, la.bwd);
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

/** Per-pass wall times (ms) of one layer: each encode function submitted alone (diagnostics). */
export async function timePasses(s: { B: number; L: number; H: number; dh: number; F: number; causal: boolean }) {
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
  const la = linearArgs({ B, L, H, F, dh, causal, window: 0 }, { pq, pk, v, o, den, dO, dpq, dpk, dv });
  const steps: [string, (e: GPUCommandEncoder) => void][] = [
    ['sm fwd', (e) => encodeSoftmaxAttentionForward(c, e, { B, L, H, dh, causal, q, k, v, out: o, p })],
    ['sm bwd', (e) => encodeSoftmaxAttentionBackward(c, e, { B, L, H, dh, causal, q, k, v, p, dOut: dO, dq, dk, dv })],
    ['la fwd', (e) => encodeLinearAttentionForward(c, e, la.fwd)],
    ['la bwd', (e) => encodeLinearAttentionBackward(c, e, la.bwd)],
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
