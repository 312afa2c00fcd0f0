/**
 * Global-norm gradient clipping: ‖g‖ = √(Σ over every tensor and entry of g²); when ‖g‖ > max the
 * gradients are scaled in place by max/‖g‖ (one factor for all tensors, so the step direction is
 * kept). max = 0 turns clipping off (the norm is still returned, for the step record).
 */
import type { Arr } from './arr';

export function globalNorm(grads: readonly Arr[]): number {
  let s = 0;
  for (const g of grads) for (let i = 0; i < g.length; i++) s += g[i] * g[i];
  return Math.sqrt(s);
}

export function clipGrads(grads: readonly Arr[], max: number): { norm: number; scale: number } {
  const norm = globalNorm(grads);
  const scale = max > 0 && norm > max ? max / norm : 1;
  if (scale !== 1) for (const g of grads) for (let i = 0; i < g.length; i++) g[i] *= scale;
  return { norm, scale };
}
