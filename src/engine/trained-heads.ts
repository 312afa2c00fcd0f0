/**
 * The engine's `heads` request (`input=trained`): Q, K, V of every (layer, head) of a bundled trained
 * model on a token sequence, from the model's forward pass — the WGSL one (src/gpu/train/trained-heads.ts,
 * GpuModel.encodeForward, one GPU turn) when the engine has a WebGPU device, else the CPU twin
 * (src/core/trained/heads.ts `headInputs`, in the worker). The result says which computed it.
 * A GPU failure (a lost device, a validation error) is the request's error, not a silent CPU answer:
 * the store keeps the head in force and says why.
 */
import { EngineError } from '../core/errors';
import { bundledParams, modelHeads } from '../core/trained/bundle-weights';
import { BUNDLES, tokensProblem } from '../core/trained/bundles';
import { isTrainedModelId } from '../core/trained/configs';
import type { GpuContext } from '../gpu/device';
import { gpuHeadInputs } from '../gpu/train/trained-heads';
import type { createTurns } from './gpu-turns';
import type { HeadsRequest, HeadsResult } from './protocol';

export async function computeHeads(
  req: HeadsRequest,
  gpu: { context: GpuContext; turn: ReturnType<typeof createTurns> } | null,
): Promise<HeadsResult> {
  if (!isTrainedModelId(String(req?.model))) throw new EngineError('invalid-size', `no bundled model "${req?.model}"`);
  const problem = tokensProblem(req.model, req.tokens);
  if (problem) throw new EngineError('invalid-size', `trained heads: ${problem}`);
  if (!gpu) {
    const t0 = performance.now();
    const heads = modelHeads(req.model, req.tokens);
    return { model: req.model, heads, backend: 'cpu', adapter: '', ms: performance.now() - t0 };
  }
  const { context, turn } = gpu;
  // timed inside its turn: `ms` is the forward pass and readback, not the wait for a compute
  return turn(async () => {
    const t0 = performance.now();
    const heads = await gpuHeadInputs(context, bundledParams(req.model), BUNDLES[req.model].config.model, req.tokens);
    return { model: req.model, heads, backend: 'webgpu', adapter: context.adapterName, ms: performance.now() - t0 };
  });
}
