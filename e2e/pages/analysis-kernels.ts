// In-page driver for e2e/analysis-kernels.spec.mjs and e2e/bench-analyses.mjs: the WebGPU analysis
// backend (src/gpu/analysis-backend.ts: favor features + attention-row-list-stats.wgsl; the dense
// planes and local-window-stats.wgsl of src/gpu/analysis-dense.ts) against the CPU one
// (core/analysis-backend.ts, the twins), kernel by kernel and op by op, on SwiftShader.
// Error metrics: maxAbs = max |gpu − cpu|; maxRel = maxAbs / max |cpu| (normwise); `ok` = every
// entry within |gpu − cpu| ≤ atol + rtol·|cpu|.
import { cpuAnalysisBackend, cpuDense, type FeatureVariant, type WindowVariant } from '../../src/core/analysis-backend';
import { windowGrid, windowRowStats, type WindowRowStats } from '../../src/core/local-window';
import { createDenseAnalysis } from '../../src/gpu/analysis-dense';
import { generateInputs } from '../../src/core/inputs';
import type { AttentionParams, FeatureMapKind, Stabilizer } from '../../src/core/types';
import { evenRows } from '../../src/core/sweeps';
import { DEFAULT_PARAMS } from '../../src/core/default-params';
import { acquireGpu } from '../../src/gpu/device';
import { createGpuAnalysisBackend, type BatchProfile, type GpuAnalysisBackend } from '../../src/gpu/analysis-backend';
import type { KernelContext } from '../../src/gpu/kernel-context';
import { createTurns } from '../../src/engine/gpu-turns';
import { GPU_ANALYSIS_OPS, runAnalysisOp, type AnalysisContext, type WorkerOpName } from '../../src/engine/analysis';
import { untimedKernelContext } from '../../src/gpu/kernel-context';
import { clearAnalysisMemos } from '../../src/engine/analysis/input-memo';
import { worst, type Err } from './compare';
import { params } from './params';

/**
 * Not exact-common's compare: maxRel's denominator is the largest |cpu| among the entries that
 * differ, because an op's result leaves include counts and grid values, equal on both sides, that
 * would swamp the normwise error (folding the two into one changed 39 of this spec's 66 logged rows).
 */
function compare(gpu: ArrayLike<number>, cpu: ArrayLike<number>, atol: number, rtol: number, guardNaN = false): Err {
  if (gpu.length !== cpu.length) return { maxAbs: NaN, maxRel: NaN, ok: false };
  let maxAbs = 0;
  let maxRef = 0;
  let ok = true;
  for (let i = 0; i < cpu.length; i++) {
    const r = cpu[i]!;
    const g = gpu[i]!;
    if (r === g) continue; // ±∞ on both sides
    // the all-zero normalizer guard: the GPU's Â row is 0 where the twin's is 0/0 (ARCHITECTURE.md)
    if (Number.isNaN(r) && guardNaN) continue;
    const e = Math.abs(g - r);
    if (!(e <= atol + rtol * Math.abs(r))) ok = false; // NaN fails too
    if (!(e <= maxAbs)) maxAbs = e;
    if (Number.isFinite(r)) maxRef = Math.max(maxRef, Math.abs(r));
  }
  return { maxAbs, maxRel: maxRef > 0 ? maxAbs / maxRef : maxAbs, ok };
}

/**
 * 'gpu': φ from the projection and the feature kernels (a hardware adapter's choice); 'projection':
 * the exp maps' from the projection, the rest from the twins (a software adapter's); 'cpu': every φ
 * from the twins (the bench's --twins-only A/B)
 */
