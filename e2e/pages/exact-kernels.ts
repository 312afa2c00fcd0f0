// In-page driver for e2e/exact-kernels.spec.mjs: runs the exact-attention, dense-statistics and
// dummy kernels (and the whole WebGPU backend) on SwiftShader next to their CPU twins and returns
// plain-JSON error summaries. Error metrics: maxAbs = max |gpu − cpu|; maxRel = maxAbs / max |cpu|
// (normwise); `ok` = every entry within |gpu − cpu| ≤ ATOL + RTOL·|cpu|.
import type { AttentionJob, AttentionOutput } from '../../src/core/attention-job';
import { maxAbsBefore, maxChangeBefore, perturbFuture } from '../../src/core/causality-probe';
import { runAttentionJob } from '../../src/core/cpu-attention';
import { isEngineError } from '../../src/core/errors';
import { exactAttentionMatrix, exactAttentionOutput, exactRowNormalizers } from '../../src/core/exact-attention';
import { generateInputs } from '../../src/core/inputs';
import { linearAttentionMatrix, performerFeatures } from '../../src/core/linear-attention';
import { matrixView, rowStatsFromMatrices } from '../../src/core/matrix-view';
import { createRng } from '../../src/core/rng';
import {
  FEATURE_MAPS,
  STABILIZERS,
  type AttentionParams,
  type FeatureMapKind,
  type Matrix,
  type Stabilizer,
} from '../../src/core/types';
import {
  encodeFullRows,
  encodeMatrixView,
  encodeRowNormalizers,
  encodeRowStats,
  type DenseProblem,
} from '../../src/gpu/attention-stats';
import { acquireGpu, type GpuContext } from '../../src/gpu/device';
import { encodeDummyAttention } from '../../src/gpu/dummy-attention';
import { encodeExactAttention, exactTileConfig, type ExactTileConfig } from '../../src/gpu/exact-attention';
import type { KernelContext } from '../../src/gpu/kernel-context';
import { encodeVec4Rows } from '../../src/gpu/pack-vec4';
import { readFloats } from '../../src/gpu/readback';
import { createWebGpuBackend, type WebGpuBackend } from '../../src/gpu/webgpu-backend';
import { untimedKernelContext } from '../../src/gpu/kernel-context';

export const ATOL = 1e-4;
export const RTOL = 1e-3;

interface Err {
  maxAbs: number;
  maxRel: number;
  ok: boolean;
}

function compare(gpu: ArrayLike<number>, cpu: ArrayLike<number>): Err {
  if (gpu.length !== cpu.length) return { maxAbs: NaN, maxRel: NaN, ok: false };
  let maxAbs = 0;
  let maxRef = 0;
  let ok = true;
  for (let i = 0; i < cpu.length; i++) {
    const r = cpu[i]!;
    const e = Math.abs(gpu[i]! - r);
    if (!(e <= ATOL + RTOL * Math.abs(r))) ok = false; // NaN fails too
    if (!(e <= maxAbs)) maxAbs = e;
    maxRef = Math.max(maxRef, Math.abs(r));
  }
  return { maxAbs, maxRel: maxRef > 0 ? maxAbs / maxRef : maxAbs, ok };
}

function worst(errs: Record<string, Err>): Err & { fields: Record<string, Err> } {
  const vals = Object.values(errs);
  return {
    maxAbs: Math.max(0, ...vals.map((e) => (Number.isNaN(e.maxAbs) ? Infinity : e.maxAbs))),
    maxRel: Math.max(0, ...vals.map((e) => (Number.isNaN(e.maxRel) ? Infinity : e.maxRel))),
    ok: vals.every((e) => e.ok),
    fields: errs,
  };
}

// ---- GPU contexts ----------------------------------------------------------------------------

let mainGpu: Promise<GpuContext> | null = null;
function gpu(): Promise<GpuContext> {
  mainGpu ??= acquireGpu().then((a) => {
    if (!a.ok) throw new Error(a.reason);
    return a.gpu;
  });
  return mainGpu;
}

