/**
 * The plan of one row-statistics batch (analysis-backend.ts): where each variant's φ comes from, and
 * where every slot's rows, W rows and column offsets lie in the one packed buffer. Pure: no device.
 *
 * φ per variant:
 * - 'projection': the exp maps (positive, hyperbolic, exp — both sides) under a stabilizer without ε,
 *   where per-row shifts cancel (rowFeatures of attention-row-list-features.wgsl);
 * - 'direct': trig, relu, elu1, cosformer, taylor2, double-softmax, and oprf under ε = 0 (its one key
 *   shift then cancels), queries and keys under the same map (rowFeaturesDirect);
 * - otherwise the feature kernels ('kernels', favor-features.ts) or the twins ('twins', uploaded).
 * Layout: the GPU-written slots first, then the twins' and the exact slot (the host's one upload), then
 * the W rows of the projected and direct slots (once per W matrix) and double-softmax's column offsets.
 * The first projected slot with a W projects; the later projected slots with it, and the trig and relu
 * slots, read its u (`uFrom`) instead of projecting again.
 */
import type { FeatureVariant, RowProblem } from '../core/analysis-backend';
import { columnLogSums, featureDim, featureMapParam, scaleInputs, stabilizerEps } from '../core/feature-maps';
import { FEATURE_MAP_SPECS } from '../core/feature-map-specs';
import type { FeatureMapKind, Matrix } from '../core/types';
import {
  isDirectMap,
  packSlots,
  type BatchSlot,
  type DirectSlot,
  type ProjectedSlot,
} from './attention-row-list-batch';
import { EXP_MAPS } from './performer-exp';

export type PhiSource = 'projection' | 'direct' | 'kernels' | 'twins';

export interface RowBatchChoices {
  /** the exp maps' φ from their projection */
  projection: boolean;
  /** the direct maps' φ from the rows */
  direct: boolean;
  /** the rest from the twins (else from the feature kernels) */
  cpuFeatures: boolean;
}

export interface RowBatchPlan {
  source: PhiSource[];
  /** feature dimension m′ per variant */
  mps: number[];
  /** the slots as packed (layout order, the exact slot last), and their vec4 count */
  laid: { slots: BatchSlot[]; vec4s: number };
  /** per variant (then the exact one): its slot, twins' shared sides pointing at the first variant's rows */
  slots: BatchSlot[];
  projected: ProjectedSlot[];
  directSlots: DirectSlot[];
  /** each W matrix the GPU's φ reads, once, at its vec4 offset (the slots' wOff) */
  weights: Map<Matrix, number>;
  /** host rows past the slots: first vec4 → the d column offsets there */
  aux: Map<number, Float32Array>;
  /** every vec4 of the packed buffer (slots, W rows, offsets) */
  vec4s: number;
  /** the first vec4 the host writes: the first twins' slot, else the exact slot */
  hostFrom: number;
  /** a twins' variant whose query (key) side another variant already forms: that variant */
  qShared: (number | undefined)[];
  kShared: (number | undefined)[];
  /** the map's scalar (OPRF's A) for this problem, memoized */
  mapParam: (kind: FeatureMapKind) => number;
}

/** Whether a variant's φ comes from its projection (rowFeatures). */
function projectable(v: FeatureVariant): boolean {
  return stabilizerEps(v.stabilizer) === 0 && EXP_MAPS.includes(v.map) && EXP_MAPS.includes(v.keyMap ?? v.map);
}

/** Whether a variant's φ comes from the rows themselves (rowFeaturesDirect). */
function directable(v: FeatureVariant): boolean {
  return isDirectMap(v.map) && (v.keyMap ?? v.map) === v.map && (v.map !== 'oprf' || stabilizerEps(v.stabilizer) === 0);
}

