import { describe, expect, it } from 'vitest';
import { bucketSize } from './allocator';
import { dispatchGrid } from './pipelines';

describe('dispatchGrid', () => {
  it('keeps small dispatches one-dimensional', () => {
    expect(dispatchGrid(1)).toEqual([1, 1]);
    expect(dispatchGrid(65_535)).toEqual([65_535, 1]);
  });
  it('never asks for zero workgroups', () => {
    expect(dispatchGrid(0)).toEqual([1, 1]);
  });
  it('splits over y when x would exceed the per-dimension limit, covering every group', () => {
    for (const groups of [65_536, 100_000, 4_194_304]) {
      const [x, y] = dispatchGrid(groups);
      expect(x).toBeLessThanOrEqual(65_535);
      expect(y).toBeLessThanOrEqual(65_535);
      expect(x * y).toBeGreaterThanOrEqual(groups);
      expect(x * (y - 1)).toBeLessThan(groups);
    }
  });
});

describe('bucketSize', () => {
  it('is at least the request, 4-byte aligned, and wastes at most 12.5 % beyond 256 bytes', () => {
    for (const bytes of [1, 4, 255, 256, 257, 1000, 4096, 4097, 123_456, 1 << 26]) {
      const b = bucketSize(bytes);
      expect(b).toBeGreaterThanOrEqual(bytes);
      expect(b % 4).toBe(0);
      if (bytes > 256) expect(b / bytes).toBeLessThanOrEqual(1.125 + 1e-9);
    }
  });
  it('maps nearby sizes to the same bucket, so small changes of n reuse buffers', () => {
    expect(bucketSize(64 * 16 * 4)).toBe(bucketSize(63 * 16 * 4));
  });
});
