/**
 * Host and device at once: a sweep prepares its next point (inputs, W, the theory's moments) while
 * the GPU runs the current point's batch. A batch's turn starts from the GPU-turn queue a microtask
 * after it is asked for (gpu-turns.ts), so an op that asked and then went straight on to draw the next
 * point kept the worker busy until the draw was done — the batch was encoded and submitted only then,
 * and host and GPU took turns. `startRowStats` hands back, besides the result, when the batch is on the
 * device; `pipelinedSweep` prepares the next point only then, and on a device starts it too. On the
 * twins (the CPU backend) the batch is computed when asked, so the order of the work is all that changes.
 */
import {
  relErrorOfRows,
  type FeatureVariant,
  type RowProblem,
  type RowStatsBatch,
  type RowStatsOptions,
} from '../../core/analysis-backend';
import { backendOf } from './helpers';
import type { AnalysisContext } from './types';

export interface Started<R> {
  result: Promise<R>;
  /** resolves once the batch is on the device, or once it has settled (whichever comes first; never rejects) */
  submitted: Promise<void>;
  /** whether the batch was reported on the device before it settled (the GPU backend; the twins never are) */
  onDevice(): boolean;
}

/**
 * The distinct variants of a list and, for each entry, which one it is: two variants with the same
 * maps, stabilizer and W (the same matrix object, as a sweep hands out one per seed) compute the same
 * statistics. The norm sweep's stabilizer comparison repeats the positive map at the experiment's
 * stabilizer, which its estimator block already has: 4 of its 24 variants per scale.
 */
export function distinctVariants(variants: readonly FeatureVariant[]): {
  distinct: FeatureVariant[];
  at: number[];
} {
  const ws = new Map<FeatureVariant['w'], number>();
  const seen = new Map<string, number>();
  const distinct: FeatureVariant[] = [];
  const at = variants.map((v) => {
    if (!ws.has(v.w)) ws.set(v.w, ws.size);
    const key = `${v.map}|${v.keyMap ?? v.map}|${v.stabilizer}|${ws.get(v.w)}`;
    let i = seen.get(key);
    if (i === undefined) {
      i = distinct.push(v) - 1;
      seen.set(key, i);
    }
    return i;
  });
  return { distinct, at };
}

/**
 * One row-statistics batch on the op's backend, with the moment the host may go on. A variant listed
 * twice is computed once (`distinctVariants`); both entries of the result are its statistics.
 */
export function startRowStats(
  ctx: AnalysisContext,
  problem: RowProblem,
  variants: readonly FeatureVariant[],
  options: RowStatsOptions = {},
): Started<RowStatsBatch> {
  let release!: () => void;
  const submitted = new Promise<void>((r) => (release = r));
  let settled = false;
  let onDevice = false;
  const { distinct, at } = distinctVariants(variants);
  const computed = backendOf(ctx).rowStats(problem, distinct, {
    ...options,
    onSubmitted: () => {
      if (!settled) onDevice = true;
      release();
    },
  });
  const result =
    distinct.length === variants.length
      ? computed
      : computed.then((b) => ({ ...b, variants: at.map((i) => b.variants[i]!) }));
  // a failure reaches the caller through `result`; this handler only ends the wait (and keeps a
  // failure that settles while the next point is drawn from being reported as unhandled)
  const end = () => {
    settled = true;
    release();
  };
  result.then(end, end);
  return { result, submitted, onDevice: () => onDevice };
}

/**
 * Points 0 … count − 1 of a sweep: `prepare(i)` on the host, `start(prepared)` puts its batch on the
 * backend, `finish` takes its result (and reports progress, where a cancel stops the sweep). Point i + 1
 * is prepared once point i's batch is on the device, before point i's result is awaited; on a device it
 * is started then too, so that it queues behind point i and the device does not idle between them
 * (the read-back's wait, ~2.6 ms median on SwiftShader, then overlaps the next batch). On the twins,
 * which compute a batch when it is started, it is started after point i is finished, so that a cancel
 * there stops the sweep before another batch is computed.
 */
export async function pipelinedSweep<P, R>(
  count: number,
  prepare: (i: number) => P,
  start: (point: P, i: number) => Started<R>,
  finish: (result: R, point: P, i: number) => Promise<void> | void,
): Promise<void> {
  if (count <= 0) return;
  let point = prepare(0);
  let run = start(point, 0);
  for (let i = 0; i < count; i++) {
    await run.submitted;
    let next: { point: P; run: Started<R> | null } | null = null;
    if (i + 1 < count) {
      const p = prepare(i + 1);
      next = { point: p, run: run.onDevice() ? start(p, i + 1) : null };
    }
    await finish(await run.result, point, i);
    if (!next) break;
    point = next.point;
    run = next.run ?? start(next.point, i + 1);
  }
}

/** `startRowStats` reduced to ‖Â − A‖_F / ‖A‖_F over the problem's rows, per variant. */
export function startRelErrors(
  ctx: AnalysisContext,
  problem: RowProblem,
  variants: readonly FeatureVariant[],
): Started<number[]> {
  const run = startRowStats(ctx, problem, variants);
  const result = run.result.then((b) => b.variants.map(relErrorOfRows));
  result.catch(() => undefined); // (the caller awaits it; see startRowStats)
  return { ...run, result };
}