/** A device with the WebGPU default limits (16 KiB workgroup memory, 128 MiB bindings). */
/** `p`, or a labelled error once `ms` pass: a step that never settles names itself instead of hanging the test. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    p,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)),
  ]);
}

async function defaultLimitsGpu(): Promise<GpuContext> {
  // In two of the last eight full suite runs this step (or the loss below) never settled, which was
  // not reproduced in 25 runs alone: a second request gets the device when the first does not answer.
  const request = async () => {
    const adapter = await navigator.gpu.requestAdapter();
    if (!adapter) throw new Error('no adapter');
    return adapter.requestDevice();
  };
  const device = await within(request(), 15_000, 'requestAdapter / requestDevice').catch(() =>
    within(request(), 30_000, 'requestAdapter / requestDevice, asked a second time'),
  );
  return { device, adapterName: 'default limits', features: new Set(), hasTimestamps: false, lost: device.lost };
}

function kernelContext(g: GpuContext): KernelContext {
  return untimedKernelContext(g.device);
}

let mainCtx: KernelContext | null = null;
async function ctx(): Promise<KernelContext> {
  mainCtx ??= kernelContext(await gpu());
  return mainCtx;
}

function randomMatrix(rows: number, cols: number, seed: number, std: number): Matrix {
  return { rows, cols, data: createRng(seed).fillNormal(new Float32Array(rows * cols), std) };
}

async function submitAndRead(
  c: KernelContext,
  encode: (enc: GPUCommandEncoder) => { buf: GPUBuffer; floats: number }[],
) {
  const enc = c.device.createCommandEncoder();
  const outs = encode(enc);
  const t0 = performance.now();
  c.device.queue.submit([enc.finish()]);
  const data = [];
  for (const o of outs) data.push(await readFloats(c.device, o.buf, o.floats));
  return { data, ms: performance.now() - t0 };
}

// ---- exact fused kernel ---------------------------------------------------------------------

interface ExactCase {
  n: number;
  d: number;
  causal: boolean;
  seed?: number;
  scale?: number;
  /** pick tiles for this much workgroup memory (e.g. 16384 to exercise the default-limit tiles) */
  storage?: number;
  /** compare only these rows (CPU streaming twin on those rows alone) */
  sampleRows?: number[];
  /** run on a device created with the default limits */
  defaultLimits?: boolean;
  /** with sampleRows: compute only the row blocks holding them (each still streams all its keys) */
  sampledBlocksOnly?: boolean;
  /** force these tile shapes */
  tiles?: ExactTileConfig;
}

/** Out rows `rows` of exact attention, computed on the CPU one row at a time (causal row i sees keys 0..i). */
function exactRowsCpu(q: Matrix, k: Matrix, v: Matrix, causal: boolean, rows: number[]): Float32Array {
  const d = q.cols;
  const out = new Float32Array(rows.length * d);
  rows.forEach((i, r) => {
    const keys = causal ? i + 1 : k.rows;
    const qi = { rows: 1, cols: d, data: q.data.slice(i * d, (i + 1) * d) };
    const ks = { rows: keys, cols: d, data: k.data.subarray(0, keys * d) };
    const vs = { rows: keys, cols: v.cols, data: v.data.subarray(0, keys * v.cols) };
    out.set(exactAttentionOutput(qi, ks, vs, false).data, r * d);
  });
  return out;
}

function sampledValues(out: Float32Array, rows: readonly number[], d: number): Float32Array {
  const sub = new Float32Array(rows.length * d);
  rows.forEach((i, r) => sub.set(out.subarray(i * d, (i + 1) * d), r * d));
  return sub;
}

