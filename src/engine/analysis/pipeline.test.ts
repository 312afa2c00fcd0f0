import { describe, expect, it, vi } from 'vitest';
import type { AnalysisBackend, RowStatsBatch, RowStatsOptions } from '../../core/analysis-backend';
import { distinctVariants, pipelinedSweep, startRelErrors, startRowStats } from './pipeline';
import type { AnalysisContext } from './types';

const problem = {
  q: { rows: 1, cols: 1, data: new Float32Array(1) },
  k: { rows: 1, cols: 1, data: new Float32Array(1) },
  rows: [0],
  causal: false,
};
const batch = (sq: number): RowStatsBatch => ({
  exactEntropy: new Float64Array(1),
  variants: [{ sqErr: Float64Array.of(sq), exactSq: Float64Array.of(4) }],
});

/** A backend like the GPU one: it reports the submission at once and resolves when `finish(i)` is called. */
function deviceLike(log: string[]) {
  const pending: (() => void)[] = [];
  let i = 0;
  const backend = {
    kind: 'webgpu',
    rowStats(_p: unknown, _v: unknown, o: RowStatsOptions = {}) {
      const id = i++;
      log.push(`submit ${id}`);
      queueMicrotask(() => o.onSubmitted?.());
      return new Promise<RowStatsBatch>((resolve) => pending.push(() => resolve(batch(id))));
    },
  } as unknown as AnalysisBackend;
  return { backend, finishNext: () => pending.shift()?.() };
}

const ctxOf = (backend?: AnalysisBackend): AnalysisContext => ({
  progress: () => {},
  cancelled: () => false,
  ...(backend ? { backend } : {}),
});

describe('pipelinedSweep', () => {
  it('on a device, prepares and starts point i + 1 once point i is on the device, before point i’s result arrives', async () => {
    const log: string[] = [];
    const { backend, finishNext } = deviceLike(log);
    const ctx = ctxOf(backend);
    const done = pipelinedSweep(
      3,
      (i) => {
        log.push(`prepare ${i}`);
        return i;
      },
      () => startRowStats(ctx, problem, []),
      (b, i) => {
        log.push(`finish ${i} (${b.variants[0]!.sqErr[0]})`);
      },
    );
    // the GPU never answers until told: point 1 is prepared and queued behind point 0 all the same
    await vi.waitFor(() => expect(log).toContain('submit 1'));
    expect(log).toEqual(['prepare 0', 'submit 0', 'prepare 1', 'submit 1']);
    for (let k = 0; k < 3; k++) {
      finishNext();
      await vi.waitFor(() => expect(log.filter((l) => l.startsWith('finish'))).toHaveLength(k + 1));
    }
    await done;
    expect(log).toEqual([
      'prepare 0',
      'submit 0',
      'prepare 1',
      'submit 1',
      'finish 0 (0)',
      'prepare 2',
      'submit 2',
      'finish 1 (1)',
      'finish 2 (2)',
    ]);
  });

  it('on a backend that never reports a submission (the twins) it goes on once the result is there, and starts point i + 1 only after finishing point i', async () => {
    const order: string[] = [];
    const twins = {
      kind: 'cpu',
      rowStats: async () => {
        order.push('compute');
        return batch(1);
      },
    } as unknown as AnalysisBackend;
    const ctx = ctxOf(twins);
    await pipelinedSweep(
      2,
      (i) => order.push(`prepare ${i}`),
      () => startRelErrors(ctx, problem, []),
      (errs, _, i) => {
        order.push(`finish ${i} ${errs[0]}`);
      },
    );
    // ‖Â − A‖ / ‖A‖ = √1 / √4
    expect(order).toEqual(['prepare 0', 'compute', 'prepare 1', 'finish 0 0.5', 'compute', 'finish 1 0.5']);
  });

  it('a failed batch fails the sweep where its result is awaited, and nothing is left unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const failing = {
        kind: 'webgpu',
        rowStats: () => Promise.reject(new Error('device lost')),
      } as unknown as AnalysisBackend;
      const ctx = ctxOf(failing);
      const finished: number[] = [];
      await expect(
        pipelinedSweep(
          3,
          (i) => i,
          () => startRelErrors(ctx, problem, []),
          (_, i) => {
            finished.push(i);
          },
        ),
      ).rejects.toThrow('device lost');
      expect(finished).toEqual([]);
      await new Promise((r) => setTimeout(r, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('a cancel thrown by finish stops the sweep: no later batch is started', async () => {
    let started = 0;
    const twins = {
      kind: 'cpu',
      rowStats: async () => {
        started++;
        return batch(0);
      },
    } as unknown as AnalysisBackend;
    const ctx = ctxOf(twins);
    await expect(
      pipelinedSweep(
        5,
        (i) => i,
        () => startRowStats(ctx, problem, []),
        (_, i) => {
          if (i === 1) throw new Error('cancelled');
        },
      ),
    ).rejects.toThrow('cancelled');
    expect(started).toBe(2);
  });
});

describe('startRowStats: a variant listed twice is computed once', () => {
  const w1 = { rows: 2, cols: 1, data: Float32Array.of(1, 2) };
  const w2 = { rows: 2, cols: 1, data: Float32Array.of(1, 2) }; // equal entries, another matrix
  const list = [
    { map: 'positive', w: w1, stabilizer: 'shift' },
    { map: 'trig', w: w1, stabilizer: 'shift' },
    { map: 'positive', w: w2, stabilizer: 'shift' },
    { map: 'positive', w: w1, stabilizer: 'ref' },
    { map: 'positive', w: w1, stabilizer: 'shift' }, // = 0
    { map: 'positive', w: w1, stabilizer: 'shift', keyMap: 'trig' },
    { map: 'trig', w: w1, stabilizer: 'shift' }, // = 1
  ] as const;

  it('distinctVariants keeps the first of each (maps, stabilizer, W object) and says where each entry went', () => {
    const { distinct, at } = distinctVariants(list);
    expect(distinct).toEqual([list[0], list[1], list[2], list[3], list[5]]);
    expect(at).toEqual([0, 1, 2, 3, 0, 4, 1]);
  });

  it('the backend gets the distinct variants only, and the batch lists a result for every entry asked', async () => {
    const got: number[] = [];
    const backend = {
      kind: 'cpu',
      rowStats(_p: unknown, v: readonly unknown[]) {
        got.push(v.length);
        return Promise.resolve({
          exactEntropy: new Float64Array(1),
          variants: v.map((_, i) => ({ sqErr: Float64Array.of(i), exactSq: Float64Array.of(1) })),
        });
      },
    } as unknown as AnalysisBackend;
    const b = await startRowStats(ctxOf(backend), problem, list).result;
    expect(got).toEqual([5]);
    expect(b.variants.map((v) => v.sqErr[0])).toEqual([0, 1, 2, 3, 0, 4, 1]);
  });
});