type FeatureSide = 'gpu' | 'cpu' | 'projection' | 'projection-no-direct';
let kernelBase: Promise<KernelContext> | null = null;
const gpuBackends = new Map<FeatureSide, Promise<GpuAnalysisBackend>>();
let adapterName = '';
/** The GPU analysis backend with φ formed on the GPU (default) or by the twins ('cpu', the software-adapter choice). */
function backend(features: FeatureSide = 'gpu'): Promise<GpuAnalysisBackend> {
  kernelBase ??= acquireGpu().then((a) => {
    if (!a.ok) throw new Error(a.reason);
    const device = a.gpu.device;
    adapterName = a.gpu.adapterName;
    return untimedKernelContext(device);
  });
  if (!gpuBackends.has(features))
    gpuBackends.set(
      features,
      kernelBase.then((base) =>
        createGpuAnalysisBackend(base, createTurns(), {
          features: features === 'gpu' ? 'gpu' : 'cpu',
          projection: features !== 'cpu',
          direct: features !== 'projection-no-direct',
        }),
      ),
    );
  return gpuBackends.get(features)!;
}

interface RowCase {
  n: number;
  d: number;
  m: number;
  causal: boolean;
  rows: number;
  maps: FeatureMapKind[];
  stabilizer?: Stabilizer;
  scale?: number;
  features?: FeatureSide;
  /**
   * every map takes one W (as mapRows and the sweeps at one m and seed): the first projected slot projects,
   * the later projected slots, trig and relu read its u
   */
  sharedW?: boolean;
}

/** rowStats of one batch (every map of the case) with full rows, GPU vs CPU. */
async function rowStats(cs: RowCase) {
  const b = await backend(cs.features);
  const p = params({ n: cs.n, d: cs.d, m: cs.m, causal: cs.causal, scale: cs.scale ?? 0.5 });
  const inputs = generateInputs(p);
  const rows = evenRows(cs.n, cs.rows);
  const problem = { q: inputs.q, k: inputs.k, rows, causal: cs.causal };
  // a map listed twice gets the same W (one object): the backend forms its φ sides once
  const ws = new Map<FeatureMapKind, FeatureVariant['w']>();
  const variants: FeatureVariant[] = cs.maps.map((map) => {
    const drawn: FeatureMapKind = cs.sharedW ? 'positive' : map;
    if (!ws.has(drawn)) ws.set(drawn, generateInputs({ ...p, featureMap: drawn }).w);
    return { map, w: ws.get(drawn)!, stabilizer: cs.stabilizer ?? 'shift' };
  });
  const opts = { entropy: true, kl: true, fullRows: true, topMass: true };
  const t0 = performance.now();
  const g = await b.rowStats(problem, variants, opts);
  const ms = performance.now() - t0;
  const c = await cpuAnalysisBackend.rowStats(problem, variants, opts);
  const A = 1e-4;
  const R = 1e-3;
  const flat = (rs: Float32Array[]) => Float32Array.from(rs.flatMap((r) => [...r]));
  const errs: Record<string, Err> = {
    exactEntropy: compare(g.exactEntropy, c.exactEntropy, A, R),
    exactRows: compare(flat(g.exactRows!), flat(c.exactRows!), A, R),
  };
  cs.maps.forEach((map, i) => {
    const gv = g.variants[i]!;
    const cv = c.variants[i]!;
    errs[`${map}.entropy`] = compare(gv.entropy!, cv.entropy!, A, R, true);
    errs[`${map}.sqErr`] = compare(gv.sqErr, cv.sqErr, A, R, true);
    errs[`${map}.exactSq`] = compare(gv.exactSq, cv.exactSq, A, R);
    errs[`${map}.kl`] = compare(gv.kl!, cv.kl!, A, 1e-2, true);
    errs[`${map}.rows`] = compare(flat(gv.rows!), flat(cv.rows!), A, R, true);
    errs[`${map}.topMass`] = compare(gv.topMass!, cv.topMass!, A, R, true);
  });
  errs.exactTopMass = compare(g.exactTopMass!, c.exactTopMass!, A, R);
  // the same batch without the rows: only the statistics and masses are read back (a shorter readback of
  // the same output buffer) — they must not move
  const lean = await b.rowStats(problem, variants, { topMass: true });
  const same = (x: ArrayLike<number>, y: ArrayLike<number>) => compare(x, y, 0, 0, true);
  errs['lean.exactTopMass'] = same(lean.exactTopMass!, g.exactTopMass!);
  errs['lean.exactEntropy'] = same(lean.exactEntropy, g.exactEntropy);
  const noRows = !lean.exactRows && lean.variants.every((lv) => !lv.rows);
  if (!noRows) errs['lean.rows read back'] = { maxAbs: NaN, maxRel: NaN, ok: false };
  lean.variants.forEach((lv, i) => {
    const gv = g.variants[i]!;
    for (const f of ['topMass', 'entropy', 'sqErr', 'exactSq', 'kl'] as const)
      errs[`lean.${i}.${f}`] = same(lv[f]!, gv[f]!);
  });
  return { ...worst(errs), ms };
}

