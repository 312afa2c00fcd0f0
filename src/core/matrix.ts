/**
 * Small dense-matrix helpers on row-major Float32Array matrices. Storage is f32 (what the GPU
 * holds); every dot product is accumulated in JS numbers (f64) and rounded once when stored, so
 * the CPU twins are a slightly *more* accurate reference than the kernels they check.
 */
import { relativeError } from './metrics';
import type { Matrix } from './types';

/** A rows × cols matrix; `data` (if given) must have exactly rows·cols entries. */
export function matrix(rows: number, cols: number, data?: Float32Array | ArrayLike<number>): Matrix {
  if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 0 || cols < 0) {
    throw new RangeError(`matrix: invalid shape ${rows}×${cols}`);
  }
  const len = rows * cols;
  if (data === undefined) return { rows, cols, data: new Float32Array(len) };
  if (data.length !== len) {
    throw new RangeError(`matrix: data length ${data.length} ≠ ${rows}×${cols} = ${len}`);
  }
  return { rows, cols, data: data instanceof Float32Array ? data : Float32Array.from(data) };
}

export function zeros(rows: number, cols: number): Matrix {
  return matrix(rows, cols);
}

/** Row i as a view (no copy) into the matrix storage. */
export function rowView(m: Matrix, i: number): Float32Array {
  return m.data.subarray(i * m.cols, (i + 1) * m.cols);
}

/** Element (i, j). */
export function at(m: Matrix, i: number, j: number): number {
  return m.data[i * m.cols + j]!;
}

export function transpose(m: Matrix): Matrix {
  const out = new Float32Array(m.rows * m.cols);
  for (let i = 0; i < m.rows; i++) {
    for (let j = 0; j < m.cols; j++) out[j * m.rows + i] = m.data[i * m.cols + j]!;
  }
  return { rows: m.cols, cols: m.rows, data: out };
}

/** a · b  (a: r×k, b: k×c). */
export function matmul(a: Matrix, b: Matrix): Matrix {
  if (a.cols !== b.rows) throw new RangeError(`matmul: ${a.rows}×${a.cols} · ${b.rows}×${b.cols}`);
  const { rows, cols: inner } = a;
  const cols = b.cols;
  const out = new Float32Array(rows * cols);
  const acc = new Float64Array(cols);
  for (let i = 0; i < rows; i++) {
    acc.fill(0);
    for (let k = 0; k < inner; k++) {
      const aik = a.data[i * inner + k]!;
      if (aik === 0) continue;
      const off = k * cols;
      for (let j = 0; j < cols; j++) acc[j]! += aik * b.data[off + j]!;
    }
    out.set(acc, i * cols);
  }
  return { rows, cols, data: out };
}

/** Dot product of a[aOff .. aOff+len) and b[bOff .. bOff+len), in f64. */
export function dot(a: Float32Array, aOff: number, b: Float32Array, bOff: number, len: number): number {
  let s = 0;
  for (let t = 0; t < len; t++) s += a[aOff + t]! * b[bOff + t]!;
  return s;
}

/** a · bᵀ  (a: r×k, b: c×k) — e.g. the score matrix Q Kᵀ without materializing Kᵀ. */
export function matmulABt(a: Matrix, b: Matrix): Matrix {
  if (a.cols !== b.cols) throw new RangeError(`matmulABt: ${a.rows}×${a.cols} · (${b.rows}×${b.cols})ᵀ`);
  const k = a.cols;
  const out = new Float32Array(a.rows * b.rows);
  for (let i = 0; i < a.rows; i++) {
    for (let j = 0; j < b.rows; j++) out[i * b.rows + j] = dot(a.data, i * k, b.data, j * k, k);
  }
  return { rows: a.rows, cols: b.rows, data: out };
}

/** s · m (new matrix). */
export function scale(m: Matrix, s: number): Matrix {
  const out = new Float32Array(m.data.length);
  for (let i = 0; i < out.length; i++) out[i] = m.data[i]! * s;
  return { rows: m.rows, cols: m.cols, data: out };
}

export function frobeniusNorm(m: Matrix): number {
  let s = 0;
  for (let i = 0; i < m.data.length; i++) s += m.data[i]! * m.data[i]!;
  return Math.sqrt(s);
}

function assertSameShape(a: Matrix, b: Matrix, what: string): void {
  if (a.rows !== b.rows || a.cols !== b.cols) {
    throw new RangeError(`${what}: ${a.rows}×${a.cols} vs ${b.rows}×${b.cols}`);
  }
}

/** ‖approx − exact‖_F / ‖exact‖_F (∞ if exact is zero and approx is not; 0 if both are zero). */
export function relFrobeniusError(approx: Matrix, exact: Matrix): number {
  assertSameShape(approx, exact, 'relFrobeniusError');
  return relativeError(approx.data, exact.data);
}

export function maxAbsDiff(a: Matrix, b: Matrix): number {
  assertSameShape(a, b, 'maxAbsDiff');
  let m = 0;
  for (let i = 0; i < a.data.length; i++) {
    const d = Math.abs(a.data[i]! - b.data[i]!);
    if (Number.isNaN(d)) return NaN; // a NaN anywhere must not hide behind a max
    if (d > m) m = d;
  }
  return m;
}

/** Index of the first NaN/±Inf entry, or −1. */
export function firstNonFinite(data: Float32Array): number {
  for (let i = 0; i < data.length; i++) if (!Number.isFinite(data[i]!)) return i;
  return -1;
}

export function allFinite(m: Matrix): boolean {
  return firstNonFinite(m.data) < 0;
}
