/**
 * The projections u = W x of a block of rows (n×m, f64, row-major: u[i·m + r] = ω_r·x_i), which every
 * projection-based feature map starts from (feature-maps.ts). The sweeps form thousands of maps per
 * step, so this is one of the analysis workers' hot loops.
 */
import { EngineError } from './errors';
import type { Matrix } from './types';

/** u = x Wᵀ (n×m) in f64: u[i·m + r] = ω_r·x_i. */
export function projectRows(x: Matrix, w: Matrix): Float64Array {
  return projectRowsInto(x, w, new Float64Array(x.rows * w.rows));
}

/** Largest projection (entries) kept in the scratch buffer (8 MB of f64); a larger one is allocated. */
const SCRATCH_MAX = 1 << 20;
let scratch = new Float64Array(0);

/**
 * The projection of a map that consumes it within the call (every map of feature-maps.ts): in a buffer kept
 * between calls. The sweeps form thousands of feature maps per step; a fresh n×m f64 array each time
 * was most of the bytes the analysis workers allocated, and their GC ran for a large part of a step.
 */
export function projectScratch(x: Matrix, w: Matrix): Float64Array {
  const len = x.rows * w.rows;
  if (len > SCRATCH_MAX) return projectRows(x, w);
  if (scratch.length < len) scratch = new Float64Array(Math.min(SCRATCH_MAX, Math.max(len, 2 * scratch.length)));
  return projectRowsInto(x, w, scratch.subarray(0, len));
}

function projectRowsInto(x: Matrix, w: Matrix, u: Float64Array): Float64Array {
  if (w.cols !== x.cols) {
    throw new EngineError('shape-mismatch', `W is ${w.rows}×${w.cols} but inputs have d = ${x.cols}`);
  }
  const { rows: n, cols: d } = x;
  const m = w.rows;
  const xd = x.data;
  const wd = w.data;
  // four rows of W at a time: four independent sums share each load of x (one sum alone is a chain of
  // dependent adds); each sum runs over c in order, so every u is the one-row-at-a-time value bit for bit
  for (let i = 0; i < n; i++) {
    const xo = i * d;
    let r = 0;
    for (; r + 3 < m; r += 4) {
      const w0 = r * d;
      const w1 = w0 + d;
      const w2 = w1 + d;
      const w3 = w2 + d;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let c = 0; c < d; c++) {
        const xc = xd[xo + c]!;
        s0 += xc * wd[w0 + c]!;
        s1 += xc * wd[w1 + c]!;
        s2 += xc * wd[w2 + c]!;
        s3 += xc * wd[w3 + c]!;
      }
      const uo = i * m + r;
      u[uo] = s0;
      u[uo + 1] = s1;
      u[uo + 2] = s2;
      u[uo + 3] = s3;
    }
    for (; r < m; r++) {
      let s = 0;
      for (let c = 0; c < d; c++) s += xd[xo + c]! * wd[r * d + c]!;
      u[i * m + r] = s;
    }
  }
  return u;
}
