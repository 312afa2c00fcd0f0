/**
 * The vocabulary of uploaded matrices (problems, notes, caps) and the checks both file formats
 * share: shape limits, finiteness, float32 range. Pure; see upload.ts for the entry points.
 */
import { LIMITS } from './limits';
import type { Matrix } from './types';

/** Caps on what may be uploaded, on top of LIMITS (n ≤ nMax, d ≤ dMax). */
export const UPLOAD_LIMITS = {
  /** bytes per file (a float64 .npy of 2^22 entries plus its header fits) */
  maxBytes: 40 * 1024 * 1024,
  /** n·d per matrix: 2^22 entries = 16 MiB as float32 (e.g. 16,384 × 256 or 65,536 × 64) */
  maxElements: 4_194_304,
} as const;

export type UploadSlot = 'q' | 'k' | 'v';
export const UPLOAD_SLOTS: readonly UploadSlot[] = ['q', 'k', 'v'];

export type UploadProblem =
  | { code: 'empty' }
  | { code: 'file-too-large'; bytes: number; max: number }
  | { code: 'bad-magic'; found: string }
  | { code: 'truncated-header'; bytes: number; needed: number }
  | { code: 'bad-header'; detail: string }
  | { code: 'unsupported-version'; version: string }
  | { code: 'unsupported-dtype'; dtype: string }
  | { code: 'big-endian'; dtype: string }
  | { code: 'fortran-order' }
  | { code: 'unaligned'; offset: number }
  | { code: 'not-2d'; shape: number[] }
  | { code: 'zero-size'; shape: number[] }
  | { code: 'data-size-mismatch'; shape: number[]; expectedBytes: number; actualBytes: number }
  | { code: 'too-many-rows'; n: number; max: number }
  | { code: 'too-many-cols'; d: number; max: number }
  | { code: 'too-many-elements'; count: number; max: number }
  | { code: 'non-finite'; row: number; col: number; value: 'NaN' | 'Infinity' | '-Infinity' }
  | { code: 'float32-overflow'; row: number; col: number }
  | { code: 'not-text' }
  | { code: 'csv-ragged'; line: number; expected: number; got: number }
  | { code: 'csv-non-numeric'; line: number; col: number; cell: string }
  | { code: 'qk-shape-mismatch'; q: [number, number]; k: [number, number] }
  | { code: 'v-shape-mismatch'; v: [number, number]; expected: [number, number] }
  | { code: 'read-failed'; detail: string };

export type UploadProblemCode = UploadProblem['code'];

/** Things that were tolerated in a file and that the UI mentions beside its name. */
export type UploadNote = 'bom' | 'header-row' | 'comments' | 'float64';

export interface FileMatrix {
  matrix: Matrix;
  format: 'npy' | 'csv';
  /** element type in the file (float32 is used internally either way) */
  dtype: 'float32' | 'float64' | 'text';
  notes: UploadNote[];
}

export type FileResult = { ok: true; value: FileMatrix } | { ok: false; problem: UploadProblem };

/** `\x93NUMPY`, the first six bytes of every .npy file. */
export const NPY_MAGIC: readonly number[] = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

export function looksLikeNpy(bytes: Uint8Array): boolean {
  return NPY_MAGIC.every((b, i) => bytes[i] === b);
}

export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** Printable form of the first bytes, for "this is not an .npy file (starts with …)". */
export function describeBytes(bytes: Uint8Array, count = 6): string {
  let s = '';
  for (let i = 0; i < Math.min(count, bytes.length); i++) {
    const b = bytes[i]!;
    s += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return s;
}

/** Shape checks shared by both formats (after parsing, before the values are looked at). */
export function checkShape(shape: readonly number[]): UploadProblem | null {
  if (shape.length !== 2) return { code: 'not-2d', shape: [...shape] };
  const [n, d] = shape as [number, number];
  if (n === 0 || d === 0) return { code: 'zero-size', shape: [n, d] };
  if (n > LIMITS.nMax) return { code: 'too-many-rows', n, max: LIMITS.nMax };
  if (d > LIMITS.dMax) return { code: 'too-many-cols', d, max: LIMITS.dMax };
  if (n * d > UPLOAD_LIMITS.maxElements)
    return { code: 'too-many-elements', count: n * d, max: UPLOAD_LIMITS.maxElements };
  return null;
}

/**
 * Copies `values` (row-major n×d, float32 or float64) into a float32 matrix, rejecting the first
 * NaN/±Inf and any finite float64 value that float32 cannot hold.
 */
export function toFiniteMatrix(
  values: ArrayLike<number>,
  n: number,
  d: number,
): { ok: true; matrix: Matrix } | { ok: false; problem: UploadProblem } {
  const data = new Float32Array(n * d);
  for (let t = 0; t < n * d; t++) {
    const x = values[t]!;
    if (!Number.isFinite(x)) {
      const value = Number.isNaN(x) ? 'NaN' : x > 0 ? 'Infinity' : '-Infinity';
      return { ok: false, problem: { code: 'non-finite', row: Math.floor(t / d), col: t % d, value } };
    }
    const f = Math.fround(x);
    if (!Number.isFinite(f))
      return { ok: false, problem: { code: 'float32-overflow', row: Math.floor(t / d), col: t % d } };
    data[t] = f;
  }
  return { ok: true, matrix: { rows: n, cols: d, data } };
}

/** Root mean square of the entries of Q and K together: the uploaded data's "norm scale". */
export function entryRms(q: Matrix, k: Matrix): number {
  let s = 0;
  for (const x of q.data) s += x * x;
  for (const x of k.data) s += x * x;
  return Math.sqrt(s / Math.max(1, q.data.length + k.data.length));
}
