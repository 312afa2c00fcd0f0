/**
 * The feature maps φ of the trained linear attention and their Jacobian-vector products, applied to
 * one head's slice x (rows×dh, rows = B·L) giving rows×F features (F = featureCount):
 *   positive (FAVOR+): x̃ = x/dh^{1/4}, φ_r = exp(w_r·x̃ − ‖x̃‖²/2 − c)/√m  (W m×dh fixed: drawn, never trained);
 *       c is a detached shift — the max exponent per row for queries, one max per sequence (b) over
 *       all its key rows for keys. Both cancel in the row normalization of Â (up to the δ of the
 *       denominator), so the backward treats c as a constant: ∂φ_r/∂x̃ = φ_r (w_r − x̃).
 *   elu1: elu(x)+1 (∂: 1 or eˣ);  relu: max(x, 0) (∂: [x > 0]);
 *   taylor2: [1, x̃, vec(x̃x̃ᵀ)/√2], x̃ = x/dh^{1/4}, so φ(q)·φ(k) = 1 + q·k/√dh + (q·k)²/(2dh)
 *       (the 2nd-order Taylor expansion of exp(q·k/√dh), Based's map);
 *   cosformer: [relu(x) cos(πt/2L), relu(x) sin(πt/2L)], t the position in its sequence, so
 *       φ(q_i)·φ(k_j) = relu(q_i)·relu(k_j) cos(π(i−j)/2L) (cosFormer's locality reweighting);
 *   hedgehog: s = x Wh + bh (Wh dh×m, bh m, trained), φ = [softmax(s) ‖ softmax(−s)];
 *       ∂: ds = p⊙(dp − p·dp) − p'⊙(dp' − p'·dp'), dx = ds Whᵀ, dWh = xᵀ ds, dbh = Σ ds.
 */
import { like, type Arr } from './arr';
import type { TrainFeatureMap } from './types';

export type FeatureSide = 'query' | 'key';

export interface FeatureOpts {
  /** sequence length (cosformer positions, the key shift's groups) */
  L: number;
  B: number;
  /** positive: W m×dh */
  w?: Arr;
  m: number;
  /** hedgehog: Wh dh×m and bh m of this head and side */
  hw?: Arr;
  hb?: Arr;
}

export function featureCount(map: TrainFeatureMap, m: number, dh: number): number {
  switch (map) {
    case 'positive':
      return m;
    case 'elu1':
    case 'relu':
      return dh;
    case 'taylor2':
      return 1 + dh + dh * dh;
    case 'cosformer':
      return 2 * dh;
    case 'hedgehog':
      return 2 * m;
  }
}

function need<T>(v: T | undefined, what: string): T {
  if (v === undefined) throw new RangeError(`feature map: missing ${what}`);
  return v;
}

function positiveForward(x: Arr, rows: number, dh: number, side: FeatureSide, o: FeatureOpts): Arr {
  const w = need(o.w, 'w');
  const m = o.m;
  const phi = like(x, rows * m);
  const s = 1 / Math.pow(dh, 0.25);
  // exponents first (into phi), then the shift, then exp
  for (let r = 0; r < rows; r++) {
    let n2 = 0;
    for (let c = 0; c < dh; c++) n2 += x[r * dh + c] * x[r * dh + c];
    n2 *= (s * s) / 2;
    for (let f = 0; f < m; f++) {
      let e = 0;
      for (let c = 0; c < dh; c++) e += w[f * dh + c] * x[r * dh + c];
      phi[r * m + f] = e * s - n2;
    }
  }
  const norm = 1 / Math.sqrt(m);
  const group = side === 'query' ? 1 : o.L; // rows sharing one shift
  for (let g0 = 0; g0 < rows; g0 += group) {
    let c = -Infinity;
    for (let i = g0 * m; i < (g0 + group) * m; i++) if (phi[i] > c) c = phi[i];
    for (let i = g0 * m; i < (g0 + group) * m; i++) phi[i] = Math.exp(phi[i] - c) * norm;
  }
  return phi;
}

function hedgehogForward(x: Arr, rows: number, dh: number, o: FeatureOpts): Arr {
  const hw = need(o.hw, 'hw');
  const hb = need(o.hb, 'hb');
  const m = o.m;
  const phi = like(x, rows * 2 * m);
  const s = like(x, m);
  for (let r = 0; r < rows; r++) {
    let max = -Infinity;
    let min = Infinity;
    for (let f = 0; f < m; f++) {
      let e = hb[f];
      for (let c = 0; c < dh; c++) e += x[r * dh + c] * hw[c * m + f];
      s[f] = e;
      if (e > max) max = e;
      if (e < min) min = e;
    }
    let zp = 0;
    let zn = 0;
    for (let f = 0; f < m; f++) {
      zp += Math.exp(s[f] - max);
      zn += Math.exp(min - s[f]);
    }
    for (let f = 0; f < m; f++) {
      phi[r * 2 * m + f] = Math.exp(s[f] - max) / zp;
      phi[r * 2 * m + m + f] = Math.exp(min - s[f]) / zn;
    }
  }
  return phi;
}

