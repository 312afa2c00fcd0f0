// Kernel checks of the exact-kernels driver (e2e/pages/exact-kernels.ts): the exact fused kernel
// against the CPU online-softmax twin (whole or on sampled rows, any tiles, on a default-limits
// device), the dense statistics kernels (with CPU-computed features uploaded) against their twins,
// and the dummy kernel (a copy of V).
import { exactAttentionMatrix, exactAttentionOutput, exactRowNormalizers } from '../../src/core/exact-attention';
import { generateInputs } from '../../src/core/inputs';
import { linearAttentionMatrix, performerFeatures } from '../../src/core/linear-attention';
import { matrixView, rowStatsFromMatrices } from '../../src/core/matrix-view';
import type { FeatureMapKind, Matrix } from '../../src/core/types';
import {
  encodeFullRows,
  encodeMatrixView,
  encodeRowNormalizers,
  encodeRowStats,
  rawBytes,
  type DenseProblem,
} from '../../src/gpu/attention-stats';
import { encodeDummyAttention } from '../../src/gpu/dummy-attention';
import { encodeExactAttention, exactTileConfig, type ExactTileConfig } from '../../src/gpu/exact-attention';
import { encodeVec4Rows } from '../../src/gpu/pack-vec4';
import { worst, type Err } from './compare';
import { compare, ctx, defaultLimitsGpu, kernelContext, params, randomMatrix, submitAndRead } from './exact-common';

// ---- exact fused kernel ---------------------------------------------------------------------

interface ExactCase {
  n: number;
  d: number;
  causal: boolean;
  seed?: number;
  scale?: number;
  /** pick tiles for this much workgroup memory (e.g. 16384 to exercise the default-limit tiles) */
  storage?: number;
  /** compare only these rows (CPU streaming twin on those rows alone) */
  sampleRows?: number[];
  /** run on a device created with the default limits */
  defaultLimits?: boolean;
  /** with sampleRows: compute only the row blocks holding them (each still streams all its keys) */
  sampledBlocksOnly?: boolean;
  /** force these tile shapes */
  tiles?: ExactTileConfig;
}

/** Out rows `rows` of exact attention, computed on the CPU one row at a time (causal row i sees keys 0..i). */
function exactRowsCpu(q: Matrix, k: Matrix, v: Matrix, causal: boolean, rows: number[]): Float32Array {
  const d = q.cols;
  const out = new Float32Array(rows.length * d);
  rows.forEach((i, r) => {
    const keys = causal ? i + 1 : k.rows;
    const qi = { rows: 1, cols: d, data: q.data.slice(i * d, (i + 1) * d) };
    const ks = { rows: keys, cols: d, data: k.data.subarray(0, keys * d) };
    const vs = { rows: keys, cols: v.cols, data: v.data.subarray(0, keys * v.cols) };
    out.set(exactAttentionOutput(qi, ks, vs, false).data, r * d);
  });
  return out;
}

function sampledValues(out: Float32Array, rows: readonly number[], d: number): Float32Array {
  const sub = new Float32Array(rows.length * d);
  rows.forEach((i, r) => sub.set(out.subarray(i * d, (i + 1) * d), r * d));
  return sub;
}