interface DenseCase {
  n: number;
  d: number;
  m: number;
  causal: boolean;
  maps: FeatureMapKind[];
  features?: FeatureSide;
  /** compare output errors through V (default true) */
  values?: boolean;
  /** per map, whether its output terms are asked for (WindowVariant.output; default all) */
  outputs?: boolean[];
  scale?: number;
}

const WINDOW_FIELDS = ['exactSq', 'outExactSq', 'sqErrApprox', 'sqErrExact', 'outSqErr', 'degenerate'] as const;

/**
 * The dense planes and local-window-stats.wgsl on one case: `denseAttention` (A, Â read back) against
 * the f64 twins (exactAttentionF64, denseApproxF64); `windowStats` against the twin windowRowStats
 * run on the GPU's own planes (the kernel alone) and on the CPU's matrices (the whole path).
 */
async function denseKernels(cs: DenseCase) {
  const b = await backend(cs.features);
  const p = params({ n: cs.n, d: cs.d, m: cs.m, causal: cs.causal, scale: cs.scale ?? 0.8 });
  const inputs = generateInputs(p);
  const problem = { q: inputs.q, k: inputs.k, causal: cs.causal, ...(cs.values === false ? {} : { v: inputs.v }) };
  const variants: WindowVariant[] = cs.maps.map((map, i) => ({
    map,
    w: generateInputs({ ...p, featureMap: map }).w,
    stabilizer: 'shift',
    ...(cs.outputs ? { output: cs.outputs[i] } : {}),
  }));
  const windows = [...windowGrid(cs.n, true), Math.max(0, cs.n - 3)];
  const errs: Record<string, Err> = {};
  const t0 = performance.now();
  const g = await b.windowStats(problem, variants, windows);
  let ms = performance.now() - t0;
  const c = await cpuDense.windowStats(problem, variants, windows);
  for (const [i, v] of variants.entries()) {
    const t1 = performance.now();
    const gd = await b.denseAttention(problem, v);
    ms += performance.now() - t1;
    const cd = await cpuDense.denseAttention(problem, v);
    if (i === 0) errs['A'] = compare(gd.exact, cd.exact, 1e-5, 1e-3);
    errs[`${v.map}.Â`] = compare(gd.approx!, cd.approx!, 1e-5, 1e-3, true);
    // the kernel alone: the twin on the planes the GPU read back (its zero-normalizer rows as the kernel sees them: 0)
    const planes = Float32Array.from(gd.approx!, (x) => (Number.isNaN(x) ? 0 : x));
    const k = windowRowStats(gd.exact, planes, cs.n, windows, v.output === false ? undefined : problem.v);
    const whole: WindowRowStats = c[i]!;
    for (const f of WINDOW_FIELDS) {
      errs[`${v.map}.kernel.${f}`] = compare(g[i]![f], k[f], 1e-6, 1e-4);
      errs[`${v.map}.${f}`] = compare(g[i]![f], whole[f], 1e-5, 1e-3);
    }
  }
  return { ...worst(errs), ms };
}

