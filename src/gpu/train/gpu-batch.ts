/**
 * A training batch on the GPU: the buffers the model's passes read (gpu-model.ts encodeForward /
 * encodeBackward) and their upload from a CPU batch (src/core/train/types.ts Batch).
 */
import type { Batch } from '../../core/train/types';
import type { KernelContext } from '../kernel-context';
import { tokenIndex } from './embedding';

/** The batch on the GPU: tokens and targets i32, mask u32 (B·L each), the rows by token (tokenIndex). */
export interface GpuBatch {
  tokens: GPUBuffer;
  byToken: GPUBuffer;
  targets: GPUBuffer;
  mask: GPUBuffer;
  batch: number;
  seqLen: number;
}

/** Writes a batch into the GPU buffers of `prefix` (tokens, targets i32; mask u32). */
export function uploadBatch(ctx: KernelContext, prefix: string, b: Batch): GpuBatch {
  return {
    tokens: ctx.alloc.upload(`${prefix}.tokens`, b.tokens),
    byToken: ctx.alloc.upload(`${prefix}.bytoken`, tokenIndex(b.tokens)),
    targets: ctx.alloc.upload(`${prefix}.targets`, b.targets),
    mask: ctx.alloc.upload(`${prefix}.mask`, Uint32Array.from(b.mask)),
    batch: b.batch,
    seqLen: b.seqLen,
  };
}
