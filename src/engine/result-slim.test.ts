import { describe, expect, it } from 'vitest';
import { DEFAULT_PARAMS } from '../core/default-params';
import type { AttentionParams } from '../core/types';
import { compute } from './compute';
import { createCpuBackend } from './cpu-backend';
import { slimResult } from './protocol';

const params: AttentionParams = { ...DEFAULT_PARAMS, n: 64, d: 8, m: 16, input: 'gaussian', scale: 0.5 };

/** Every Float32Array reachable from a value, with its length. */
function floatArrays(value: unknown, out: number[] = []): number[] {
  if (value instanceof Float32Array) out.push(value.length);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) floatArrays(v, out);
  return out;
}

describe('slimResult (what a compute result sends to the main thread)', () => {
  it('keeps what the panels read and drops the inputs, the n×d outputs and the per-row statistics', async () => {
    const full = await compute(
      3,
      { params, viewCells: 16, rowStats: true, rows: [0, 63] },
      createCpuBackend('unit test'),
    );
    const slim = slimResult(full);
    expect(Object.keys(slim).sort()).toEqual(['backend', 'elapsedMs', 'id', 'metrics', 'output', 'params']);
    expect(Object.keys(slim.output).sort()).toEqual([
      'bytesAllocated',
      'rows',
      'timings',
      'view',
      'zeroNormalizerRows',
    ]);
    expect(slim.id).toBe(3);
    expect(slim.params).toEqual(params);
    expect(slim.metrics).toEqual(full.metrics);
    expect(slim.output.view).toBe(full.output.view);
    expect(slim.output.rows.map((r) => r.index)).toEqual([0, 63]);
    expect(slim.output.zeroNormalizerRows).toBe(0);
    // Only the 16×16 view (3 arrays) and the two pinned rows (exact + approx, n each) remain: no n×d
    // output, no input, no per-row statistics.
    const lengths = floatArrays(slim);
    expect(lengths).toEqual([256, 256, 256, 64, 64, 64, 64]);
    expect(floatArrays(full).some((len) => len === params.n * params.d)).toBe(true);
  });
});
