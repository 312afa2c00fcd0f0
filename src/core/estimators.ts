/**
 * What the comparison views need to know about each feature map and projection, beyond its math:
 * how it is drawn (random, deterministic or learned) and where it comes from (a citation key,
 * resolved to a reference by the UI; formulas are in the strings, names.mapTex). The tables are exhaustive records, so a new
 * `FeatureMapKind` or `ProjectionKind` does not type-check until it has its line here.
 *
 * `estimatorSet` is the list of estimators the "Beyond the Performer" panel compares on the same
 * inputs: every feature map (random ones with the experiment's projection) and positive features
 * under every other projection, so a new projection (e.g. simplex) is compared without more code.
 */
import { featureDim } from './feature-maps';
import { LIMITS } from './limits';
import { FEATURE_MAPS, PROJECTIONS, type FeatureMapKind, type ProjectionKind } from './types';

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

export const CITATION_KEYS: readonly CitationKey[] = [
  'choromanski2021',
  'su2021',
  'katharopoulos2020',
  'shen2021',
  'likhosherstov2022',
  'reid2023',
  'arora2024',
  'qin2022',
  'zhang2024',
];

export interface MapInfo {
  family: MapFamily;
  cite: CitationKey;
  /** drawn in the error panel's sweeps (the unbiased estimators of the softmax kernel) */
  sweeps: boolean;
}

export const MAP_INFO: Record<FeatureMapKind, MapInfo> = {
  positive: { family: 'random', cite: 'choromanski2021', sweeps: true },
  hyperbolic: { family: 'random', cite: 'choromanski2021', sweeps: true },
  trig: { family: 'random', cite: 'choromanski2021', sweeps: true },
  relu: { family: 'random', cite: 'choromanski2021', sweeps: false },
  elu1: { family: 'deterministic', cite: 'katharopoulos2020', sweeps: false },
  exp: { family: 'random', cite: 'su2021', sweeps: false },
  'double-softmax': { family: 'deterministic', cite: 'shen2021', sweeps: false },
  oprf: { family: 'random', cite: 'likhosherstov2022', sweeps: true },
  taylor2: { family: 'deterministic', cite: 'arora2024', sweeps: false },
  cosformer: { family: 'deterministic', cite: 'qin2022', sweeps: false },
  hedgehog: { family: 'learned', cite: 'zhang2024', sweeps: false },
};

export interface ProjectionInfo {
  cite: CitationKey;
}

export const PROJECTION_INFO: Record<ProjectionKind, ProjectionInfo> = {
  'orthogonal-chi': { cite: 'choromanski2021' },
  'orthogonal-sqrtd': { cite: 'choromanski2021' },
  iid: { cite: 'choromanski2021' },
  simplex: { cite: 'reid2023' },
};

/** One estimator of the comparison: a map, with a projection when its W is random. */
export interface EstimatorSpec {
  /** `map` for the maps themselves, `map@projection` for a projection variant */
  id: string;
  map: FeatureMapKind;
  /** null when the map has no random W */
  projection: ProjectionKind | null;
  family: MapFamily;
}

/**
 * Every map (random ones with `projection`), then positive features under each other projection.
 * Learned maps are left out — their W must be fitted first (the Hedgehog training view compares
 * them with random features) — and so are maps whose feature dimension at head dimension `d` is past
 * the limit (the second-order Taylor map at large d), which every path refuses.
 */
export function estimatorSet(projection: ProjectionKind, d: number): EstimatorSpec[] {
  const maps = FEATURE_MAPS.filter(
    (map) =>
      MAP_INFO[map].family !== 'learned' &&
      (MAP_INFO[map].family === 'random' || featureDim(map, 1, d) <= LIMITS.featureDimMax),
  ).map((map): EstimatorSpec => {
    const family = MAP_INFO[map].family;
    return { id: map, map, projection: family === 'random' ? projection : null, family };
  });
  const variants = PROJECTIONS.filter((p) => p !== projection).map((p): EstimatorSpec => ({
    id: `positive@${p}`,
    map: 'positive',
    projection: p,
    family: 'random',
  }));
  return [...maps, ...variants];
}

/** Feature dimension m' of an estimator at m projections and head dimension d. */
export function estimatorDim(e: EstimatorSpec, m: number, d: number): number {
  return featureDim(e.map, m, d);
}

/** The maps the error panel's sweeps draw. */
export const SWEEP_MAPS: readonly FeatureMapKind[] = FEATURE_MAPS.filter((m) => MAP_INFO[m].sweeps);
