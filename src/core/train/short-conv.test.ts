import { describe, expect, it } from 'vitest';
import { dotLoss, gradCheck, randArr } from './grad-check';
import { shortConvBackward, shortConvForward } from './short-conv';

describe('short conv', () => {
  const B = 2;
  const L = 4;
  const D = 3;
  const x = randArr(B * L * D, 41);
  const r = randArr(B * L * D, 42);
  for (const mode of ['shift', 'conv3'] as const) {
    const w = randArr(mode === 'shift' ? D : 3 * D, 43);
    const loss = () => dotLoss(shortConvForward(x, B, L, D, mode, w), r);
    it(`${mode}: the first position of each sequence never sees the previous sequence`, () => {
      const y = shortConvForward(x, B, L, D, mode, w);
      const self = mode === 'shift' ? 1 : 1 + w[0];
      expect(y[L * D]).toBeCloseTo(x[L * D] * self, 12);
    });
    it(`${mode}: dx and dw match central finite differences (rel err < 1e-6)`, () => {
      const g = shortConvBackward(x, B, L, D, mode, w, r);
      expect(gradCheck(loss, x, g.dx)).toBeLessThan(1e-6);
      expect(gradCheck(loss, w, g.dw)).toBeLessThan(1e-6);
    });
  }
});
