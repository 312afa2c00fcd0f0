/**
 * Dense layer y = x W + b over a batch of rows: x rows×inDim, W inDim×outDim, b outDim (or none).
 * Backward: dx = dy Wᵀ, dW = xᵀ dy, db = Σ_rows dy.
 */
import { like, type Arr } from './arr';

export function linearForward(x: Arr, rows: number, inDim: number, w: Arr, b: Arr | null, outDim: number): Arr {
  const y = like(x, rows * outDim);
  for (let r = 0; r < rows; r++) {
    const yo = r * outDim;
    if (b) for (let o = 0; o < outDim; o++) y[yo + o] = b[o];
    for (let i = 0; i < inDim; i++) {
      const xi = x[r * inDim + i];
      if (xi === 0) continue;
      const wo = i * outDim;
      for (let o = 0; o < outDim; o++) y[yo + o] += xi * w[wo + o];
    }
  }
  return y;
}

export function linearBackward(
  x: Arr,
  rows: number,
  inDim: number,
  w: Arr,
  outDim: number,
  dy: Arr,
): { dx: Arr; dw: Arr; db: Arr } {
  const dx = like(x, rows * inDim);
  const dw = like(x, inDim * outDim);
  const db = like(x, outDim);
  for (let r = 0; r < rows; r++) {
    const yo = r * outDim;
    for (let o = 0; o < outDim; o++) db[o] += dy[yo + o];
    for (let i = 0; i < inDim; i++) {
      const wo = i * outDim;
      const xi = x[r * inDim + i];
      let s = 0;
      for (let o = 0; o < outDim; o++) {
        const g = dy[yo + o];
        s += g * w[wo + o];
        dw[wo + o] += xi * g;
      }
      dx[r * inDim + i] = s;
    }
  }
  return { dx, dw, db };
}