async function exact(cs: ExactCase) {
  const { n, d, causal } = cs;
  const seed = cs.seed ?? 1;
  const scale = cs.scale ?? 1;
  const c = cs.defaultLimits ? kernelContext(await defaultLimitsGpu()) : await ctx();
  const q = randomMatrix(n, d, seed, scale);
  const k = randomMatrix(n, d, seed + 1, scale);
  const v = randomMatrix(n, d, seed + 2, 1);
  const tiles = cs.tiles ?? exactTileConfig(d, cs.storage ?? c.limits.maxComputeWorkgroupStorageSize);
  const qb = c.alloc.upload('t.q', q.data);
  const kb = c.alloc.upload('t.k', k.data);
  const vb = c.alloc.upload('t.v', v.data);
  let got: Float32Array;
  let ms: number;
  let blocksRun = Math.ceil(n / tiles.br);
  if (cs.sampledBlocksOnly && cs.sampleRows) {
    // one dispatch per block holding a sampled row, each into its own output buffer
    const blocks = [...new Set(cs.sampleRows.map((i) => Math.floor(i / tiles.br)))];
    blocksRun = blocks.length;
    const r = await submitAndRead(c, (enc) =>
      blocks.map((b) => ({
        buf: encodeExactAttention(c, enc, {
          n,
          d,
          causal,
          q: qb,
          k: kb,
          v: vb,
          tiles,
          blocks: { first: b, end: b + 1 },
          role: `t.out.${b}`,
        }),
        floats: n * d,
      })),
    );
    got = new Float32Array(n * d).fill(Number.NaN);
    blocks.forEach((b, j) => {
      const rows = [b * tiles.br, Math.min(n, (b + 1) * tiles.br)];
      got.set(r.data[j]!.subarray(rows[0]! * d, rows[1]! * d), rows[0]! * d);
    });
    ms = r.ms;
  } else {
    const r = await submitAndRead(c, (enc) => [
      { buf: encodeExactAttention(c, enc, { n, d, causal, q: qb, k: kb, v: vb, tiles }), floats: n * d },
    ]);
    got = r.data[0]!;
    ms = r.ms;
  }
  let err: Err;
  if (cs.sampleRows) {
    err = compare(sampledValues(got, cs.sampleRows, d), exactRowsCpu(q, k, v, causal, cs.sampleRows));
  } else {
    err = compare(got, exactAttentionOutput(q, k, v, causal).data);
  }
  const finite = (cs.sampledBlocksOnly ? sampledValues(got, cs.sampleRows ?? [], d) : got).every(Number.isFinite);
  if (cs.defaultLimits) c.device.destroy();
  return {
    ...err,
    ok: err.ok && finite,
    ms,
    tiles,
    blocksRun,
    storageLimit: c.limits.maxComputeWorkgroupStorageSize,
  };
}

// ---- dense statistics kernels (with CPU-computed features uploaded) -------------------------

interface DenseCase {
  n: number;
  d: number;
  m: number;
  featureMap: FeatureMapKind;
  causal: boolean;
  viewCells: number;
  rows: number[];
  seed?: number;
  scale?: number;
}

function params(p: Partial<AttentionParams> & { n: number; d: number }): AttentionParams {
  return {
    m: 16,
    seed: 1,
    featureSeed: 2,
    featureMap: 'positive',
    projection: 'orthogonal-chi',
    causal: false,
    input: 'gaussian',
    scale: 0.5,
    stabilizer: 'shift',
    ...p,
  };
}