export async function exact(cs: ExactCase) {
  const { n, d, causal } = cs;
  const seed = cs.seed ?? 1;
  const scale = cs.scale ?? 1;
  const c = cs.defaultLimits ? kernelContext(await defaultLimitsGpu()) : await ctx();
  const q = randomMatrix(n, d, seed, scale);
  const k = randomMatrix(n, d, seed + 1, scale);
  const v = randomMatrix(n, d, seed + 2, 1);
  const tiles = cs.tiles ?? exactTileConfig(d, cs.storage ?? c.limits.maxComputeWorkgroupStorageSize);
  const qb = c.alloc.upload('t.q', q.data);
  const kb = c.alloc.upload('t.k', k.data);
  const vb = c.alloc.upload('t.v', v.data);
  let got: Float32Array;
  let ms: number;
  let blocksRun = Math.ceil(n / tiles.br);
  if (cs.sampledBlocksOnly && cs.sampleRows) {
    // one dispatch per block holding a sampled row, each into its own output buffer
    const blocks = [...new Set(cs.sampleRows.map((i) => Math.floor(i / tiles.br)))];
    blocksRun = blocks.length;
    const r = await submitAndRead(c, (enc) =>
      blocks.map((b) => ({
        buf: encodeExactAttention(c, enc, {
          n,
          d,
          causal,
          q: qb,
          k: kb,
          v: vb,
          tiles,
          blocks: { first: b, end: b + 1 },
          role: `t.out.${b}`,
        }),
        floats: n * d,
      })),
    );
    got = new Float32Array(n * d).fill(Number.NaN);
    blocks.forEach((b, j) => {
      const rows = [b * tiles.br, Math.min(n, (b + 1) * tiles.br)];
      got.set(r.data[j]!.subarray(rows[0]! * d, rows[1]! * d), rows[0]! * d);
    });
    ms = r.ms;
  } else {
    const r = await submitAndRead(c, (enc) => [
      { buf: encodeExactAttention(c, enc, { n, d, causal, q: qb, k: kb, v: vb, tiles }), floats: n * d },
    ]);
    got = r.data[0]!;
    ms = r.ms;
  }
  let err: Err;
  if (cs.sampleRows) {
    err = compare(sampledValues(got, cs.sampleRows, d), exactRowsCpu(q, k, v, causal, cs.sampleRows));
  } else {
    err = compare(got, exactAttentionOutput(q, k, v, causal).data);
  }
  const finite = (cs.sampledBlocksOnly ? sampledValues(got, cs.sampleRows ?? [], d) : got).every(Number.isFinite);
  if (cs.defaultLimits) c.device.destroy();
  return {
    ...err,
    ok: err.ok && finite,
    ms,
    tiles,
    blocksRun,
    storageLimit: c.limits.maxComputeWorkgroupStorageSize,
  };
}

// ---- dense statistics kernels (with CPU-computed features uploaded) -------------------------

interface DenseCase {
  n: number;
  d: number;
  m: number;
  featureMap: FeatureMapKind;
  causal: boolean;
  viewCells: number;
  rows: number[];
  seed?: number;
  scale?: number;
  /** the normalizers keep the raw products, and the row statistics and the view read them */
  raw?: boolean;
}

