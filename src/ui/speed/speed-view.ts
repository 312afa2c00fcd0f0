/**
 * What the speed panel draws, derived from a SpeedResult (pure): points per method sorted by n,
 * the measured rates, the measured and FLOP-model crossovers, the FLOP-model curves scaled by the
 * measured rates, and the CSV of every point.
 */
import {
  ATTENTION_METHODS,
  LAYER_METHODS,
  attentionFlops,
  findCrossover,
  largestPoint,
  modelMs,
  predictedCrossover,
  sweepLengths,
  type Crossover,
  type SpeedMethod,
  type SpeedPoint,
  type SpeedResult,
} from '../../core/speed-model';
import { fitLayerModel, layerModelCurves, type LayerModel } from '../../core/speed-layer-model';

export interface SpeedView {
  by: Record<SpeedMethod, SpeedPoint[]>;
  /** GFLOP/s at each method's largest n */
  rate: { exact: number | null; bidir: number | null; causal: number | null };
  crossover: Crossover;
  /** FLOP-model crossover with the measured rates (n = 2m′·R_exact/R_performer), and at equal rates (2m′) */
  predicted: number | null;
  predictedEqualRate: number;
  /** FLOP-model time curves over the sweep's n range */
  model: { exact: { x: number[]; y: number[] } | null; bidir: { x: number[]; y: number[] } | null };
  maxN: Partial<Record<SpeedMethod, number>>;
  /** layer time ÷ dummy-layer time at the n both measured */
  layerRatio: { exact: { x: number[]; y: number[] }; performer: { x: number[]; y: number[] } };
  /** the layer extrapolated at the measured rates (core/speed-layer-model.ts), over powers of √2 up to `top` */
  layerModel: {
    model: LayerModel;
    top: number;
    curves: ReturnType<typeof layerModelCurves>;
  } | null;
}

/**
 * Where the layer model is drawn to: 8× the largest measured layer n, and 4× the n where exact
 * attention equals the rest of the layer (so its ratio visibly leaves 1), as a power of two ≤ 2^17.
 */
export function layerModelTop(largestN: number, halfN: number | null): number {
  const want = Math.max(8 * largestN, halfN !== null ? 4 * halfN : 0);
  return 2 ** Math.min(17, Math.max(Math.ceil(Math.log2(want)), Math.ceil(Math.log2(largestN))));
}

export function speedView(r: SpeedResult): SpeedView {
  const by = Object.fromEntries(
    [...ATTENTION_METHODS, ...LAYER_METHODS].map((m) => [
      m,
      r.points.filter((p) => p.method === m).sort((a, b) => a.n - b.n),
    ]),
  ) as Record<SpeedMethod, SpeedPoint[]>;
  const rateOf = (m: SpeedMethod) => largestPoint(r.points, m)?.gflops ?? null;
  const rate = { exact: rateOf('exact'), bidir: rateOf('performer-bidirectional'), causal: rateOf('performer-causal') };
  const pts = (m: SpeedMethod) => by[m].map((p) => ({ n: p.n, ms: p.medianMs }));
  const crossover = findCrossover(pts('exact'), pts('performer-bidirectional'));
  const mp = r.m;
  const predicted = rate.exact && rate.bidir ? predictedCrossover(mp, rate.exact, rate.bidir) : null;
  const attN = r.points.filter((p) => !p.method.startsWith('layer-')).map((p) => p.n);
  const top = attN.length ? Math.max(...attN) : 64;
  const ns = sweepLengths(Math.max(6, Math.round(Math.log2(top))));
  const curve = (method: 'exact' | 'performer-bidirectional', g: number | null) =>
    g ? { x: ns, y: ns.map((n) => modelMs(attentionFlops(method, n, r.d, mp), g)) } : null;
  const maxN: SpeedView['maxN'] = {};
  for (const m of [...ATTENTION_METHODS, ...LAYER_METHODS]) {
    const last = by[m][by[m].length - 1];
    if (last) maxN[m] = last.n;
  }
  const ratio = (m: SpeedMethod) => {
    const dummy = new Map(by['layer-dummy'].map((p) => [p.n, p.medianMs]));
    const ps = by[m].filter((p) => dummy.has(p.n));
    return { x: ps.map((p) => p.n), y: ps.map((p) => p.medianMs / dummy.get(p.n)!) };
  };
  const layerPts = (m: SpeedMethod) => by[m].map((p) => ({ n: p.n, ms: p.medianMs }));
  // the layer's attention at the rates the attention sweep reached, for its heads (d_model / heads
  // wide): ms per n² (exact, 4n²·d_h FLOPs per head) and per n (Performer, 8n·m′·d_h)
  const cfg = r.layerConfig;
  const dh = cfg ? cfg.dModel / cfg.heads : 0;
  const N = 1024; // any n: the FLOP model is exactly quadratic / linear in n
  const fitted = fitLayerModel(layerPts('layer-dummy'), layerPts('layer-exact'), layerPts('layer-performer'), {
    cExact: cfg && rate.exact ? (cfg.heads * modelMs(attentionFlops('exact', N, dh, mp), rate.exact)) / (N * N) : null,
    cPerformer:
      cfg && rate.bidir
        ? (cfg.heads * modelMs(attentionFlops('performer-bidirectional', N, dh, mp), rate.bidir)) / N
        : null,
  });
  let layerModel: SpeedView['layerModel'] = null;
  if (fitted) {
    const largestN = Math.max(...LAYER_METHODS.flatMap((m) => by[m].map((p) => p.n)));
    const top = layerModelTop(largestN, fitted.exactHalfN);
    const ns: number[] = [];
    for (let k = 12; 2 ** (k / 2) <= top; k++) ns.push(Math.round(2 ** (k / 2)));
    layerModel = { model: fitted, top, curves: layerModelCurves(fitted, ns) };
  }
  return {
    by,
    rate,
    crossover,
    predicted,
    predictedEqualRate: predictedCrossover(mp),
    model: { exact: curve('exact', rate.exact), bidir: curve('performer-bidirectional', rate.bidir) },
    maxN,
    layerRatio: { exact: ratio('layer-exact'), performer: ratio('layer-performer') },
    layerModel,
  };
}

export const RESULT_COLUMNS = [
  'method',
  'n',
  'median_ms',
  'min_ms',
  'runs',
  'bytes',
  'gflops',
  'projections_ms',
  'attention_ms',
  'ffn_ms',
  'timing',
  'device',
  'd',
  'm',
] as const;

/** Every point of a run as table rows (RESULT_COLUMNS). */
export function resultRows(r: SpeedResult): (string | number | null)[][] {
  return r.points.map((p) => [
    p.method,
    p.n,
    p.medianMs,
    p.minMs,
    p.runs,
    p.bytes,
    p.gflops,
    p.parts?.projections ?? null,
    p.parts?.attention ?? null,
    p.parts?.ffn ?? null,
    r.timing,
    r.device,
    r.d,
    r.m,
  ]);
}