async function dense(cs: DenseCase) {
  const c = await ctx();
  const { n, d, causal } = cs;
  const inputs = generateInputs(params({ ...cs, seed: cs.seed ?? 1, scale: cs.scale ?? 0.5 }));
  const { qf, kf } = performerFeatures(inputs, cs.featureMap);
  const mp = qf.cols;
  const qb = c.alloc.upload('t.q', inputs.q.data);
  const kb = c.alloc.upload('t.k', inputs.k.data);
  const qfb = c.alloc.upload('t.qf', qf.data);
  const kfb = c.alloc.upload('t.kf', kf.data);
  let cells = 0;
  let block = 0;
  const { data, ms } = await submitAndRead(c, (enc) => {
    const p: DenseProblem = {
      n,
      d,
      mp,
      causal,
      q4: encodeVec4Rows(c, enc, qb, n, d, 't.q4'),
      k4: encodeVec4Rows(c, enc, kb, n, d, 't.k4'),
      qf4: encodeVec4Rows(c, enc, qfb, n, mp, 't.qf4'),
      kf4: encodeVec4Rows(c, enc, kfb, n, mp, 't.kf4'),
    };
    const norms = encodeRowNormalizers(c, enc, p);
    const stats = encodeRowStats(c, enc, p, norms);
    const view = encodeMatrixView(c, enc, p, norms, cs.viewCells);
    cells = view.plan.cells;
    block = view.plan.block;
    const rows = encodeFullRows(c, enc, p, norms, cs.rows);
    return [
      { buf: norms, floats: 4 * n },
      { buf: stats, floats: 5 * n },
      { buf: view.buffer, floats: 3 * cells * cells },
      { buf: rows, floats: 2 * cs.rows.length * n },
    ];
  });
  const [norms, stats, view, rows] = data as [Float32Array, Float32Array, Float32Array, Float32Array];

  // CPU twins
  const A = exactAttentionMatrix(inputs.q, inputs.k, causal);
  const B = linearAttentionMatrix(qf, kf, causal);
  const nrm = exactRowNormalizers(inputs.q, inputs.k, causal);
  const den = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const last = causal ? i : n - 1;
    for (let j = 0; j <= last; j++) {
      let s = 0;
      for (let r = 0; r < mp; r++) s += qf.data[i * mp + r]! * kf.data[j * mp + r]!;
      den[i]! += s;
    }
  }
  const pick = (k: number) => Float32Array.from({ length: n }, (_, i) => norms[4 * i + k]!);
  const rs = rowStatsFromMatrices(A, B, causal);
  const vw = matrixView(A, B, cs.viewCells);
  const plane = (a: Float32Array, i: number, len: number) => a.subarray(i * len, (i + 1) * len);
  const R = cs.rows.length;
  const rowRef = (M: Matrix) => {
    const out = new Float32Array(R * n);
    cs.rows.forEach((i, r) => out.set(M.data.subarray(i * n, (i + 1) * n), r * n));
    return out;
  };
  const errs: Record<string, Err> = {
    rowMax: compare(pick(0), nrm.max),
    rowSumExp: compare(pick(1), nrm.sum),
    approxDenominator: compare(pick(2), Float32Array.from(den)),
    exactEntropy: compare(plane(stats, 0, n), rs.exactEntropy),
    approxEntropy: compare(plane(stats, 1, n), rs.approxEntropy),
    sqErr: compare(plane(stats, 2, n), rs.sqErr),
    exactSq: compare(plane(stats, 3, n), rs.exactSq),
    kl: compare(plane(stats, 4, n), rs.kl),
    viewExact: compare(plane(view, 0, cells * cells), vw.exact),
    viewApprox: compare(plane(view, 1, cells * cells), vw.approx),
    viewAbsDiff: compare(plane(view, 2, cells * cells), vw.absDiff),
    rowsExact: compare(rows.subarray(0, R * n), rowRef(A)),
    rowsApprox: compare(rows.subarray(R * n), rowRef(B)),
  };
  const geometry = { cells, block, mp, cpuCells: vw.cells, cpuBlock: vw.block };
  const w = worst(errs);
  return { ...w, ok: w.ok && cells === vw.cells && block === vw.block, ms, geometry };
}

// ---- dummy attention ------------------------------------------------------------------------

async function dummy(n: number, d: number) {
  const c = await ctx();
  const q = randomMatrix(n, d, 7, 1);
  const k = randomMatrix(n, d, 8, 1);
  const v = randomMatrix(n, d, 9, 1);
  const qb = c.alloc.upload('t.q', q.data);
  const kb = c.alloc.upload('t.k', k.data);
  const vb = c.alloc.upload('t.v', v.data);
  const { data, ms } = await submitAndRead(c, (enc) => [
    { buf: encodeDummyAttention(c, enc, { n, d, q: qb, k: kb, v: vb }), floats: n * d },
  ]);
  const got = data[0]!;
  let exactMatch = true;
  for (let i = 0; i < got.length; i++) if (got[i] !== v.data[i]) exactMatch = false;
  return { ...compare(got, v.data), exactMatch, ms };
}

// ---- the whole backend ----------------------------------------------------------------------

let backendP: Promise<WebGpuBackend> | null = null;
function backend(): Promise<WebGpuBackend> {
  backendP ??= gpu().then((g) => createWebGpuBackend(g));
  return backendP;
}

