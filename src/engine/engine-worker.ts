/// <reference lib="webworker" />
/**
 * The engine worker: owns the backend (WebGPU when this worker gets an adapter, the CPU twins
 * otherwise) and runs compute requests off the main thread, latest-wins. A lost GPU device is
 * replaced by a fresh one, or by the CPU backend if none can be had, and the page is told why.
 *
 * With `warmup`, a WebGPU backend first runs the page's current request at a small n, which
 * compiles every pipeline that request needs (seconds on a software adapter), and only then
 * answers 'ready'; meanwhile the client computes with a second, CPU-only instance of this worker.
 *
 * On WebGPU it also runs the row-statistics analyses (GPU_ANALYSIS_OPS) on the GPU analysis
 * backend: one op at a time, each batch one GPU turn, so a live compute waits for at most one batch.
 */
import type { AttentionBackend } from '../core/attention-job';
import { EngineError, isEngineError } from '../core/errors';
import { acquireGpu, type GpuContext } from '../gpu/device';
import { createWebGpuBackend, type WebGpuBackend } from '../gpu/webgpu-backend';
import { DEFAULT_PARAMS } from '../core/default-params';
import { compute } from './compute';
import { exportStateJson } from './export-state';
import { createCpuBackend } from './cpu-backend';
import { requestFlops } from './cost-model';
import { estimatorTiming } from './estimator-timing';
import { isEngineOp, isGpuAnalysisOp } from './analysis/types';
import { runAnalysisOp } from './analysis';
import { cpuAnalysisBackend } from '../core/analysis-backend';
import { createGpuAnalysisBackend, isSoftwareAdapter, type GpuAnalysisBackend } from '../gpu/analysis-backend';
import {
  type AnalyzeMessage,
  slimResult,
  type ComputeRequest,
  type EngineRequestMessage,
  type EngineResponseMessage,
  type RateSample,
} from './protocol';
import { serializeError } from './serialize-error';
import { createTurns } from './gpu-turns';
import { analysisJob, createQueueRunner, type AnalysisJob } from './analysis-queue';
import { runSpeed } from './speed';
import { computeHeads } from './trained-heads';

declare const self: DedicatedWorkerGlobalScope;

let backend: AttentionBackend | null = null;
let gpuBackend: WebGpuBackend | null = null;
let gpu: GpuContext | null = null;
let backendReady: Promise<AttentionBackend> | null = null;
/** The backend as soon as it is picked, before the warm-up: a trained model's forward pass need not wait for it. */
let backendPicked: Promise<AttentionBackend> | null = null;
/** Only the newest compute is worth finishing. */
let latestId = -1;
let inFlight: { id: number; abort: AbortController } | null = null;
let queued: { id: number; request: ComputeRequest } | null = null;
/** Retried on a new backend when the device is lost mid-request. */
let lastRequest: { id: number; request: ComputeRequest } | null = null;
/** The request the warm-up compiles pipelines for (the page's latest, else the defaults). */
let warmupRequest: ComputeRequest | null = null;
/** Largest n of the warm-up run: pipelines depend on d, the map and causality, not on n. */
const WARMUP_N = 64;
/** Work of the timed calibration run after the warm-up (about 0.1 s on a software adapter). */
const CALIBRATION_FLOPS = 2e8;
let calibration: RateSample | undefined;

/**
 * One job on the backend at a time (src/engine/gpu-turns.ts): the live compute, the speed run's timed
 * points and the timing runs of `estimatorTiming` interleave job by job, never inside one (the GPU
 * backend's per-job allocator and timer assume it).
 */
const gpuTurn = createTurns();
/** The running speed run (a newer one cancels it; computes do not). */
let speedRun: { id: number; abort: AbortController } | null = null;

/** engine-side analyses (ids) running, and those asked to stop */
const opRunning = new Set<number>();
const opCancelled = new Set<number>();

/** The GPU analysis backend on the current WebGPU backend's device (replaced with it). */
let analysisGpu: { owner: WebGpuBackend; backend: GpuAnalysisBackend } | null = null;

