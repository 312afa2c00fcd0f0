/**
 * One whole `AttentionJob` on the CPU: the CPU fallback backend and the reference every GPU result
 * is tested against. It defines what each `AttentionOutput` field must contain.
 *
 * Memory stays O(n·(d + m')) whatever n is: the exact output streams (online softmax), the linear
 * output uses K'ᵀV / prefix sums, and the view and row statistics are built one attention row at a
 * time (row i of A and of Â, length n, then folded into the view sums and the row-stat entry i) —
 * the same numbers a dense n×n computation would give, without ever holding n×n. Their cost is
 * O(n²(d + m')), which is why the job asks for them explicitly.
 */
import type {
  AttentionJob,
  AttentionOutput,
  AttentionRowPair,
  KernelTiming,
  MatrixView,
  RowStats,
} from './attention-job';
import { EngineError } from './errors';
import { exactAttentionOutput, exactAttentionRow } from './exact-attention';
import { featureDim, keyFeatures, mapContext, queryFeatures, scaleInputs, usesProjection } from './feature-maps';
import { linearAttention, linearAttentionRow } from './linear-attention';
import { firstNonFinite } from './matrix';
import { accumulateViewRow, createRowStats, createViewAccumulator, finishView, writeRowStats } from './matrix-view';
import type { Matrix } from './types';
import { validateJob } from './validate';

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

function assertFinite(what: string, m: Matrix): void {
  const idx = firstNonFinite(m.data);
  if (idx >= 0) {
    const row = Math.floor(idx / Math.max(m.cols, 1));
    throw new EngineError(
      'non-finite-result',
      `${what} overflowed: entry [${row}, ${idx - row * m.cols}] is ${m.data[idx]}`,
      {
        stage: what,
        index: idx,
      },
    );
  }
}

/**
 * φ(Q·d^{-1/4}), φ(K·d^{-1/4}) of a job: its map, its W (the fitted one for hedgehog) and its
 * stabilizer. Everything that forms a job's Â (the job itself, the state export) goes through here,
 * so none of them can drop a parameter.
 */
export function jobFeatures(job: Pick<AttentionJob, 'inputs' | 'featureMap' | 'stabilizer'>): {
  qf: Matrix;
  kf: Matrix;
} {
  const { featureMap } = job;
  const stabilizer = job.stabilizer ?? 'shift';
  const x = scaleInputs(job.inputs.q);
  const y = scaleInputs(job.inputs.k);
  const ctx = mapContext(featureMap, x, y);
  const w = job.inputs.w;
  return { qf: queryFeatures(featureMap, x, w, stabilizer, ctx), kf: keyFeatures(featureMap, y, w, stabilizer, ctx) };
}

export function runAttentionJob(job: AttentionJob): AttentionOutput {
  validateJob(job);
  const { q, k, v, w } = job.inputs;
  const { featureMap, causal } = job;
  const n = q.rows;
  const d = q.cols;
  const m = usesProjection(featureMap) ? w.rows : 0;
  const mp = featureDim(featureMap, m, d);
  const timings: KernelTiming[] = [];
  let bytes = 0;

  const timed = <T>(kernel: string, f: () => T): T => {
    const t0 = now();
    const r = f();
    timings.push({ kernel, ms: now() - t0, source: 'wall' });
    return r;
  };

  // Features φ(Q·d^{-1/4}), φ(K·d^{-1/4}). Internal scratch: projections u (f64) and row norms.
  const { qf, kf } = timed('feature-maps', () => jobFeatures(job));
  bytes += 2 * n * d * 4 + 2 * n * mp * 4 + (m > 0 ? n * m * 8 + n * 8 : 0);
  assertFinite('query features', qf);
  assertFinite('key features', kf);

  const exactOut = timed('exact-attention', () => exactAttentionOutput(q, k, v, causal));
  bytes += n * d * 4 + d * 8;
  assertFinite('exact output', exactOut);

  const { out: approxOut, zeroNormalizerRows } = timed('linear-attention', () => linearAttention(qf, kf, v, causal));
  bytes += n * d * 4 + (mp * d + mp + d) * 8;
  assertFinite('approximate output', approxOut);

  let view: MatrixView | null = null;
  let rowStats: RowStats | null = null;
  if (job.viewCells > 0 || job.rowStats) {
    ({ view, rowStats } = timed('view-and-row-stats', () => {
      const acc = job.viewCells > 0 ? createViewAccumulator(n, job.viewCells) : null;
      const stats = job.rowStats ? createRowStats(n) : null;
      const exactRow = new Float32Array(n);
      const approxRow = new Float32Array(n);
      const scratch = new Float64Array(n);
      bytes += n * (4 + 4 + 8);
      if (acc) bytes += 3 * acc.cells * acc.cells * (8 + 4);
      if (stats) bytes += 5 * n * 4;
      for (let i = 0; i < n; i++) {
        exactAttentionRow(q, k, i, causal, exactRow, scratch);
        linearAttentionRow(qf, kf, i, causal, approxRow, scratch);
        if (acc) accumulateViewRow(acc, i, exactRow, approxRow);
        if (stats) writeRowStats(stats, i, exactRow, approxRow, causal);
      }
      return { view: acc ? finishView(acc) : null, rowStats: stats };
    }));
  }

  const rows: AttentionRowPair[] = [];
  if (job.rows.length > 0) {
    timed('attention-rows', () => {
      const scratch = new Float64Array(n);
      bytes += n * 8;
      for (const index of job.rows) {
        const exact = exactAttentionRow(q, k, index, causal, new Float32Array(n), scratch);
        const approx = linearAttentionRow(qf, kf, index, causal, new Float32Array(n), scratch);
        bytes += 2 * n * 4;
        rows.push({ index, exact, approx });
      }
    });
  }

  return { exactOut, approxOut, zeroNormalizerRows, view, rowStats, rows, timings, bytesAllocated: bytes };
}
