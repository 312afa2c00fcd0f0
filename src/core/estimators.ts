/**
 * What the comparison views need to know about each feature map and projection, beyond its math:
 * how it is drawn (random, deterministic or learned) and where it comes from (a citation key,
 * resolved to a reference by the UI; formulas are in the strings, names.mapTex). A map's family,
 * citation and sweep flag live in its record in feature-map-specs.ts (MAP_INFO reads them); the
 * projections' table is an exhaustive record, so a new `ProjectionKind` does not type-check until it
 * has its line here.
 *
 * `estimatorSet` is the list of estimators the "Beyond the Performer" panel compares on the same
 * inputs: every feature map (random ones with the experiment's projection) and positive features
 * under every other projection, so a new projection (e.g. simplex) is compared without more code.
 */
import { FEATURE_MAP_SPECS, type CitationKey, type FeatureMapSpec, type MapFamily } from './feature-map-specs';
import { featureDim } from './feature-maps';
import { LIMITS } from './limits';
import { FEATURE_MAPS, PROJECTIONS, type FeatureMapKind, type ProjectionKind } from './types';

export type { CitationKey, MapFamily } from './feature-map-specs';

/** What the comparison views read of a map's record (FeatureMapSpec: family, citation, sweeps). */
export type MapInfo = Pick<FeatureMapSpec, 'family' | 'cite' | 'sweeps'>;

/** The maps' records (src/core/feature-map-specs.ts): one record per map, read here, not repeated. */
export const MAP_INFO: Record<FeatureMapKind, MapInfo> = FEATURE_MAP_SPECS;

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
