/**
 * The WebGPU analysis backend (core/analysis-backend.ts `AnalysisBackend`): a batch of variants of one
 * problem is one command encoder, one submission and one small readback, whatever the number of
 * variants. φ of every variant goes into one packed buffer — from the projection on the GPU
 * (attention-row-list-features.wgsl, the exp maps under ε = 0), from the feature kernels
 * (favor-features.ts, copied in) or from the twins (uploaded with the exact Q rows and K in one
 * write) — then attention-row-list-batch.ts forms every variant's dot products with the listed rows
 * and reduces them to the row statistics (and, with `fullRows`, the rows A_r, Â_r) in two dispatches.
 * Neither the dense Â nor φ ever reaches host memory. A batch past one storage binding runs in halves.
 *
 * The dense ops' matrices (spectra, local truncation) are formed by analysis-dense.ts.
 *
 * The feature kernels' buffers get their own roles per variant (a role prefix), so their uniforms do
 * not overwrite each other before the one submission runs. The buffers stay for the next batch
 * (same roles, grown as needed) until `dispose`.
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
import { EngineError, isEngineError } from '../core/errors';
import {
  featureDim,
  featureMapParam,
  keyFeatures,
  mapContext,
  queryFeatures,
  scaleInputs,
  stabilizerEps,
} from '../core/feature-maps';
import type { FeatureMapKind, Matrix } from '../core/types';
import { GpuAllocator } from './allocator';
import { subRows } from '../core/sweeps';
import {
  BATCH_ROW_STATS,
  batchDotsBytes,
  batchOutFloats,
  encodeRowListBatch,
  packSlots,
  type BatchSlot,
  type ProjectedSlot,
} from './attention-row-list-batch';
import { FEATURE_MAP_SPECS } from '../core/feature-map-specs';
import { EXP_MAPS } from './performer-exp';
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
   * Where φ of the maps the projection kernel does not cover (every map but positive, hyperbolic and
   * exp under 'shift') is formed: 'gpu' (favor-features, the default) or 'cpu' (the twins'
   * keyFeatures of all n keys and queryFeatures of the listed rows, uploaded). A software adapter
   * (SwiftShader) runs favor-features' statistics and feature passes slowly — at n = 256, m = 64 the
   * bench's entropyVsN took 116 s with them against 1.9 s with the twins' φ — so there the rest of φ
   * comes from the CPU.
   */
  features?: 'gpu' | 'cpu';
  /** Called after every batch with its wall-time split and, where the device has timestamps, every pass's GPU time (the bench's `--profile`). */
  profile?: (p: BatchProfile) => void;
  /**
   * φ of the exp maps under ε = 0 from their projection on the GPU (attention-row-list-features.wgsl;
   * default true), else as the other maps'. On SwiftShader the twins are as fast or faster (n = 256,
   * m = 64, interleaved medians: errorVsM 4.3 s with the twins' φ vs 5.0 s, normSweep 1.7 vs 1.9 s,
   * entropyVsN 1.0 vs 1.0 s), so the engine turns it off on a software adapter.
   */
  projection?: boolean;
}

/** Where one batch's time went (ms). */
export interface BatchProfile {
  variants: number;
  rows: number;
  n: number;
  /** φ formed by the twins (features 'cpu') */
  cpuFeaturesMs: number;
  /** recording the passes, the uploads and the uniform writes (φ on the CPU excluded) */
  encodeMs: number;
  /** submission to the mapped readback */
  waitMs: number;
  passes: { kernel: string; ms: number }[];
}

// adapters whose compute runs on the CPU (features are then formed by the twins): the test lives in core
export { isSoftwareAdapter } from '../core/adapters';

/**
 * Whether a variant's φ comes from its projection (attention-row-list-features.wgsl): the exp maps
 * (positive, hyperbolic, exp — both sides) under a stabilizer without ε, where per-row shifts cancel.
 */
function projectable(v: FeatureVariant): boolean {
  return stabilizerEps(v.stabilizer) === 0 && EXP_MAPS.includes(v.map) && EXP_MAPS.includes(v.keyMap ?? v.map);
}

