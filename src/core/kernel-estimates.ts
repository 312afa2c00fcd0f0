/**
 * Raw single-entry estimators of SM(x, y) = exp(x·y), in f64 and unstabilized: what one entry of
 * φ(x)·φ(y) estimates before any shift or ε (feature-maps.ts forms the shipped, stabilized maps).
 * The theory panel's MSE formulas (theory.ts) and the estimator statistics (estimator-stats.ts) are
 * checked against these; OPRF's own estimate lives beside its map (feature-maps-beyond.ts).
 */
import { EngineError } from './errors';
import type { Matrix } from './types';

function checkPair(x: ArrayLike<number>, y: ArrayLike<number>, w: Matrix): void {
  if (x.length !== w.cols || y.length !== w.cols) {
    throw new EngineError('shape-mismatch', `vectors of length ${x.length}, ${y.length} vs W ${w.rows}×${w.cols}`);
  }
}
function sq(x: ArrayLike<number>): number {
  let s = 0;
  for (let c = 0; c < x.length; c++) s += x[c]! * x[c]!;
  return s;
}
function proj(w: Matrix, r: number, x: ArrayLike<number>): number {
  let s = 0;
  for (let c = 0; c < w.cols; c++) s += w.data[r * w.cols + c]! * x[c]!;
  return s;
}

/** φ⁺(x)·φ⁺(y) = (1/m) Σ_r exp(ω_r·x − ‖x‖²/2) exp(ω_r·y − ‖y‖²/2); unbiased for exp(x·y) when ω_r ~ N(0, I). */
export function positiveKernelEstimate(x: ArrayLike<number>, y: ArrayLike<number>, w: Matrix): number {
  checkPair(x, y, w);
  const h = (sq(x) + sq(y)) / 2;
  let s = 0;
  for (let r = 0; r < w.rows; r++) s += Math.exp(proj(w, r, x) + proj(w, r, y) - h);
  return s / w.rows;
}

/** (1/m) Σ_r exp(‖x‖²/2 + ‖y‖²/2) cos(ω_r·(x − y)) — the trig map's estimate (sin·sin + cos·cos). */
export function trigKernelEstimate(x: ArrayLike<number>, y: ArrayLike<number>, w: Matrix): number {
  checkPair(x, y, w);
  const h = (sq(x) + sq(y)) / 2;
  let s = 0;
  for (let r = 0; r < w.rows; r++) s += Math.cos(proj(w, r, x) - proj(w, r, y));
  return (Math.exp(h) * s) / w.rows;
}

/** (1/m) Σ_r exp(−‖x‖²/2 − ‖y‖²/2) cosh(ω_r·(x + y)) — the hyperbolic map's estimate. */
export function hyperbolicKernelEstimate(x: ArrayLike<number>, y: ArrayLike<number>, w: Matrix): number {
  checkPair(x, y, w);
  const h = (sq(x) + sq(y)) / 2;
  let s = 0;
  for (let r = 0; r < w.rows; r++) s += Math.cosh(proj(w, r, x) + proj(w, r, y));
  return (Math.exp(-h) * s) / w.rows;
}
