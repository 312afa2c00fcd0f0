import { describe, expect, it } from 'vitest';
import { DEFAULT_PARAMS } from './default-params';
import { sameParams } from './same-params';
import type { AttentionParams } from './types';

describe('sameParams', () => {
  it('is true for equal parameter sets that are different objects', () => {
    expect(sameParams(DEFAULT_PARAMS, { ...DEFAULT_PARAMS })).toBe(true);
  });

  it('is false when any single field differs', () => {
    const changed: Partial<AttentionParams> = {
      n: DEFAULT_PARAMS.n + 1,
      d: DEFAULT_PARAMS.d + 1,
      m: DEFAULT_PARAMS.m + 1,
      seed: DEFAULT_PARAMS.seed + 1,
      featureSeed: DEFAULT_PARAMS.featureSeed + 1,
      featureMap: DEFAULT_PARAMS.featureMap === 'trig' ? 'positive' : 'trig',
      projection: DEFAULT_PARAMS.projection === 'iid' ? 'orthogonal-chi' : 'iid',
      causal: !DEFAULT_PARAMS.causal,
      input: DEFAULT_PARAMS.input === 'local' ? 'clustered' : 'local',
      scale: DEFAULT_PARAMS.scale + 0.05,
      stabilizer: DEFAULT_PARAMS.stabilizer === 'shift' ? 'ref' : 'shift',
    };
    // every field of the type is covered, so a field added later is compared too
    expect(Object.keys(changed).sort()).toEqual(Object.keys(DEFAULT_PARAMS).sort());
    for (const [k, v] of Object.entries(changed)) {
      expect(sameParams(DEFAULT_PARAMS, { ...DEFAULT_PARAMS, [k]: v }), k).toBe(false);
      expect(sameParams({ ...DEFAULT_PARAMS, [k]: v }, DEFAULT_PARAMS), k).toBe(false);
    }
  });
});
