/**
 * The dense half of the WebGPU analysis backend (core/analysis-backend.ts `denseAttention`,
 * `windowStats`): the n×n matrices of the spectra and of Su's local truncation, each request one
 * command encoder, one submission and one readback.
 *
 * Per variant: φ(Q), φ(K) of all n rows (favor-features.ts, or the twins' features uploaded on a
 * software adapter — as for the row statistics), the row normalizers with the raw (s_ij, g_ij)
 * and from them the planes A, Â (attention-stats.ts encodeRowNormalizers + encodeMatrixView's
 * one-cell-per-entry case: the live path's kernels, CPU twins exactRowNormalizers / matrixView;
 * encodeFullRows with every row listed where the raw pairs would not fit one binding). Then
 *  - `denseAttention` reads the two n×n planes back (the SVD runs on the CPU in f64 — see the
 *    spectra op); a row with a zero normalizer becomes NaN there, as the f64 twin's 0/0 does;
 *  - `windowStats` reduces them on the GPU with local-window-stats.wgsl (dispatched here; CPU twin
 *    core/local-window.ts windowRowStats) and reads back only n·(2 + 4W) floats per variant.
 *
 * Refusals (d past the feature kernels, a plane larger than one binding, more than 32 windows) and GPU
 * failures (validation, a lost device) fall back to the CPU twins, which give the same result.
 */
import code from '../shaders/local-window-stats.wgsl?raw';
import {
  cpuDense,
  variantFeatures,
  type AnalysisBackend,
  type FeatureVariant,
  type MatrixProblem,
} from '../core/analysis-backend';
import { EngineError, isEngineError } from '../core/errors';
import { featureDim, featureMapParam } from '../core/feature-maps';
import type { WindowRowStats } from '../core/local-window';
import type { FeatureMapKind } from '../core/types';
import { GpuAllocator } from './allocator';
import { encodeFullRows, encodeMatrixView, encodeRowNormalizers, rawBytes, type DenseProblem } from './attention-stats';
import { withErrorScopes } from './error-scope';
import { encodeFavorFeatures } from './favor-features';
import { GpuTimer } from './gpu-timer';
import type { KernelContext } from './kernel-context';
import { encodeVec4Rows } from './pack-vec4';
import { bindBuffers, dispatchGrid } from './pipelines';

/** Past this d the feature kernels refuse (favor-features.ts). */
const GPU_D_MAX = 256;
/** Windows local-window-stats.wgsl takes in one dispatch (W_MAX there; the grid of n = 2048 has 13). */
export const WINDOW_MAX = 32;
const WINDOW_WG = 64;

class PrefixAllocator extends GpuAllocator {
  prefix = '';
  override buffer(role: string, bytes: number, usage: number): GPUBuffer {
    return super.buffer(this.prefix + role, bytes, usage);
  }
}

export type DenseAnalysis = Pick<AnalysisBackend, 'denseAttention' | 'windowStats'> & { dispose(): void };

export interface DenseAnalysisOptions {
  /** where φ is formed (as GpuAnalysisOptions.features): 'gpu' (favor-features) or 'cpu' (the twins, uploaded) */
  features?: 'gpu' | 'cpu';
  /** label every pass with timestamp queries (device feature 'timestamp-query'); `lastProfile` then holds them */
  profile?: boolean;
}

/** Floats per row of local-window-stats.wgsl's output for W windows. */
export const windowStride = (windows: number) => 2 + 4 * windows;

