/**
 * One compute request end to end, independent of the transport: validate, generate (or accept)
 * inputs, run the job on a backend, and summarize the metrics the UI shows. The engine worker wraps
 * this; unit tests call it directly with the CPU backend.
 */
import type { AttentionBackend, AttentionJob } from '../core/attention-job';
import { EngineError } from '../core/errors';
import { generateInputs, projectionFor, valuesFor } from '../core/inputs';
import { relFrobeniusError } from '../core/matrix';
import { summarizeRowStats } from '../core/metrics';
import type { AttentionInputs } from '../core/types';
import { validateParams } from '../core/validate';
import type { AttentionMetrics, ComputeRequest, FullComputeResult } from './protocol';
import { requestFittedW } from './hedgehog-op';

export function prepareInputs(request: ComputeRequest): AttentionInputs {
  const inputs = prepareSeededInputs(request);
  // map=hedgehog runs on the fitted W the request carries (trained in the analysis worker).
  return request.params.featureMap === 'hedgehog'
    ? { ...inputs, w: requestFittedW(request.fitted, request.params) }
    : inputs;
}

function prepareSeededInputs(request: ComputeRequest): AttentionInputs {
  validateParams(request.params);
  const ext = request.external;
  if (!ext) return generateInputs(request.params);
  const { n, d } = request.params;
  for (const [name, m] of [
    ['Q', ext.q],
    ['K', ext.k],
    ['V', ext.v],
  ] as const) {
    if (m && (m.rows !== n || m.cols !== d)) {
      throw new EngineError('shape-mismatch', `${name} is ${m.rows}×${m.cols} but n×d is ${n}×${d}`);
    }
  }
  // Only what the user did not bring is generated.
  return { q: ext.q, k: ext.k, v: ext.v ?? valuesFor(request.params), w: projectionFor(request.params) };
}

export function jobFor(request: ComputeRequest, inputs: AttentionInputs): AttentionJob {
  const n = request.params.n;
  return {
    inputs,
    featureMap: request.params.featureMap,
    stabilizer: request.params.stabilizer,
    causal: request.params.causal,
    viewCells: request.viewCells,
    rowStats: request.rowStats,
    // Out-of-range rows are dropped rather than failing the whole request: a pinned row may
    // outlive a smaller n for one frame.
    rows: [...new Set(request.rows)].filter((i) => Number.isInteger(i) && i >= 0 && i < n),
  };
}

export async function compute(
  id: number,
  request: ComputeRequest,
  backend: AttentionBackend,
  signal?: AbortSignal,
): Promise<FullComputeResult> {
  const t0 = performance.now();
  const inputs = prepareInputs(request);
  const output = await backend.run(jobFor(request, inputs), signal);
  const relErrorOut = relFrobeniusError(output.approxOut, output.exactOut);
  let metrics: AttentionMetrics = {
    relErrorOut,
    relErrorA: null,
    meanKL: null,
    entropyExact: null,
    entropyApprox: null,
  };
  if (output.rowStats) {
    const s = summarizeRowStats(output.rowStats, request.params.causal);
    metrics = {
      relErrorOut,
      relErrorA: s.relErrorA,
      meanKL: s.meanKL,
      entropyExact: s.meanNormEntropyExact,
      entropyApprox: s.meanNormEntropyApprox,
    };
  }
  return {
    id,
    params: request.params,
    backend: backend.info,
    inputs,
    output,
    metrics,
    elapsedMs: performance.now() - t0,
  };
}
