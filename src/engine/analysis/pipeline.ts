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

/** One row-statistics batch on the op's backend, with the moment the host may go on. */
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
  const result = backendOf(ctx).rowStats(problem, variants, {
    ...options,
    onSubmitted: () => {
      if (!settled) onDevice = true;
      release();
    },
  });
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
