/**
 * One layer's attention O = attention(Q, K, V) for every AttentionSpec, with its backward: exact
 * softmax (softmax-attention.ts), or linear attention — φ applied per head to its dh columns
 * (feature-map-grad.ts), then linear-attention-train.ts on the H·F feature columns.
 * Keeps what the backward and the attention maps need (P, or φ(Q), φ(K) and the denominators).
 */
import { like, putCols, sliceCols, type Arr } from './arr';
import { featureBackward, featureCount, featureForward, type FeatureOpts } from './feature-map-grad';
import { linearAttentionBackward, linearAttentionForward } from './linear-attention-train';
import { softmaxAttentionBackward, softmaxAttentionForward } from './softmax-attention';
import type { AttentionSpec } from './types';

export interface AttentionShape {
  B: number;
  L: number;
  H: number;
  dh: number;
  causal: boolean;
}

/** Hedgehog's trained maps of one layer: w H×dh×m, b H×m, for queries and keys. */
export interface HedgehogParams {
  qw: Arr;
  qb: Arr;
  kw: Arr;
  kb: Arr;
}

export interface AttentionCache {
  out: Arr;
  p?: Arr;
  phiQ?: Arr;
  phiK?: Arr;
  den?: Arr;
  laOut?: Arr;
  F: number;
}

function headOpts(
  spec: AttentionSpec & { kind: 'linear' },
  s: AttentionShape,
  h: number,
  side: 'q' | 'k',
  w: Arr | null,
  hh: HedgehogParams | null,
): FeatureOpts {
  const m = spec.m;
  const o: FeatureOpts = { L: s.L, B: s.B, m };
  if (spec.map === 'positive') {
    if (!w) throw new RangeError('attention: FAVOR+ needs its drawn W');
    o.w = w;
  }
  if (spec.map === 'hedgehog') {
    if (!hh) throw new RangeError('attention: hedgehog needs its parameters');
    const size = s.dh * m;
    o.hw = (side === 'q' ? hh.qw : hh.kw).subarray(h * size, (h + 1) * size);
    o.hb = (side === 'q' ? hh.qb : hh.kb).subarray(h * m, (h + 1) * m);
  }
  return o;
}

export function attentionForward(
  spec: AttentionSpec,
  s: AttentionShape,
  q: Arr,
  k: Arr,
  v: Arr,
  featureW: readonly Arr[] | null,
  hh: HedgehogParams | null,
): AttentionCache {
  const { B, L, H, dh, causal } = s;
  if (spec.kind === 'softmax') {
    const r = softmaxAttentionForward(q, k, v, B, L, H, dh, causal);
    return { out: r.out, p: r.p, F: 0 };
  }
  const rows = B * L;
  const D = H * dh;
  const F = featureCount(spec.map, spec.m, dh);
  const phiQ = like(q, rows * H * F);
  const phiK = like(q, rows * H * F);
  for (let h = 0; h < H; h++) {
    const w = featureW ? featureW[h] : null;
    const qh = sliceCols(q, rows, D, h * dh, dh);
    const kh = sliceCols(k, rows, D, h * dh, dh);
    putCols(
      phiQ,
      rows,
      H * F,
      h * F,
      F,
      featureForward(spec.map, qh, rows, dh, 'query', headOpts(spec, s, h, 'q', w, hh)),
    );
    putCols(
      phiK,
      rows,
      H * F,
      h * F,
      F,
      featureForward(spec.map, kh, rows, dh, 'key', headOpts(spec, s, h, 'k', w, hh)),
    );
  }
  const r = linearAttentionForward(phiQ, phiK, v, B, L, H, F, dh, causal, spec.window);
  return { out: r.out, phiQ, phiK, den: r.den, laOut: r.out, F };
}

export interface AttentionGrads {
  dq: Arr;
  dk: Arr;
  dv: Arr;
  /** hedgehog only: gradients in the layout of HedgehogParams */
  hh?: HedgehogParams;
}

export function attentionBackward(
  spec: AttentionSpec,
  s: AttentionShape,
  q: Arr,
  k: Arr,
  v: Arr,
  cache: AttentionCache,
  dOut: Arr,
  featureW: readonly Arr[] | null,
  hh: HedgehogParams | null,
): AttentionGrads {
  const { B, L, H, dh, causal } = s;
  if (spec.kind === 'softmax') return softmaxAttentionBackward(q, k, v, cache.p!, dOut, B, L, H, dh, causal);
  const rows = B * L;
  const D = H * dh;
  const F = cache.F;
  const phiQ = cache.phiQ!;
  const phiK = cache.phiK!;
  const la = linearAttentionBackward(
    phiQ,
    phiK,
    v,
    cache.den!,
    cache.laOut!,
    dOut,
    B,
    L,
    H,
    F,
    dh,
    causal,
    spec.window,
  );
  const dq = like(q, q.length);
  const dk = like(q, k.length);
  const m = spec.m;
  const dhh: HedgehogParams | undefined =
    spec.map === 'hedgehog'
      ? { qw: like(q, H * dh * m), qb: like(q, H * m), kw: like(q, H * dh * m), kb: like(q, H * m) }
      : undefined;
  for (let h = 0; h < H; h++) {
    const w = featureW ? featureW[h] : null;
    for (const side of ['q', 'k'] as const) {
      const x = sliceCols(side === 'q' ? q : k, rows, D, h * dh, dh);
      const phi = sliceCols(side === 'q' ? phiQ : phiK, rows, H * F, h * F, F);
      const dPhi = sliceCols(side === 'q' ? la.dPhiQ : la.dPhiK, rows, H * F, h * F, F);
      const o = headOpts(spec, s, h, side, w, hh);
      const g = featureBackward(spec.map, x, rows, dh, side === 'q' ? 'query' : 'key', o, phi, dPhi);
      putCols(side === 'q' ? dq : dk, rows, D, h * dh, dh, g.dx);
      if (dhh && g.dhw && g.dhb) {
        (side === 'q' ? dhh.qw : dhh.kw).set(g.dhw, h * dh * m);
        (side === 'q' ? dhh.qb : dhh.kb).set(g.dhb, h * m);
      }
    }
  }
  return { dq, dk, dv: la.dv, hh: dhh };
}

/**
 * The L×L attention matrix actually used by each head of sequence 0: P for softmax, and for linear
 * attention Â_ij = φq_i·φk_j / den_i on the allowed (i, j) (causal / window), 0 elsewhere.
 */
export function attentionMatrices(spec: AttentionSpec, s: AttentionShape, cache: AttentionCache): Float32Array[] {
  const { L, H, causal } = s;
  const out: Float32Array[] = [];
  for (let h = 0; h < H; h++) {
    const a = new Float32Array(L * L);
    if (spec.kind === 'softmax') {
      a.set(cache.p!.subarray(h * L * L, (h + 1) * L * L));
    } else {
      const F = cache.F;
      const HF = H * F;
      for (let i = 0; i < L; i++) {
        const den = cache.den![i * H + h];
        for (let j = 0; j < L; j++) {
          if (causal && j > i) continue;
          if (spec.window > 0 && Math.abs(i - j) >= spec.window) continue;
          let dot = 0;
          for (let f = 0; f < F; f++) dot += cache.phiQ![i * HF + h * F + f] * cache.phiK![j * HF + h * F + f];
          a[i * L + j] = dot / den;
        }
      }
    }
    out.push(a);
  }
  return out;
}
