// In-page driver of e2e/bench.mjs: our WebGPU backend (its `timeKernel` hook per visit) and the
// TensorFlow.js peers (e2e/pages/tfjs-attention.ts) in ONE page, on the same inputs.
import { createRng } from '../../src/core/rng';
import { randomProjection } from '../../src/core/projections';
import { maxRelDiff, normalizePasses } from '../../src/core/bench-stats';
import { acquireGpu } from '../../src/gpu/device';
import type { BenchKernel } from '../../src/gpu/kernel-bench';
import { createWebGpuBackend, type WebGpuBackend } from '../../src/gpu/webgpu-backend';
import {
  disposeInputs,
  initTfjs,
  tfBytes,
  tfInputs,
  tfOutput,
  timeTf,
  type TfInputs,
  type TfMethod,
} from './tfjs-attention';

let backendP: Promise<WebGpuBackend> | null = null;
function backend(): Promise<WebGpuBackend> {
  backendP ??= acquireGpu().then((a) => {
    if (!a.ok) throw new Error(a.reason);
    return createWebGpuBackend(a.gpu);
  });
  return backendP;
}

/**
 * The inputs of one shape, drawn as src/gpu/kernel-bench.ts draws them (one rng: Q, K ~ N(0, 0.5²),
 * V ~ N(0, 1), then W orthogonal-chi), so the tfjs side times and checks the very values our
 * kernels get from the same seed.
 */
function drawInputs(n: number, d: number, m: number, seed: number) {
  const rng = createRng(seed);
  const q = rng.fillNormal(new Float32Array(n * d), 0.5);
  const k = rng.fillNormal(new Float32Array(n * d), 0.5);
  const v = rng.fillNormal(new Float32Array(n * d), 1);
  const w = randomProjection('orthogonal-chi', m, d, rng).data;
  return { q, k, v, w };
}

/** tf tensors of the shape last visited (one shape alive at a time keeps memory and byte counts honest). */
let tfCache: { key: string; x: TfInputs } | null = null;
function tfFor(n: number, d: number, m: number, seed: number): TfInputs {
  const key = `${n}:${d}:${m}:${seed}`;
  if (tfCache?.key !== key) {
    if (tfCache) disposeInputs(tfCache.x);
    const i = drawInputs(n, d, m, seed);
    tfCache = { key, x: tfInputs(n, d, m, i.q, i.k, i.v, i.w) };
  }
  return tfCache.x;
}

type Method = BenchKernel | TfMethod;
interface Visit {
  method: Method;
  n: number;
  d: number;
  m: number;
  seed: number;
  /** first visit of a point: warm up (compile, allocate) before the timed run */
  warmup: boolean;
}

function failure(e: unknown, t0: number) {
  const err = e as { code?: string; message?: string };
  return {
    ok: false as const,
    code: err.code ?? 'error',
    message: err.message ?? String(e),
    wallMs: performance.now() - t0,
  };
}

const bench = {
  async info() {
    const b = await backend();
    const l = b.context.limits;
    const tfi = await initTfjs();
    return {
      adapter: b.info.adapter,
      timestamps: b.info.features.includes('timestamp-query'),
      workgroupStorage: l.maxComputeWorkgroupStorageSize,
      maxBinding: Math.min(l.maxStorageBufferBindingSize, l.maxBufferSize),
      tfjs: tfi,
    };
  },

  /**
   * Our outputs (the engine's job path: exact fused and Performer bidirectional, positive features,
   * stabilizer 'shift') vs tfjs-exact and tfjs-favor on the same Q, K, V, W: max relative differences.
   */
  async check(o: { n: number; d: number; m: number; seed: number }) {
    const t0 = performance.now();
    try {
      const b = await backend();
      await initTfjs();
      const { n, d, m } = o;
      const i = drawInputs(n, d, m, o.seed);
      const ours = await b.run({
        inputs: {
          q: { rows: n, cols: d, data: i.q },
          k: { rows: n, cols: d, data: i.k },
          v: { rows: n, cols: d, data: i.v },
          w: { rows: m, cols: d, data: i.w },
        },
        featureMap: 'positive',
        stabilizer: 'shift',
        causal: false,
        viewCells: 0,
        rowStats: false,
        rows: [],
      });
      const x = tfFor(n, d, m, o.seed);
      const tExact = await tfOutput('tfjs-exact', x);
      const tFavor = await tfOutput('tfjs-favor', x);
      return {
        ok: true as const,
        exact: maxRelDiff(ours.exactOut.data, tExact),
        favor: maxRelDiff(ours.approxOut.data, tFavor),
        wallMs: performance.now() - t0,
      };
    } catch (e) {
      return failure(e, t0);
    }
  },

  /** One timed run of one method at one n (after a warm-up run when asked). */
  async visit(o: Visit) {
    const t0 = performance.now();
    try {
      if (o.method === 'tfjs-exact' || o.method === 'tfjs-favor') {
        const x = tfFor(o.n, o.d, o.m, o.seed);
        let bytes: number | null = null;
        // The warm-up run (compiles tf's programs) is the one whose peak tensor bytes are counted.
        if (o.warmup) bytes = await tfBytes(o.method, x);
        const r = await timeTf(o.method, x);
        return { ok: true as const, ms: r.ms, source: r.source, bytes, passes: null, wallMs: performance.now() - t0 };
      }
      const b = await backend();
      const r = await b.timeKernel({
        kernel: o.method,
        n: o.n,
        d: o.d,
        m: o.m,
        repeats: 1,
        warmup: o.warmup,
        seed: o.seed,
      });
      // Per-pass times when the hook reports them (any of the shapes normalizePasses reads).
      const passes = normalizePasses((r as unknown as { passes?: unknown }).passes);
      return {
        ok: true as const,
        ms: r.medianMs,
        source: r.source,
        bytes: r.bytes,
        passes,
        wallMs: performance.now() - t0,
      };
    } catch (e) {
      return failure(e, t0);
    }
  },
};

(window as unknown as { bench: typeof bench }).bench = bench;
