/**
 * Short causal convolution before the attention (Zoology / Based's "token shift"), per channel:
 *   shift: u_t = h_t + w ⊙ h_{t−1}                    (w: D)
 *   conv3: u_t = h_t + Σ_{s=0..2} c_s ⊙ h_{t−s}        (c: 3×D, row s multiplies h_{t−s})
 * h_{t−s} = 0 before the sequence start (t − s < 0), so sequences of a batch never mix.
 * Backward: dh_t = dy_t + Σ_s c_s ⊙ dy_{t+s} (t+s < L), dc_s = Σ_{b,t} dy_t ⊙ h_{t−s}.
 * The residual form (identity + learned taps initialized to 0) starts as "no conv", so turning the
 * toggle on never makes the initial model worse.
 */
import { like, type Arr } from './arr';
import type { ShortConv } from './types';

function taps(mode: Exclude<ShortConv, 'none'>): { n: number; first: number } {
  // shift has one tap at lag 1; conv3 has taps at lags 0, 1, 2
  return mode === 'shift' ? { n: 1, first: 1 } : { n: 3, first: 0 };
}

export function shortConvForward(
  x: Arr,
  B: number,
  L: number,
  D: number,
  mode: Exclude<ShortConv, 'none'>,
  w: Arr,
): Arr {
  const { n, first } = taps(mode);
  const y = like(x, x.length);
  y.set(x);
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < L; t++) {
      const o = (b * L + t) * D;
      for (let k = 0; k < n; k++) {
        const s = first + k;
        if (t - s < 0) continue;
        const src = (b * L + t - s) * D;
        for (let c = 0; c < D; c++) y[o + c] += w[k * D + c] * x[src + c];
      }
    }
  }
  return y;
}

export function shortConvBackward(
  x: Arr,
  B: number,
  L: number,
  D: number,
  mode: Exclude<ShortConv, 'none'>,
  w: Arr,
  dy: Arr,
): { dx: Arr; dw: Arr } {
  const { n, first } = taps(mode);
  const dx = like(x, x.length);
  dx.set(dy);
  const dw = like(x, n * D);
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < L; t++) {
      const o = (b * L + t) * D;
      for (let k = 0; k < n; k++) {
        const s = first + k;
        if (t - s < 0) continue;
        const src = (b * L + t - s) * D;
        for (let c = 0; c < D; c++) {
          dw[k * D + c] += dy[o + c] * x[src + c];
          dx[src + c] += w[k * D + c] * dy[o + c];
        }
      }
    }
  }
  return { dx, dw };
}