function analysisBackend(b: AttentionBackend) {
  if (!gpuBackend || b !== gpuBackend) return cpuAnalysisBackend;
  if (analysisGpu?.owner !== gpuBackend) {
    analysisGpu?.backend.dispose();
    // every batch is one GPU turn: a live compute waits for at most the batch in flight
    // a software adapter (SwiftShader) forms φ of the maps outside the projection with the twins: its
    // feature kernels are far slower there; the exp maps' φ comes from the projection kernel on every
    // adapter (bench-analyses.mjs --twins-only, interleaved: faster than the twins' φ in every op)
    const software = isSoftwareAdapter(gpuBackend.info.adapter);
    analysisGpu = {
      owner: gpuBackend,
      backend: createGpuAnalysisBackend(gpuBackend.context, gpuTurn, { features: software ? 'cpu' : 'gpu' }),
    };
  }
  return analysisGpu.backend;
}

/**
 * The analyses on the GPU run one at a time (each batch a GPU turn), so at most one analysis batch is
 * ever queued ahead of a live compute, and in the store's priority order, as on the CPU pool: the
 * coarse stages of the figures on screen first, those off screen last; a superseded one waiting is
 * dropped unrun.
 */
const gpuAnalyses = createQueueRunner((job: AnalysisJob) => runEngineOp(job.id, job.op, job.payload));

/**
 * The ops that need the live backend, and with WebGPU the row-statistics analyses (engine-client
 * routes the rest to the analysis worker): those queue by priority, the timing ops run at once.
 */
function analyze(msg: AnalyzeMessage): void {
  if (isGpuAnalysisOp(msg.op)) gpuAnalyses.push(analysisJob(msg));
  else void runEngineOp(msg.id, msg.op, msg.payload);
}

async function runEngineOp(id: number, op: string, payload: unknown): Promise<void> {
  opRunning.add(id);
  try {
    if (!backendReady) throw new EngineError('internal', 'engine not initialised');
    const b = await backendReady;
    let lastYield = performance.now();
    const ctx = {
      progress: (done: number, total: number, label?: string) => post({ type: 'progress', id, done, total, label }),
      cancelled: () => opCancelled.has(id),
      breathe: async () => {
        if (performance.now() - lastYield > 30) {
          await new Promise<void>((r) => setTimeout(r, 0));
          lastYield = performance.now();
        }
      },
    };
    let value: unknown;
    let runMs: number | undefined;
    if (isEngineOp(op)) {
      value = await estimatorTiming(payload as Parameters<typeof estimatorTiming>[0], ctx, b, gpuTurn);
    } else if (isGpuAnalysisOp(op)) {
      if (opCancelled.has(id)) throw new EngineError('cancelled', 'cancelled');
      const t0 = performance.now();
      value = await runAnalysisOp(op, payload, { ...ctx, backend: analysisBackend(b) });
      runMs = performance.now() - t0;
    } else throw new EngineError('internal', `analysis "${op}" runs in the analysis worker`);
    if (opCancelled.has(id)) throw new EngineError('cancelled', 'cancelled');
    post({ type: 'analysis', id, value, ...(runMs !== undefined ? { runMs } : {}) });
  } catch (e) {
    post({ type: 'error', id, error: serializeError(e) });
  } finally {
    opRunning.delete(id);
    opCancelled.delete(id);
  }
}

function post(msg: EngineResponseMessage, transfer: Transferable[] = []): void {
  self.postMessage(msg, transfer);
}

async function pickBackend(forceCpu: boolean, lostWhy?: string, cpuReason?: string): Promise<AttentionBackend> {
  if (forceCpu) return createCpuBackend(cpuReason ?? 'CPU path requested (?backend=cpu)');
  const acq = await acquireGpu();
  if (!acq.ok) return createCpuBackend(lostWhy ? `${lostWhy}; ${acq.reason}` : acq.reason);
  const gb = createWebGpuBackend(acq.gpu);
  gpuBackend = gb;
  gpu = acq.gpu;
  void acq.gpu.lost.then((info) => {
    if (backend !== gb) return;
    const why = `GPU device lost (${info.reason}${info.message ? `: ${info.message}` : ''})`;
    gpuBackend = null;
    gpu = null;
    backend = null;
    backendPicked = backendReady = pickBackend(false, why).then((b) => {
      backend = b;
      post({ type: 'backend-changed', backend: b.info, why });
      // The interrupted request is retried on the new backend so the page is not left stale.
      if (queued === null && lastRequest && lastRequest.id === latestId) queued = lastRequest;
      void pump();
      return b;
    });
  });
  return gb;
}

