/**
 * The WebGPU analysis backend (core/analysis-backend.ts `AnalysisBackend`): a batch of variants of one
 * problem is at most two submissions (one when no φ comes from the twins) and one small readback,
 * whatever the number of variants. φ of every variant goes into one packed buffer (row-batch-plan.ts
 * lays it out) — from the GPU (attention-row-list-features.wgsl: the exp maps' projection under ε = 0,
 * and trig, relu, elu1, cosformer, taylor2, oprf, double-softmax from the rows), from the feature kernels
 * (favor-features.ts, copied in: hedgehog, the 'ref' stabilizer) or from the twins (uploaded side by
 * side as they are formed, after the GPU's φ passes were submitted, so that both run at once; a side —
 * queries or keys of one map, W and stabilizer — is formed once per batch and shared by the variants
 * that have it) — then
 * attention-row-list-batch.ts forms every variant's dot products with the listed rows and reduces them
 * to the row statistics (and, with `fullRows`, the rows A_r, Â_r) in two dispatches (a third for the rows'
 * top-k masses with `topMass`, attention-row-top-mass.wgsl; only the masses are read back), the readback copy
 * in the same submission. Neither the dense Â nor φ ever reaches host memory. A batch past one storage
 * binding runs in halves.
 *
 * The dense ops' matrices (spectra, local truncation) are formed by analysis-dense.ts.
 *
 * The feature kernels' buffers get their own roles per variant (a role prefix), so their uniforms do
 * not overwrite each other before their submission runs. The buffers stay for the next batch
 * (same roles, grown as needed) until `dispose`.
 *
 * `lock` is the engine worker's GPU turn (src/engine/gpu-turns.ts): each batch is one turn, so a
 * live compute waits for at most one batch. A turn starts from the queue (a microtask later at the
 * earliest): a synchronous start, tried for overlap, left the CPU engine's estimatorTiming hanging.
 */
import {
  cpuAnalysisBackend,
  type FeatureVariant,
  type RowProblem,
  type RowStatsBatch,
  type RowStatsOptions,
  type VariantRowStats,
} from '../core/analysis-backend';
import { EngineError, isEngineError } from '../core/errors';
import { keyFeatures, mapContext, queryFeatures, scaleInputs, type MapContext } from '../core/feature-maps';
import type { FeatureMapKind, Matrix } from '../core/types';
import { GpuAllocator } from './allocator';
import { subRows } from '../core/sweeps';
import { BATCH_ROW_STATS, batchDotsBytes, batchOutLayout, encodeRowListBatch } from './attention-row-list-batch';
import { encodeFavorFeatures } from './favor-features';
import { GpuTimer } from './gpu-timer';
import type { KernelContext } from './kernel-context';
import { encodeVec4Rows } from './pack-vec4';
import { withErrorScopes } from './error-scope';
import { createDenseAnalysis } from './analysis-dense';
import { planRowBatch } from './row-batch-plan';

/** An allocator whose roles all carry the current prefix. */
class PrefixAllocator extends GpuAllocator {
  prefix = '';
  override buffer(role: string, bytes: number, usage: number): GPUBuffer {
    return super.buffer(this.prefix + role, bytes, usage);
  }
}

/** Past this d the feature kernels refuse (favor-features.ts): such batches (and those whose φ exceeds a binding) run on the CPU twins. */
const GPU_D_MAX = 256;

export type { GpuLock, GpuAnalysisBackend, GpuAnalysisOptions, BatchProfile } from './analysis-backend-types';
import type { GpuLock, GpuAnalysisBackend, GpuAnalysisOptions } from './analysis-backend-types';

// adapters whose compute runs on the CPU (features are then formed by the twins): the test lives in core
export { isSoftwareAdapter } from '../core/adapters';