export function featureForward(
  map: TrainFeatureMap,
  x: Arr,
  rows: number,
  dh: number,
  side: FeatureSide,
  opts: FeatureOpts,
): Arr {
  if (map === 'positive') return positiveForward(x, rows, dh, side, opts);
  if (map === 'hedgehog') return hedgehogForward(x, rows, dh, opts);
  const F = featureCount(map, opts.m, dh);
  const phi = like(x, rows * F);
  const s = 1 / Math.pow(dh, 0.25);
  for (let r = 0; r < rows; r++) {
    const xo = r * dh;
    const po = r * F;
    if (map === 'elu1') {
      for (let c = 0; c < dh; c++) {
        const v = x[xo + c];
        phi[po + c] = v > 0 ? v + 1 : Math.exp(v);
      }
    } else if (map === 'relu') {
      for (let c = 0; c < dh; c++) phi[po + c] = Math.max(x[xo + c], 0);
    } else if (map === 'cosformer') {
      const a = (Math.PI * (r % opts.L)) / (2 * opts.L);
      const ca = Math.cos(a);
      const sa = Math.sin(a);
      for (let c = 0; c < dh; c++) {
        const v = Math.max(x[xo + c], 0);
        phi[po + c] = v * ca;
        phi[po + dh + c] = v * sa;
      }
    } else {
      phi[po] = 1;
      for (let a = 0; a < dh; a++) phi[po + 1 + a] = x[xo + a] * s;
      for (let a = 0; a < dh; a++) {
        for (let b = 0; b < dh; b++) {
          phi[po + 1 + dh + a * dh + b] = (x[xo + a] * s * x[xo + b] * s) / Math.SQRT2;
        }
      }
    }
  }
  return phi;
}

export function featureBackward(
  map: TrainFeatureMap,
  x: Arr,
  rows: number,
  dh: number,
  _side: FeatureSide,
  opts: FeatureOpts,
  phi: Arr,
  dPhi: Arr,
): { dx: Arr; dhw?: Arr; dhb?: Arr } {
  const dx = like(x, rows * dh);
  const s = 1 / Math.pow(dh, 0.25);
  const F = featureCount(map, opts.m, dh);
  if (map === 'hedgehog') {
    const hw = need(opts.hw, 'hw');
    const m = opts.m;
    const dhw = like(x, dh * m);
    const dhb = like(x, m);
    const ds = like(x, m);
    for (let r = 0; r < rows; r++) {
      const po = r * 2 * m;
      let dotP = 0;
      let dotN = 0;
      for (let f = 0; f < m; f++) {
        dotP += phi[po + f] * dPhi[po + f];
        dotN += phi[po + m + f] * dPhi[po + m + f];
      }
      for (let f = 0; f < m; f++) {
        ds[f] = phi[po + f] * (dPhi[po + f] - dotP) - phi[po + m + f] * (dPhi[po + m + f] - dotN);
        dhb[f] += ds[f];
      }
      for (let c = 0; c < dh; c++) {
        const xv = x[r * dh + c];
        let acc = 0;
        for (let f = 0; f < m; f++) {
          acc += ds[f] * hw[c * m + f];
          dhw[c * m + f] += xv * ds[f];
        }
        dx[r * dh + c] = acc;
      }
    }
    return { dx, dhw, dhb };
  }
  for (let r = 0; r < rows; r++) {
    const xo = r * dh;
    const po = r * F;
    if (map === 'positive') {
      const w = need(opts.w, 'w');
      // dx̃ = Σ_f dφ_f φ_f (w_f − x̃), then dx = dx̃ · s
      let tot = 0;
      for (let f = 0; f < opts.m; f++) {
        const gp = dPhi[po + f] * phi[po + f];
        tot += gp;
        for (let c = 0; c < dh; c++) dx[xo + c] += gp * w[f * dh + c];
      }
      for (let c = 0; c < dh; c++) dx[xo + c] = (dx[xo + c] - tot * x[xo + c] * s) * s;
    } else if (map === 'elu1') {
      for (let c = 0; c < dh; c++) {
        const v = x[xo + c];
        dx[xo + c] = dPhi[po + c] * (v > 0 ? 1 : Math.exp(v));
      }
    } else if (map === 'relu') {
      for (let c = 0; c < dh; c++) dx[xo + c] = x[xo + c] > 0 ? dPhi[po + c] : 0;
    } else if (map === 'cosformer') {
      const a = (Math.PI * (r % opts.L)) / (2 * opts.L);
      const ca = Math.cos(a);
      const sa = Math.sin(a);
      for (let c = 0; c < dh; c++) {
        dx[xo + c] = x[xo + c] > 0 ? dPhi[po + c] * ca + dPhi[po + dh + c] * sa : 0;
      }
    } else {
      for (let a = 0; a < dh; a++) {
        let g = dPhi[po + 1 + a];
        for (let b = 0; b < dh; b++) {
          const xb = x[xo + b] * s;
          g += ((dPhi[po + 1 + dh + a * dh + b] + dPhi[po + 1 + dh + b * dh + a]) * xb) / Math.SQRT2;
        }
        dx[xo + a] = g * s;
      }
    }
  }
  return { dx };
}
