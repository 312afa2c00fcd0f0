/**
 * One record per feature map: everything the CPU twins, the WGSL kernels and the comparison views
 * need to know about a map besides its formula. `FEATURE_MAP_SPECS` is a
 * `Record<FeatureMapKind, FeatureMapSpec>`, so a new `FeatureMapKind` does not type-check until it
 * has its record here; the WGSL map codes and flags (FM_<NAME> constants, fm_uses_w, fm_uses_norm,
 * fm_has_stats, …) are generated from these records (src/gpu/feature-map-wgsl.ts), not listed by
 * hand, and the CPU `features()` is an exhaustive switch. The formulas themselves: feature-maps.ts
 * (and feature-maps-beyond.ts); the steps of adding a map: ARCHITECTURE.md, "Adding a feature map".
 */
import { taylor2Dim } from './feature-maps-beyond';
import type { FeatureMapKind } from './types';

/**
 * random: W is drawn from the feature seed (error is a distribution over seeds); deterministic: no
 * W at all, or W does not change the map's meaning (one number); learned: W is fitted to the inputs.
 */
export type MapFamily = 'random' | 'deterministic' | 'learned';

/** Works the UI cites (keys of the `beyond.refs` strings). */
export type CitationKey =
  | 'choromanski2021'
  | 'su2021'
  | 'katharopoulos2020'
  | 'shen2021'
  | 'likhosherstov2022'
  | 'reid2023'
  | 'arora2024'
  | 'qin2022'
  | 'zhang2024';

/**
 * The stabilizer statistics a map needs (favor-features.ts dispatches them, the WGSL fm_stats reads
 * them):
 * - none:        no statistics (the map cannot overflow, or has no stabilizer: trig)
 * - max:         the max of the exponent per query row, one scalar max for all keys
 * - softmax:     double softmax: per query row (max, Σ exp) over the d coordinates; keys per
 *                coordinate over the positions (bidirectional) or one scalar max (causal)
 * - row-softmax: hedgehog: per row of both sides, (max, Σ exp) of each half
 */
export type MapStats = 'none' | 'max' | 'softmax' | 'row-softmax';

/** What a map needs beyond x and W: OPRF's parameter A, or the rows' positions (cosFormer). */
export type MapContextKind = 'none' | 'oprf-a' | 'positions';

export interface FeatureMapSpec {
  /** suffix of the WGSL constant FM_<wgsl> (its value is the map's index in FEATURE_MAPS) */
  wgsl: string;
  /** feature dimension m' at m projections and head dimension d */
  dim: (m: number, d: number) => number;
  /** columns the kernels tile over (u columns): m with a projection, otherwise d (taylor2: its m') */
  uColumns: (m: number, d: number) => number;
  /** the factor in front of every feature (m^{-1/2}, (2m)^{-1/2} or 1) */
  ratio: (m: number) => number;
  /** reads the random (or fitted) projection W; maps without one get a 0-row W */
  projection: boolean;
  /** uses the half squared norm ‖x‖²/2 */
  norm: boolean;
  stats: MapStats;
  /** adds the stabilizer's ε (stabilizer 'ref') to every feature */
  eps: boolean;
  context: MapContextKind;
  /** runs on the fused exp-of-projection fast path (performer-exp.ts) */
  fastPath: boolean;
  family: MapFamily;
  cite: CitationKey;
  /** drawn in the error panel's sweeps (the unbiased estimators of the softmax kernel) */
  sweeps: boolean;
}

const byM = (m: number): number => m;
const by2M = (m: number): number => 2 * m;
const byD = (_m: number, d: number): number => d;
const invSqrt = (m: number): number => 1 / Math.sqrt(m);
const one = (): number => 1;

/** The exponential maps of the paper: W, ‖x‖², max statistics, ε under 'ref'. */
const EXP_BASE = { projection: true, stats: 'max', eps: true, context: 'none', sweeps: true } as const;
/** The paper's other random-feature maps (trig, relu): W, no statistics, no ε. */
const RANDOM_PLAIN = {
  projection: true,
  stats: 'none',
  eps: false,
  context: 'none',
  fastPath: false,
  family: 'random',
  cite: 'choromanski2021',
} as const;
/** Maps without W, norms, ε or the fast path (each still states its stats and context). */
const PLAIN = {
  ratio: one,
  projection: false,
  norm: false,
  eps: false,
  fastPath: false,
  family: 'deterministic',
  sweeps: false,
} as const;

export const FEATURE_MAP_SPECS: Record<FeatureMapKind, FeatureMapSpec> = {
  positive: {
    ...EXP_BASE,
    wgsl: 'POSITIVE',
    dim: byM,
    uColumns: byM,
    ratio: invSqrt,
    norm: true,
    fastPath: true,
    family: 'random',
    cite: 'choromanski2021',
  },
  hyperbolic: {
    ...EXP_BASE,
    wgsl: 'HYPERBOLIC',
    dim: by2M,
    uColumns: byM,
    ratio: (m) => 1 / Math.sqrt(2 * m),
    norm: true,
    fastPath: true,
    family: 'random',
    cite: 'choromanski2021',
  },
  trig: { ...RANDOM_PLAIN, wgsl: 'TRIG', dim: by2M, uColumns: byM, ratio: invSqrt, norm: true, sweeps: true },
  relu: { ...RANDOM_PLAIN, wgsl: 'RELU', dim: byM, uColumns: byM, ratio: invSqrt, norm: false, sweeps: false },
  elu1: { ...PLAIN, wgsl: 'ELU1', dim: byD, uColumns: byD, stats: 'none', context: 'none', cite: 'katharopoulos2020' },
  exp: {
    ...EXP_BASE,
    wgsl: 'EXP',
    dim: byM,
    uColumns: byM,
    ratio: one,
    norm: false,
    fastPath: true,
    family: 'random',
    cite: 'su2021',
    sweeps: false,
  },
  'double-softmax': {
    ...PLAIN,
    wgsl: 'DSOFTMAX',
    dim: byD,
    uColumns: byD,
    stats: 'softmax',
    context: 'none',
    cite: 'shen2021',
  },
  oprf: {
    ...EXP_BASE,
    wgsl: 'OPRF',
    dim: byM,
    uColumns: byM,
    ratio: invSqrt,
    norm: true,
    context: 'oprf-a',
    fastPath: false,
    family: 'random',
    cite: 'likhosherstov2022',
  },
  taylor2: {
    ...PLAIN,
    wgsl: 'TAYLOR2',
    dim: (_m, d) => taylor2Dim(d),
    uColumns: (_m, d) => taylor2Dim(d),
    stats: 'none',
    context: 'none',
    cite: 'arora2024',
  },
  cosformer: {
    ...PLAIN,
    wgsl: 'COSFORMER',
    dim: (_m, d) => 2 * d,
    uColumns: byD,
    stats: 'none',
    context: 'positions',
    cite: 'qin2022',
  },
  hedgehog: {
    wgsl: 'HEDGEHOG',
    dim: by2M,
    uColumns: byM,
    ratio: one,
    projection: true,
    norm: false,
    stats: 'row-softmax',
    eps: false,
    context: 'none',
    fastPath: false,
    family: 'learned',
    cite: 'zhang2024',
    sweeps: false,
  },
};

/** The spec of one map. */
export function mapSpec(kind: FeatureMapKind): FeatureMapSpec {
  return FEATURE_MAP_SPECS[kind];
}

/** For the `default` branch of an exhaustive switch over a union: a compile error if a case is missing. */
export function unreachable(x: never): never {
  throw new Error(`unhandled case ${String(x)}`);
}
