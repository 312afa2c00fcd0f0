// The attention parameters the kernel driver pages start from (small Gaussian inputs, positive
// features, the 'shift' stabilizer): a case names n, d and whatever else it varies.
import type { AttentionParams } from '../../src/core/types';

export function params(p: Partial<AttentionParams> & { n: number; d: number }): AttentionParams {
  return {
    m: 16,
    seed: 1,
    featureSeed: 2,
    featureMap: 'positive',
    projection: 'orthogonal-chi',
    causal: false,
    input: 'gaussian',
    scale: 0.5,
    stabilizer: 'shift',
    ...p,
  };
}