/**
 * Compiles the pipelines of the page's current request by running it at n ≤ WARMUP_N. Errors of the
 * request itself (an overflow, say) still compiled everything; a GPU failure replaces the backend
 * by the CPU twins, as a lost device does.
 */
async function warmUp(b: AttentionBackend): Promise<AttentionBackend> {
  if (b.info.kind !== 'webgpu') return b;
  // one task's yield: a trained model's forward pass (`heads`) that came with the page (awaiting the
  // same pick, in microtasks) takes the first GPU turn, so the head does not wait for the compile
  await new Promise<void>((r) => setTimeout(r, 0));
  const req = warmupRequest ?? { params: { ...DEFAULT_PARAMS }, viewCells: 64, rowStats: true, rows: [0] };
  const n = Math.min(req.params.n, WARMUP_N);
  const small: ComputeRequest = {
    params: { ...req.params, n },
    viewCells: Math.min(n, 64),
    rowStats: true,
    rows: [0],
  };
  try {
    // GPU turns: a trained model's forward pass (`heads`) may also run between the two runs
    await gpuTurn(() => compute(-1, small, b));
    // Time a larger run with the pipelines just compiled, so the first estimates on this
    // adapter come from its own throughput rather than a prior.
    const d = req.params.d;
    const big: ComputeRequest = {
      params: { ...req.params, n: Math.max(256, Math.min(4_096, Math.round(Math.sqrt(CALIBRATION_FLOPS / (4 * d))))) },
      viewCells: 0,
      rowStats: false,
      rows: [],
    };
    const r = await gpuTurn(() => compute(-1, big, b)).catch(() => null);
    if (r) calibration = { flops: requestFlops(big, 'webgpu').total, ms: r.elapsedMs };
  } catch (e) {
    if (isEngineError(e) && (e.code === 'device-lost' || e.code === 'gpu-validation')) {
      b.dispose();
      gpuBackend = null;
      gpu = null;
      return createCpuBackend(`WebGPU failed its first run: ${e.message}`);
    }
  }
  return b;
}

function collectTransfers(value: unknown, out: Set<ArrayBuffer>, depth = 0): void {
  if (depth > 6 || value === null || typeof value !== 'object') return;
  if (ArrayBuffer.isView(value)) {
    if (value.buffer instanceof ArrayBuffer) out.add(value.buffer);
    return;
  }
  for (const v of Object.values(value)) collectTransfers(v, out, depth + 1);
}

/** computes this worker actually ran (superseded requests are dropped before they start) */
let computesRun = 0;

async function pump(): Promise<void> {
  if (inFlight || !queued || !backendReady) return;
  const job = queued;
  queued = null;
  const abort = new AbortController();
  inFlight = { id: job.id, abort };
  try {
    const b = await backendReady;
    if (job.id !== latestId) throw new EngineError('cancelled', 'superseded by a newer request');
    lastRequest = job;
    // Only what the main thread reads crosses (protocol.ts `slimResult`): not Q, K, V, W nor the n×d outputs.
    const result = slimResult(
      await gpuTurn(() => {
        computesRun++;
        return compute(job.id, job.request, b, abort.signal);
      }),
    );
    if (job.id !== latestId) throw new EngineError('cancelled', 'superseded by a newer request');
    const transfers = new Set<ArrayBuffer>();
    collectTransfers(result, transfers);
    post({ type: 'result', id: job.id, result }, [...transfers]);
  } catch (e) {
    post({ type: 'error', id: job.id, error: serializeError(e) });
  } finally {
    inFlight = null;
    void pump();
  }
}

