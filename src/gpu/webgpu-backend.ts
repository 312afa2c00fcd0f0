/**
 * The WebGPU implementation of `AttentionBackend`: one AttentionJob → exact fused attention,
 * Performer attention with the job's feature map, and (when asked) the dense statistics — the
 * matrix view, per-row statistics and full rows — all computed by WGSL kernels and checked against
 * the CPU twins (core/cpu-attention.ts `runAttentionJob` defines every field).
 *
 * A run validates the job (core validateJob), checks every planned buffer against the device's
 * limits before allocating, uploads into allocator roles that are reused across runs (no per-run
 * buffer churn), encodes the kernels inside validation / out-of-memory error scopes, reads back,
 * rejects non-finite results, honours the AbortSignal between stages and maps a lost device to
 * 'device-lost' (after which the backend refuses further runs; the engine makes a new one).
 */
import type {
  AttentionJob,
  AttentionOutput,
  AttentionRowPair,
  KernelTiming,
  MatrixView,
  RowStats,
} from '../core/attention-job';
import { EngineError, isEngineError } from '../core/errors';
import { featureMapParam } from '../core/feature-maps';
import { createRowStats, writeRowStats } from '../core/matrix-view';
import type { Matrix } from '../core/types';
import { validateJob } from '../core/validate';
import type { AllocatorStats } from './allocator';
import {
  encodeFullRows,
  encodeExactFromRaw,
  encodeMatrixView,
  encodeRowNormalizers,
  encodeRowStats,
  exactOutput,
  keepsRaw,
  normPartials,
  rawBytes,
  viewPlan,
  type DenseProblem,
} from './attention-stats';
import type { GpuContext } from './device';
import { withErrorScopes } from './error-scope';
import { encodeExactAttention } from './exact-attention';
import { encodeFavorFeatures, encodeFavorStats, type FavorProblem } from './favor-features';
import { exactSide, sameExactSide, type ExactSide } from './exact-reuse';
import { encodeFavorProjection, maxBindingOf } from './favor-projection';
import { GpuTimer } from './gpu-timer';
import { checkJobLimits, JobAllocator, jobShape } from './job-plan';
import { timeKernel, type KernelBenchOptions, type KernelBenchResult } from './kernel-bench';
import type { KernelContext } from './kernel-context';
import { encodeVec4Rows } from './pack-vec4';
import { encodePerformerBidirectional, takesExpPath } from './performer-bidirectional';
import { encodeExpFeatures } from './performer-exp';
import { encodePerformerCausal } from './performer-causal';
import { pipelineCacheFor } from './pipelines';
import { BatchReadback } from './readback';

export interface WebGpuBackend {
  readonly info: { kind: 'webgpu'; adapter: string; features: string[] };
  run(job: AttentionJob, signal?: AbortSignal): Promise<AttentionOutput>;
  dispose(): void;
  /** live buffers / bytes and buffers ever created by this backend's allocator */
  stats(): AllocatorStats;
  /** median GPU time of one kernel family on random inputs (the benchmark's hook) */
  timeKernel(options: KernelBenchOptions): Promise<KernelBenchResult>;
  /** the kernel context (device, pipelines, allocator, timer) — for tests and the benchmark */
  readonly context: KernelContext;
}

