import { describe, expect, it } from 'vitest';
import type { AttentionJob } from '../core/attention-job';
import { EngineError } from '../core/errors';
import { checkJobLimits, plannedBuffers } from './job-plan';

function job(n: number, d: number, m: number, extra: Partial<AttentionJob> = {}): AttentionJob {
  const z = (r: number, c: number) => ({ rows: r, cols: c, data: new Float32Array(r * c) });
  return {
    inputs: { q: z(n, d), k: z(n, d), v: z(n, d), w: z(m, d) },
    featureMap: 'hyperbolic',
    causal: false,
    viewCells: 0,
    rowStats: false,
    rows: [],
    ...extra,
  };
}

const limits = (bytes: number) =>
  ({ maxStorageBufferBindingSize: bytes, maxBufferSize: 2 ** 32 }) as unknown as GPUSupportedLimits;

describe('checkJobLimits', () => {
  it('accepts the largest product shape without dense statistics on a 128 MiB device', () => {
    expect(() => checkJobLimits(job(65_536, 64, 1024), limits(2 ** 27))).not.toThrow();
  });
  it('rejects a φ(Q) past the binding limit with exceeds-limit naming the buffer and its size', () => {
    let err: unknown;
    try {
      checkJobLimits(job(65_536, 1, 1024, { rows: [0] }), limits(2 ** 27));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).code).toBe('exceeds-limit');
    expect((err as EngineError).message).toMatch(/φ\(Q\) needs 512\.0 MiB/);
  });
  it('plans the dense buffers only when the job asks for them', () => {
    const names = (j: AttentionJob) => plannedBuffers(j, 2 ** 30).map(([n]) => n);
    expect(names(job(100, 8, 8))).not.toContain('the row normalizers');
    expect(names(job(100, 8, 8, { viewCells: 64, rowStats: true, rows: [1, 2] }))).toEqual(
      expect.arrayContaining(['the row normalizers', 'the row statistics', '2 full attention rows', 'the matrix view']),
    );
  });
  it('plans the projections XWᵀ (2·n·m floats) for the exp maps at any d, and no projection buffer on the generic path', () => {
    const planned = (j: AttentionJob, bytes: number) => new Map(plannedBuffers(j, bytes));
    expect(planned(job(1000, 64, 256, { featureMap: 'positive' }), 2 ** 27).get('the projections XWᵀ of Q and K')).toBe(
      2 * 1000 * 256 * 4,
    );
    // d > 64 runs the fast path in column tiles: the same projections
    expect(
      planned(job(1000, 130, 256, { featureMap: 'positive' }), 2 ** 27).get('the projections XWᵀ of Q and K'),
    ).toBe(2 * 1000 * 256 * 4);
    // a generic map: no projection buffer
    expect(planned(job(1000, 64, 256, { featureMap: 'trig' }), 2 ** 27).has('the projections XWᵀ of Q and K')).toBe(
      false,
    );
  });
  it('past the binding limit the fast path keeps one row block of the projections (n = 2^20, d = 16, m = 64 within 128 MiB, both modes)', () => {
    for (const causal of [false, true]) {
      const j = job(2 ** 20, 16, 64, { featureMap: 'positive', causal });
      const planned = new Map(plannedBuffers(j, 2 ** 27));
      // 2^18 rows per block: 2 · 2^18 · 64 floats = 128 MiB, a multiple of every chunk size
      expect(planned.get('the projections XWᵀ of Q and K')).toBe(2 * 2 ** 18 * 64 * 4);
      expect(Math.max(...planned.values())).toBeLessThanOrEqual(2 ** 27);
      expect(() => checkJobLimits(j, limits(2 ** 27))).not.toThrow();
    }
  });
  it('the fused causal path keeps only the chunk states (chunks of 64 rows)', () => {
    const bytes = new Map(plannedBuffers(job(4096, 64, 256, { featureMap: 'positive', causal: true }), 2 ** 27)).get(
      'the causal Performer workspace',
    );
    expect(bytes).toBe((4096 / 64) * 256 * 65 * 4);
  });
});
