/**
 * The WebGPU analysis backend (core/analysis-backend.ts `AnalysisBackend`): a batch of variants of one
 * problem is one command encoder, one submission and one small readback. Per variant: φ(Q), φ(K)
 * of all n rows (favor-features.ts, the live path's feature kernels), then the normalizers and the
 * row statistics of the listed rows (attention-row-list-stats.ts) written into one shared buffer;
 * with `fullRows`, the rows A_r, Â_r (attention-stats.ts encodeFullRows) copied into a second one.
 * Neither the dense Â nor φ ever reaches host memory.
 *
 * The dense ops' matrices (spectra, local truncation) are formed by analysis-dense.ts.
 *
 * Every variant's buffers get their own roles (a role prefix per variant), so the uniforms and
 * intermediates of the batch do not overwrite each other before the one submission runs. The
 * buffers stay for the next batch (same roles, grown as needed) until `dispose`.
 *
 * `lock` is the engine worker's GPU turn (src/engine/gpu-turns.ts): each batch is one turn, so a
 * live compute waits for at most one batch.
 */
import {
  cpuAnalysisBackend,
  type AnalysisBackend,
  type FeatureVariant,
  type RowProblem,
  type RowStatsBatch,
  type RowStatsOptions,
  type VariantRowStats,
} from '../core/analysis-backend';
import { isEngineError } from '../core/errors';
import { featureDim, featureMapParam, keyFeatures, mapContext, queryFeatures, scaleInputs } from '../core/feature-maps';
import type { FeatureMapKind, Matrix } from '../core/types';
import { GpuAllocator } from './allocator';
import { subRows } from '../core/sweeps';
import { encodeFullRows, type DenseProblem } from './attention-stats';
import { encodeRowListStats, ROW_LIST_STATS } from './attention-row-list-stats';
import { encodeFavorFeatures } from './favor-features';
import { GpuTimer } from './gpu-timer';
import type { KernelContext } from './kernel-context';
import { encodeVec4Rows } from './pack-vec4';
import { readFloats } from './readback';
import { withErrorScopes } from './error-scope';
import { createDenseAnalysis } from './analysis-dense';

/** An allocator whose roles all carry the current prefix. */
class PrefixAllocator extends GpuAllocator {
  prefix = '';
  override buffer(role: string, bytes: number, usage: number): GPUBuffer {
    return super.buffer(this.prefix + role, bytes, usage);
  }
}

/** Past this d the feature kernels refuse (favor-features.ts): such batches (and those whose φ exceeds a binding) run on the CPU twins. */
const GPU_D_MAX = 256;

export type GpuLock = <T>(work: () => Promise<T>) => Promise<T>;

export interface GpuAnalysisBackend extends AnalysisBackend {
  dispose(): void;
}

export interface GpuAnalysisOptions {
  /**
   * Where φ is formed: 'gpu' (favor-features, the default) or 'cpu' (the twins' keyFeatures of all n
   * keys and queryFeatures of the listed rows, uploaded; the row statistics stay on the GPU). A software adapter
   * (SwiftShader) runs the feature-statistics and feature passes slowly — about 0.2–0.6 s per
   * variant at n = 256, m = 64 against ≈ 6 ms for the row statistics — so there φ comes from the CPU.
   */
  features?: 'gpu' | 'cpu';
}

// adapters whose compute runs on the CPU (features are then formed by the twins): the test lives in core
export { isSoftwareAdapter } from '../core/adapters';

