// In-page driver for e2e/bench-compute.mjs: one live compute at the defaults, profiled.
// - gpuJob(): the WebGPU backend in this page, with the device's and buffers' host calls wrapped
//   (buffer / bind group / pipeline creation, writeBuffer, submit, mapAsync waits) and the
//   backend's own per-pass timings (timestamps, else wall-timed stages);
// - cpuJob(): the CPU twin on the same job;
// - worker(kind): the same request through a real engine client (the CPU worker or the WebGPU worker).
import { DEFAULT_PARAMS } from '../../src/core/default-params';
import { runAttentionJob } from '../../src/core/cpu-attention';
import { LIMITS } from '../../src/core/limits';
import { acquireGpu } from '../../src/gpu/device';
import { createWebGpuBackend, type WebGpuBackend } from '../../src/gpu/webgpu-backend';
import { jobFor, prepareInputs } from '../../src/engine/compute';
import { createEngineClient, type EngineClient } from '../../src/engine/engine-client';
import type { ComputeRequest } from '../../src/engine/protocol';
import { defaultRow } from '../../src/store/store';
import type { AttentionParams } from '../../src/core/types';

/** what the store sends at the defaults (compute-request.ts buildRequest); `?n=` another n */
function storeRequest(n: number): ComputeRequest {
  const map = new URLSearchParams(location.search).get('map') as AttentionParams['featureMap'] | null;
  const p = { ...DEFAULT_PARAMS, n, ...(map ? { featureMap: map } : {}) };
  return { params: p, viewCells: Math.min(p.n, LIMITS.viewCellsMax), rowStats: true, rows: [defaultRow(p.n)] };
}
const REQUEST = storeRequest(Number(new URLSearchParams(location.search).get('n') ?? DEFAULT_PARAMS.n));

const withM = (m: number): ComputeRequest => ({ ...REQUEST, params: { ...REQUEST.params, m } });

type Tally = Record<string, { count: number; ms: number }>;
let tally: Tally = {};
function add(key: string, ms: number): void {
  const t = (tally[key] ??= { count: 0, ms: 0 });
  t.count++;
  t.ms += ms;
}

function wrapSync<T extends object>(obj: T, name: keyof T & string, key: string): void {
  const orig = (obj as Record<string, unknown>)[name] as (...a: unknown[]) => unknown;
  (obj as Record<string, unknown>)[name] = function (this: unknown, ...a: unknown[]) {
    const t0 = performance.now();
    try {
      return orig.apply(this, a);
    } finally {
      add(key, performance.now() - t0);
    }
  };
}

let backend: WebGpuBackend | null = null;
async function gpuBackend(): Promise<WebGpuBackend> {
  if (backend) return backend;
  const acq = await acquireGpu();
  if (!acq.ok) throw new Error(acq.reason);
  const dev = acq.gpu.device;
  wrapSync(dev, 'createBuffer', 'createBuffer');
  wrapSync(dev, 'createBindGroup', 'createBindGroup');
  wrapSync(dev, 'createComputePipeline', 'createComputePipeline');
  wrapSync(dev, 'createShaderModule', 'createShaderModule');
  wrapSync(dev, 'createCommandEncoder', 'createCommandEncoder');
  wrapSync(dev.queue, 'writeBuffer', 'writeBuffer');
  wrapSync(dev.queue, 'submit', 'submit');
  const proto = GPUBuffer.prototype as unknown as Record<string, unknown>;
  const mapAsync = proto.mapAsync as (...a: unknown[]) => Promise<void>;
  proto.mapAsync = async function (this: GPUBuffer, ...a: unknown[]) {
    const t0 = performance.now();
    try {
      return await mapAsync.apply(this, a);
    } finally {
      add('mapAsync wait', performance.now() - t0);
    }
  };
  const done = dev.queue.onSubmittedWorkDone.bind(dev.queue);
  dev.queue.onSubmittedWorkDone = async () => {
    const t0 = performance.now();
    try {
      return await done();
    } finally {
      add('onSubmittedWorkDone wait', performance.now() - t0);
    }
  };
  backend = createWebGpuBackend(acq.gpu);
  return backend;
}

const workers: Partial<Record<'cpu' | 'webgpu', EngineClient>> = {};

const bench = {
  request: () => REQUEST,
  async gpuInfo() {
    const b = await gpuBackend();
    return { ...b.info, timestamps: b.context.timer.useTimestamps };
  },
  async gpuJob(m: number) {
    const b = await gpuBackend();
    const req = withM(m);
    const t0 = performance.now();
    const inputs = prepareInputs(req);
    const t1 = performance.now();
    tally = {};
    const out = await b.run(jobFor(req, inputs));
    const t2 = performance.now();
    return {
      inputsMs: t1 - t0,
      runMs: t2 - t1,
      totalMs: t2 - t0,
      passes: out.timings,
      host: tally,
      live: b.stats(),
    };
  },
  cpuJob(m: number) {
    const req = withM(m);
    const t0 = performance.now();
    const inputs = prepareInputs(req);
    const t1 = performance.now();
    runAttentionJob(jobFor(req, inputs));
    const t2 = performance.now();
    return { inputsMs: t1 - t0, runMs: t2 - t1, totalMs: t2 - t0 };
  },
  async workerReady(kind: 'cpu' | 'webgpu') {
    workers[kind] ??= createEngineClient({ forceCpu: kind === 'cpu' });
    return workers[kind].ready;
  },
  /** one compute through the engine client; m alternates like a slider step */
  async worker(kind: 'cpu' | 'webgpu', m: number) {
    const c = workers[kind]!;
    const t0 = performance.now();
    const r = await c.compute(withM(m));
    return { ms: performance.now() - t0, backend: r.backend.kind, elapsedMs: r.elapsedMs };
  },
};

(window as unknown as { computeBench: typeof bench }).computeBench = bench;
