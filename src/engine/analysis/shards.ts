/**
 * Sweeps split into shards that run side by side in the analysis worker pool (src/engine/analysis-pool.ts)
 * and are merged into the one result the op gives unsplit — bit for bit: each grid point of these
 * sweeps is computed from the payload and the point alone (same inputs, same W per seed), so a shard
 * of points computes exactly those points. Why: after a step of m the error-vs-norm sweep's full
 * stage is the page's longest job (≈ 2 s of its ≈ 3 s on a 2-core laptop); in two halves on two
 * workers it no longer sets the time at which every figure is refined.
 * Only ops listed here shard; an op whose points share state (entropyVsN draws the largest n once
 * and cuts prefixes) must not be listed.
 */
import { normSweepScales } from './grids';
import type { AnalysisOpName, NormSweepPayload, NormSweepResult } from './types';

export interface ShardSpec<P, R> {
  /** `payload` as up to `k` payloads over disjoint, consecutive parts of its grid (one when it cannot split) */
  split(payload: P, k: number): P[];
  /** the parts' results, in split order, as the unsplit op's result */
  merge(parts: readonly R[]): R;
}

/** Consecutive chunks of `grid`, at most `k`, sizes differing by at most one. */
export function chunks<T>(grid: readonly T[], k: number): T[][] {
  const parts = Math.max(1, Math.min(Math.floor(k), grid.length));
  const out: T[][] = [];
  let at = 0;
  for (let i = 0; i < parts; i++) {
    const size = Math.floor(grid.length / parts) + (i < grid.length % parts ? 1 : 0);
    out.push(grid.slice(at, at + size));
    at += size;
  }
  return out;
}

const cat = <T>(parts: readonly T[][]): T[] => parts.flat();

const normSweep: ShardSpec<NormSweepPayload, NormSweepResult> = {
  split(payload, k) {
    return chunks(normSweepScales(payload), k).map((scales) => ({ ...payload, scales }));
  },
  merge(parts) {
    const first = parts[0]!;
    return {
      ...first,
      scales: cat(parts.map((r) => r.scales)),
      error: first.error.map((e, i) => ({
        map: e.map,
        mean: cat(parts.map((r) => r.error[i]!.mean)),
        lo: cat(parts.map((r) => r.error[i]!.lo)),
        hi: cat(parts.map((r) => r.error[i]!.hi)),
        std: cat(parts.map((r) => r.error[i]!.std)),
      })),
      theory: first.theory.map((t, i) => ({ map: t.map, values: cat(parts.map((r) => r.theory[i]!.values)) })),
      entropyExact: cat(parts.map((r) => r.entropyExact)),
      entropyPerformer: cat(parts.map((r) => r.entropyPerformer)),
      stabilizers: first.stabilizers.map((s, i) => ({
        stabilizer: s.stabilizer,
        entropy: cat(parts.map((r) => r.stabilizers[i]!.entropy)),
        error: cat(parts.map((r) => r.stabilizers[i]!.error)),
      })),
    };
  },
};

const SHARDS: Partial<Record<AnalysisOpName, ShardSpec<never, never>>> = {
  normSweep: normSweep as ShardSpec<never, never>,
};

/** The shard spec of `op`, or null when it runs whole. */
export function shardSpec(op: string): ShardSpec<unknown, unknown> | null {
  return (SHARDS[op as AnalysisOpName] as ShardSpec<unknown, unknown> | undefined) ?? null;
}

type OnProgress = (done: number, total: number, label?: string, detail?: unknown) => void;

/**
 * Runs `payload` as up to `k` shards through `runPart` and merges them; progress is the sum over the
 * shards. The shards share one abort: the caller's signal stops them all, and a shard that fails stops
 * the others (the failure is what the run rejects with).
 */
export async function runSharded<R>(
  spec: ShardSpec<unknown, unknown>,
  payload: unknown,
  k: number,
  runPart: (payload: unknown, onProgress: OnProgress, signal: AbortSignal) => Promise<R>,
  opts: { onProgress?: OnProgress; signal?: AbortSignal } = {},
): Promise<R> {
  const parts = spec.split(payload, k);
  const all = new AbortController();
  const stop = () => all.abort();
  if (opts.signal?.aborted) all.abort();
  opts.signal?.addEventListener('abort', stop, { once: true });
  const done = parts.map(() => 0);
  const total = parts.map(() => 0);
  const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
  try {
    const results = await Promise.all(
      parts.map((part, i) =>
        runPart(
          part,
          (d, t, label, detail) => {
            done[i] = d;
            total[i] = t;
            opts.onProgress?.(sum(done), sum(total), label, detail);
          },
          all.signal,
        ).catch((e: unknown) => {
          all.abort();
          throw e;
        }),
      ),
    );
    return (parts.length === 1 ? results[0]! : spec.merge(results)) as R;
  } finally {
    opts.signal?.removeEventListener('abort', stop);
  }
}