/** local-window-stats.wgsl: per row and window the truncation sums (n·(2 + 4W) floats, role 'lw.stats'). */
export function encodeWindowStats(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  /** v: V as vec4 rows (pack-vec4.ts) of dv columns, or null */
  args: { n: number; mats: GPUBuffer; windows: GPUBuffer; count: number; v: GPUBuffer | null; dv: number },
): GPUBuffer {
  const { n, count } = args;
  if (count > WINDOW_MAX)
    throw new EngineError('exceeds-limit', `local-window-stats takes at most ${WINDOW_MAX} windows`);
  const out = ctx.alloc.storage('lw.stats', n * windowStride(count) * 4);
  const grid = dispatchGrid(Math.ceil(n / WINDOW_WG), ctx.limits.maxComputeWorkgroupsPerDimension);
  const u = ctx.alloc.uniform(
    'lw.params',
    new Uint32Array([n, count, args.v ? Math.ceil(args.dv / 4) : 0, grid[0], args.v ? 1 : 0, n * n, 0, 0]),
  );
  const pipeline = ctx.pipelines.pipeline('local-window-stats', code, 'main');
  const pass = encoder.beginComputePass(ctx.timer.pass('local-window-stats'));
  pass.setPipeline(pipeline);
  const vBuf = args.v ?? args.windows; // unread without V
  pass.setBindGroup(
    0,
    bindBuffers(ctx.device, pipeline, [u, args.mats, vBuf, args.windows, out], 'local-window-stats'),
  );
  pass.dispatchWorkgroups(grid[0], grid[1]);
  pass.end();
  return out;
}

/** The kernel's flat output as the twin's planes. */
export function unpackWindowStats(flat: Float32Array, n: number, windows: readonly number[]): WindowRowStats {
  const W = windows.length;
  const S = windowStride(W);
  const s: WindowRowStats = {
    n,
    windows: [...windows],
    exactSq: new Float64Array(n),
    outExactSq: new Float64Array(n),
    sqErrApprox: new Float64Array(W * n),
    sqErrExact: new Float64Array(W * n),
    outSqErr: new Float64Array(W * n),
    degenerate: new Uint8Array(W * n),
  };
  for (let i = 0; i < n; i++) {
    s.exactSq[i] = flat[i * S]!;
    s.outExactSq[i] = flat[i * S + 1]!;
    for (let t = 0; t < W; t++) {
      const o = i * S + 2 + 4 * t;
      s.sqErrApprox[t * n + i] = flat[o]!;
      s.sqErrExact[t * n + i] = flat[o + 1]!;
      s.outSqErr[t * n + i] = flat[o + 2]!;
      s.degenerate[t * n + i] = flat[o + 3]! ? 1 : 0;
    }
  }
  return s;
}