interface JobCase extends Partial<AttentionParams> {
  n: number;
  d: number;
  viewCells: number;
  rowStats: boolean;
  rows: number[];
}

function jobOf(cs: JobCase): AttentionJob {
  const p = params(cs);
  return {
    inputs: generateInputs(p),
    featureMap: p.featureMap,
    causal: p.causal,
    stabilizer: p.stabilizer,
    viewCells: cs.viewCells,
    rowStats: cs.rowStats,
    rows: cs.rows,
  };
}

async function backendJob(cs: JobCase) {
  const b = await backend();
  const job = jobOf(cs);
  const t0 = performance.now();
  const out = await b.run(job);
  const ms = performance.now() - t0;
  const ref = runAttentionJob(job);
  const errs: Record<string, Err> = {
    exactOut: compare(out.exactOut.data, ref.exactOut.data),
    approxOut: compare(out.approxOut.data, ref.approxOut.data),
  };
  let shapeOk = out.exactOut.rows === job.inputs.q.rows && out.exactOut.cols === job.inputs.q.cols;
  if (ref.view) {
    shapeOk &&= out.view !== null && out.view.cells === ref.view.cells && out.view.block === ref.view.block;
    if (out.view) {
      errs.viewExact = compare(out.view.exact, ref.view.exact);
      errs.viewApprox = compare(out.view.approx, ref.view.approx);
      errs.viewAbsDiff = compare(out.view.absDiff, ref.view.absDiff);
    }
  } else shapeOk &&= out.view === null;
  if (ref.rowStats) {
    shapeOk &&= out.rowStats !== null;
    for (const key of ['exactEntropy', 'approxEntropy', 'sqErr', 'exactSq', 'kl'] as const) {
      if (out.rowStats) errs[key] = compare(out.rowStats[key], ref.rowStats[key]);
    }
  } else shapeOk &&= out.rowStats === null;
  shapeOk &&= out.rows.length === ref.rows.length;
  out.rows.forEach((r, i) => {
    shapeOk &&= r.index === ref.rows[i]!.index;
    errs[`row${r.index}Exact`] = compare(r.exact, ref.rows[i]!.exact);
    errs[`row${r.index}Approx`] = compare(r.approx, ref.rows[i]!.approx);
  });
  const w = worst(errs);
  return {
    ...w,
    ok: w.ok && shapeOk,
    ms,
    timings: out.timings.map((t) => `${t.kernel}:${t.ms.toFixed(1)}${t.source === 'wall' ? 'w' : 't'}`),
    bytesAllocated: out.bytesAllocated,
  };
}

/** Runs `jobs` in order `repeat` times; the allocator's stats after each run. */
async function reuse(cases: JobCase[], repeat: number) {
  const b = await backend();
  const stats = [];
  for (let r = 0; r < repeat; r++) {
    for (const cs of cases) {
      await b.run(jobOf(cs));
      stats.push({ job: `${cs.n}×${cs.d}`, ...b.stats() });
    }
  }
  return stats;
}

/** Every result field of one run as raw bits, in a fixed order (timings and bytes excluded). */
function resultBits(out: AttentionOutput): { name: string; bits: Uint32Array }[] {
  const f = (name: string, a: Float32Array) => ({ name, bits: new Uint32Array(a.buffer, a.byteOffset, a.length) });
  const fields = [f('exactOut', out.exactOut.data), f('approxOut', out.approxOut.data)];
  fields.push({ name: 'zeroNormalizerRows', bits: new Uint32Array([out.zeroNormalizerRows]) });
  if (out.view)
    fields.push(
      f('view.exact', out.view.exact),
      f('view.approx', out.view.approx),
      f('view.absDiff', out.view.absDiff),
    );
  if (out.rowStats)
    for (const [k, v] of Object.entries(out.rowStats)) fields.push(f(`rowStats.${k}`, v as Float32Array));
  out.rows.forEach((r) => fields.push(f(`row${r.index}.exact`, r.exact), f(`row${r.index}.approx`, r.approx)));
  return fields;
}

