import { describe, expect, it } from 'vitest';
import { dotLoss, gradCheck, randArr } from './grad-check';
import { layerNormBackward, layerNormForward } from './layer-norm';

describe('layer norm', () => {
  const rows = 4;
  const cols = 6;
  const x = randArr(rows * cols, 11, 2, 0.5);
  const g = randArr(cols, 12, 0.5, 1);
  const b = randArr(cols, 13);
  const r = randArr(rows * cols, 14);
  const loss = () => dotLoss(layerNormForward(x, rows, cols, g, b).y, r);

  it('with unit gain and zero bias each row has mean 0 and variance 1 − ε-correction', () => {
    const { y } = layerNormForward(x, rows, cols, new Float64Array(cols).fill(1), new Float64Array(cols));
    let mu = 0;
    let v = 0;
    for (let c = 0; c < cols; c++) mu += y[c] / cols;
    for (let c = 0; c < cols; c++) v += (y[c] - mu) ** 2 / cols;
    expect(Math.abs(mu)).toBeLessThan(1e-12);
    expect(v).toBeCloseTo(1, 4);
  });

  it('dx, dgain, dbias match central finite differences (rel err < 1e-6)', () => {
    const f = layerNormForward(x, rows, cols, g, b);
    const d = layerNormBackward(r, x, rows, cols, g, f.mean, f.rstd);
    expect(gradCheck(loss, x, d.dx)).toBeLessThan(1e-6);
    expect(gradCheck(loss, g, d.dgain)).toBeLessThan(1e-6);
    expect(gradCheck(loss, b, d.dbias)).toBeLessThan(1e-6);
  });
});
