import { describe, expect, it } from 'vitest';
import { embedBackward, embedForward } from './embedding';
import { dotLoss, gradCheck, randArr } from './grad-check';

describe('embedding', () => {
  const B = 2;
  const L = 3;
  const V = 5;
  const D = 4;
  const tokens = new Int32Array([1, 4, 1, 0, 1, 3]);
  const E = randArr(V * D, 31);
  const P = randArr(6 * D, 32); // Lmax = 6 > L
  const r = randArr(B * L * D, 33);
  const loss = () => dotLoss(embedForward(tokens, B, L, E, P, D), r);

  it('row b·L + t is E[token] + P[t]', () => {
    const h = embedForward(tokens, B, L, E, P, D);
    expect(h[(1 * L + 2) * D + 1]).toBe(E[3 * D + 1] + P[2 * D + 1]);
  });

  it('dTok sums over every position holding the token; both grads match finite differences', () => {
    const { dTok, dPos } = embedBackward(tokens, B, L, V, D, r);
    expect(dTok[1 * D]).toBeCloseTo(r[0] + r[2 * D] + r[4 * D], 12);
    expect(gradCheck(loss, E, dTok)).toBeLessThan(1e-6);
    expect(
      gradCheck(
        loss,
        P,
        dPos,
        Array.from({ length: L * D }, (_, i) => i),
      ),
    ).toBeLessThan(1e-6);
  });
});