export function createWebGpuBackend(gpu: GpuContext): WebGpuBackend {
  const device = gpu.device;
  const alloc = new JobAllocator(device);
  const timer = new GpuTimer(device, gpu.hasTimestamps);
  const ctx: KernelContext = { device, pipelines: pipelineCacheFor(device), alloc, timer, limits: device.limits };
  let lostInfo: GPUDeviceLostInfo | null = null;
  let disposed = false;
  let busy: Promise<unknown> = Promise.resolve();
  /** what the last complete raw job left of the exact side in its buffers (exact-reuse.ts) */
  let keptExact: ExactSide | null = null;
  /** bumped when anything else (the kernel timing hook) starts or ends work on this allocator */
  let foreignUses = 0;

  void gpu.lost.then((info) => {
    lostInfo = info;
  });

  const lostError = (): EngineError =>
    new EngineError(
      'device-lost',
      `the GPU device was lost (${lostInfo?.reason ?? 'unknown'}${lostInfo?.message ? `: ${lostInfo.message}` : ''})`,
      {
        reason: lostInfo?.reason,
      },
    );

  function checkAlive(signal?: AbortSignal): void {
    if (lostInfo) throw lostError();
    if (disposed) throw new EngineError('device-lost', 'this WebGPU backend has been disposed');
    if (signal?.aborted) throw new EngineError('cancelled', 'superseded by a newer request');
  }

  /** Maps a GPU failure to 'device-lost' when the device went away meanwhile; typed input errors pass through. */
  async function translate(e: unknown): Promise<never> {
    const gpuFailure = !isEngineError(e) || e.code === 'gpu-validation' || e.code === 'non-finite-result';
    if (!lostInfo && gpuFailure) await Promise.race([gpu.lost, new Promise((r) => setTimeout(r, 100))]);
    if (lostInfo) throw lostError();
    if (isEngineError(e)) throw e;
    throw new EngineError('gpu-validation', `WebGPU failure: ${(e as Error)?.message ?? String(e)}`);
  }

  async function execute(job: AttentionJob, signal?: AbortSignal): Promise<AttentionOutput> {
    checkAlive(signal);
    validateJob(job);
    checkJobLimits(job, device.limits);
    const s = jobShape(job);
    const { n, d } = s;
    const { q, k, v, w } = job.inputs;

    alloc.beginJob();
    timer.reset();
    // this job may overwrite any part of it: kept again only once the job has read back
    const kept = keptExact;
    keptExact = null;
    const uses = foreignUses;
    const wallTimings: KernelTiming[] = [];
    const encoder = device.createCommandEncoder({ label: 'attention-job' });
    /** One stage: encoded into the shared encoder (timestamps), or submitted alone and wall-timed. */
    async function stage<T>(label: string, encode: (enc: GPUCommandEncoder) => T): Promise<T> {
      checkAlive(signal);
      if (timer.useTimestamps) return encode(encoder);
      const enc = device.createCommandEncoder({ label });
      const result = encode(enc);
      // what an earlier turn left queued (an analysis batch's turn ends at its submission) is not this stage's
      if (wallTimings.length === 0) await device.queue.onSubmittedWorkDone();
      const t0 = performance.now();
      device.queue.submit([enc.finish()]);
      await device.queue.onSubmittedWorkDone();
      wallTimings.push({ kernel: label, ms: performance.now() - t0, source: 'wall' });
      return result;
    }

    return withErrorScopes(device, 'attention job', async (closeScopes) => {
      const qb = alloc.upload('in.q', q.data);
      const kb = alloc.upload('in.k', k.data);
      const vb = alloc.upload('in.v', v.data);
      const wb = alloc.upload('in.w', w.data.length > 0 ? w.data : new Float32Array(4));
      const problem: FavorProblem = {
        n,
        d,
        m: Math.max(s.m, 1),
        featureMap: job.featureMap,
        stabilizer: job.stabilizer ?? 'shift',
        q: qb,
        k: kb,
        w: wb,
        mapParam: featureMapParam(job.featureMap, q, k, s.causal), // OPRF's A: an O(nd) statistic of Q, K (causal: fixed)
        causal: s.causal,
      };

      // With one entry per cell the view holds A and Â themselves: the row statistics and the
      // pinned rows are read off its planes (writeRowStats, the CPU twin's own reduction) instead
      // of two more O(n²(d + m')) passes; the normalizers pass writes the raw products (n² vec2f) on
      // the way, and the view and the exact output are formed from them instead of computing the
      // scores again.
      const fromView = job.viewCells > 0 && viewPlan(n, job.viewCells).block === 1;
      // up to RAW_BUDGET the normalizers keep every (s_ij, g_ij): the exact output, the row statistics
      // and the view (block means too) read them
      const useRaw = s.dense && keepsRaw(n, maxBindingOf(ctx));
      const exact = await stage('exact-attention', (enc) => {
        const q4 = encodeVec4Rows(ctx, enc, qb, n, d, 'exact.q4');
        const k4 = encodeVec4Rows(ctx, enc, kb, n, d, 'exact.k4');
        const v4 = encodeVec4Rows(ctx, enc, vb, n, d, 'exact.v4');
        const out = useRaw
          ? null
          : encodeExactAttention(ctx, enc, { n, d, causal: s.causal, q: q4, k: k4, v: v4, vec4Inputs: true });
        return { q4, k4, v4, out };
      });
      const performer = await stage('performer', (enc) => {
        // exp-of-projection maps: the projection pass yields the stabilizer stats (no separate stats pass)
        const projection = takesExpPath(ctx, { ...problem, v: vb })
          ? encodeFavorProjection(ctx, enc, problem)
          : undefined;
        const stats = projection?.stats ?? encodeFavorStats(ctx, enc, problem);
        // the other maps: φ(Q), φ(K) are formed once, for the dense statistics and for the Performer
        // GEMMs (performer-exp.ts reads them as they are), not again on the fly inside tiled kernels
        const features = !projection && s.dense ? encodeFavorFeatures(ctx, enc, problem, stats) : undefined;
        const args = { ...problem, v: vb, stats, projection, features };
        return {
          stats,
          projection,
          features,
          out: s.causal ? encodePerformerCausal(ctx, enc, args) : encodePerformerBidirectional(ctx, enc, args),
        };
      });

      let rowStatsBuf: GPUBuffer | null = null;
      let rowsBuf: GPUBuffer | null = null;
      let viewRes: ReturnType<typeof encodeMatrixView> | null = null;
      let exactBuf = exact.out;
      let keepAfterRead: ExactSide | null = null;
      if (s.dense) {
        const dp = await stage('features', (enc): DenseProblem => {
          const fast = performer.projection ? encodeExpFeatures(ctx, enc, problem, performer.projection) : null;
          if (fast) return { n, d, causal: s.causal, q4: exact.q4, k4: exact.k4, ...fast };
          const f = performer.features ?? encodeFavorFeatures(ctx, enc, problem, performer.stats);
          const qf4 = encodeVec4Rows(ctx, enc, f.qf, n, f.mp, 'stats.qf4');
          const kf4 = encodeVec4Rows(ctx, enc, f.kf, n, f.mp, 'stats.kf4');
          return { n, d, mp: f.mp, causal: s.causal, q4: exact.q4, k4: exact.k4, qf4, kf4 };
        });
        const raw = useRaw ? alloc.storage('stats.raw', rawBytes(n)) : undefined;
        const sideBuffers = raw ? [raw, normPartials(ctx, n), exactOutput(ctx, n, d)] : [];
        const keep = !!raw && sameExactSide(kept, { inputs: job.inputs, causal: s.causal, buffers: sideBuffers });
        const norms = await stage('row-normalizers', (enc) => encodeRowNormalizers(ctx, enc, dp, raw, keep));
        if (raw && keep) exactBuf = sideBuffers[2]!;
        else if (raw)
          exactBuf = await stage('exact-attention', (enc) => encodeExactFromRaw(ctx, enc, dp, norms, raw, exact.v4));
        // what the buffers will hold once this job has run (the kept side itself when it was kept)
        if (raw) keepAfterRead = keep ? kept : exactSide(job.inputs, s.causal, sideBuffers);
        if (job.rowStats && !fromView)
          rowStatsBuf = await stage('row-stats', (enc) => encodeRowStats(ctx, enc, dp, norms, raw));
        if (job.viewCells > 0)
          viewRes = await stage('matrix-view', (enc) => encodeMatrixView(ctx, enc, dp, norms, job.viewCells, raw));
        if (job.rows.length > 0 && !fromView)
          rowsBuf = await stage('attention-rows', (enc) => encodeFullRows(ctx, enc, dp, norms, job.rows));
      }
      timer.resolve(encoder);
      // Every result through one staging buffer, mapped once.
      const rb = new BatchReadback();
      if (!exactBuf) throw new EngineError('internal', 'the exact output was not encoded');
      const exactPart = rb.add(exactBuf, n * d * 4);
      // The Performer output buffer holds n×d outputs, then the n row normalizers.
      const approxPart = rb.add(performer.out, (n * d + n) * 4);
      const vr = viewRes as ReturnType<typeof encodeMatrixView> | null;
      const viewPart = vr ? rb.add(vr.buffer, 3 * vr.plan.cells * vr.plan.cells * 4) : -1;
      const statsPart = rowStatsBuf ? rb.add(rowStatsBuf, 5 * n * 4) : -1;
      const rowsPart = rowsBuf ? rb.add(rowsBuf, 2 * job.rows.length * n * 4) : -1;
      const stamps = timer.useTimestamps ? timer.resolved() : null;
      const stampPart = stamps ? rb.add(stamps.buffer, stamps.bytes) : -1;
      const staging = alloc.buffer('readback', rb.bytes, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST);
      rb.encode(encoder, staging);
      device.queue.submit([encoder.finish()]);
      checkAlive(signal);
      const reading = rb.read(staging);
      // the last GPU calls of the job are made (the read-back's mapAsync is issued inside `read`)
      closeScopes();
      const parts = await reading;
      // the GPU has run the whole job: its buffers hold this job's exact side
      if (uses === foreignUses) keptExact = keepAfterRead;
      const floats = (i: number): Float32Array => new Float32Array(parts[i]!);

      const exactOut = mat(n, d, floats(exactPart));
      assertFinite('exact output', exactOut.data, d);
      const approxAll = floats(approxPart);
      const approxOut = mat(n, d, approxAll.subarray(0, n * d));
      assertFinite(`approximate output (${job.featureMap} features)`, approxOut.data, d);
      let zeroNormalizerRows = 0;
      for (let i = n * d; i < approxAll.length; i++) if (approxAll[i] === 0) zeroNormalizerRows++;
      checkAlive(signal);

      let view: MatrixView | null = null;
      if (vr) {
        const { cells, block } = vr.plan;
        const all = floats(viewPart);
        const plane = cells * cells;
        view = {
          cells,
          block,
          aggregation: 'mean',
          // views of the read-back's own copy of the planes (one buffer, transferred once)
          exact: all.subarray(0, plane),
          approx: all.subarray(plane, 2 * plane),
          absDiff: all.subarray(2 * plane, 3 * plane),
        };
        assertFinite('matrix view', all, cells);
      }
      let rowStats: RowStats | null = null;
      if (rowStatsBuf) {
        const all = floats(statsPart);
        assertFinite('row statistics', all, n);
        const part = (i: number): Float32Array => all.subarray(i * n, (i + 1) * n);
        rowStats = { exactEntropy: part(0), approxEntropy: part(1), sqErr: part(2), exactSq: part(3), kl: part(4) };
      } else if (job.rowStats && view) {
        rowStats = createRowStats(n);
        for (let i = 0; i < n; i++)
          writeRowStats(
            rowStats,
            i,
            view.exact.subarray(i * n, (i + 1) * n),
            view.approx.subarray(i * n, (i + 1) * n),
            s.causal,
          );
        assertFinite('row statistics', rowStats.kl, n);
      }
      const rows: AttentionRowPair[] = [];
      if (rowsBuf) {
        const R = job.rows.length;
        const all = floats(rowsPart);
        assertFinite('attention rows', all, n);
        job.rows.forEach((index, r) => {
          rows.push({
            index,
            exact: all.subarray(r * n, (r + 1) * n),
            approx: all.subarray((R + r) * n, (R + r + 1) * n),
          });
        });
      } else if (view && job.rows.length > 0) {
        for (const index of job.rows)
          rows.push({
            index,
            exact: view.exact.slice(index * n, (index + 1) * n),
            approx: view.approx.slice(index * n, (index + 1) * n),
          });
      }
      const timings = stamps ? timer.decode(parts[stampPart]!) : wallTimings;
      checkAlive(signal);
      return {
        exactOut,
        approxOut,
        zeroNormalizerRows,
        view,
        rowStats,
        rows,
        timings,
        bytesAllocated: alloc.jobBytes(),
      };
    });
  }

  async function run(job: AttentionJob, signal?: AbortSignal): Promise<AttentionOutput> {
    // One job at a time: roles (buffers) are shared between runs.
    const previous = busy;
    let release!: () => void;
    busy = new Promise<void>((r) => (release = r));
    try {
      await previous.catch(() => undefined);
      return await execute(job, signal);
    } catch (e) {
      return translate(e);
    } finally {
      release();
    }
  }

  return {
    info: { kind: 'webgpu', adapter: gpu.adapterName, features: [...gpu.features].sort() },
    run,
    dispose(): void {
      if (disposed) return;
      disposed = true;
      alloc.releaseAll();
      timer.destroy();
    },
    stats: () => alloc.stats(),
    timeKernel: async (options) => {
      checkAlive();
      // the timing runs on this allocator's roles: whatever a job kept is gone, also for a job
      // that reads back while the timing runs
      keptExact = null;
      foreignUses++;
      return timeKernel(ctx, options)
        .catch(translate)
        .finally(() => {
          keptExact = null;
          foreignUses++;
        });
    },
    context: ctx,
  };
}

function mat(rows: number, cols: number, data: Float32Array): Matrix {
  return { rows, cols, data };
}

/** 'non-finite-result' naming the stage and the first bad entry. */
function assertFinite(what: string, data: Float32Array, cols: number): void {
  for (let i = 0; i < data.length; i++) {
    const x = data[i]!;
    if (!Number.isFinite(x)) {
      const row = Math.floor(i / Math.max(cols, 1));
      throw new EngineError('non-finite-result', `${what} overflowed: entry [${row}, ${i - row * cols}] is ${x}`, {
        stage: what,
        index: i,
      });
    }
  }
}
