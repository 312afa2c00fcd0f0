// Error measures of the performer-kernels driver (e2e/pages/performer-kernels.ts), GPU against the
// CPU twins (all returned, the spec asserts on `norm`):
// - features: maxAbs, rel = maxAbs / max|φ_cpu|, norm = max over entries of |Δ| / (|φ_cpu| + 1e-3·max|φ_cpu|).
// - outputs:  maxAbs, rel = maxAbs / max|out_cpu| (error relative to the output scale), and
//             norm = max_i max_c |Δ_ic| / (κ_i · (max|V| + max_c |out_cpu,ic|)), where
//             κ_i = Σ_f |φ_if| Σ_j |φ_jf| / |Σ_f φ_if Σ_j φ_jf| (j over the allowed keys) is the
//             condition number of row i's normalizer (conditionNumbers). κ_i = 1 for maps with positive
//             features; trig features have both signs, so the normalizer cancels and κ_i can be large.
import type { Matrix } from '../../src/core/types';

function maxAbsOf(a: Float32Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]!));
  return m;
}

export function featureErrors(got: Float32Array, ref: Float32Array) {
  const scale = maxAbsOf(ref);
  let maxAbs = 0;
  let norm = 0;
  let finite = true;
  for (let i = 0; i < ref.length; i++) {
    const g = got[i]!;
    if (!Number.isFinite(g)) finite = false;
    const e = Math.abs(g - ref[i]!);
    maxAbs = Math.max(maxAbs, e);
    norm = Math.max(norm, e / (Math.abs(ref[i]!) + 1e-3 * scale));
  }
  return { maxAbs, rel: scale > 0 ? maxAbs / scale : maxAbs, norm, finite: finite && got.length === ref.length };
}

/** κ_i of every row (see the header), from the CPU features. */
export function conditionNumbers(qf: Matrix, kf: Matrix, causal: boolean): Float64Array {
  const n = qf.rows;
  const mp = qf.cols;
  const z = new Float64Array(mp);
  const za = new Float64Array(mp);
  const kappa = new Float64Array(n);
  const add = (j: number) => {
    for (let f = 0; f < mp; f++) {
      const v = kf.data[j * mp + f]!;
      z[f]! += v;
      za[f]! += Math.abs(v);
    }
  };
  const row = (i: number) => {
    let num = 0;
    let den = 0;
    for (let f = 0; f < mp; f++) {
      const v = qf.data[i * mp + f]!;
      num += Math.abs(v) * za[f]!;
      den += v * z[f]!;
    }
    kappa[i] = num / Math.abs(den);
  };
  if (causal) {
    for (let i = 0; i < n; i++) {
      add(i);
      row(i);
    }
  } else {
    for (let j = 0; j < kf.rows; j++) add(j);
    for (let i = 0; i < n; i++) row(i);
  }
  return kappa;
}

export function outputErrors(got: Float32Array, ref: Matrix, v: Matrix, kappa: Float64Array, rows?: number[]) {
  const d = ref.cols;
  const vmax = maxAbsOf(v.data);
  let maxAbs = 0;
  let scale = 0;
  let norm = 0;
  let kappaMax = 0;
  let finite = true;
  const list = rows ?? Array.from({ length: ref.rows }, (_, i) => i);
  for (const i of list) {
    let rmax = 0;
    let emax = 0;
    for (let c = 0; c < d; c++) {
      const g = got[i * d + c]!;
      if (!Number.isFinite(g)) finite = false;
      rmax = Math.max(rmax, Math.abs(ref.data[i * d + c]!));
      emax = Math.max(emax, Math.abs(g - ref.data[i * d + c]!));
    }
    scale = Math.max(scale, rmax);
    maxAbs = Math.max(maxAbs, emax);
    kappaMax = Math.max(kappaMax, kappa[i]!);
    norm = Math.max(norm, emax / (kappa[i]! * (vmax + rmax)));
  }
  return { maxAbs, rel: scale > 0 ? maxAbs / scale : maxAbs, norm, kappaMax, finite, rowsCompared: list.length };
}