/** Timestamp profile of one dense request at the defaults (needs 'timestamp-query'): pass → ms. */
async function profileDense(which: 'spectra' | 'localTruncation', features: FeatureSide = 'cpu') {
  await backend();
  const base = await kernelBase!;
  const dense = createDenseAnalysis(base, createTurns(), {
    features: features === 'gpu' ? 'gpu' : 'cpu',
    profile: true,
  });
  const p = { ...DEFAULT_PARAMS };
  const inputs = generateInputs(p);
  const variant: FeatureVariant = { map: p.featureMap, w: inputs.w, stabilizer: p.stabilizer };
  const problem = { q: inputs.q, k: inputs.k, causal: p.causal, v: inputs.v };
  const t0 = performance.now();
  if (which === 'spectra') await dense.denseAttention(problem, p.causal ? variant : undefined);
  else
    await dense.windowStats(problem, [variant, { ...variant, map: 'elu1', output: false }], windowGrid(p.n, p.causal));
  const wallMs = performance.now() - t0;
  const passes = dense.lastProfile();
  dense.dispose();
  return { wallMs, passes };
}

/** Every number of a result, depth first (arrays and typed arrays in order, object keys sorted). */
function leaves(v: unknown, out: number[] = []): number[] {
  if (typeof v === 'number') out.push(v);
  else if (ArrayBuffer.isView(v)) out.push(...(v as unknown as ArrayLike<number> & Iterable<number>));
  else if (Array.isArray(v)) for (const x of v) leaves(x, out);
  else if (v && typeof v === 'object')
    for (const k of Object.keys(v).sort()) leaves((v as Record<string, unknown>)[k], out);
  return out;
}

const ctxOf = (b?: AnalysisContext['backend']): AnalysisContext => ({
  progress: () => {},
  cancelled: () => false,
  ...(b ? { backend: b } : {}),
});

/** One op on the GPU backend and on the CPU one: the largest difference over every number of the result. */
async function op(
  name: WorkerOpName,
  payload: Record<string, unknown>,
  features: FeatureSide = 'gpu',
  atol = 2e-3,
  rtol = 2e-2,
) {
  const b = await backend(features);
  const full = { ...payload, params: params(payload.params as AttentionParams) };
  // nothing from an earlier case (A's spectrum, the inputs) is reused: each side computes it all
  clearAnalysisMemos();
  const t0 = performance.now();
  const g = await runAnalysisOp(name, full, ctxOf(b));
  const gpuMs = performance.now() - t0;
  const t1 = performance.now();
  const c = await runAnalysisOp(name, full, ctxOf());
  const cpuMs = performance.now() - t1;
  if (name !== 'spectra') return { ...compare(leaves(g), leaves(c), atol, rtol), gpuMs, cpuMs };
  // singular values: |σ_gpu − σ_cpu| ≤ SPECTRUM_TOL·σ_max per spectrum (A and Â from f32 kernels, the SVD in f64)
  const gs = g as unknown as Record<string, unknown>;
  const cs = c as unknown as Record<string, unknown>;
  const errs: Record<string, Err> = {};
  const rest: Record<string, unknown>[] = [{}, {}];
  for (const k of Object.keys(cs)) {
    if (k === 'exact' || k === 'approx' || k === 'scores') {
      const ref = cs[k] as Float64Array;
      const e = compare(gs[k] as Float64Array, ref, 0, 0);
      const top = Math.max(...ref);
      errs[k] = { maxAbs: e.maxAbs, maxRel: e.maxAbs / top, ok: e.maxAbs <= SPECTRUM_TOL * top };
    } else {
      rest[0]![k] = gs[k];
      rest[1]![k] = cs[k];
    }
  }
  errs['other'] = compare(leaves(rest[0]), leaves(rest[1]), atol, rtol);
  return { ...worst(errs), gpuMs, cpuMs };
}

/** Singular values from the GPU's f32 matrices vs the f64 twins', relative to σ_max (stated in the spec). */
const SPECTRUM_TOL = 1e-6;