/** The first difference of two runs' bits, or null when bit-identical. */
function firstDifference(
  a: { name: string; bits: Uint32Array }[],
  b: { name: string; bits: Uint32Array }[],
): string | null {
  if (a.length !== b.length) return `fields ${a.map((x) => x.name).join(',')} vs ${b.map((x) => x.name).join(',')}`;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x.name !== y.name || x.bits.length !== y.bits.length)
      return `${x.name}[${x.bits.length}] vs ${y.name}[${y.bits.length}]`;
    for (let j = 0; j < x.bits.length; j++) if (x.bits[j] !== y.bits[j]) return `${x.name}[${j}]`;
  }
  return null;
}

/**
 * `cases` run `rounds` times in order on one backend, whose buffers (and staging buffer) are reused
 * from run to run, each run compared bit for bit with the same job on a second backend whose
 * allocator is emptied before every job (fresh buffers); the allocator's stats after each run.
 * Both backends share the device, so Dawn compiles each pipeline once (a second device would
 * compile them all again, tens of seconds on SwiftShader); buffers, bind groups and the staging
 * buffer are the backend's own.
 */
async function cachedRuns(cases: JobCase[], rounds: number) {
  const reused = createWebGpuBackend(await gpu());
  const fresh = createWebGpuBackend(await gpu());
  try {
    const reference: { name: string; bits: Uint32Array }[][] = [];
    const t0 = performance.now();
    for (const cs of cases) {
      fresh.context.alloc.releaseAll();
      reference.push(resultBits(await fresh.run(jobOf(cs))));
    }
    const mismatches: string[] = [];
    const stats = [];
    const t1 = performance.now();
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < cases.length; i++) {
        const diff = firstDifference(resultBits(await reused.run(jobOf(cases[i]!))), reference[i]!);
        if (diff) mismatches.push(`round ${r} case ${i}: ${diff}`);
        stats.push({ round: r, case: i, ...reused.stats() });
      }
    }
    return { mismatches, stats, ms: { fresh: t1 - t0, reused: performance.now() - t1 } };
  } finally {
    reused.dispose();
    fresh.dispose();
  }
}

function outcome(e: unknown) {
  if (isEngineError(e)) return { code: e.code, message: e.message };
  return { code: 'not-an-engine-error', message: String(e) };
}

async function expectError(run: () => Promise<unknown>) {
  try {
    await run();
    return { code: 'no-error', message: '' };
  } catch (e) {
    return outcome(e);
  }
}

/** Bad inputs through the backend: each must give a typed EngineError, and the backend must stay usable. */
async function badInputs() {
  const b = await backend();
  const ok: JobCase = { n: 16, d: 8, viewCells: 8, rowStats: true, rows: [1] };
  const base = jobOf(ok);
  const before = b.stats();
  const nan = jobOf(ok);
  nan.inputs.q.data[5] = Number.NaN;
  const bigD: AttentionJob = {
    ...base,
    inputs: { ...base.inputs, q: { rows: 16, cols: 300, data: new Float32Array(16 * 300) } },
  };
  const cases = {
    n0: await expectError(() =>
      b.run({ ...base, inputs: { ...base.inputs, q: { rows: 0, cols: 8, data: new Float32Array(0) } } }),
    ),
    dTooBig: await expectError(() => b.run(bigD)),
    nanInQ: await expectError(() => b.run(nan)),
    m0: await expectError(() =>
      b.run({ ...base, inputs: { ...base.inputs, w: { rows: 0, cols: 8, data: new Float32Array(0) } } }),
    ),
    rowOutOfRange: await expectError(() => b.run({ ...base, rows: [16] })),
    cancelled: await expectError(() => {
      const a = new AbortController();
      a.abort();
      return b.run(base, a.signal);
    }),
  };
  const createdUnchanged = b.stats().created === before.created;
  const after = await b
    .run(base)
    .then((o) => ({ code: 'ok', message: `finite: ${o.exactOut.data.every(Number.isFinite)}` }), outcome);
  return { cases, createdUnchanged, after };
}

