/** One query row of Â under every feature map (the feature-map panel's per-map rows), and the λ-invariance. */
import { rowComparisonMaps } from '../../core/feature-maps';
import { oprfCausalA, oprfCausalRho, oprfParameter, oprfRho } from '../../core/feature-maps-beyond';
import { klDivergence, relativeError, rowEntropy, normalizedEntropy } from '../../core/metrics';
import { spread } from '../../core/sweeps';
import { FEATURE_MAPS } from '../../core/types';
import { readExternal } from '../external-inputs';
import { step, readParams, clampInt, backendOf, preparedQK } from './helpers';
import { memoProjection } from './input-memo';
import type { AnalysisContext, MapRowsPayload, MapRowsResult } from './types';

export async function mapRows(payload: MapRowsPayload, ctx: AnalysisContext): Promise<MapRowsResult> {
  const p = readParams(payload);
  const row = clampInt(payload.row, 0, p.n - 1, 0);
  const ext = readExternal(payload);
  const { inputs, x, y } = preparedQK(p, p.n, ext);
  // W as drawn for the positive map (every map that projects shares it; uploaded Q, K come with it drawn too)
  const w = memoProjection({ ...p, featureMap: 'positive' });
  const stab = p.stabilizer;
  const shown = rowComparisonMaps(w.rows, x.cols);
  // one batch: the row under every shown map, and 'exp' queries against 'positive' keys (the λ check)
  const b = await backendOf(ctx).rowStats(
    { q: inputs.q, k: inputs.k, rows: [row], causal: p.causal },
    [
      ...shown.map((map) => ({ map, w, stabilizer: stab })),
      { map: 'exp' as const, keyMap: 'positive' as const, w, stabilizer: stab },
    ],
    { fullRows: true },
  );
  const exact = b.exactRows![0]!;
  const maps: MapRowsResult['maps'] = [];
  let t = 0;
  const keys = p.causal ? row + 1 : p.n;
  for (const [i, map] of shown.entries()) {
    const values = b.variants[i]!.rows![0]!;
    maps.push({
      map,
      values,
      relError: relativeError(values, exact),
      kl: klDivergence(exact, values),
      entropy: normalizedEntropy(rowEntropy(values), keys),
    });
    await step(ctx, ++t, FEATURE_MAPS.length + 1, map);
  }
  const positive = maps.find((m) => m.map === 'positive')!.values;
  // 'exp' query features are the positive ones without exp(−‖x‖²/2) (and without m^{-1/2}).
  const queryNormDropped = relativeError(b.variants[shown.length]!.rows![0]!, positive);
  const bothNormsDropped = relativeError(maps.find((m) => m.map === 'exp')!.values, positive);
  const norms: number[] = [];
  for (let j = 0; j < y.rows; j++) {
    let s = 0;
    for (let c = 0; c < y.cols; c++) s += y.data[j * y.cols + c]! ** 2;
    norms.push(s);
  }
  const sp = spread(norms);
  await step(ctx, FEATURE_MAPS.length + 1, FEATURE_MAPS.length + 1, 'λ');
  return {
    row,
    n: p.n,
    causal: p.causal,
    exact,
    maps,
    lambda: { queryNormDropped, bothNormsDropped, keyNormSpread: sp.mean > 0 ? sp.std / sp.mean : 0 },
    // causal: the sequence-independent A (feature-maps-beyond.ts, oprfCausalA)
    oprf: p.causal
      ? { rho: oprfCausalRho(x.cols), a: oprfCausalA(x.cols) }
      : { rho: oprfRho(x, y), a: oprfParameter(x, y) },
  };
}
