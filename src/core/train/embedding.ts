/**
 * Token + position embedding: h[b·L + t] = E[tok[b·L + t]] + P[t] (E V×D, P Lmax×D).
 * Backward: dE[v] = Σ over positions holding token v of dh, dP[t] = Σ_b dh[b·L + t]
 * (dP has L rows; rows L … Lmax−1 of P get no gradient and are not returned).
 */
import { like, type Arr } from './arr';

export function embedForward(tokens: Int32Array, B: number, L: number, tokEmb: Arr, posEmb: Arr, D: number): Arr {
  const h = like(tokEmb, B * L * D);
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < L; t++) {
      const r = b * L + t;
      const e = tokens[r] * D;
      const p = t * D;
      for (let c = 0; c < D; c++) h[r * D + c] = tokEmb[e + c] + posEmb[p + c];
    }
  }
  return h;
}

/** dTok is V×D, dPos is L×D. */
export function embedBackward(
  tokens: Int32Array,
  B: number,
  L: number,
  V: number,
  D: number,
  dh: Arr,
): { dTok: Arr; dPos: Arr } {
  const dTok = like(dh, V * D);
  const dPos = like(dh, L * D);
  for (let b = 0; b < B; b++) {
    for (let t = 0; t < L; t++) {
      const r = b * L + t;
      const e = tokens[r] * D;
      for (let c = 0; c < D; c++) {
        const g = dh[r * D + c];
        dTok[e + c] += g;
        dPos[t * D + c] += g;
      }
    }
  }
  return { dTok, dPos };
}
