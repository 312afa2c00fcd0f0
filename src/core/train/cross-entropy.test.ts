import { describe, expect, it } from 'vitest';
import { crossEntropyForward } from './cross-entropy';
import { gradCheck, randArr } from './grad-check';

describe('cross-entropy', () => {
  const rows = 4;
  const V = 5;
  const z = randArr(rows * V, 61, 2);
  const t = new Int32Array([1, 0, 4, 2]);
  const mask = new Uint8Array([1, 0, 1, 1]);

  it('the loss is the mean over masked rows only; uniform logits give log V', () => {
    const u = crossEntropyForward(new Float64Array(rows * V), rows, V, t, mask);
    expect(u.loss).toBeCloseTo(Math.log(V), 12);
    expect(u.count).toBe(3);
    // ties: argmax is index 0, which is the target of no masked row
    expect(u.correct).toBe(0);
  });

  it('dLogits (already divided by count) matches central finite differences; unmasked rows get 0', () => {
    const { dLogits } = crossEntropyForward(z, rows, V, t, mask);
    expect(gradCheck(() => crossEntropyForward(z, rows, V, t, mask).loss, z, dLogits)).toBeLessThan(1e-6);
    for (let c = 0; c < V; c++) expect(dLogits[V + c]).toBe(0);
  });
});
