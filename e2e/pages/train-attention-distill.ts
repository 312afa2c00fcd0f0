// The trainer's Hedgehog distillation kernel (src/gpu/train/hedgehog-distill.ts) on SwiftShader next
// to its CPU twin (src/core/train/hedgehog-distill.ts): per-row KL and its gradients in φ(Q), φ(K)
// (for e2e/pages/train-attention-kernels.ts).
import { sliceCols, putCols } from '../../src/core/train/arr';
import { softmaxAttentionForward } from '../../src/core/train/softmax-attention';
import { distillHead } from '../../src/core/train/hedgehog-distill';
import { createRng, type Rng } from '../../src/core/rng';
import { encodeHedgehogDistill } from '../../src/gpu/train/hedgehog-distill';
import { compare, ctx, f32, f64, normal, read, scopeOk, type Err } from './train-attention-common';

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

export async function distill(cs: DistillCase): Promise<Err[]> {
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
