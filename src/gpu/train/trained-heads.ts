/**
 * Q, K, V of every head of a trained model on one sequence, on the GPU: the model's forward passes
 * (GpuModel.encodeForward, the twin of modelForward) on a batch of one, then the per-layer Q, K, V
 * activations read back and split by head (head h owns columns h·dh …). The CPU twin is
 * src/core/trained/heads.ts `headInputs`; e2e/trained-heads.spec.mjs compares the two.
 */
import { headDim } from '../../core/train/model-params';
import type { ModelConfig, ParamTensor } from '../../core/train/types';
import type { HeadInputs } from '../../core/trained/heads';
import type { Matrix } from '../../core/types';
import { GpuAllocator } from '../allocator';
import type { GpuContext } from '../device';
import { withErrorScopes } from '../error-scope';
import { GpuTimer } from '../gpu-timer';
import type { KernelContext } from '../kernel-context';
import { pipelineCacheFor } from '../pipelines';
import { readFloats } from '../readback';
import { uploadBatch } from './gpu-batch';
import { GpuModel } from './gpu-model';
import { perCallUniforms } from './gpu-trainer';

function split(x: Float32Array, L: number, D: number, h: number, dh: number): Matrix {
  const data = new Float32Array(L * dh);
  for (let r = 0; r < L; r++) data.set(x.subarray(r * D + h * dh, r * D + (h + 1) * dh), r * dh);
  return { rows: L, cols: dh, data };
}

export async function gpuHeadInputs(
  gpu: GpuContext,
  params: readonly ParamTensor[],
  cfg: ModelConfig,
  tokens: Int32Array,
): Promise<HeadInputs[][]> {
  if (cfg.attention.kind !== 'softmax') throw new RangeError('trained heads: softmax models only');
  const device = gpu.device;
  const base: KernelContext = {
    device,
    pipelines: pipelineCacheFor(device),
    alloc: new GpuAllocator(device),
    timer: new GpuTimer(device, false),
    limits: device.limits,
  };
  const L = tokens.length;
  const D = cfg.dModel;
  const dh = headDim(cfg);
  try {
    const model = new GpuModel(base, cfg, params, L, 1, L);
    const gb = uploadBatch(base, 'heads.batch', {
      batch: 1,
      seqLen: L,
      tokens,
      targets: new Int32Array(L),
      mask: new Uint8Array(L),
    });
    const { ctx } = perCallUniforms(base, 'heads');
    await withErrorScopes(device, 'trained heads forward', async () => {
      const enc = device.createCommandEncoder({ label: 'trained.heads' });
      model.encodeForward(ctx, enc, gb);
      device.queue.submit([enc.finish()]);
      await device.queue.onSubmittedWorkDone();
    });
    const out: HeadInputs[][] = [];
    for (const a of model.layers) {
      const [q, k, v] = [
        await readFloats(device, a.q, L * D),
        await readFloats(device, a.k, L * D),
        await readFloats(device, a.v, L * D),
      ];
      out.push(
        Array.from({ length: cfg.heads }, (_, h) => ({
          q: split(q, L, D, h, dh),
          k: split(k, L, D, h, dh),
          v: split(v, L, D, h, dh),
        })),
      );
    }
    return out;
  } finally {
    base.alloc.releaseAll();
  }
}
