import type { AttentionParams } from './types';

/**
 * The reference experiment. It sits where FAVOR+ approximates well (performer-facts.md: s = 0.5,
 * d = 16, m = 64 gives ≈ 0.3 relative error of A) and every backend answers within a frame or two;
 * the app starts here and the tests vary it. Lives in core so every layer's tests share one copy.
 */
export const DEFAULT_PARAMS: Readonly<AttentionParams> = Object.freeze({
  n: 256,
  d: 16,
  m: 64,
  seed: 1,
  featureSeed: 1,
  featureMap: 'positive',
  projection: 'orthogonal-chi',
  causal: false,
  input: 'gaussian',
  scale: 0.5,
});
