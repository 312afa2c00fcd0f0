/**
 * Linear attention with its backward, per head h (features columns h·F … of φq, φk; values h·dh …):
 *   out_i = Σ_j (φq_i·φk_j) v_j / den_i,  den_i = Σ_j φq_i·φk_j + δ,  δ = 1e-6.
 * Bidirectional: j over the whole sequence, through S = Σ_j φk_j v_jᵀ (F×dh) and z = Σ_j φk_j.
 * Causal: j ≤ i, through the prefix sums S_i, z_i — O(L·F·dh), no L×L matrix.
 * Window w > 0 (Su's local truncation): j with |i − j| < w (causal: i − w < j ≤ i), computed densely.
 * Backward, with g_i = dOut_i/den_i and e_i = −g_i·out_i (the gradient w.r.t. den_i):
 *   dφq_i = S_i g_i + z_i e_i,  dφk_j = R_j v_j + r_j,  dv_j = R_jᵀ φk_j,
 *   R_j = Σ_{i ≥ j} φq_i g_iᵀ, r_j = Σ_{i ≥ j} φq_i e_i (causal: suffix sums — the reverse prefix
 *   scan the GPU runs; bidirectional: the full sums). The dense window form uses dA_ij = g_i·v_j + e_i.
 */
import { like, type Arr } from './arr';

export const LA_DELTA = 1e-6;

function allowed(i: number, j: number, causal: boolean, window: number): boolean {
  if (causal && j > i) return false;
  return window <= 0 || Math.abs(i - j) < window;
}

/**
 * The key–value scan of one (b, h), shared by the forward and the backward's dφq pass: S, z =
 * Σ φk_j v_jᵀ, Σ φk_j over the whole sequence (bidirectional) or, causal, over j ≤ i (prefix sums)
 * when `visit(i)` is called, i = 0 … L − 1.
 */
function scanKV(
  S: Arr,
  z: Arr,
  phiK: Arr,
  v: Arr,
  s: { b: number; h: number; L: number; H: number; F: number; dh: number; causal: boolean },
  visit: (i: number) => void,
): void {
  const { F, dh } = s;
  S.fill(0);
  z.fill(0);
  const accumulate = (j: number) => {
    const ko = (s.b * s.L + j) * s.H * F + s.h * F;
    const vo = (s.b * s.L + j) * s.H * dh + s.h * dh;
    for (let f = 0; f < F; f++) {
      const kf = phiK[ko + f];
      z[f] += kf;
      for (let c = 0; c < dh; c++) S[f * dh + c] += kf * v[vo + c];
    }
  };
  if (!s.causal) for (let j = 0; j < s.L; j++) accumulate(j);
  for (let i = 0; i < s.L; i++) {
    if (s.causal) accumulate(i);
    visit(i);
  }
}

export function linearAttentionForward(
  phiQ: Arr,
  phiK: Arr,
  v: Arr,
  B: number,
  L: number,
  H: number,
  F: number,
  dh: number,
  causal: boolean,
  window: number,
): { out: Arr; den: Arr } {
  const HF = H * F;
  const D = H * dh;
  const out = like(v, B * L * D);
  const den = like(v, B * L * H);
  const S = like(v, F * dh);
  const z = like(v, F);
  for (let b = 0; b < B; b++) {
    for (let h = 0; h < H; h++) {
      const row = (t: number) => b * L + t;
      if (window > 0) {
        for (let i = 0; i < L; i++) {
          const qo = row(i) * HF + h * F;
          const oo = row(i) * D + h * dh;
          let dsum = LA_DELTA;
          for (let j = 0; j < L; j++) {
            if (!allowed(i, j, causal, window)) continue;
            const ko = row(j) * HF + h * F;
            let a = 0;
            for (let f = 0; f < F; f++) a += phiQ[qo + f] * phiK[ko + f];
            dsum += a;
            const vo = row(j) * D + h * dh;
            for (let c = 0; c < dh; c++) out[oo + c] += a * v[vo + c];
          }
          den[row(i) * H + h] = dsum;
          for (let c = 0; c < dh; c++) out[oo + c] /= dsum;
        }
        continue;
      }
      scanKV(S, z, phiK, v, { b, h, L, H, F, dh, causal }, (i) => {
        const qo = row(i) * HF + h * F;
        const oo = row(i) * D + h * dh;
        let dsum = LA_DELTA;
        for (let f = 0; f < F; f++) {
          const qf = phiQ[qo + f];
          if (qf === 0) continue;
          dsum += qf * z[f];
          for (let c = 0; c < dh; c++) out[oo + c] += qf * S[f * dh + c];
        }
        den[row(i) * H + h] = dsum;
        for (let c = 0; c < dh; c++) out[oo + c] /= dsum;
      });
    }
  }
  return { out, den };
}