export function createDenseAnalysis(
  base: KernelContext,
  lock: <T>(work: () => Promise<T>) => Promise<T>,
  options: DenseAnalysisOptions = {},
): DenseAnalysis & { lastProfile: () => { kernel: string; ms: number }[] } {
  const { device } = base;
  const alloc = new PrefixAllocator(device);
  const timed = !!options.profile && device.features.has('timestamp-query');
  const ctx: KernelContext = {
    device,
    pipelines: base.pipelines,
    alloc,
    timer: new GpuTimer(device, timed),
    limits: base.limits,
  };
  let lost = false;
  void device.lost.then(() => (lost = true));
  let profile: { kernel: string; ms: number }[] = [];
  let allRows: number[] = [];
  const rowList = (n: number) => (allRows.length === n ? allRows : (allRows = Array.from({ length: n }, (_, i) => i)));

  /** A and Â of every row of one variant (exact only without one): the fullRows planes and the normalizers. */
  function encodeDense(
    enc: GPUCommandEncoder,
    problem: MatrixProblem,
    inputs: { q: GPUBuffer; k: GPUBuffer; q4: GPUBuffer; k4: GPUBuffer },
    variant: FeatureVariant | undefined,
    slot: number,
  ): { rows: GPUBuffer; norms: GPUBuffer } {
    const { q, k, causal } = problem;
    const n = q.rows;
    const d = q.cols;
    if (2 * n * n * 4 > ctx.limits.maxStorageBufferBindingSize)
      throw new EngineError('exceeds-limit', `the n×n planes (n = ${n}) exceed one binding of this GPU`);
    alloc.prefix = `dn${slot}.`;
    let dense: DenseProblem = { n, d, mp: 0, causal, q4: inputs.q4, k4: inputs.k4, qf4: inputs.q4, kf4: inputs.k4 };
    if (variant) {
      const mp = featureDim(variant.map, variant.w.rows, d);
      let qf: GPUBuffer;
      let kf: GPUBuffer;
      if (options.features === 'cpu') {
        const f = variantFeatures(problem, variant);
        qf = alloc.upload('an.qf', f.qf.data);
        kf = alloc.upload('an.kf', f.kf.data);
      } else {
        const w = alloc.upload('an.w', variant.w.data.length ? variant.w.data : new Float32Array(4));
        const gpuFeatures = (kind: FeatureMapKind) =>
          encodeFavorFeatures(ctx, enc, {
            n,
            d,
            m: variant.w.rows,
            featureMap: kind,
            stabilizer: variant.stabilizer,
            q: inputs.q,
            k: inputs.k,
            w,
            mapParam: featureMapParam(kind, q, k, causal),
            causal,
          });
        const f = gpuFeatures(variant.map);
        qf = f.qf;
        kf = f.kf;
        if (variant.keyMap && variant.keyMap !== variant.map) {
          alloc.prefix = `dn${slot}.key.`;
          kf = gpuFeatures(variant.keyMap).kf;
          alloc.prefix = `dn${slot}.`;
        }
      }
      dense = {
        ...dense,
        mp,
        qf4: encodeVec4Rows(ctx, enc, qf, n, mp, 'an.qf4'),
        kf4: encodeVec4Rows(ctx, enc, kf, n, mp, 'an.kf4'),
      };
    }
    // the normalizers pass writes every (s_ij, g_ij) on its way; the view kernel's one-cell-per-entry
    // case turns them into the planes [A | Â | |A − Â|] elementwise (no second pass over the products)
    if (
      rawBytes(n) <= ctx.limits.maxStorageBufferBindingSize &&
      3 * n * n * 4 <= ctx.limits.maxStorageBufferBindingSize
    ) {
      const raw = alloc.storage('stats.raw', rawBytes(n));
      const norms = encodeRowNormalizers(ctx, enc, dense, raw);
      return { rows: encodeMatrixView(ctx, enc, dense, norms, n, raw).buffer, norms };
    }
    const norms = encodeRowNormalizers(ctx, enc, dense);
    return { rows: encodeFullRows(ctx, enc, dense, norms, rowList(n)), norms };
  }

  /**
   * One encoder: the inputs, `body`'s passes, the copies of `reads` into one staging buffer; one map.
   * `closeScopes` pops the error scopes once the last GPU call is made (error-scope.ts).
   */
  async function run(
    problem: MatrixProblem,
    closeScopes: () => void,
    label: string,
    body: (
      enc: GPUCommandEncoder,
      inputs: { q: GPUBuffer; k: GPUBuffer; q4: GPUBuffer; k4: GPUBuffer },
    ) => {
      src: GPUBuffer;
      floats: number;
    }[],
  ): Promise<Float32Array[]> {
    const { q, k } = problem;
    ctx.timer.reset();
    alloc.prefix = '';
    const enc = device.createCommandEncoder({ label });
    const qBuf = alloc.upload('an.q', q.data);
    const kBuf = alloc.upload('an.k', k.data);
    const inputs = {
      q: qBuf,
      k: kBuf,
      q4: encodeVec4Rows(ctx, enc, qBuf, q.rows, q.cols, 'an.q4'),
      k4: encodeVec4Rows(ctx, enc, kBuf, k.rows, k.cols, 'an.k4'),
    };
    const reads = body(enc, inputs);
    alloc.prefix = '';
    const total = reads.reduce((s, r) => s + r.floats, 0);
    const staging = alloc.buffer('an.staging', total * 4, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST);
    let at = 0;
    for (const r of reads) {
      enc.copyBufferToBuffer(r.src, 0, staging, at * 4, r.floats * 4);
      at += r.floats;
    }
    ctx.timer.resolve(enc);
    device.queue.submit([enc.finish()]);
    const mapped = staging.mapAsync(GPUMapMode.READ, 0, total * 4);
    closeScopes();
    await mapped;
    let all: Float32Array;
    try {
      all = new Float32Array(staging.getMappedRange(0, total * 4).slice(0));
    } finally {
      staging.unmap();
    }
    if (timed) profile = (await ctx.timer.read()).map((t) => ({ kernel: t.kernel, ms: t.ms }));
    at = 0;
    return reads.map((r) => all.subarray(at, (at += r.floats)));
  }

  /** GPU work under the lock and error scopes; the CPU twins when the GPU refuses or fails. */
  function guarded<T>(label: string, work: (closeScopes: () => void) => Promise<T>, cpu: () => Promise<T>): Promise<T> {
    if (lost) return cpu();
    return lock(() => withErrorScopes(device, label, work)).catch((e: unknown) => {
      // a lost device rejects mapAsync with a DOMException, possibly before device.lost resolves
      const gpuGone = lost || (typeof DOMException !== 'undefined' && e instanceof DOMException);
      if (gpuGone || (isEngineError(e) && ['exceeds-limit', 'gpu-validation', 'device-lost'].includes(e.code)))
        return cpu();
      throw e;
    });
  }

  return {
    denseAttention(problem, variant) {
      const n = problem.q.rows;
      if (problem.q.cols > GPU_D_MAX || n === 0) return cpuDense.denseAttention(problem, variant);
      return guarded(
        'analysis dense attention',
        async (close) => {
          const [rows, norms] = await run(problem, close, 'analysis.dense', (enc, inputs) => {
            const r = encodeDense(enc, problem, inputs, variant, 0);
            return [
              { src: r.rows, floats: (variant ? 2 : 1) * n * n },
              { src: r.norms, floats: 4 * n },
            ];
          });
          const exact = rows!.slice(0, n * n);
          if (!variant) return { exact };
          const approx = rows!.slice(n * n, 2 * n * n);
          // the all-zero normalizer guard writes 0; the f64 twin's 0/0 is NaN (the op refuses such a Â)
          for (let i = 0; i < n; i++) if (norms![4 * i + 2] === 0) approx.fill(NaN, i * n, (i + 1) * n);
          return { exact, approx };
        },
        () => cpuDense.denseAttention(problem, variant),
      );
    },
    windowStats(problem, variants, windows) {
      const n = problem.q.rows;
      const dv = problem.v?.cols ?? 0;
      const cpu = () => cpuDense.windowStats(problem, variants, windows);
      if (problem.q.cols > GPU_D_MAX || windows.length > WINDOW_MAX || n === 0 || !variants.length || !windows.length)
        return cpu();
      return guarded(
        'analysis local truncation',
        async (close) => {
          const flats = await run(problem, close, 'analysis.window', (enc, inputs) => {
            alloc.prefix = '';
            const winBuf = alloc.upload(
              'lw.windows',
              Uint32Array.from(windows, (w) => Math.min(Math.max(0, w), n)),
            );
            const v = problem.v;
            const vBuf = v ? encodeVec4Rows(ctx, enc, alloc.upload('lw.v', v.data), n, dv, 'lw.v4') : null;
            return variants.map((v, i) => {
              const { rows } = encodeDense(enc, problem, inputs, v, i);
              const out = encodeWindowStats(ctx, enc, {
                n,
                mats: rows,
                windows: winBuf,
                count: windows.length,
                v: v.output === false ? null : vBuf,
                dv,
              });
              return { src: out, floats: n * windowStride(windows.length) };
            });
          });
          return flats.map((f) => unpackWindowStats(f, n, windows));
        },
        cpu,
      );
    },
    lastProfile: () => profile,
    dispose() {
      alloc.releaseAll();
    },
  };
}
