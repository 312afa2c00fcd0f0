import { describe, expect, it } from 'vitest';
import { dotLoss, gradCheck, randArr } from './grad-check';
import { softmaxAttentionBackward, softmaxAttentionForward } from './softmax-attention';

describe('softmax attention', () => {
  const B = 2;
  const L = 5;
  const H = 2;
  const dh = 3;
  const n = B * L * H * dh;
  const q = randArr(n, 51);
  const k = randArr(n, 52);
  const v = randArr(n, 53);
  const r = randArr(n, 54);
  for (const causal of [false, true]) {
    const loss = () => dotLoss(softmaxAttentionForward(q, k, v, B, L, H, dh, causal).out, r);
    it(`${causal ? 'causal' : 'bidirectional'}: P is row-stochastic${causal ? ' and zero above the diagonal' : ''}`, () => {
      const { p } = softmaxAttentionForward(q, k, v, B, L, H, dh, causal);
      for (let row = 0; row < B * H * L; row++) {
        let s = 0;
        for (let j = 0; j < L; j++) s += p[row * L + j];
        expect(s).toBeCloseTo(1, 12);
        if (causal) expect(p[row * L + L - 1]).toBe(row % L === L - 1 ? p[row * L + L - 1] : 0);
      }
    });
    it(`${causal ? 'causal' : 'bidirectional'}: dQ, dK, dV match central finite differences (rel err < 1e-6)`, () => {
      const f = softmaxAttentionForward(q, k, v, B, L, H, dh, causal);
      const g = softmaxAttentionBackward(q, k, v, f.p, r, B, L, H, dh, causal);
      expect(gradCheck(loss, q, g.dq)).toBeLessThan(1e-6);
      expect(gradCheck(loss, k, g.dk)).toBeLessThan(1e-6);
      expect(gradCheck(loss, v, g.dv)).toBeLessThan(1e-6);
    });
  }
});
