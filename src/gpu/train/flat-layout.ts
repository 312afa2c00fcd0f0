/**
 * The layout of the trainer's flat buffers (parameters, gradients, Adam moments): tensor i of
 * initParams order at a 256-byte boundary, so each tensor binds in place as a buffer range.
 * Shared by the GPU model (gpu-model.ts) and the Hedgehog fit's own parameter list (hedgehog-fit.ts).
 */
import type { ParamTensor } from '../../core/train/types';

/** Floats per alignment unit: 64 f32 = 256 bytes, the default minStorageBufferOffsetAlignment. */
export const ALIGN = 64;

export interface FlatTensor {
  name: string;
  shape: readonly number[];
  decay: boolean;
  /** first element in the flat buffers */
  offset: number;
  size: number;
}

export interface FlatLayout {
  tensors: FlatTensor[];
  byName: Map<string, FlatTensor>;
  /** floats of every flat buffer (a multiple of 64) */
  total: number;
}

export function flatLayout(params: readonly ParamTensor[]): FlatLayout {
  let at = 0;
  const tensors = params.map((p) => {
    const t = { name: p.name, shape: p.shape, decay: p.decay, offset: at, size: p.data.length };
    at += Math.ceil(Math.max(1, p.data.length) / ALIGN) * ALIGN;
    return t;
  });
  return { tensors, byName: new Map(tensors.map((t) => [t.name, t])), total: at };
}
