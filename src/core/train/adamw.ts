/**
 * AdamW (Loshchilov & Hutter), in place, with the decoupled weight decay scaled by lr:
 *   m ← β₁m + (1−β₁)g,  v ← β₂v + (1−β₂)g²,  m̂ = m/(1−β₁ᵗ),  v̂ = v/(1−β₂ᵗ),
 *   p ← p − lr·(m̂/(√v̂ + ε) + (decay ? wd·p : 0))          (t is 1-based)
 * Every intermediate is rounded to f32 (Math.fround) in the order written, so this twin follows the
 * WGSL kernel's f32 arithmetic operation by operation.
 */
import type { OptimizerConfig } from './types';

const f = Math.fround;

export function adamwStep(
  p: Float32Array,
  g: Float32Array,
  m: Float32Array,
  v: Float32Array,
  t: number,
  lr: number,
  cfg: OptimizerConfig,
  decay: boolean,
): void {
  const b1 = f(cfg.beta1);
  const b2 = f(cfg.beta2);
  const c1 = f(1 - f(Math.pow(b1, t)));
  const c2 = f(1 - f(Math.pow(b2, t)));
  const eps = f(cfg.eps);
  const wd = decay ? f(cfg.weightDecay) : 0;
  const rate = f(lr);
  for (let i = 0; i < p.length; i++) {
    const gi = g[i];
    const mi = f(f(b1 * m[i]) + f(f(1 - b1) * gi));
    const vi = f(f(b2 * v[i]) + f(f(1 - b2) * f(gi * gi)));
    m[i] = mi;
    v[i] = vi;
    const mh = f(mi / c1);
    const vh = f(vi / c2);
    const upd = f(f(mh / f(f(Math.sqrt(vh)) + eps)) + f(wd * p[i]));
    p[i] = f(p[i] - f(rate * upd));
  }
}
