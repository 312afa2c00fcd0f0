/**
 * The grids the sweeps read from their payloads — dependency-free, so the client can split a sweep
 * over its grid (shards.ts) with exactly the grid the op itself would run.
 */

/** Norm scales of the error-vs-norm sweeps (the panels' default grid). */
export const DEFAULT_SCALES = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1, 1.25, 1.5, 1.75, 2];

/** `v` as a sorted grid of distinct finite values in [lo, hi] (rounded when `integer`), at most maxLen; `fallback` when none. */
export function cleanGrid(
  v: unknown,
  lo: number,
  hi: number,
  fallback: number[],
  integer = true,
  maxLen = 24,
): number[] {
  if (!Array.isArray(v)) return fallback;
  const g = v
    .filter((x): x is number => typeof x === 'number' && Number.isFinite(x) && x >= lo && x <= hi)
    .map((x) => (integer ? Math.round(x) : x));
  const out = [...new Set(g)].sort((a, b) => a - b).slice(0, maxLen);
  return out.length ? out : fallback;
}

/** The scale grid of a normSweep payload. */
export const normSweepScales = (payload: { scales?: unknown }): number[] =>
  cleanGrid(payload.scales, 0.01, 4, DEFAULT_SCALES, false);
