import { describe, expect, it } from 'vitest';
import { geluBackward, geluForward } from './gelu';
import { dotLoss, gradCheck, randArr } from './grad-check';

describe('gelu', () => {
  it('is the tanh approximation: GELU(0) = 0, GELU(1) ≈ 0.8412, GELU(−3) ≈ −0.0036', () => {
    const y = geluForward(new Float64Array([0, 1, -3]));
    expect(y[0]).toBe(0);
    expect(y[1]).toBeCloseTo(0.841192, 5);
    expect(y[2]).toBeCloseTo(-0.003637, 5);
  });

  it('the backward matches central finite differences (rel err < 1e-6)', () => {
    const x = randArr(40, 21, 2);
    const r = randArr(40, 22);
    const d = geluBackward(x, r);
    expect(gradCheck(() => dotLoss(geluForward(x), r), x, d)).toBeLessThan(1e-6);
  });
});
