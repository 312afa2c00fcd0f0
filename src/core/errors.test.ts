import { describe, expect, it } from 'vitest';
import { retryCanHelp } from './errors';

describe('retryCanHelp', () => {
  it('is false for the codes the parameters, inputs or limits decide (the same request fails the same way)', () => {
    for (const code of ['invalid-size', 'exceeds-limit', 'non-finite-input', 'shape-mismatch', 'non-finite-result'])
      expect(retryCanHelp(code)).toBe(false);
  });
  it('is true after a lost device, a GPU validation error, a bug, or a code it does not know', () => {
    for (const code of ['device-lost', 'gpu-validation', 'internal', 'hedgehog-not-fitted', 'something-new'])
      expect(retryCanHelp(code)).toBe(true);
  });
});