export function createGpuAnalysisBackend(
  base: KernelContext,
  lock: GpuLock,
  options: GpuAnalysisOptions = {},
): GpuAnalysisBackend {
  const cpuFeatures = options.features === 'cpu';
  const { device } = base;
  const alloc = new PrefixAllocator(device);
  const ctx: KernelContext = {
    device,
    pipelines: base.pipelines,
    alloc,
    timer: new GpuTimer(device, false),
    limits: base.limits,
  };
  // the dense ops (spectra, local truncation): analysis-dense.ts, its own buffers
  const dense = createDenseAnalysis(base, lock, { features: options.features });

  async function batch(
    problem: RowProblem,
    variants: readonly FeatureVariant[],
    options: RowStatsOptions,
  ): Promise<RowStatsBatch> {
    const { q, k, rows, causal } = problem;
    const n = q.rows;
    const d = q.cols;
    const R = rows.length;
    const V = variants.length;
    alloc.prefix = '';
    const enc = device.createCommandEncoder({ label: 'analysis.rowstats' });
    const qBuf = alloc.upload('an.q', q.data);
    const kBuf = alloc.upload('an.k', k.data);
    const q4 = encodeVec4Rows(ctx, enc, qBuf, n, d, 'an.q4');
    const k4 = encodeVec4Rows(ctx, enc, kBuf, n, d, 'an.k4');
    const rowList = alloc.upload('an.rows', new Uint32Array(rows));
    const out = alloc.storage('an.stats', Math.max(1, V * ROW_LIST_STATS * R) * 4);
    const full = options.fullRows ? alloc.storage('an.fullrows', (V + 1) * R * n * 4) : null;
    let scaled: { x: Matrix; y: Matrix } | null = null;
    const prep = () => (scaled ??= { x: scaleInputs(q), y: scaleInputs(k) });
    const x = () => prep().x;
    const y = () => prep().y;
    const mapParams = new Map<FeatureMapKind, number>();
    const mapParam = (kind: FeatureMapKind) => {
      if (!mapParams.has(kind)) mapParams.set(kind, featureMapParam(kind, q, k, causal));
      return mapParams.get(kind)!;
    };
    variants.forEach((v, i) => {
      alloc.prefix = `v${i}.`;
      const w = alloc.upload('an.w', v.w.data.length ? v.w.data : new Float32Array(4));
      const features = (kind: FeatureMapKind): { qf: GPUBuffer; kf: GPUBuffer } => {
        if (cpuFeatures) {
          // the kernels read φ(Q) only at the listed rows: those rows are formed, the rest stay 0
          const mc = mapContext(kind, x(), y(), causal);
          const mp = featureDim(kind, v.w.rows, d);
          const qRows = queryFeatures(kind, subRows(x(), rows), v.w, v.stabilizer, { ...mc, positions: rows });
          const qf = new Float32Array(n * mp);
          rows.forEach((r, t) => qf.set(qRows.data.subarray(t * mp, (t + 1) * mp), r * mp));
          return {
            qf: alloc.upload(`an.qf.${kind}`, qf),
            kf: alloc.upload(`an.kf.${kind}`, keyFeatures(kind, y(), v.w, v.stabilizer, mc).data),
          };
        }
        return encodeFavorFeatures(ctx, enc, {
          n,
          d,
          m: v.w.rows,
          featureMap: kind,
          stabilizer: v.stabilizer,
          q: qBuf,
          k: kBuf,
          w,
          mapParam: mapParam(kind),
          causal,
        });
      };
      const f = features(v.map);
      let kf = f.kf;
      if (v.keyMap && v.keyMap !== v.map) {
        alloc.prefix = `v${i}.key.`;
        kf = features(v.keyMap).kf;
        alloc.prefix = `v${i}.`;
      }
      const mp = featureDim(v.map, v.w.rows, d);
      const dense: DenseProblem = {
        n,
        d,
        mp,
        causal,
        q4,
        k4,
        qf4: encodeVec4Rows(ctx, enc, f.qf, n, mp, 'an.qf4'),
        kf4: encodeVec4Rows(ctx, enc, kf, n, mp, 'an.kf4'),
      };
      const norms = encodeRowListStats(ctx, enc, dense, rowList, R, out, i * ROW_LIST_STATS * R);
      if (full) {
        const rowsBuf = encodeFullRows(ctx, enc, dense, norms, rows);
        if (i === 0) enc.copyBufferToBuffer(rowsBuf, 0, full, 0, R * n * 4);
        enc.copyBufferToBuffer(rowsBuf, R * n * 4, full, (i + 1) * R * n * 4, R * n * 4);
      }
    });
    alloc.prefix = '';
    device.queue.submit([enc.finish()]);
    const stats = await readFloats(device, out, V * ROW_LIST_STATS * R);
    const rowData = full ? await readFloats(device, full, (V + 1) * R * n) : null;
    const plane = (i: number, kIdx: number) =>
      Float64Array.from(stats.subarray((i * ROW_LIST_STATS + kIdx) * R, (i * ROW_LIST_STATS + kIdx + 1) * R));
    const rowsAt = (slot: number): Float32Array[] =>
      rows.map((_, t) => rowData!.slice((slot * R + t) * n, (slot * R + t + 1) * n));
    const outVariants: VariantRowStats[] = variants.map((_, i) => ({
      entropy: plane(i, 1),
      sqErr: plane(i, 2),
      exactSq: plane(i, 3),
      kl: plane(i, 4),
      ...(rowData ? { rows: rowsAt(i + 1) } : {}),
    }));
    return {
      exactEntropy: V ? plane(0, 0) : new Float64Array(R),
      variants: outVariants,
      ...(rowData ? { exactRows: rowsAt(0) } : {}),
    };
  }

  return {
    kind: 'webgpu',
    rowStats(problem, variants, options = {}) {
      if (problem.q.cols > GPU_D_MAX || variants.length === 0 || problem.rows.length === 0)
        return cpuAnalysisBackend.rowStats(problem, variants, options);
      return lock(() =>
        withErrorScopes(device, 'analysis row statistics', () => batch(problem, variants, options)),
      ).catch((e: unknown) => {
        // a φ larger than one binding of this device: the twins still can
        if (isEngineError(e) && e.code === 'exceeds-limit')
          return cpuAnalysisBackend.rowStats(problem, variants, options);
        throw e;
      });
    },
    denseAttention: (problem, variant) => dense.denseAttention(problem, variant),
    windowStats: (problem, variants, windows) => dense.windowStats(problem, variants, windows),
    dispose() {
      alloc.releaseAll();
      dense.dispose();
    },
  };
}
