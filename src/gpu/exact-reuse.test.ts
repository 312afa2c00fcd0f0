import { describe, expect, it } from 'vitest';
import type { Matrix } from '../core/types';
import { exactSide, sameExactSide } from './exact-reuse';

const mat = (rows: number, cols: number, values: number[]): Matrix => ({
  rows,
  cols,
  data: Float32Array.from(values),
});
const buf = (label: string) => ({ label }) as unknown as GPUBuffer;

describe('exact-reuse', () => {
  const q = mat(2, 2, [1, 2, 3, 4]);
  const k = mat(2, 2, [5, 6, 7, 8]);
  const v = mat(2, 2, [0.5, -1, 2, 0]);
  const buffers = [buf('raw'), buf('part'), buf('out')];
  const kept = exactSide({ q, k, v }, false, buffers);
  const same = (inputs: { q: Matrix; k: Matrix; v: Matrix }, causal = false, bs = buffers) =>
    sameExactSide(kept, { inputs, causal, buffers: bs });

  it('keeps the side for the same Q, K, V (new arrays, equal bits), mask and buffers', () => {
    expect(same({ q: mat(2, 2, [1, 2, 3, 4]), k: mat(2, 2, [5, 6, 7, 8]), v: mat(2, 2, [0.5, -1, 2, 0]) })).toBe(true);
  });

  it('copies the inputs: a later change of the caller arrays does not move the kept side', () => {
    const q2 = mat(2, 2, [1, 2, 3, 4]);
    const side = exactSide({ q: q2, k, v }, false, buffers);
    q2.data[0] = 9;
    expect(sameExactSide(side, { inputs: { q: mat(2, 2, [1, 2, 3, 4]), k, v }, causal: false, buffers })).toBe(true);
  });

  it('drops it when one entry of Q, K or V differs, even −0 against 0', () => {
    expect(same({ q: mat(2, 2, [1, 2, 3, 4.000001]), k, v })).toBe(false);
    expect(same({ q, k: mat(2, 2, [5, 6, 7, 9]), v })).toBe(false);
    expect(same({ q, k, v: mat(2, 2, [0.5, -1, 2, -0]) })).toBe(false);
  });

  it('drops it for another shape, another mask or another buffer', () => {
    expect(same({ q: mat(1, 4, [1, 2, 3, 4]), k: mat(1, 4, [5, 6, 7, 8]), v: mat(1, 4, [0.5, -1, 2, 0]) })).toBe(false);
    expect(same({ q, k, v }, true)).toBe(false);
    expect(same({ q, k, v }, false, [buffers[0]!, buffers[1]!, buf('out, grown')])).toBe(false);
    expect(sameExactSide(null, { inputs: { q, k, v }, causal: false, buffers })).toBe(false);
  });
});
