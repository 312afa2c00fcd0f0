/**
 * Layer norm over the cols of each row: y = (x − μ) · rstd · g + b, rstd = 1/√(σ² + ε), ε = 1e-5,
 * σ² the biased variance. The forward keeps μ and rstd per row for the backward:
 *   x̂ = (x − μ)·rstd,  dx̂ = dy ⊙ g,
 *   dx = rstd · (dx̂ − mean(dx̂) − x̂ · mean(dx̂ ⊙ x̂)),  dg = Σ_rows dy ⊙ x̂,  db = Σ_rows dy.
 */
import { like, type Arr } from './arr';

export const LN_EPS = 1e-5;

export function layerNormForward(
  x: Arr,
  rows: number,
  cols: number,
  gain: Arr,
  bias: Arr,
): { y: Arr; mean: Arr; rstd: Arr } {
  const y = like(x, rows * cols);
  const mean = like(x, rows);
  const rstd = like(x, rows);
  for (let r = 0; r < rows; r++) {
    const o = r * cols;
    let mu = 0;
    for (let c = 0; c < cols; c++) mu += x[o + c];
    mu /= cols;
    let v = 0;
    for (let c = 0; c < cols; c++) {
      const d = x[o + c] - mu;
      v += d * d;
    }
    const rs = 1 / Math.sqrt(v / cols + LN_EPS);
    mean[r] = mu;
    rstd[r] = rs;
    for (let c = 0; c < cols; c++) y[o + c] = (x[o + c] - mu) * rs * gain[c] + bias[c];
  }
  return { y, mean, rstd };
}

export function layerNormBackward(
  dy: Arr,
  x: Arr,
  rows: number,
  cols: number,
  gain: Arr,
  mean: Arr,
  rstd: Arr,
): { dx: Arr; dgain: Arr; dbias: Arr } {
  const dx = like(x, rows * cols);
  const dgain = like(x, cols);
  const dbias = like(x, cols);
  for (let r = 0; r < rows; r++) {
    const o = r * cols;
    const mu = mean[r];
    const rs = rstd[r];
    let sumD = 0;
    let sumDX = 0;
    for (let c = 0; c < cols; c++) {
      const xh = (x[o + c] - mu) * rs;
      const g = dy[o + c];
      dgain[c] += g * xh;
      dbias[c] += g;
      const dxh = g * gain[c];
      sumD += dxh;
      sumDX += dxh * xh;
    }
    sumD /= cols;
    sumDX /= cols;
    for (let c = 0; c < cols; c++) {
      const xh = (x[o + c] - mu) * rs;
      dx[o + c] = rs * (dy[o + c] * gain[c] - sumD - xh * sumDX);
    }
  }
  return { dx, dgain, dbias };
}
