/**
 * General matrix product on strided row-major f32 views — the CPU twin of src/shaders/matmul.wgsl
 * (dispatcher src/gpu/matmul.ts), used by the "one Transformer layer" timing on the CPU path.
 *
 *   C[i, j] = act( Σ_k A[i, k] · B[k, j] ) + (accumulate ? C[i, j] : 0)
 *
 * with A[i, k] = a[offA + i·lda + k], B[k, j] = b[offB + k·ldb + j], C[i, j] = c[offC + i·ldc + j],
 * act = ReLU or the identity. The sum runs in f64 (the kernel sums in f32; tests compare within a
 * float32 tolerance). Strides and offsets let a head's slice of a projection be read in place
 * (columns h·d_h … of W_Q) and a residual be added (accumulate).
 */
import { EngineError } from './errors';

export interface MatmulShape {
  /** rows of A and C */
  m: number;
  /** columns of B and C */
  n: number;
  /** columns of A = rows of B */
  k: number;
  lda?: number;
  ldb?: number;
  ldc?: number;
  offA?: number;
  offB?: number;
  offC?: number;
  /** add the product to C (a residual) instead of overwriting it */
  accumulate?: boolean;
  /** ReLU on the product before the accumulation (an FFN's hidden layer) */
  relu?: boolean;
}

/** Full strides and offsets of a shape (defaults: dense, no offset). */
export function matmulLayout(s: MatmulShape): Required<MatmulShape> {
  return {
    m: s.m,
    n: s.n,
    k: s.k,
    lda: s.lda ?? s.k,
    ldb: s.ldb ?? s.n,
    ldc: s.ldc ?? s.n,
    offA: s.offA ?? 0,
    offB: s.offB ?? 0,
    offC: s.offC ?? 0,
    accumulate: s.accumulate ?? false,
    relu: s.relu ?? false,
  };
}

/** Elements each of a, b, c must hold for the shape (the last element read or written, plus one). */
export function matmulExtents(s: MatmulShape): { a: number; b: number; c: number } {
  const L = matmulLayout(s);
  const ext = (off: number, rows: number, ld: number, cols: number) =>
    rows === 0 || cols === 0 ? 0 : off + (rows - 1) * ld + cols;
  return { a: ext(L.offA, L.m, L.lda, L.k), b: ext(L.offB, L.k, L.ldb, L.n), c: ext(L.offC, L.m, L.ldc, L.n) };
}

function check(s: MatmulShape, a: Float32Array, b: Float32Array, c: Float32Array): Required<MatmulShape> {
  const L = matmulLayout(s);
  for (const [name, v] of Object.entries({
    m: L.m,
    n: L.n,
    k: L.k,
    lda: L.lda,
    ldb: L.ldb,
    ldc: L.ldc,
    offA: L.offA,
    offB: L.offB,
    offC: L.offC,
  })) {
    if (!Number.isInteger(v) || v < 0)
      throw new EngineError('invalid-size', `matmul: ${name} = ${v} is not a non-negative integer`);
  }
  if (L.lda < L.k || L.ldb < L.n || L.ldc < L.n)
    throw new EngineError('shape-mismatch', 'matmul: a leading dimension is smaller than its row');
  const e = matmulExtents(L);
  if (a.length < e.a || b.length < e.b || c.length < e.c) {
    throw new EngineError(
      'shape-mismatch',
      `matmul: buffers of ${a.length}, ${b.length}, ${c.length} floats; the shape needs ${e.a}, ${e.b}, ${e.c}`,
    );
  }
  return L;
}

/** C ← act(A·B) (+ C): see the module comment. Writes into `c` and returns it. */
export function matmulInto(s: MatmulShape, a: Float32Array, b: Float32Array, c: Float32Array): Float32Array {
  const L = check(s, a, b, c);
  const row = new Float64Array(L.n);
  for (let i = 0; i < L.m; i++) {
    row.fill(0);
    const ai = L.offA + i * L.lda;
    // i-k-j order: B's rows are read contiguously
    for (let kk = 0; kk < L.k; kk++) {
      const x = a[ai + kk]!;
      if (x === 0) continue;
      const bk = L.offB + kk * L.ldb;
      for (let j = 0; j < L.n; j++) row[j]! += x * b[bk + j]!;
    }
    const ci = L.offC + i * L.ldc;
    for (let j = 0; j < L.n; j++) {
      let v = row[j]!;
      if (L.relu && v < 0) v = 0;
      c[ci + j] = L.accumulate ? c[ci + j]! + v : v;
    }
  }
  return c;
}

/** FLOPs of one product: 2·m·n·k (a multiply and an add per term). */
export function matmulFlops(m: number, n: number, k: number): number {
  return 2 * m * n * k;
}
