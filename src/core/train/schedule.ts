/**
 * Learning rate at (0-based) step t of `steps`: linear warm-up lr·(t+1)/warmup for t < warmup, then
 * a cosine from lr down to 10% of lr at the last step:
 *   lr·(0.1 + 0.9·½(1 + cos(π·p))),  p = (t − warmup)/max(1, steps − 1 − warmup) ∈ [0, 1].
 * Warm-up keeps Adam's first, noisy second-moment estimates from taking full-size steps; the
 * decay lets the last steps settle (both standard for small transformers).
 */
import type { OptimizerConfig } from './types';

export function lrAt(opt: OptimizerConfig, step: number, steps: number): number {
  if (step < opt.warmup) return (opt.lr * (step + 1)) / opt.warmup;
  const span = Math.max(1, steps - 1 - opt.warmup);
  const p = Math.min(1, Math.max(0, (step - opt.warmup) / span));
  return opt.lr * (0.1 + 0.9 * 0.5 * (1 + Math.cos(Math.PI * p)));
}
