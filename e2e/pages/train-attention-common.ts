// Shared pieces of the train-attention-kernels driver (e2e/pages/train-attention-kernels.ts): the
// tolerances and the error summary of one output (compare), seeded inputs, strided views of a
// buffer (embed / extract), and the validation-scope and readback helpers.
// maxAbs = max |gpu − twin|; maxRel = maxAbs / max |twin|; ok = every entry within
// ATOL·max|twin| + RTOL·|twin| (f32 sums vs the twin's f64 sums; + a floor where one is given).
import type { Arr } from '../../src/core/train/arr';
import type { Rng } from '../../src/core/rng';
import type { KernelContext } from '../../src/gpu/kernel-context';
import { readFloats } from '../../src/gpu/readback';
import { pageKernelContext } from './train-gpu';

export const ATOL = 2e-5;
export const RTOL = 2e-4;
/**
 * dφ of linear attention is a difference of O(1) terms (S g against z·(g·out)); where the
 * attention row is nearly fixed (L = 1: Â = 1 whatever φ is) the true gradient is O(δ) and f32
 * resolves it only to ~1e-7 of the terms, so the check there is absolute (inputs are O(1)).
 */
export const LINEAR_DPHI_FLOOR = 1e-6;

export const ctx = pageKernelContext;

export interface Err {
  name: string;
  maxAbs: number;
  maxRel: number;
  ok: boolean;
}

export function compare(name: string, got: Float32Array, want: Arr, floor = 0): Err {
  let maxRef = 0;
  for (let i = 0; i < want.length; i++) maxRef = Math.max(maxRef, Math.abs(want[i]!));
  let maxAbs = 0;
  let ok = got.length >= want.length;
  for (let i = 0; i < want.length; i++) {
    const e = Math.abs(got[i]! - want[i]!);
    if (!(e <= ATOL * maxRef + RTOL * Math.abs(want[i]!) + floor + 1e-12)) ok = false;
    if (!(e <= maxAbs)) maxAbs = e;
  }
  return { name, maxAbs, maxRel: maxRef > 0 ? maxAbs / maxRef : maxAbs, ok };
}

export const normal = (rng: Rng, n: number, std = 1) => rng.fillNormal(new Float32Array(n), std);
export const f64 = (x: Float32Array) => Float64Array.from(x);
export const f32 = (x: Arr) => Float32Array.from(x);

/** rows×cols `x` placed in a buffer at element (r, c) = off + r·stride + c (other entries NaN, so stray reads show). */
export function embed(x: Float32Array, rows: number, cols: number, off: number, stride: number): Float32Array {
  const out = new Float32Array(off + Math.max(0, rows - 1) * stride + cols + 1).fill(Number.NaN);
  for (let r = 0; r < rows; r++) out.set(x.subarray(r * cols, (r + 1) * cols), off + r * stride);
  return out;
}

export function extract(x: Float32Array, rows: number, cols: number, off: number, stride: number): Float32Array {
  const out = new Float32Array(rows * cols);
  for (let r = 0; r < rows; r++) out.set(x.subarray(off + r * stride, off + r * stride + cols), r * cols);
  return out;
}

export async function scopeOk(c: KernelContext) {
  const e = await c.device.popErrorScope();
  if (e) throw new Error(`WebGPU validation: ${e.message}`);
}

export async function read(c: KernelContext, buf: GPUBuffer, n: number) {
  return readFloats(c.device, buf, n);
}
