/**
 * When an error sweep says nothing about its own axis: at large norms (the defaults' s = 1.5 on local
 * inputs) FAVOR+'s Â misses A whatever m or d, the relative Frobenius error sits near 1 at every grid
 * point, and the figure is a flat line whose caption promises a slope. The panel then says so, with
 * the range it measured, instead of leaving the reader to wonder where the 1/√m went.
 */

/** A relative Frobenius error of A at or above this misses most of A (1: as far off as Â = 0). */
export const SATURATED_ERROR = 0.7;

/** True when the sweep has a finite value and every finite value is at least `floor`. */
export function saturatedSweep(values: ArrayLike<number>, floor = SATURATED_ERROR): boolean {
  let any = false;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v)) continue;
    if (v < floor) return false;
    any = true;
  }
  return any;
}