self.onmessage = (ev: MessageEvent<EngineRequestMessage>) => {
  const msg = ev.data;
  switch (msg.type) {
    case 'init': {
      backendPicked = pickBackend(msg.forceCpu, undefined, msg.cpuReason);
      backendReady = backendPicked
        .then((b) => (msg.warmup ? warmUp(b) : b))
        .catch((e: unknown) => createCpuBackend(`WebGPU initialisation failed: ${(e as Error).message}`));
      void backendReady.then((b) => {
        backend = b;
        post({ type: 'ready', backend: b.info, calibration });
        void pump();
      });
      break;
    }
    case 'compute': {
      latestId = msg.id;
      if (queued)
        post({ type: 'error', id: queued.id, error: { code: 'cancelled', message: 'superseded by a newer request' } });
      queued = { id: msg.id, request: msg.request };
      inFlight?.abort.abort();
      void pump();
      break;
    }
    case 'warmup':
      warmupRequest = msg.request;
      break;
    case 'cancel': {
      if (queued?.id === msg.id) {
        queued = null;
        post({ type: 'error', id: msg.id, error: { code: 'cancelled', message: 'cancelled' } });
      }
      if (inFlight?.id === msg.id) inFlight.abort.abort();
      if (speedRun?.id === msg.id) speedRun.abort.abort();
      if (opRunning.has(msg.id)) opCancelled.add(msg.id);
      else if (gpuAnalyses.drop(msg.id))
        post({ type: 'error', id: msg.id, error: { code: 'cancelled', message: 'cancelled' } });
      break;
    }
    case 'stats': {
      const stats = {
        ...(gpuBackend ? gpuBackend.stats() : { liveBuffers: 0, liveBytes: 0, created: 0 }),
        computesRun,
      };
      post({ type: 'stats', id: msg.id, stats });
      break;
    }
    case 'lose-device': {
      // For robustness tests: destroying the device exercises the same path as a real loss.
      gpu?.device.destroy();
      post({
        type: 'stats',
        id: msg.id,
        stats: { ...(gpuBackend ? gpuBackend.stats() : { liveBuffers: 0, liveBytes: 0, created: 0 }), computesRun },
      });
      break;
    }
    case 'export': {
      // CPU twins, independent of the backend and of the latest-wins compute queue
      try {
        post({ type: 'export', id: msg.id, json: exportStateJson(msg.request, msg.meta) });
      } catch (e) {
        post({ type: 'error', id: msg.id, error: serializeError(e) });
      }
      break;
    }
    case 'speed': {
      speedRun?.abort.abort();
      const run = { id: msg.id, abort: new AbortController() };
      speedRun = run;
      void (async () => {
        try {
          if (!backendReady) throw new EngineError('internal', 'speed request before init');
          const b = await backendReady;
          const gpuSide = gpuBackend && b === gpuBackend ? { context: gpuBackend.context, lock: gpuTurn } : null;
          const result = await runSpeed(msg.request, b.info, gpuSide, run.abort.signal, (progress) =>
            post({ type: 'speed-progress', id: msg.id, progress }),
          );
          post({ type: 'speed', id: msg.id, result });
        } catch (e) {
          post({ type: 'error', id: msg.id, error: serializeError(e) });
        } finally {
          if (speedRun === run) speedRun = null;
        }
      })();
      break;
    }
    case 'heads':
      // not latest-wins here: the store drops a stale answer; on WebGPU one GPU turn between computes
      void (async () => {
        try {
          if (!backendPicked) throw new EngineError('internal', 'heads request before init');
          // its own pipelines and buffers: it runs during the warm-up, then as one GPU turn between computes
          const b = await backendPicked.catch(() => null);
          const onGpu = gpu && gpuBackend && b === gpuBackend ? { context: gpu, turn: gpuTurn } : null;
          const result = await computeHeads(msg.request, onGpu);
          const transfers = new Set<ArrayBuffer>();
          collectTransfers(result, transfers);
          post({ type: 'heads', id: msg.id, result }, [...transfers]);
        } catch (e) {
          post({ type: 'error', id: msg.id, error: serializeError(e) });
        }
      })();
      break;
    case 'analyze':
      analyze(msg);
      break;
    case 'analyze-batch':
      // all queued before the runner picks one (a macrotask later): the burst goes by priority
      for (const m of msg.requests) analyze(m);
      break;
  }
};
