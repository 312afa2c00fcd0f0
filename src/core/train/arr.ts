/**
 * The float arrays the CPU twins compute in. Every twin is generic over Float32Array (what the
 * trainer and the GPU use) and Float64Array (what the gradient checks use: central finite
 * differences need ~1e-8 steps, far below f32's resolution). Outputs take the input's type.
 */
export type Arr = Float32Array | Float64Array;

/** A zeroed array of length n of the same type as x. */
export function like(x: Arr, n: number): Arr {
  return new (x.constructor as new (n: number) => Arr)(n);
}

/** a += b, elementwise (same length). */
export function addInto(a: Arr, b: Arr): void {
  for (let i = 0; i < a.length; i++) a[i] += b[i];
}

/** Columns c0 … c0+w−1 of a rows×cols matrix, as a rows×w matrix (a head's slice). */
export function sliceCols(x: Arr, rows: number, cols: number, c0: number, w: number): Arr {
  const out = like(x, rows * w);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < w; c++) out[r * w + c] = x[r * cols + c0 + c];
  }
  return out;
}

/** Writes a rows×w matrix into columns c0 … of a rows×cols matrix (inverse of sliceCols). */
export function putCols(dst: Arr, rows: number, cols: number, c0: number, w: number, src: Arr): void {
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < w; c++) dst[r * cols + c0 + c] = src[r * w + c];
  }
}

/** Transpose of a rows×cols matrix. */
export function transpose(x: Arr, rows: number, cols: number): Arr {
  const out = like(x, rows * cols);
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) out[c * rows + r] = x[r * cols + c];
  }
  return out;
}