export function createGpuAnalysisBackend(
  base: KernelContext,
  lock: GpuLock,
  options: GpuAnalysisOptions = {},
): GpuAnalysisBackend {
  const cpuFeatures = options.features === 'cpu';
  const profile = options.profile;
  const useProjection = options.projection ?? true;
  const { device } = base;
  const alloc = new PrefixAllocator(device);
  const ctx: KernelContext = {
    device,
    pipelines: base.pipelines,
    alloc,
    timer: new GpuTimer(device, !!profile && device.features.has('timestamp-query'), 2048),
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
    // every slot's φ rows in one buffer: the variants' (φ(Q) of the listed rows — of all n rows when
    // the feature kernels write them — and φ(K)), then the exact Q rows and K
    const mps = variants.map((v) => featureDim(v.map, v.w.rows, d));
    // φ per variant: from the projection (exp maps under ε = 0), the feature kernels, or the twins
    const source = variants.map((v): 'projection' | 'kernels' | 'twins' =>
      useProjection && projectable(v) ? 'projection' : cpuFeatures ? 'twins' : 'kernels',
    );
    // layout: the GPU-written slots first, then the twins' and the exact slot (the host's one upload),
    // then the W rows of the projected slots
    const order = [...variants.keys()].sort((a, b) => Number(source[a] === 'twins') - Number(source[b] === 'twins'));
    const laid = packSlots(
      [
        ...order.map((i) => ({ m4: Math.ceil(mps[i]! / 4), qFull: source[i] === 'kernels' })),
        { m4: Math.ceil(d / 4), qFull: false },
      ],
      n,
      R,
    );
    const slots: BatchSlot[] = variants.map((_, i) => ({
      ...laid.slots[order.indexOf(i)]!,
      scaled: source[i] === 'projection',
    }));
    slots.push(laid.slots[V]!);
    const d4 = Math.ceil(d / 4);
    let vec4s = laid.vec4s;
    const projected: ProjectedSlot[] = [];
    variants.forEach((v, i) => {
      if (source[i] !== 'projection') return;
      const qs = FEATURE_MAP_SPECS[v.map];
      const ks = FEATURE_MAP_SPECS[v.keyMap ?? v.map];
      projected.push({
        slot: i,
        m: v.w.rows,
        wOff: vec4s,
        ratio: qs.ratio(v.w.rows),
        queryHyper: v.map === 'hyperbolic',
        queryNorm: qs.norm,
        keyHyper: (v.keyMap ?? v.map) === 'hyperbolic',
        keyNorm: ks.norm,
      });
      vec4s += v.w.rows * d4;
    });
    const maxBinding = Math.min(base.limits.maxStorageBufferBindingSize, base.limits.maxBufferSize);
    const outFloats = batchOutFloats({ n, rowCount: R, slots, fullRows: !!options.fullRows });
    if (Math.max(vec4s * 16, batchDotsBytes(n, R, V + 1), outFloats * 4) > maxBinding) {
      if (V === 1) throw new EngineError('exceeds-limit', 'the batch exceeds one storage binding of this device');
      // halves of the batch, one after the other
      const h = Math.ceil(V / 2);
      const a = await batch(problem, variants.slice(0, h), options);
      const b = await batch(problem, variants.slice(h), options);
      return { ...a, variants: [...a.variants, ...b.variants] };
    }
    alloc.prefix = '';
    const t0 = performance.now();
    let cpuFeaturesMs = 0;
    ctx.timer.reset();
    const enc = device.createCommandEncoder({ label: 'analysis.rowstats' });
    const feats = alloc.storage('an.feats', vec4s * 16);
    const exact = slots[V]!;
    // the host's part: the twins' slots, the exact slot and the W rows, padded rows
    const firstTwins = order.find((i) => source[i] === 'twins');
    const hostFrom = firstTwins === undefined ? exact.qOff : slots[firstTwins]!.qOff;
    const host = new Float32Array((vec4s - hostFrom) * 4);
    const put = (at: number, src: Float32Array, srcRow: number, cols: number) =>
      host.set(src.subarray(srcRow * cols, (srcRow + 1) * cols), (at - hostFrom) * 4);
    const putSlot = (s: (typeof slots)[number], qRows: Matrix, kRows: Matrix) => {
      for (let t = 0; t < qRows.rows; t++) put(s.qOff + t * s.m4, qRows.data, t, qRows.cols);
      for (let j = 0; j < n; j++) put(s.kOff + j * s.m4, kRows.data, j, kRows.cols);
    };
    putSlot(exact, subRows(q, rows), k);
    for (const ps of projected) {
      const w = variants[ps.slot]!.w;
      for (let r = 0; r < w.rows; r++) put(ps.wOff + r * d4, w.data, r, d);
    }
    const rowList = alloc.upload('an.rows', new Uint32Array(rows));
    const onKernels = source.includes('kernels');
    const qBuf = onKernels ? alloc.upload('an.q', q.data) : null;
    const kBuf = onKernels ? alloc.upload('an.k', k.data) : null;
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
      const slot = slots[i]!;
      if (source[i] === 'projection') return;
      if (source[i] === 'twins') {
        // the twins' φ(Q) of the listed rows and φ(K) of all n keys
        const tf = performance.now();
        const mc = mapContext(v.map, x(), y(), causal);
        const qRows = queryFeatures(v.map, subRows(x(), rows), v.w, v.stabilizer, { ...mc, positions: rows });
        const kc = v.keyMap && v.keyMap !== v.map ? mapContext(v.keyMap, x(), y(), causal) : mc;
        putSlot(slot, qRows, keyFeatures(v.keyMap ?? v.map, y(), v.w, v.stabilizer, kc));
        cpuFeaturesMs += performance.now() - tf;
        return;
      }
      alloc.prefix = `v${i}.`;
      const w = alloc.upload('an.w', v.w.data.length ? v.w.data : new Float32Array(4));
      const features = (kind: FeatureMapKind) =>
        encodeFavorFeatures(ctx, enc, {
          n,
          d,
          m: v.w.rows,
          featureMap: kind,
          stabilizer: v.stabilizer,
          q: qBuf!,
          k: kBuf!,
          w,
          mapParam: mapParam(kind),
          causal,
        });
      const f = features(v.map);
      let kf = f.kf;
      if (v.keyMap && v.keyMap !== v.map) {
        alloc.prefix = `v${i}.key.`;
        kf = features(v.keyMap).kf;
        alloc.prefix = `v${i}.`;
      }
      const bytes = n * slot.m4 * 16;
      enc.copyBufferToBuffer(encodeVec4Rows(ctx, enc, f.qf, n, mps[i]!, 'an.qf4'), 0, feats, slot.qOff * 16, bytes);
      enc.copyBufferToBuffer(encodeVec4Rows(ctx, enc, kf, n, mps[i]!, 'an.kf4'), 0, feats, slot.kOff * 16, bytes);
    });
    alloc.prefix = '';
    device.queue.writeBuffer(feats, hostFrom * 16, host);
    const out = encodeRowListBatch(ctx, enc, {
      n,
      d,
      causal,
      rowList,
      rowCount: R,
      slots,
      feats,
      fullRows: !!options.fullRows,
      projected,
      featsVec4s: vec4s,
    });
    ctx.timer.resolve(enc);
    const t1 = performance.now();
    device.queue.submit([enc.finish()]);
    const data = await readFloats(device, out, outFloats);
    if (profile) {
      const waitMs = performance.now() - t1;
      const passes = (await ctx.timer.read()).map(({ kernel, ms }) => ({ kernel, ms }));
      profile({ variants: V, rows: R, n, cpuFeaturesMs, encodeMs: t1 - t0 - cpuFeaturesMs, waitMs, passes });
    }
    const plane = (i: number, kIdx: number) =>
      Float64Array.from(data.subarray((i * BATCH_ROW_STATS + kIdx) * R, (i * BATCH_ROW_STATS + kIdx + 1) * R));
    const rowsAt = (s: number): Float32Array[] =>
      rows.map((_, t) =>
        data.slice(BATCH_ROW_STATS * V * R + (s * R + t) * n, BATCH_ROW_STATS * V * R + (s * R + t + 1) * n),
      );
    const outVariants: VariantRowStats[] = variants.map((_, i) => ({
      entropy: plane(i, 1),
      sqErr: plane(i, 2),
      exactSq: plane(i, 3),
      kl: plane(i, 4),
      ...(options.fullRows ? { rows: rowsAt(i + 1) } : {}),
    }));
    return {
      exactEntropy: plane(0, 0),
      variants: outVariants,
      ...(options.fullRows ? { exactRows: rowsAt(0) } : {}),
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