/** Times an op at the default parameters on one backend (its default budgets). */
async function timeOp(
  name: WorkerOpName,
  on: 'cpu' | 'gpu' | 'gpu-cpu-features' | 'gpu-projection' | 'gpu-no-direct',
  extra: Record<string, unknown> = {},
) {
  const sides = {
    gpu: 'gpu',
    'gpu-projection': 'projection',
    'gpu-cpu-features': 'cpu',
    'gpu-no-direct': 'projection-no-direct',
  } as const;
  const b = on === 'cpu' ? undefined : await backend(sides[on]);
  const t0 = performance.now();
  await runAnalysisOp(name, { params: { ...DEFAULT_PARAMS }, ...extra }, ctxOf(b));
  return performance.now() - t0;
}

/**
 * One op at the default parameters on a profiling GPU backend (timestamps where the device has them):
 * the op's wall time and, summed over its batches, φ on the CPU, encoding, the wait for the
 * readback and each pass label's GPU time (bench-analyses.mjs --profile).
 */
async function profileOp(name: WorkerOpName, features: FeatureSide) {
  const base = await kernelBase!;
  const batches: BatchProfile[] = [];
  const b = createGpuAnalysisBackend(base, createTurns(), {
    features: features === 'gpu' ? 'gpu' : 'cpu',
    projection: features !== 'cpu',
    direct: features !== 'projection-no-direct',
    profile: (p) => batches.push(p),
  });
  try {
    const t0 = performance.now();
    await runAnalysisOp(name, { params: { ...DEFAULT_PARAMS } }, ctxOf(b));
    const ms = performance.now() - t0;
    const sum = (f: (p: BatchProfile) => number) => batches.reduce((s, p) => s + f(p), 0);
    const passes: Record<string, { ms: number; count: number }> = {};
    for (const p of batches)
      for (const { kernel, ms: t } of p.passes) {
        const e = (passes[kernel] ??= { ms: 0, count: 0 });
        e.ms += t;
        e.count++;
      }
    return {
      ms,
      batches: batches.length,
      variants: sum((p) => p.variants),
      cpuFeaturesMs: sum((p) => p.cpuFeaturesMs),
      encodeMs: sum((p) => p.encodeMs),
      waitMs: sum((p) => p.waitMs),
      batchMs: sum((p) => p.wallMs),
      passes,
      each: batches,
    };
  } finally {
    b.dispose();
  }
}

/** Cancels an op on the GPU after its first step: it must stop with 'cancelled'. */
async function cancelMidway(name: WorkerOpName, payload: Record<string, unknown>) {
  const b = await backend();
  let steps = 0;
  let cancel = false;
  try {
    await runAnalysisOp(
      name,
      { ...payload, params: params(payload.params as AttentionParams) },
      {
        progress: () => {
          steps++;
          cancel = true;
        },
        cancelled: () => cancel,
        backend: b,
      },
    );
    return { code: 'finished', steps };
  } catch (e) {
    return { code: (e as { code?: string }).code ?? String(e), steps };
  }
}

/**
 * The order in which the GPU backend reports a batch: the submission (`onSubmitted`, what a pipelined
 * sweep waits for before drawing its next point) and then the result — with the twins' result for the
 * same batch, so that the order is checked on a batch that computed something.
 */
async function submissionOrder() {
  const b = await backend();
  const p = params({ n: 40, d: 6, m: 8 } as AttentionParams);
  const inputs = generateInputs(p);
  const problem = { q: inputs.q, k: inputs.k, rows: evenRows(p.n, 8), causal: false };
  const variants: FeatureVariant[] = [{ map: 'positive', w: inputs.w, stabilizer: p.stabilizer }];
  const events: string[] = [];
  const r = await b.rowStats(problem, variants, { onSubmitted: () => events.push('submitted') });
  events.push('result');
  const cpu = await cpuAnalysisBackend.rowStats(problem, variants);
  // two batches asked for at once: the second's turn starts at the first's submission, so both may be
  // in flight (each with its own read-back buffer) — both must still be their own twins' results
  const other: FeatureVariant[] = [{ map: 'trig', w: inputs.w, stabilizer: p.stabilizer }];
  const [ra, rb] = await Promise.all([b.rowStats(problem, variants), b.rowStats(problem, other, { fullRows: true })]);
  const cb = await cpuAnalysisBackend.rowStats(problem, other, { fullRows: true });
  return {
    events,
    sqErr: compare(r.variants[0]!.sqErr, cpu.variants[0]!.sqErr, 1e-6, 1e-3),
    concurrent: [
      compare(ra.variants[0]!.sqErr, cpu.variants[0]!.sqErr, 1e-6, 1e-3),
      compare(rb.variants[0]!.sqErr, cb.variants[0]!.sqErr, 1e-6, 1e-3),
      compare(
        rb.variants[0]!.rows!.flatMap((x) => [...x]),
        cb.variants[0]!.rows!.flatMap((x) => [...x]),
        1e-6,
        1e-3,
      ),
    ],
  };
}

