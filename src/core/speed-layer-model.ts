/**
 * Extrapolation of the one-layer timings past the largest n a run reached, at the rates it
 * measured. On a slow backend (SwiftShader, the CPU twins) the layer's matrix products cost
 * ~4·d_model·(d_model + d_ff) FLOPs per token, so attention only starts to matter at a few thousand
 * tokens — further than a short run gets. The model separates what the run did measure:
 *   dummy layer      t_d(n) = a·n                   (projections + feed-forward: linear in n)
 *   exact layer      t_e(n) = a·n + c_e·n²          (plus softmax attention: quadratic)
 *   Performer layer  t_p(n) = a·n + c_p·n           (plus linear attention: linear)
 * a from the dummy layer's largest point. c_e and c_p preferably from the attention sweep of the
 * same run (`attention`: its GFLOP/s at its largest n, which reaches much further than the layer,
 * applied to the layer's heads), else from each layer's largest point minus the dummy part at that
 * n (never below 0) — at small n that difference is mostly overhead, so it is the fallback. Then
 * t_e/t_d = 1 + (c_e/a)·n grows without bound while t_p/t_d = 1 + c_p/a stays flat, and attention
 * is half of the exact layer at n½ = a/c_e.
 */

export interface TimedN {
  n: number;
  ms: number;
}

export interface LayerModel {
  /** ms per token of the dummy layer */
  a: number;
  /** ms per token² of exact attention in the layer */
  cExact: number;
  /** ms per token of Performer attention in the layer */
  cPerformer: number;
  /** n where exact attention costs as much as the rest of the layer (t_e = 2·t_d); null when c_e = 0 */
  exactHalfN: number | null;
}

function largest(points: readonly TimedN[]): TimedN | null {
  let best: TimedN | null = null;
  for (const p of points) if (p.n > 0 && p.ms > 0 && Number.isFinite(p.ms) && (!best || p.n > best.n)) best = p;
  return best;
}

/**
 * The model from the measured layer points (and the attention sweep's costs per n² / per n when
 * given), or null when the dummy layer or both other layers lack a point.
 */
export function fitLayerModel(
  dummy: readonly TimedN[],
  exact: readonly TimedN[],
  performer: readonly TimedN[],
  attention: { cExact?: number | null; cPerformer?: number | null } = {},
): LayerModel | null {
  const d = largest(dummy);
  if (!d) return null;
  const a = d.ms / d.n;
  const e = largest(exact);
  const p = largest(performer);
  if (!e && !p) return null;
  const given = (c: number | null | undefined) =>
    c !== null && c !== undefined && c > 0 && Number.isFinite(c) ? c : null;
  const cExact = given(attention.cExact) ?? (e ? Math.max(0, e.ms - a * e.n) / (e.n * e.n) : 0);
  const cPerformer = given(attention.cPerformer) ?? (p ? Math.max(0, p.ms - a * p.n) / p.n : 0);
  return { a, cExact, cPerformer, exactHalfN: cExact > 0 ? a / cExact : null };
}

export type LayerKind = 'exact' | 'performer' | 'dummy';

/** Modelled layer time (ms) at n. */
export function layerModelMs(model: LayerModel, kind: LayerKind, n: number): number {
  const base = model.a * n;
  if (kind === 'exact') return base + model.cExact * n * n;
  if (kind === 'performer') return base + model.cPerformer * n;
  return base;
}

/** Modelled curves (time, and ratio to the dummy layer) over `ns`, for the kinds that were fitted. */
export function layerModelCurves(
  model: LayerModel,
  ns: readonly number[],
): Record<'exact' | 'performer', { x: number[]; ms: number[]; ratio: number[] }> {
  const curve = (kind: 'exact' | 'performer') => ({
    x: [...ns],
    ms: ns.map((n) => layerModelMs(model, kind, n)),
    ratio: ns.map((n) => layerModelMs(model, kind, n) / layerModelMs(model, 'dummy', n)),
  });
  return { exact: curve('exact'), performer: curve('performer') };
}
