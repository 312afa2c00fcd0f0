import { describe, expect, it } from 'vitest';
import { EngineError, isEngineError } from '../../core/errors';
import { DEFAULT_PARAMS } from '../../core/default-params';
import { runAnalysisOp } from '.';
import { DEFAULT_SCALES } from './grids';
import { chunks, runSharded, shardSpec } from './shards';
import type { NormSweepPayload } from './types';

const ctx = { progress: () => {}, cancelled: () => false };

describe('analysis shards', () => {
  it('chunks: at most k consecutive parts, sizes differing by at most one, in order', () => {
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    expect(chunks([1, 2], 3)).toEqual([[1], [2]]);
    expect(chunks([1, 2, 3], 1)).toEqual([[1, 2, 3]]);
    expect(chunks(DEFAULT_SCALES, 3).flat()).toEqual(DEFAULT_SCALES);
  });

  it('normSweep in 1, 2 and 3 shards merges to exactly the unsplit result (every number, bit for bit)', async () => {
    const spec = shardSpec('normSweep')!;
    // the page's request shape, small: the default scale grid (13 points), uploaded-free, causal too
    for (const causal of [false, true]) {
      const payload: NormSweepPayload = { params: { ...DEFAULT_PARAMS, n: 48, causal }, rows: 8, seeds: 2, nCap: 48 };
      const whole = await runAnalysisOp('normSweep', payload, ctx);
      for (const k of [1, 2, 3]) {
        const parts = spec.split(payload, k) as NormSweepPayload[];
        expect(parts).toHaveLength(k);
        const results = [];
        for (const p of parts) results.push(await runAnalysisOp('normSweep', p, ctx));
        expect(spec.merge(results)).toEqual(whole);
      }
    }
  });

  it('ops whose points share state do not shard', () => {
    expect(shardSpec('entropyVsN')).toBeNull();
    expect(shardSpec('spectra')).toBeNull();
  });

  it('runSharded: progress is the sum over the shards; a failing shard aborts the others and the run rejects with its error', async () => {
    const spec = shardSpec('normSweep')!;
    const seen: [number, number][] = [];
    const signals: AbortSignal[] = [];
    const failing = runSharded(
      spec,
      { params: DEFAULT_PARAMS, scales: [0.5, 1, 1.5, 2] },
      2,
      (part, onProgress, signal) => {
        signals.push(signal);
        const scales = (part as NormSweepPayload).scales!;
        onProgress(1, scales.length);
        if (scales[0] === 1.5) return Promise.reject(new EngineError('internal', 'shard failed'));
        return new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(new EngineError('cancelled', 'x'))),
        );
      },
      { onProgress: (d, t) => seen.push([d, t]) },
    );
    await expect(failing).rejects.toThrow('shard failed');
    expect(seen.at(-1)).toEqual([2, 4]);
    expect(signals.every((s) => s.aborted)).toBe(true);
  });

  it('runSharded: the caller’s abort stops every shard', async () => {
    const spec = shardSpec('normSweep')!;
    const abort = new AbortController();
    const run = runSharded(
      spec,
      { params: DEFAULT_PARAMS },
      2,
      (_part, _p, signal) =>
        new Promise((_, reject) =>
          signal.addEventListener('abort', () => reject(new EngineError('cancelled', 'cancelled'))),
        ),
      { signal: abort.signal },
    );
    abort.abort();
    await expect(run).rejects.toSatisfy((e: unknown) => isEngineError(e) && e.code === 'cancelled');
  });
});