export function planRowBatch(
  problem: RowProblem,
  variants: readonly FeatureVariant[],
  choices: RowBatchChoices,
): RowBatchPlan {
  const { q, k, rows, causal } = problem;
  const n = q.rows;
  const d = q.cols;
  const R = rows.length;
  const V = variants.length;
  const d4 = Math.ceil(d / 4);
  const mps = variants.map((v) => featureDim(v.map, v.w.rows, d));
  const source = variants.map((v): PhiSource =>
    choices.projection && projectable(v)
      ? 'projection'
      : choices.direct && directable(v)
        ? 'direct'
        : choices.cpuFeatures
          ? 'twins'
          : 'kernels',
  );
  const order = [...variants.keys()].sort((a, b) => Number(source[a] === 'twins') - Number(source[b] === 'twins'));
  const laid = packSlots(
    [...order.map((i) => ({ m4: Math.ceil(mps[i]! / 4), qFull: source[i] === 'kernels' })), { m4: d4, qFull: false }],
    n,
    R,
  );
  const slots: BatchSlot[] = variants.map((_, i) => ({
    ...laid.slots[order.indexOf(i)]!,
    scaled: source[i] === 'projection' || source[i] === 'direct',
  }));
  slots.push(laid.slots[V]!);
  let vec4s = laid.vec4s;
  const mapParams = new Map<FeatureMapKind, number>();
  const mapParam = (kind: FeatureMapKind) => {
    if (!mapParams.has(kind)) mapParams.set(kind, featureMapParam(kind, q, k, causal));
    return mapParams.get(kind)!;
  };

  // W rows once per matrix: slots projecting with the same W (a sweep's maps at one m and seed) read one copy
  const wAt = new Map<Matrix, number>();
  const wOffOf = (w: Matrix) => {
    let at = wAt.get(w);
    if (at === undefined) {
      wAt.set(w, (at = vec4s));
      vec4s += w.rows * d4;
    }
    return at;
  };
  const projected: ProjectedSlot[] = [];
  /** W → the first projected slot with it (the one that projects; a sweep batch has hundreds of slots) */
  const projects = new Map<Matrix, number>();
  variants.forEach((v, i) => {
    if (source[i] !== 'projection') return;
    const qs = FEATURE_MAP_SPECS[v.map];
    const ks = FEATURE_MAP_SPECS[v.keyMap ?? v.map];
    const leader = projects.get(v.w);
    if (leader === undefined) projects.set(v.w, i);
    projected.push({
      slot: i,
      m: v.w.rows,
      wOff: wOffOf(v.w),
      ratio: qs.ratio(v.w.rows),
      queryHyper: v.map === 'hyperbolic',
      queryNorm: qs.norm,
      keyHyper: (v.keyMap ?? v.map) === 'hyperbolic',
      keyNorm: ks.norm,
      ...(leader !== undefined ? { uFrom: leader } : {}),
    });
  });
  // the direct slots' W rows (projection maps) or column offsets (double-softmax's bidirectional keys)
  const directSlots: DirectSlot[] = [];
  const aux = new Map<number, Float32Array>();
  variants.forEach((v, i) => {
    if (source[i] !== 'direct' || !isDirectMap(v.map)) return;
    const spec = FEATURE_MAP_SPECS[v.map];
    // trig and relu are functions of u alone: with a projected slot's W they take its u (oprf also needs ‖ω‖²)
    const leader = v.map === 'trig' || v.map === 'relu' ? projects.get(v.w) : undefined;
    let wOff = vec4s;
    if (spec.projection) wOff = wOffOf(v.w);
    else if (v.map === 'double-softmax' && !causal) {
      aux.set(vec4s, columnLogSums(scaleInputs(k)));
      vec4s += d4;
    }
    directSlots.push({
      slot: i,
      map: v.map,
      m: spec.projection ? v.w.rows : 0,
      wOff,
      ratio: spec.ratio(v.w.rows),
      a: v.map === 'oprf' ? mapParam(v.map) : 0,
      causal,
      ...(leader !== undefined ? { uFrom: leader } : {}),
    });
  });
  // φ sides the twins form once per batch: a side is its map, W and stabilizer, so a variant whose
  // queries or keys another variant already has reads that one's rows (mapRows' λ check: the 'exp'
  // queries and 'positive' keys; normSweep's positive variants under the experiment's stabilizer)
  const wIds = new Map<Matrix, number>();
  const sideOf = (map: FeatureMapKind, v: FeatureVariant) => {
    if (!wIds.has(v.w)) wIds.set(v.w, wIds.size);
    return `${map}|${v.stabilizer}|${wIds.get(v.w)}`;
  };
  const firstQ = new Map<string, number>();
  const firstK = new Map<string, number>();
  const qShared: (number | undefined)[] = [];
  const kShared: (number | undefined)[] = [];
  variants.forEach((v, i) => {
    if (source[i] !== 'twins') return;
    const qs = sideOf(v.map, v);
    const ks = sideOf(v.keyMap ?? v.map, v);
    qShared[i] = firstQ.get(qs);
    kShared[i] = firstK.get(ks);
    if (qShared[i] === undefined) firstQ.set(qs, i);
    if (kShared[i] === undefined) firstK.set(ks, i);
  });
  variants.forEach((_, i) => {
    if (qShared[i] !== undefined) slots[i]!.qOff = slots[qShared[i]]!.qOff;
    if (kShared[i] !== undefined) slots[i]!.kOff = slots[kShared[i]]!.kOff;
  });
  const twinsAt = order.findIndex((i) => source[i] === 'twins');
  const hostFrom = (twinsAt < 0 ? laid.slots[V]! : laid.slots[twinsAt]!).qOff;
  return {
    source,
    mps,
    laid,
    slots,
    projected,
    directSlots,
    weights: wAt,
    aux,
    vec4s,
    hostFrom,
    qShared,
    kShared,
    mapParam,
  };
}
