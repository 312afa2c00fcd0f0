// The projection pass's own outputs (favor-projection.wgsl: the threads' partial maxima combined by
// row_max and key_max, hn) against an f64 recomputation from the same f32 inputs: per query row
// max_r u_ir (hyperbolic |u_ir|), the keys' global max (key 0's alone in causal mode under ε), and
// hn = ‖x‖²/2 of both sides, read after the output pass (in row blocks it projects the query blocks).
// The outputs' checks alone would miss a wrong query shift: it cancels in
// the normalization but for the ε term.
import { causalKeyShift, scaleInputs, stabilizerEps } from '../../src/core/feature-maps';
import { projectRows } from '../../src/core/project-rows';
import type { Matrix } from '../../src/core/types';
import { encodeFavorProjection } from '../../src/gpu/favor-projection';
import { encodePerformerBidirectional } from '../../src/gpu/performer-bidirectional';
import { encodePerformerCausal } from '../../src/gpu/performer-causal';
import { ctx, inputsOf, submitAndRead, upload, type Case } from './performer-common';

function rowMaxima(u: Float64Array, rows: number, m: number, hyper: boolean): Float64Array {
  const out = new Float64Array(rows).fill(-Infinity);
  for (let i = 0; i < rows; i++)
    for (let r = 0; r < m; r++) out[i] = Math.max(out[i]!, hyper ? Math.abs(u[i * m + r]!) : u[i * m + r]!);
  return out;
}

const halfNorms = (x: Matrix): number[] =>
  Array.from({ length: x.rows }, (_, i) => {
    let s = 0;
    for (let c = 0; c < x.cols; c++) s += x.data[i * x.cols + c]! ** 2;
    return s / 2;
  });

export async function projectionStats(c: Case, causal: boolean) {
  const k = await ctx();
  const inp = inputsOf(c);
  const p = upload(k, inp, c, causal);
  const { data } = await submitAndRead(
    k,
    'projection stats',
    (enc) => {
      const proj = encodeFavorProjection(k, enc, p, c.block);
      // in row blocks each query block is projected (its maxima and hn written) by the output pass
      const args = { ...p, stats: proj.stats, projection: proj };
      if (causal) encodePerformerCausal(k, enc, args);
      else encodePerformerBidirectional(k, enc, args);
      return [proj.stats.qStats, proj.stats.kStats, proj.hn];
    },
    [2 * c.n, 2, 2 * c.n],
  );
  const [qs, ks, hn] = data as [Float32Array, Float32Array, Float32Array];
  const hyper = c.map === 'hyperbolic';
  const x = scaleInputs(inp.q);
  const y = scaleInputs(inp.k);
  const qmax = rowMaxima(projectRows(x, inp.w), c.n, inp.w.rows, hyper);
  const kmaxRows = rowMaxima(projectRows(y, inp.w), c.n, inp.w.rows, hyper);
  const firstOnly = causalKeyShift(causal, stabilizerEps(c.stab ?? 'shift'));
  const kmax = firstOnly ? kmaxRows[0]! : Math.max(...kmaxRows);
  let scale = 1;
  let q = 0;
  for (let i = 0; i < c.n; i++) {
    scale = Math.max(scale, Math.abs(qmax[i]!));
    q = Math.max(q, Math.abs(qs[2 * i]! - qmax[i]!));
  }
  const want = [...halfNorms(x), ...halfNorms(y)];
  let h = 0;
  let hScale = 1;
  want.forEach((v, i) => {
    hScale = Math.max(hScale, v);
    h = Math.max(h, Math.abs(hn[i]! - v));
  });
  return {
    query: q / scale,
    key: Math.abs(ks[0]! - kmax) / Math.max(1, Math.abs(kmax)),
    hn: h / hScale,
    keyMax: { gpu: ks[0]!, cpu: kmax, firstOnly },
    finite: [...qs, ...ks, ...hn].every(Number.isFinite),
  };
}
