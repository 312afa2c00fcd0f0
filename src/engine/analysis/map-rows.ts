/** One query row of Â under every feature map (the feature-map panel's per-map rows), and the λ-invariance. */
import { featureDim, keyFeatures, mapContext, queryFeatures, scaleInputs } from '../../core/feature-maps';
import { oprfCausalA, oprfCausalRho, oprfParameter, oprfRho } from '../../core/feature-maps-beyond';
import { LIMITS } from '../../core/limits';
import { generateInputs } from '../../core/inputs';
import { klDivergence, relativeError, rowEntropy, normalizedEntropy } from '../../core/metrics';
import { approxRowsOf, exactRowsOf, spread, subRows } from '../../core/sweeps';
import { FEATURE_MAPS, type FeatureMapKind } from '../../core/types';
import { externalInputs, readExternal } from '../external-inputs';
import { step, readParams, clampInt } from './helpers';
import type { AnalysisContext, MapRowsPayload, MapRowsResult } from './types';

export async function mapRows(payload: MapRowsPayload, ctx: AnalysisContext): Promise<MapRowsResult> {
  const p = readParams(payload);
  const row = clampInt(payload.row, 0, p.n - 1, 0);
  const ext = readExternal(payload);
  const inputs = ext
    ? externalInputs({ ...p, featureMap: 'positive' }, ext)
    : generateInputs({ ...p, featureMap: 'positive' });
  const x = scaleInputs(inputs.q);
  const y = scaleInputs(inputs.k);
  const w = inputs.w;
  const [exact] = exactRowsOf(inputs.q, inputs.k, [row], p.causal);
  const rowOf = (kq: FeatureMapKind, kk: FeatureMapKind = kq) =>
    approxRowsOf(
      queryFeatures(kq, subRows(x, [row]), w, p.stabilizer, { ...mapContext(kq, x, y, p.causal), positions: [row] }),
      keyFeatures(kk, y, w, p.stabilizer, mapContext(kk, x, y, p.causal)),
      [row],
      p.causal,
    )[0]!;
  const maps: MapRowsResult['maps'] = [];
  let t = 0;
  const keys = p.causal ? row + 1 : p.n;
  for (const map of FEATURE_MAPS) {
    if (map === 'hedgehog') continue; // needs a fitted W: shown by the Hedgehog training view
    if (featureDim(map, w.rows, x.cols) > LIMITS.featureDimMax) continue; // taylor2 at large d: refused everywhere
    const values = rowOf(map);
    maps.push({
      map,
      values,
      relError: relativeError(values, exact!),
      kl: klDivergence(exact!, values),
      entropy: normalizedEntropy(rowEntropy(values), keys),
    });
    await step(ctx, ++t, FEATURE_MAPS.length + 1, map);
  }
  const positive = maps.find((m) => m.map === 'positive')!.values;
  // 'exp' query features are the positive ones without exp(−‖x‖²/2) (and without m^{-1/2}).
  const queryNormDropped = relativeError(rowOf('exp', 'positive'), positive);
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
    exact: exact!,
    maps,
    lambda: { queryNormDropped, bothNormsDropped, keyNormSpread: sp.mean > 0 ? sp.std / sp.mean : 0 },
    // causal: the sequence-independent A (feature-maps-beyond.ts, oprfCausalA)
    oprf: p.causal
      ? { rho: oprfCausalRho(x.cols), a: oprfCausalA(x.cols) }
      : { rho: oprfRho(x, y), a: oprfParameter(x, y) },
  };
}
