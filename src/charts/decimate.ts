/** At most about this many points are drawn for one attention row. */
export const MAX_ROW_POINTS = 1_024;

/**
 * A long row reduced for drawing: the maximum of each bucket of `per` consecutive entries (peaks
 * survive, which is what attention rows are about), at the position where it occurs. Short rows
 * come back unchanged (per = 1).
 */
export function decimateMax(
  values: ArrayLike<number>,
  buckets: number = MAX_ROW_POINTS,
): { x: Float64Array; y: Float64Array; per: number } {
  const n = values.length;
  if (n <= buckets * 2) {
    const x = new Float64Array(n);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      x[i] = i;
      y[i] = values[i]!;
    }
    return { x, y, per: 1 };
  }
  const per = Math.ceil(n / buckets);
  const b = Math.ceil(n / per);
  const x = new Float64Array(b);
  const y = new Float64Array(b);
  for (let k = 0; k < b; k++) {
    let mx = -Infinity;
    let at = k * per;
    for (let i = k * per; i < Math.min(n, (k + 1) * per); i++) {
      if (values[i]! > mx) {
        mx = values[i]!;
        at = i;
      }
    }
    x[k] = at;
    y[k] = mx;
  }
  return { x, y, per };
}
