import { describe, expect, it } from 'vitest';
import { dotLoss, gradCheck, randArr } from './grad-check';
import { linearBackward, linearForward } from './linear';

describe('linear', () => {
  // rows and inDim not multiples of 4, so both the blocked loops and their tails run
  const rows = 7;
  const inDim = 6;
  const outDim = 3;
  const x = randArr(rows * inDim, 1);
  const w = randArr(inDim * outDim, 2);
  const b = randArr(outDim, 3);
  const r = randArr(rows * outDim, 4);
  const loss = () => dotLoss(linearForward(x, rows, inDim, w, b, outDim), r);

  it('forward equals x W + b entry by entry', () => {
    const y = linearForward(x, rows, inDim, w, b, outDim);
    let s = b[2];
    for (let i = 0; i < inDim; i++) s += x[4 * inDim + i] * w[i * outDim + 2];
    expect(y[4 * outDim + 2]).toBeCloseTo(s, 12);
    expect(y).toBeInstanceOf(Float64Array);
  });

  it('dx, dW, db match central finite differences (rel err < 1e-6)', () => {
    const g = linearBackward(x, rows, inDim, w, outDim, r);
    expect(gradCheck(loss, x, g.dx)).toBeLessThan(1e-6);
    expect(gradCheck(loss, w, g.dw)).toBeLessThan(1e-6);
    expect(gradCheck(loss, b, g.db)).toBeLessThan(1e-6);
  });
});
