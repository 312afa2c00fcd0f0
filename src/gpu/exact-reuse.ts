/**
 * The exact side a live job leaves in its buffers, for the next job to keep. A step of m, of the
 * feature map, of the stabilizer or of the feature seed changes φ and nothing of softmax(QKᵀ/√d):
 * with the same Q, K, V (bit for bit) and the same mask, the scores s_ij stored in the raw buffer,
 * the normalizers' (m, ℓ) partials and the exact output are what the previous job wrote, so the next
 * one forms only the kernel values g_ij (attention-row-stats.wgsl `normalizers`, p.raw = 2) and skips
 * the exact output pass — the same bits as a fresh run (exact-kernels.spec "repeated runs").
 *
 * Kept only while it is certain: the buffers must be the very ones written (the allocator replaces
 * a role's buffer when it grows or is released), and the backend forgets the side when a job starts
 * (a failed or cancelled job may have overwritten part of it) and whenever anything else uses its
 * allocator (the kernel timing hook).
 */
import type { Matrix } from '../core/types';

export interface ExactSide {
  n: number;
  d: number;
  causal: boolean;
  /** Q, K, V as bits (−0 and 0 differ, as they can in the output) */
  q: Uint32Array;
  k: Uint32Array;
  v: Uint32Array;
  /** the buffers holding it: raw (s, g), the normalizers' partials, the exact output */
  buffers: readonly GPUBuffer[];
}

const bits = (m: Matrix): Uint32Array => new Uint32Array(m.data.buffer, m.data.byteOffset, m.data.length);

/** The exact side of a job on these buffers (its inputs copied: the caller's arrays may be transferred). */
export function exactSide(
  inputs: { q: Matrix; k: Matrix; v: Matrix },
  causal: boolean,
  buffers: readonly GPUBuffer[],
): ExactSide {
  return {
    n: inputs.q.rows,
    d: inputs.q.cols,
    causal,
    q: bits(inputs.q).slice(),
    k: bits(inputs.k).slice(),
    v: bits(inputs.v).slice(),
    buffers: [...buffers],
  };
}

function sameBits(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether the side `kept` (from the previous job) is the side `next` needs, in the same buffers. */
export function sameExactSide(
  kept: ExactSide | null,
  next: { inputs: { q: Matrix; k: Matrix; v: Matrix }; causal: boolean; buffers: readonly GPUBuffer[] },
): boolean {
  if (!kept) return false;
  const { q, k, v } = next.inputs;
  return (
    kept.n === q.rows &&
    kept.d === q.cols &&
    kept.causal === next.causal &&
    kept.buffers.length === next.buffers.length &&
    kept.buffers.every((b, i) => b === next.buffers[i]) &&
    sameBits(kept.q, bits(q)) &&
    sameBits(kept.k, bits(k)) &&
    sameBits(kept.v, bits(v))
  );
}