export async function dense(cs: DenseCase) {
  const c = await ctx();
  const { n, d, causal } = cs;
  const inputs = generateInputs(params({ ...cs, seed: cs.seed ?? 1, scale: cs.scale ?? 0.5 }));
  const { qf, kf } = performerFeatures(inputs, cs.featureMap);
  const mp = qf.cols;
  const qb = c.alloc.upload('t.q', inputs.q.data);
  const kb = c.alloc.upload('t.k', inputs.k.data);
  const qfb = c.alloc.upload('t.qf', qf.data);
  const kfb = c.alloc.upload('t.kf', kf.data);
  let cells = 0;
  let block = 0;
  const { data, ms } = await submitAndRead(c, (enc) => {
    const p: DenseProblem = {
      n,
      d,
      mp,
      causal,
      q4: encodeVec4Rows(c, enc, qb, n, d, 't.q4'),
      k4: encodeVec4Rows(c, enc, kb, n, d, 't.k4'),
      qf4: encodeVec4Rows(c, enc, qfb, n, mp, 't.qf4'),
      kf4: encodeVec4Rows(c, enc, kfb, n, mp, 't.kf4'),
    };
    const raw = cs.raw ? c.alloc.storage('t.raw', rawBytes(n)) : undefined;
    const norms = encodeRowNormalizers(c, enc, p, raw);
    const stats = encodeRowStats(c, enc, p, norms, raw);
    const view = encodeMatrixView(c, enc, p, norms, cs.viewCells, raw);
    cells = view.plan.cells;
    block = view.plan.block;
    const rows = encodeFullRows(c, enc, p, norms, cs.rows);
    return [
      { buf: norms, floats: 4 * n },
      { buf: stats, floats: 5 * n },
      { buf: view.buffer, floats: 3 * cells * cells },
      { buf: rows, floats: 2 * cs.rows.length * n },
    ];
  });
  const [norms, stats, view, rows] = data as [Float32Array, Float32Array, Float32Array, Float32Array];

  // CPU twins
  const A = exactAttentionMatrix(inputs.q, inputs.k, causal);
  const B = linearAttentionMatrix(qf, kf, causal);
  const nrm = exactRowNormalizers(inputs.q, inputs.k, causal);
  const den = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const last = causal ? i : n - 1;
    for (let j = 0; j <= last; j++) {
      let s = 0;
      for (let r = 0; r < mp; r++) s += qf.data[i * mp + r]! * kf.data[j * mp + r]!;
      den[i]! += s;
    }
  }
  const pick = (k: number) => Float32Array.from({ length: n }, (_, i) => norms[4 * i + k]!);
  const rs = rowStatsFromMatrices(A, B, causal);
  const vw = matrixView(A, B, cs.viewCells);
  const plane = (a: Float32Array, i: number, len: number) => a.subarray(i * len, (i + 1) * len);
  const R = cs.rows.length;
  const rowRef = (M: Matrix) => {
    const out = new Float32Array(R * n);
    cs.rows.forEach((i, r) => out.set(M.data.subarray(i * n, (i + 1) * n), r * n));
    return out;
  };
  const errs: Record<string, Err> = {
    rowMax: compare(pick(0), nrm.max),
    rowSumExp: compare(pick(1), nrm.sum),
    approxDenominator: compare(pick(2), Float32Array.from(den)),
    exactEntropy: compare(plane(stats, 0, n), rs.exactEntropy),
    approxEntropy: compare(plane(stats, 1, n), rs.approxEntropy),
    sqErr: compare(plane(stats, 2, n), rs.sqErr),
    exactSq: compare(plane(stats, 3, n), rs.exactSq),
    kl: compare(plane(stats, 4, n), rs.kl),
    viewExact: compare(plane(view, 0, cells * cells), vw.exact),
    viewApprox: compare(plane(view, 1, cells * cells), vw.approx),
    viewAbsDiff: compare(plane(view, 2, cells * cells), vw.absDiff),
    rowsExact: compare(rows.subarray(0, R * n), rowRef(A)),
    rowsApprox: compare(rows.subarray(R * n), rowRef(B)),
  };
  const geometry = { cells, block, mp, cpuCells: vw.cells, cpuBlock: vw.block };
  const w = worst(errs);
  return { ...w, ok: w.ok && cells === vw.cells && block === vw.block, ms, geometry };
}

// ---- dummy attention ------------------------------------------------------------------------

export async function dummy(n: number, d: number) {
  const c = await ctx();
  const q = randomMatrix(n, d, 7, 1);
  const k = randomMatrix(n, d, 8, 1);
  const v = randomMatrix(n, d, 9, 1);
  const qb = c.alloc.upload('t.q', q.data);
  const kb = c.alloc.upload('t.k', k.data);
  const vb = c.alloc.upload('t.v', v.data);
  const { data, ms } = await submitAndRead(c, (enc) => [
    { buf: encodeDummyAttention(c, enc, { n, d, q: qb, k: kb, v: vb }), floats: n * d },
  ]);
  const got = data[0]!;
  let exactMatch = true;
  for (let i = 0; i < got.length; i++) if (got[i] !== v.data[i]) exactMatch = false;
  return { ...compare(got, v.data), exactMatch, ms };
}
