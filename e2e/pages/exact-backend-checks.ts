// Whole-backend checks of the exact-kernels driver (e2e/pages/exact-kernels.ts): jobs through the
// WebGPU backend against the CPU one (runAttentionJob), buffer reuse across runs (bit for bit
// against fresh buffers), typed errors for bad inputs, device limits and device loss.
import type { AttentionJob, AttentionOutput } from '../../src/core/attention-job';
import { runAttentionJob } from '../../src/core/cpu-attention';
import { isEngineError } from '../../src/core/errors';
import { generateInputs } from '../../src/core/inputs';
import type { AttentionParams } from '../../src/core/types';
import { createWebGpuBackend } from '../../src/gpu/webgpu-backend';
import { worst, type Err } from './compare';
import { backend, compare, defaultLimitsGpu, gpu, params, randomMatrix, within } from './exact-common';

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

export async function backendJob(cs: JobCase) {
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
export async function reuse(cases: JobCase[], repeat: number) {
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
 * buffer are the backend's own. Each run's stats say whether its exact output pass ran (null
 * without timestamps): a job with the previous job's Q, K, V and mask keeps the exact side.
 */
export async function cachedRuns(cases: JobCase[], rounds: number) {
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
        const out = await reused.run(jobOf(cases[i]!));
        const diff = firstDifference(resultBits(out), reference[i]!);
        if (diff) mismatches.push(`round ${r} case ${i}: ${diff}`);
        // with timestamps the passes that ran are listed: no 'exact-attention' = the exact side kept
        const stamped = out.timings.length > 0 && out.timings.every((t) => t.source === 'timestamp');
        const exactPass = stamped ? out.timings.some((t) => t.kernel === 'exact-attention') : null;
        stats.push({ round: r, case: i, exactPass, ...reused.stats() });
      }
    }
    return {
      mismatches,
      stats,
      timestamps: reused.context.timer.useTimestamps,
      ms: { fresh: t1 - t0, reused: performance.now() - t1 },
    };
  } finally {
    reused.dispose();
    fresh.dispose();
  }
}

function outcome(e: unknown) {
  if (isEngineError(e)) return { code: e.code, message: e.message };
  return { code: 'not-an-engine-error', message: String(e) };
}

export async function expectError(run: () => Promise<unknown>) {
  try {
    await run();
    return { code: 'no-error', message: '' };
  } catch (e) {
    return outcome(e);
  }
}

/** Bad inputs through the backend: each must give a typed EngineError, and the backend must stay usable. */
export async function badInputs() {
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
export async function deviceLimits() {
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
