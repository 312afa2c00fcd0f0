/**
 * What one head's exact attention looks like, measured (the head picker's line and the sentence on
 * what trained heads show): mean row entropy H(A_i) in nats (and the same for uniform causal rows,
 * its ceiling), effective rank exp(H(σ/Σσ)) of A (rank.ts), and FAVOR+'s relative Frobenius error
 * ‖Â − A‖_F / ‖A‖_F with m = 64, 128, 256, 512 positive random features (orthogonal, χ norms,
 * the shift stabilizer — the explainer's defaults), averaged over FAVOR_SEEDS draws of W.
 */
import { exactAttentionMatrix } from '../exact-attention';
import { linearAttentionMatrix, performerFeatures } from '../linear-attention';
import { relativeError, rowEntropy } from '../metrics';
import { randomProjection } from '../projections';
import { effectiveRank } from '../rank';
import { createRng, deriveSeed } from '../rng';
import { singularValues } from '../svd';
import type { Matrix } from '../types';
import type { HeadInputs } from './heads';

export const FAVOR_M = [64, 128, 256, 512] as const;
/** The m the picker's sentence quotes. */
export const SUMMARY_M = 256;
export const FAVOR_SEEDS = 4;

export interface HeadStats {
  /** mean over rows of H(A_i), nats */
  entropy: number;
  /** the same for uniform rows over the allowed keys (log(i + 1) causal, log n otherwise) */
  entropyUniform: number;
  effectiveRank: number;
  /** FAVOR+ relative error of A per m of FAVOR_M (mean over FAVOR_SEEDS draws) */
  favorError: number[];
}

/** FAVOR+ Â (positive features, orthogonal-chi W from `seed`) for Q, K. */
export function favorMatrix(q: Matrix, k: Matrix, m: number, seed: number, causal: boolean): Matrix {
  const w = randomProjection('orthogonal-chi', m, q.cols, createRng(deriveSeed(seed, 'w')));
  const { qf, kf } = performerFeatures({ q, k, v: q, w }, 'positive', 'shift', causal);
  return linearAttentionMatrix(qf, kf, causal);
}

export function headStats(head: Pick<HeadInputs, 'q' | 'k'>, causal: boolean): HeadStats {
  const a = exactAttentionMatrix(head.q, head.k, causal);
  const n = a.rows;
  let h = 0;
  let hu = 0;
  for (let i = 0; i < n; i++) {
    h += rowEntropy(a.data.subarray(i * n, (i + 1) * n));
    hu += Math.log(causal ? i + 1 : n);
  }
  const sigma = singularValues({ rows: n, cols: n, data: Float64Array.from(a.data) });
  const favorError = FAVOR_M.map((m) => {
    let e = 0;
    for (let s = 1; s <= FAVOR_SEEDS; s++) e += relativeError(favorMatrix(head.q, head.k, m, s, causal).data, a.data);
    return e / FAVOR_SEEDS;
  });
  return { entropy: h / n, entropyUniform: hu / n, effectiveRank: effectiveRank(sigma), favorError };
}