/** A device with default limits (128 MiB bindings): a job whose φ(Q) needs 512 MiB must fail before allocating. */
async function deviceLimits() {
  const g = await defaultLimitsGpu();
  const b = createWebGpuBackend(g);
  const n = 65_536;
  const d = 1;
  const m = 1024;
  const job: AttentionJob = {
    inputs: {
      q: randomMatrix(n, d, 1, 0.1),
      k: randomMatrix(n, d, 2, 0.1),
      v: randomMatrix(n, d, 3, 1),
      w: randomMatrix(m, d, 4, 1),
    },
    featureMap: 'hyperbolic',
    causal: false,
    viewCells: 0,
    rowStats: false,
    rows: [0],
  };
  const err = await expectError(() => b.run(job));
  const stats = b.stats();
  // Device loss: destroy the device, the backend must answer 'device-lost' from then on.
  g.device.destroy();
  await within(g.lost, 20_000, 'device.lost after destroy()');
  const lost = await expectError(() => b.run({ ...jobOf({ n: 8, d: 4, viewCells: 0, rowStats: false, rows: [] }) }));
  b.dispose();
  return { err, created: stats.created, lost, limit: g.device.limits.maxStorageBufferBindingSize };
}

async function info() {
  const g = await gpu();
  const l = g.device.limits;
  return {
    adapter: g.adapterName,
    hasTimestamps: g.hasTimestamps,
    maxComputeWorkgroupStorageSize: l.maxComputeWorkgroupStorageSize,
    maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
    maxComputeInvocationsPerWorkgroup: l.maxComputeInvocationsPerWorkgroup,
  };
}

// ---- causality: nothing before t depends on keys or values at ≥ t ---------------------------------

/** Every feature map and stabilizer (the one list in src/core/types.ts): what the specs iterate. */
function lists() {
  return { maps: [...FEATURE_MAPS], stabilizers: [...STABILIZERS] };
}

interface CausalCase {
  map: FeatureMapKind;
  stabilizer: Stabilizer;
  n: number;
  d: number;
  m: number;
  t: number;
}

/**
 * Runs one causal job on the WebGPU backend and on the CPU twin, then again with the keys and values
 * at positions ≥ t redrawn (src/core/causality-probe.ts). Returns, per backend, the largest change of
 * the outputs and of the pinned Â rows before t, and the largest magnitude they are relative to.
 */
async function causality(c: CausalCase) {
  const b = await backend();
  const p = params({
    n: c.n,
    d: c.d,
    m: c.m,
    featureMap: c.map,
    stabilizer: c.stabilizer,
    causal: true,
    scale: 1,
    seed: 3,
  });
  const inputs = generateInputs(p);
  const perturbed = perturbFuture(inputs, c.t, p.scale, 99);
  const rows = Array.from({ length: c.t }, (_, i) => i);
  const job = (ins: typeof inputs): AttentionJob => ({
    inputs: ins,
    featureMap: c.map,
    causal: true,
    stabilizer: c.stabilizer,
    viewCells: 0,
    rowStats: false,
    rows,
  });
  const measure = (a: AttentionOutput, z: AttentionOutput) => {
    let row = 0;
    let rowScale = 0;
    a.rows.forEach((r, i) => {
      row = Math.max(row, maxChangeBefore(r.approx, z.rows[i]!.approx, 1, c.n));
      rowScale = Math.max(rowScale, maxAbsBefore(r.approx, 1, c.n));
    });
    return {
      out: maxChangeBefore(a.approxOut.data, z.approxOut.data, c.t, c.d),
      outScale: maxAbsBefore(a.approxOut.data, c.t, c.d),
      row,
      rowScale,
    };
  };
  const gpuA = await b.run(job(inputs));
  const gpuB = await b.run(job(perturbed));
  return { gpu: measure(gpuA, gpuB), cpu: measure(runAttentionJob(job(inputs)), runAttentionJob(job(perturbed))) };
}

const driver = { info, exact, dense, dummy, backendJob, reuse, cachedRuns, badInputs, deviceLimits, lists, causality };
(window as unknown as { exactKernels: typeof driver }).exactKernels = driver;
