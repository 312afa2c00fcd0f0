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
} as const;
