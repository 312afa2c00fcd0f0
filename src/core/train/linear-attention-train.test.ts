import { describe, expect, it } from 'vitest';
import { dotLoss, gradCheck, randArr } from './grad-check';
import { LA_DELTA, linearAttentionBackward, linearAttentionForward } from './linear-attention-train';

const B = 2;
const L = 6;
const H = 2;
const F = 4;
const dh = 3;
// features are ≥ 0 in every map the trainer uses
const positive = (n: number, seed: number) => randArr(n, seed).map((x) => Math.abs(x) + 0.05);
const pq = positive(B * L * H * F, 101);
const pk = positive(B * L * H * F, 102);
const v = randArr(B * L * H * dh, 103);
const r = randArr(B * L * H * dh, 104);

/** The dense masked formula: out_i = Σ_{j allowed} A_ij v_j / (Σ_{j allowed} A_ij + δ). */
function dense(causal: boolean, window: number, q = pq, k = pk, vv = v): Float64Array {
  const out = new Float64Array(B * L * H * dh);
  for (let b = 0; b < B; b++)
    for (let h = 0; h < H; h++)
      for (let i = 0; i < L; i++) {
        let den = LA_DELTA;
        const acc = new Float64Array(dh);
        for (let j = 0; j < L; j++) {
          if (causal && j > i) continue;
          if (window > 0 && Math.abs(i - j) >= window) continue;
          let a = 0;
          for (let f = 0; f < F; f++) a += q[(b * L + i) * H * F + h * F + f] * k[(b * L + j) * H * F + h * F + f];
          den += a;
          for (let c = 0; c < dh; c++) acc[c] += a * vv[(b * L + j) * H * dh + h * dh + c];
        }
        for (let c = 0; c < dh; c++) out[(b * L + i) * H * dh + h * dh + c] = acc[c] / den;
      }
  return out;
}

const modes = [
  { causal: false, window: 0, name: 'bidirectional' },
  { causal: true, window: 0, name: 'causal (prefix sums)' },
  { causal: false, window: 2, name: 'bidirectional, window 2' },
  { causal: true, window: 3, name: 'causal, window 3' },
];

describe('linear attention (training twin)', () => {
  for (const { causal, window, name } of modes) {
    it(`${name}: the forward equals the dense masked formula`, () => {
      const { out } = linearAttentionForward(pq, pk, v, B, L, H, F, dh, causal, window);
      const ref = dense(causal, window);
      for (let i = 0; i < out.length; i++) expect(out[i]).toBeCloseTo(ref[i], 12);
    });

    it(`${name}: dφq, dφk, dv match central finite differences (rel err < 1e-6)`, () => {
      const f = linearAttentionForward(pq, pk, v, B, L, H, F, dh, causal, window);
      const g = linearAttentionBackward(pq, pk, v, f.den, f.out, r, B, L, H, F, dh, causal, window);
      const loss = () => dotLoss(linearAttentionForward(pq, pk, v, B, L, H, F, dh, causal, window).out, r);
      expect(gradCheck(loss, pq, g.dPhiQ)).toBeLessThan(1e-6);
      expect(gradCheck(loss, pk, g.dPhiK)).toBeLessThan(1e-6);
      expect(gradCheck(loss, v, g.dv)).toBeLessThan(1e-6);
    });
  }

  it('causal: the outputs at i are unchanged when keys and values after i change', () => {
    const i = 2;
    const k2 = pk.slice();
    const v2 = v.slice();
    for (let t = i + 1; t < L; t++) {
      for (let f = 0; f < H * F; f++) k2[t * H * F + f] += 1.5;
      for (let c = 0; c < H * dh; c++) v2[t * H * dh + c] -= 2;
    }
    const a = linearAttentionForward(pq, pk, v, B, L, H, F, dh, true, 0).out;
    const b = linearAttentionForward(pq, k2, v2, B, L, H, F, dh, true, 0).out;
    for (let t = 0; t <= i; t++) for (let c = 0; c < H * dh; c++) expect(b[t * H * dh + c]).toBe(a[t * H * dh + c]);
    expect(b[(i + 1) * H * dh]).not.toBe(a[(i + 1) * H * dh]);
  });
});