/**
 * A sweep on a device that is lost while its batches are in flight (two at a time, each turn ending at
 * its submission): the op must end — rejected, not hanging — within `limitMs`. Its own device, so the
 * shared page's backends keep theirs.
 */
async function sweepOnLostDevice(limitMs: number) {
  const a = await acquireGpu();
  if (!a.ok) throw new Error(a.reason);
  const device = a.gpu.device;
  const b = createGpuAnalysisBackend(untimedKernelContext(device), createTurns(), { features: 'cpu' });
  let steps = 0;
  const run = runAnalysisOp(
    'errorVsM',
    { params: params({ n: 47, d: 5, m: 8 } as AttentionParams), seeds: 8, mGrid: [4, 8, 16], rows: 8 },
    {
      progress: () => {
        // lost after the first batch is read, while the next ones are queued or on their way
        if (++steps === 1) device.destroy();
      },
      cancelled: () => false,
      backend: b,
    },
  );
  const outcome = await Promise.race([
    run.then(
      () => 'finished',
      (e: unknown) => {
        // an EngineError's code, else the DOMException's name (AbortError: a mapAsync on a lost device)
        const code = (e as { code?: unknown }).code;
        return `rejected: ${typeof code === 'string' ? code : ((e as Error).name ?? String(e))}`;
      },
    ),
    new Promise<string>((r) => setTimeout(() => r('hung'), limitMs)),
  ]);
  return { outcome, steps };
}

/**
 * The least a GPU batch can cost on this adapter: `count` round trips of a one-workgroup dispatch, a
 * 256-byte copy and its mapAsync on the analysis device (bench-analyses.mjs prints it beside the ops:
 * a single-batch op pays it once against a twin that pays nothing).
 */
async function readbackFloor(count = 25) {
  const device = (await kernelBase!).device;
  const buf = device.createBuffer({ size: 256, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const staging = device.createBuffer({ size: 256, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const module = device.createShaderModule({
    code: `@group(0) @binding(0) var<storage, read_write> b: array<f32>;
      @compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) { b[g.x] = b[g.x] + 1.0; }`,
  });
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const bind = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [{ binding: 0, resource: { buffer: buf } }],
  });
  const ms: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const t0 = performance.now();
      const enc = device.createCommandEncoder();
      const pass = enc.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, bind);
      pass.dispatchWorkgroups(1);
      pass.end();
      enc.copyBufferToBuffer(buf, 0, staging, 0, 256);
      device.queue.submit([enc.finish()]);
      await staging.mapAsync(GPUMapMode.READ);
      staging.unmap();
      ms.push(performance.now() - t0);
    }
  } finally {
    buf.destroy();
    staging.destroy();
  }
  return ms;
}

async function info() {
  await backend();
  return { adapter: adapterName, defaults: DEFAULT_PARAMS, gpuOps: [...GPU_ANALYSIS_OPS] };
}

const driver = {
  info,
  readbackFloor,
  rowStats,
  denseKernels,
  profileDense,
  op,
  timeOp,
  profileOp,
  cancelMidway,
  clearAnalysisMemos,
  submissionOrder,
  sweepOnLostDevice,
};
(window as unknown as { analysisKernels: typeof driver }).analysisKernels = driver;