export function linearAttentionBackward(
  phiQ: Arr,
  phiK: Arr,
  v: Arr,
  den: Arr,
  out: Arr,
  dOut: Arr,
  B: number,
  L: number,
  H: number,
  F: number,
  dh: number,
  causal: boolean,
  window: number,
): { dPhiQ: Arr; dPhiK: Arr; dv: Arr } {
  const HF = H * F;
  const D = H * dh;
  const dPhiQ = like(v, phiQ.length);
  const dPhiK = like(v, phiK.length);
  const dv = like(v, v.length);
  const g = like(v, L * dh);
  const e = like(v, L);
  const S = like(v, F * dh);
  const z = like(v, F);
  for (let b = 0; b < B; b++) {
    for (let h = 0; h < H; h++) {
      const row = (t: number) => b * L + t;
      for (let i = 0; i < L; i++) {
        const oo = row(i) * D + h * dh;
        const dn = den[row(i) * H + h];
        let ei = 0;
        for (let c = 0; c < dh; c++) {
          const gi = dOut[oo + c] / dn;
          g[i * dh + c] = gi;
          ei -= gi * out[oo + c];
        }
        e[i] = ei;
      }
      if (window > 0) {
        for (let i = 0; i < L; i++) {
          const qo = row(i) * HF + h * F;
          for (let j = 0; j < L; j++) {
            if (!allowed(i, j, causal, window)) continue;
            const ko = row(j) * HF + h * F;
            const vo = row(j) * D + h * dh;
            let a = 0;
            let dA = e[i];
            for (let c = 0; c < dh; c++) dA += g[i * dh + c] * v[vo + c];
            for (let f = 0; f < F; f++) {
              a += phiQ[qo + f] * phiK[ko + f];
              dPhiQ[qo + f] += dA * phiK[ko + f];
              dPhiK[ko + f] += dA * phiQ[qo + f];
            }
            for (let c = 0; c < dh; c++) dv[vo + c] += a * g[i * dh + c];
          }
        }
        continue;
      }
      // dφq_i = S_i g_i + z_i e_i (S_i: the prefix sums again, or the full sums)
      scanKV(S, z, phiK, v, { b, h, L, H, F, dh, causal }, (i) => {
        const qo = row(i) * HF + h * F;
        for (let f = 0; f < F; f++) {
          let acc = z[f] * e[i];
          for (let c = 0; c < dh; c++) acc += S[f * dh + c] * g[i * dh + c];
          dPhiQ[qo + f] = acc;
        }
      });
      // R_j, r_j: the reverse scan over queries (or the full sums)
      S.fill(0);
      z.fill(0);
      const accumulateQ = (i: number) => {
        const qo = row(i) * HF + h * F;
        for (let f = 0; f < F; f++) {
          const qf = phiQ[qo + f];
          if (qf === 0) continue;
          z[f] += qf * e[i];
          for (let c = 0; c < dh; c++) S[f * dh + c] += qf * g[i * dh + c];
        }
      };
      if (!causal) for (let i = 0; i < L; i++) accumulateQ(i);
      for (let j = L - 1; j >= 0; j--) {
        if (causal) accumulateQ(j);
        const ko = row(j) * HF + h * F;
        const vo = row(j) * D + h * dh;
        for (let f = 0; f < F; f++) {
          let acc = z[f];
          for (let c = 0; c < dh; c++) acc += S[f * dh + c] * v[vo + c];
          dPhiK[ko + f] = acc;
        }
        for (let c = 0; c < dh; c++) {
          let acc = 0;
          for (let f = 0; f < F; f++) acc += S[f * dh + c] * phiK[ko + f];
          dv[vo + c] = acc;
        }
      }
    }
  }
  return { dPhiQ, dPhiK, dv };
}