export function createGpuAnalysisBackend(
  base: KernelContext,
  lock: GpuLock,
  options: GpuAnalysisOptions = {},
): GpuAnalysisBackend {
  const cpuFeatures = options.features === 'cpu';
  const profile = options.profile;
  const useProjection = options.projection ?? true;
  const useDirect = useProjection && (options.direct ?? true);
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

  // read-back buffers, one per batch in flight: a batch's turn ends at its submission, so the next
  // batch may copy into its own while this one's is still being mapped; kept across batches (a fresh
  // mappable buffer per batch cost its allocation and clear on every read-back)
  const stagingBusy = new Set<string>();
  function takeStaging(bytes: number): { role: string; buffer: GPUBuffer } {
    let k = 0;
    while (stagingBusy.has(`an.rows.staging.${k}`)) k++;
    const role = `an.rows.staging.${k}`;
    stagingBusy.add(role);
    return { role, buffer: alloc.buffer(role, bytes, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST) };
  }

  /**
   * One batch, encoded and submitted: resolves once its last GPU call is made (the GPU turn may end
   * there: the queue runs whatever is submitted next after it) with its read-back still to come in
   * `result`. `closeScopes` pops the error scopes at that point (error-scope.ts). A profiled batch keeps
   * its turn until read: the timestamps' query set is one per backend.
   */
  async function batch(
    problem: RowProblem,
    variants: readonly FeatureVariant[],
    options: RowStatsOptions,
    closeScopes: () => void,
  ): Promise<{ result: Promise<RowStatsBatch> }> {
    const { q, k, rows, causal } = problem;
    const n = q.rows;
    const d = q.cols;
    const R = rows.length;
    const V = variants.length;
    const plan = planRowBatch(problem, variants, { projection: useProjection, direct: useDirect, cpuFeatures });
    const { source, mps, slots, projected, directSlots, weights, aux, vec4s, hostFrom, qShared, kShared, mapParam } =
      plan;
    const d4 = Math.ceil(d / 4);
    const maxBinding = Math.min(base.limits.maxStorageBufferBindingSize, base.limits.maxBufferSize);
    const layout = batchOutLayout({ n, rowCount: R, slots, fullRows: !!options.fullRows, topMass: !!options.topMass });
    const outFloats = layout.floats;
    const readFloats = layout.readFloats;
    if (Math.max(vec4s * 16, batchDotsBytes(n, R, V + 1), outFloats * 4) > maxBinding) {
      if (V === 1) throw new EngineError('exceeds-limit', 'the batch exceeds one storage binding of this device');
      // halves of the batch, one after the other
      const h = Math.ceil(V / 2);
      // (the scopes stay open for the second half's GPU calls)
      // (and only the second half's submission lets the caller go on)
      const a = await (
        await batch(problem, variants.slice(0, h), { ...options, onSubmitted: undefined }, () => {})
      ).result;
      const b = await batch(problem, variants.slice(h), options, closeScopes);
      return { result: b.result.then((rb) => ({ ...a, variants: [...a.variants, ...rb.variants] })) };
    }
    alloc.prefix = '';
    const t0 = performance.now();
    ctx.timer.reset();
    // two command buffers when the twins form slots: the GPU's φ (projection, direct, feature kernels)
    // first, submitted before the host forms the twins' slots, so that both run at once; then the dots,
    // the reduction and the readback copy. Without twins' slots, one (a submission costs SwiftShader
    // about as much as the map rows' whole direct pass)
    const withTwins = source.includes('twins');
    const enc = device.createCommandEncoder({ label: 'analysis.rowstats' });
    const encFeatures = withTwins ? device.createCommandEncoder({ label: 'analysis.rowstats.features' }) : enc;
    const feats = alloc.storage('an.feats', vec4s * 16);
    const exact = slots[V]!;
    // the host's part: the twins' slots, then the exact slot and the W rows, padded rows — the part the
    // GPU's φ reads (exact slot, W) uploaded before its submission, the twins' sides as they are formed
    const host = new Float32Array((vec4s - hostFrom) * 4);
    const put = (at: number, src: Float32Array, srcRow: number, cols: number) =>
      host.set(src.subarray(srcRow * cols, (srcRow + 1) * cols), (at - hostFrom) * 4);
    // the first `count` rows of a matrix at vec4 `at`, `stride` vec4s apart: one copy when its rows are
    // whole vec4s (the padded layout is then the matrix itself: d = 16's Q, K and every W), else one
    // per row (a copy per row was the host's largest cost of the sweeps' batches: 18 ms of the m sweep)
    const putRows = (at: number, stride: number, m: Matrix, count: number) => {
      if (m.cols === 4 * stride) host.set(m.data.subarray(0, count * m.cols), (at - hostFrom) * 4);
      else for (let r = 0; r < count; r++) put(at + r * stride, m.data, r, m.cols);
    };
    rows.forEach((row, t) => put(exact.qOff + t * exact.m4, q.data, row, d));
    putRows(exact.kOff, exact.m4, k, n);
    // each W once (the plan laid out one copy per matrix; slots with it share its rows)
    for (const [w, at] of weights) putRows(at, d4, w, w.rows);
    for (const [at, offsets] of aux) put(at, offsets, 0, d);
    device.queue.writeBuffer(feats, exact.qOff * 16, host.subarray((exact.qOff - hostFrom) * 4));
    const rowList = alloc.upload('an.rows', new Uint32Array(rows));
    const onKernels = source.includes('kernels');
    const qBuf = onKernels ? alloc.upload('an.q', q.data) : null;
    const kBuf = onKernels ? alloc.upload('an.k', k.data) : null;
    variants.forEach((v, i) => {
      if (source[i] !== 'kernels') return;
      const slot = slots[i]!;
      alloc.prefix = `v${i}.`;
      const w = alloc.upload('an.w', v.w.data.length ? v.w.data : new Float32Array(4));
      const features = (kind: FeatureMapKind) =>
        encodeFavorFeatures(ctx, encFeatures, {
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
      const qf4 = encodeVec4Rows(ctx, encFeatures, f.qf, n, mps[i]!, 'an.qf4');
      encFeatures.copyBufferToBuffer(qf4, 0, feats, slot.qOff * 16, bytes);
      const kf4 = encodeVec4Rows(ctx, encFeatures, kf, n, mps[i]!, 'an.kf4');
      encFeatures.copyBufferToBuffer(kf4, 0, feats, slot.kOff * 16, bytes);
    });
    alloc.prefix = '';
    const out = encodeRowListBatch(
      ctx,
      enc,
      {
        n,
        d,
        causal,
        rowList,
        rowCount: R,
        slots,
        feats,
        fullRows: !!options.fullRows,
        topMass: !!options.topMass,
        projected,
        direct: directSlots,
        featsVec4s: vec4s,
      },
      encFeatures,
    );
    ctx.timer.resolve(enc);
    const { role: stagingRole, buffer: staging } = takeStaging(readFloats * 4);
    let cpuFeaturesMs: number;
    let tSubmit: number;
    let t1: number;
    let mapped: Promise<void>;
    try {
      enc.copyBufferToBuffer(out, 0, staging, 0, readFloats * 4);
      tSubmit = performance.now();
      if (withTwins && (projected.length || directSlots.length || onKernels))
        device.queue.submit([encFeatures.finish()]);
      // the twins' φ(Q) of the listed rows and φ(K) of all n keys, while the GPU forms its own
      const tf = performance.now();
      // each side uploaded as soon as it is formed: the GPU process copies it in while the next is formed
      // (one write of the map rows' ~1 MB of φ took 1.1–3.4 ms on SwiftShader, min–median)
      const writeSide = (at: number, count: number) =>
        device.queue.writeBuffer(feats, at * 16, host.subarray((at - hostFrom) * 4, (at - hostFrom + count) * 4));
      let scaled: { x: Matrix; y: Matrix } | null = null;
      const contexts = new Map<FeatureMapKind, MapContext>();
      variants.forEach((v, i) => {
        if (source[i] !== 'twins') return;
        const slot = slots[i]!;
        scaled ??= { x: scaleInputs(q), y: scaleInputs(k) };
        const { x, y } = scaled;
        const kKind = v.keyMap ?? v.map;
        const contextOf = (kind: FeatureMapKind) => {
          if (!contexts.has(kind)) contexts.set(kind, mapContext(kind, x, y, causal));
          return contexts.get(kind)!;
        };
        if (qShared[i] === undefined) {
          const mc = contextOf(v.map);
          const qRows = queryFeatures(v.map, subRows(x, rows), v.w, v.stabilizer, { ...mc, positions: rows });
          putRows(slot.qOff, slot.m4, qRows, R);
          writeSide(slot.qOff, R * slot.m4);
        }
        if (kShared[i] === undefined) {
          const kf = keyFeatures(kKind, y, v.w, v.stabilizer, contextOf(kKind));
          putRows(slot.kOff, slot.m4, kf, n);
          writeSide(slot.kOff, n * slot.m4);
        }
      });
      cpuFeaturesMs = performance.now() - tf;
      t1 = performance.now();
      device.queue.submit([enc.finish()]);
      mapped = staging.mapAsync(GPUMapMode.READ, 0, readFloats * 4);
    } catch (e) {
      stagingBusy.delete(stagingRole);
      throw e;
    }
    // the scopes' round trip overlaps the GPU's work instead of following the read-back
    closeScopes();
    // the caller may prepare (and submit) its next batch while the GPU runs this one
    options.onSubmitted?.();
    const result = readBack();
    // (a failure reaches the caller through `result`, or first through the error scopes)
    result.catch(() => undefined);
    if (profile) await result;
    return { result };

    async function readBack(): Promise<RowStatsBatch> {
      let data: Float32Array;
      try {
        await mapped;
        data = new Float32Array(staging.getMappedRange(0, readFloats * 4).slice(0));
      } finally {
        if (staging.mapState === 'mapped') staging.unmap();
        stagingBusy.delete(stagingRole);
      }
      if (profile) {
        const t2 = performance.now();
        const passes = (await ctx.timer.read()).map(({ kernel, ms }) => ({ kernel, ms }));
        profile({
          variants: V,
          rows: R,
          n,
          d,
          cpuFeaturesMs,
          encodeMs: tSubmit - t0,
          waitMs: t2 - t1,
          wallMs: t2 - t0,
          passes,
        });
      }
      // the statistics and the masses (they lie before the rows) in f64 with one allocation, each plane a
      // view of it (an allocation per plane, 5 per variant, showed as 6.3 ms of host time in a profile of
      // the beyond sweeps' 1028 variants)
      const stats64 = Float64Array.from(data.subarray(0, layout.rowsBase));
      const plane = (i: number, kIdx: number) =>
        stats64.subarray((i * BATCH_ROW_STATS + kIdx) * R, (i * BATCH_ROW_STATS + kIdx + 1) * R);
      // views of the one read-back copy, as the twins' rows are views of one buffer (approxRowsOf): an
      // allocation per row cost entryErrors' 96 rows ~0.5 ms
      const rowsAt = (s: number): Float32Array[] =>
        rows.map((_, t) => data.subarray(layout.rowsBase + (s * R + t) * n, layout.rowsBase + (s * R + t + 1) * n));
      const L = layout.levels;
      const massAt = (s: number) => stats64.subarray(layout.massBase + s * R * L, layout.massBase + (s + 1) * R * L);
      const outVariants: VariantRowStats[] = variants.map((_, i) => ({
        entropy: plane(i, 1),
        sqErr: plane(i, 2),
        exactSq: plane(i, 3),
        kl: plane(i, 4),
        ...(options.fullRows ? { rows: rowsAt(i + 1) } : {}),
        ...(options.topMass ? { topMass: massAt(i + 1) } : {}),
      }));
      return {
        exactEntropy: plane(0, 0),
        variants: outVariants,
        ...(options.fullRows ? { exactRows: rowsAt(0) } : {}),
        ...(options.topMass ? { exactTopMass: massAt(0) } : {}),
      };
    }
  }

  return {
    kind: 'webgpu',
    rowStats(problem, variants, options = {}) {
      if (problem.q.cols > GPU_D_MAX || variants.length === 0 || problem.rows.length === 0)
        return cpuAnalysisBackend.rowStats(problem, variants, options);
      // the turn ends once the batch is submitted; its read-back is awaited outside it
      return lock(() =>
        withErrorScopes(device, 'analysis row statistics', (close) => batch(problem, variants, options, close)),
      )
        .then((b) => b.result)
        .catch((e: unknown) => {
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
