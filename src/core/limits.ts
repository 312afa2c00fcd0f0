/** Product limits of the controls and the engine (device limits may be lower; the GPU backend checks those). */
export const LIMITS = {
  nMin: 1,
  nMax: 65_536,
  dMin: 1,
  dMax: 256,
  mMin: 1,
  mMax: 1_024,
  /** largest heatmap side */
  viewCellsMax: 512,
  /** largest feature dimension m′ (2·mMax for the two-block maps; bounds the Taylor map's 1 + d + d²: d ≤ 44) */
  featureDimMax: 2_048,
} as const;
