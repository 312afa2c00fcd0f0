/**
 * Exact multi-head softmax attention, per head h (columns h·dh … of Q, K, V):
 *   S_ij = q_i·k_j / √dh (causal: j ≤ i only),  P = softmax_rows(S),  O_i = Σ_j P_ij v_j.
 * The forward keeps P (B·H·L·L, row-stochastic) for the backward and for the attention maps:
 *   dV = Pᵀ dO,  dP_ij = dO_i·v_j,  dS_ij = P_ij (dP_ij − Σ_j' P_ij' dP_ij'),
 *   dQ = dS K / √dh,  dK = dSᵀ Q / √dh.
 */
import { like, type Arr } from './arr';

export function softmaxAttentionForward(
  q: Arr,
  k: Arr,
  v: Arr,
  B: number,
  L: number,
  H: number,
  dh: number,
  causal: boolean,
): { out: Arr; p: Arr } {
  const D = H * dh;
  const out = like(q, B * L * D);
  const p = like(q, B * H * L * L);
  const scale = 1 / Math.sqrt(dh);
  for (let b = 0; b < B; b++) {
    for (let h = 0; h < H; h++) {
      const pb = (b * H + h) * L * L;
      for (let i = 0; i < L; i++) {
        const qi = (b * L + i) * D + h * dh;
        const jEnd = causal ? i + 1 : L;
        let max = -Infinity;
        for (let j = 0; j < jEnd; j++) {
          const kj = (b * L + j) * D + h * dh;
          let s = 0;
          for (let c = 0; c < dh; c++) s += q[qi + c] * k[kj + c];
          s *= scale;
          p[pb + i * L + j] = s;
          if (s > max) max = s;
        }
        // subtract the row max before exp: softmax is shift-invariant and exp cannot overflow
        let sum = 0;
        for (let j = 0; j < jEnd; j++) {
          const e = Math.exp(p[pb + i * L + j] - max);
          p[pb + i * L + j] = e;
          sum += e;
        }
        for (let j = 0; j < jEnd; j++) {
          const pij = p[pb + i * L + j] / sum;
          p[pb + i * L + j] = pij;
          const vj = (b * L + j) * D + h * dh;
          for (let c = 0; c < dh; c++) out[qi + c] += pij * v[vj + c];
        }
      }
    }
  }
  return { out, p };
}

export function softmaxAttentionBackward(
  q: Arr,
  k: Arr,
  v: Arr,
  p: Arr,
  dOut: Arr,
  B: number,
  L: number,
  H: number,
  dh: number,
  causal: boolean,
): { dq: Arr; dk: Arr; dv: Arr } {
  const D = H * dh;
  const dq = like(q, q.length);
  const dk = like(q, k.length);
  const dv = like(q, v.length);
  const scale = 1 / Math.sqrt(dh);
  const dp = like(q, L);
  for (let b = 0; b < B; b++) {
    for (let h = 0; h < H; h++) {
      const pb = (b * H + h) * L * L;
      for (let i = 0; i < L; i++) {
        const oi = (b * L + i) * D + h * dh;
        const jEnd = causal ? i + 1 : L;
        let dot = 0;
        for (let j = 0; j < jEnd; j++) {
          const vj = (b * L + j) * D + h * dh;
          const pij = p[pb + i * L + j];
          let s = 0;
          for (let c = 0; c < dh; c++) {
            s += dOut[oi + c] * v[vj + c];
            dv[vj + c] += pij * dOut[oi + c];
          }
          dp[j] = s;
          dot += pij * s;
        }
        for (let j = 0; j < jEnd; j++) {
          const ds = p[pb + i * L + j] * (dp[j] - dot) * scale;
          if (ds === 0) continue;
          const kj = (b * L + j) * D + h * dh;
          for (let c = 0; c < dh; c++) {
            dq[oi + c] += ds * k[kj + c];
            dk[kj + c] += ds * q[oi + c];
          }
        }
      }
    }
  }
  return { dq, dk, dv };
}
