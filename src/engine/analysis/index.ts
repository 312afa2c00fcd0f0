/**
 * The panels' heavy analyses, run off the main thread: by src/engine/analysis-worker.ts on the CPU
 * twins, or — the row-statistics ops, where the engine has WebGPU — by the engine worker on the GPU
 * analysis backend, batch by batch between live computes. Every op takes a structured-cloneable payload carrying the experiment's
 * `params` (inputs are regenerated from the seeds, so nothing big crosses postMessage — unless the
 * user uploaded Q and K: then the payload's `external` carries them, see ../external-inputs.ts),
 * checks `ctx.cancelled()` between steps (throwing EngineError 'cancelled'), reports progress, and
 * returns plain objects and typed arrays.
 *
 * The row statistics go through `ctx.backend` (core/analysis-backend.ts): the CPU twins by default, the
 * WebGPU backend when the engine worker runs the op (GPU_ANALYSIS_OPS).
 *
 * Costs are bounded by the payload's budgets (rows sampled, keys used, seeds), which the ops clamp;
 * each result states the sizes it actually used so the panels can say so.
 *
 * One file per concept: types.ts (payloads, results, the op → result map), helpers.ts, error-sweeps.ts,
 * sparsity.ts, spectra.ts, map-rows.ts.
 */
import { entryErrors, errorVsD, errorVsM, normSweep } from './error-sweeps';
import { mapRows } from './map-rows';
import { entropyVsN, localTruncation, rowEntropies } from './sparsity';
import { spectra } from './spectra';
import { beyondSweeps } from './beyond';
import { hedgehogFit } from '../hedgehog-op';
import { isGpuAnalysisOp, type AnalysisContext, type AnalysisOp, type ComputedOn, type WorkerOpName } from './types';

export * from './types';
export { DEFAULT_SCALES } from './error-sweeps';
export { DENSE_ANALYSIS_MAX_N } from './helpers';
export type { BeyondPayload, BeyondResult, BeyondSeries } from './beyond';

/** Every op by name; the mapped type ties each name to its payload and result. */
export const ANALYSIS_OPS: { [K in WorkerOpName]: AnalysisOp<K> } = {
  errorVsM,
  normSweep,
  errorVsD,
  entryErrors,
  rowEntropies,
  entropyVsN,
  localTruncation,
  spectra,
  mapRows,
  beyondSweeps,
  hedgehogFit,
};

/** An op the analysis worker runs (engine ops are not among them). */
export function isAnalysisOp(op: string): op is WorkerOpName {
  return Object.prototype.hasOwnProperty.call(ANALYSIS_OPS, op);
}

/**
 * Runs `op` on a payload that arrived as a message (unknown to the type system: each op validates
 * its params with `readParams` and clamps every budget, so a malformed payload fails with a message).
 */
export async function runAnalysisOp(op: WorkerOpName, payload: unknown, ctx: AnalysisContext): Promise<unknown> {
  const fn: (payload: never, ctx: AnalysisContext) => Promise<unknown> = ANALYSIS_OPS[op];
  const value = await fn(payload as never, ctx);
  // which backend's numbers these are (the panels' status line says so)
  const computedOn = isGpuAnalysisOp(op) ? (ctx.backend?.kind ?? 'cpu') : 'cpu';
  return value && typeof value === 'object' ? Object.assign(value, { computedOn } satisfies ComputedOn) : value;
}
