/**
 * In-page driver of e2e/performer-kernels.spec.mjs: runs the feature-map, bidirectional and causal
 * Performer kernels on the GPU and their CPU twins (src/core) on the same inputs, and returns the
 * errors. Exposes `window.performerKernels`.
 *
 * Error measures (all returned, the spec asserts on `norm`):
 * - features: maxAbs, rel = maxAbs / max|φ_cpu|, norm = max over entries of |Δ| / (|φ_cpu| + 1e-3·max|φ_cpu|).
 * - outputs:  maxAbs, rel = maxAbs / max|out_cpu| (error relative to the output scale), and
 *             norm = max_i max_c |Δ_ic| / (κ_i · (max|V| + max_c |out_cpu,ic|)), where
 *             κ_i = Σ_f |φ_if| Σ_j |φ_jf| / |Σ_f φ_if Σ_j φ_jf| (j over the allowed keys) is the
 *             condition number of row i's normalizer. κ_i = 1 for maps with positive features;
 *             trig features have both signs, so the normalizer cancels and κ_i can be large.
 */
import { acquireGpu } from '../../src/gpu/device';
import { readFloats } from '../../src/gpu/readback';
import { withErrorScopes } from '../../src/gpu/error-scope';
import type { KernelContext } from '../../src/gpu/kernel-context';
import {
  encodeFavorFeatures,
  encodeFavorStats,
  favorSource,
  type FavorProblem,
  type FavorStats,
} from '../../src/gpu/favor-features';
import featuresCode from '../../src/shaders/favor-features.wgsl?raw';
import bidirectionalCode from '../../src/shaders/performer-bidirectional.wgsl?raw';
import causalCode from '../../src/shaders/performer-causal.wgsl?raw';
import projectionCode from '../../src/shaders/favor-projection.wgsl?raw';
import expGemmCode from '../../src/shaders/performer-exp-gemm.wgsl?raw';
import {
  encodePerformerBidirectional,
  performerSource,
  performerTiles,
  takesExpPath,
} from '../../src/gpu/performer-bidirectional';
import { causalPlan, encodePerformerCausal, fusedCausalPlan } from '../../src/gpu/performer-causal';
import { encodeFavorProjection, type FavorProjection } from '../../src/gpu/favor-projection';
import { generateInputs } from '../../src/core/inputs';
import { featureDim, featureMapParam } from '../../src/core/feature-maps';
import { linearAttention, linearAttentionOutput, performerFeatures } from '../../src/core/linear-attention';
import { untimedKernelContext } from '../../src/gpu/kernel-context';
import { GpuTimer } from '../../src/gpu/gpu-timer';
import type {
  AttentionInputs,
  FeatureMapKind,
  InputKind,
  Matrix,
  ProjectionKind,
  Stabilizer,
} from '../../src/core/types';

export interface Case {
  n: number;
  d: number;
  m: number;
  map: FeatureMapKind;
  seed?: number;
  scale?: number;
  input?: InputKind;
  projection?: ProjectionKind;
  /** stabilizer of the exponential maps (default 'shift') */
  stab?: Stabilizer;
  /** force the generic on-the-fly path for an exp-of-projection map (default: the dispatchers' choice) */
  generic?: boolean;
  /** fast path: force projection row blocks of this many rows (a multiple of 64; default: all n rows when they fit) */
  block?: number;
}

let ctxP: Promise<KernelContext & { adapter: string }> | null = null;
function ctx(): Promise<KernelContext & { adapter: string }> {
  ctxP ??= (async () => {
    const a = await acquireGpu();
    if (!a.ok) throw new Error(a.reason);
    const device = a.gpu.device;
    return { ...untimedKernelContext(device), adapter: a.gpu.adapterName };
  })();
  return ctxP;
}

function inputsOf(c: Case): AttentionInputs {
  return generateInputs({
    n: c.n,
    d: c.d,
    m: c.m,
    seed: c.seed ?? 1,
    featureSeed: (c.seed ?? 1) + 100,
    featureMap: c.map,
    projection: c.projection ?? 'orthogonal-chi',
    causal: false,
    input: c.input ?? 'gaussian',
    scale: c.scale ?? 0.5,
    stabilizer: c.stab ?? 'shift',
  });
}

function upload(k: KernelContext, inp: AttentionInputs, c: Case, causal = false): FavorProblem & { v: GPUBuffer } {
  return {
    n: c.n,
    d: c.d,
    m: c.m,
    featureMap: c.map,
    stabilizer: c.stab ?? 'shift',
    q: k.alloc.upload('t.q', inp.q.data),
    k: k.alloc.upload('t.k', inp.k.data),
    v: k.alloc.upload('t.v', inp.v.data),
    w: k.alloc.upload('t.w', inp.w.data),
    mapParam: featureMapParam(c.map, inp.q, inp.k, causal), // OPRF's A, as webgpu-backend.ts passes it
    causal,
  };
}

function maxAbsOf(a: Float32Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]!));
  return m;
}

function featureErrors(got: Float32Array, ref: Float32Array) {
  const scale = maxAbsOf(ref);
  let maxAbs = 0;
  let norm = 0;
  let finite = true;
  for (let i = 0; i < ref.length; i++) {
    const g = got[i]!;
    if (!Number.isFinite(g)) finite = false;
    const e = Math.abs(g - ref[i]!);
    maxAbs = Math.max(maxAbs, e);
    norm = Math.max(norm, e / (Math.abs(ref[i]!) + 1e-3 * scale));
  }
  return { maxAbs, rel: scale > 0 ? maxAbs / scale : maxAbs, norm, finite: finite && got.length === ref.length };
}

/** κ_i of every row (see the header), from the CPU features. */
function conditionNumbers(qf: Matrix, kf: Matrix, causal: boolean): Float64Array {
  const n = qf.rows;
  const mp = qf.cols;
  const z = new Float64Array(mp);
  const za = new Float64Array(mp);
  const kappa = new Float64Array(n);
  const add = (j: number) => {
    for (let f = 0; f < mp; f++) {
      const v = kf.data[j * mp + f]!;
      z[f]! += v;
      za[f]! += Math.abs(v);
    }
  };
  const row = (i: number) => {
    let num = 0;
    let den = 0;
    for (let f = 0; f < mp; f++) {
      const v = qf.data[i * mp + f]!;
      num += Math.abs(v) * za[f]!;
      den += v * z[f]!;
    }
    kappa[i] = num / Math.abs(den);
  };
  if (causal) {
    for (let i = 0; i < n; i++) {
      add(i);
      row(i);
    }
  } else {
    for (let j = 0; j < kf.rows; j++) add(j);
    for (let i = 0; i < n; i++) row(i);
  }
  return kappa;
}

function outputErrors(got: Float32Array, ref: Matrix, v: Matrix, kappa: Float64Array, rows?: number[]) {
  const d = ref.cols;
  const vmax = maxAbsOf(v.data);
  let maxAbs = 0;
  let scale = 0;
  let norm = 0;
  let kappaMax = 0;
  let finite = true;
  const list = rows ?? Array.from({ length: ref.rows }, (_, i) => i);
  for (const i of list) {
    let rmax = 0;
    let emax = 0;
    for (let c = 0; c < d; c++) {
      const g = got[i * d + c]!;
      if (!Number.isFinite(g)) finite = false;
      rmax = Math.max(rmax, Math.abs(ref.data[i * d + c]!));
      emax = Math.max(emax, Math.abs(g - ref.data[i * d + c]!));
    }
    scale = Math.max(scale, rmax);
    maxAbs = Math.max(maxAbs, emax);
    kappaMax = Math.max(kappaMax, kappa[i]!);
    norm = Math.max(norm, emax / (kappa[i]! * (vmax + rmax)));
  }
  return { maxAbs, rel: scale > 0 ? maxAbs / scale : maxAbs, norm, kappaMax, finite, rowsCompared: list.length };
}

async function submitAndRead(
  k: KernelContext,
  label: string,
  encode: (enc: GPUCommandEncoder) => GPUBuffer[],
  floats: number[],
) {
  return withErrorScopes(k.device, label, async () => {
    const enc = k.device.createCommandEncoder({ label });
    const bufs = encode(enc);
    const t0 = performance.now();
    k.device.queue.submit([enc.finish()]);
    await k.device.queue.onSubmittedWorkDone();
    const ms = performance.now() - t0;
    const data = await Promise.all(bufs.map((b, i) => readFloats(k.device, b, floats[i]!)));
    return { data, ms };
  });
}

/** φ(Q), φ(K) materialized on the GPU vs core queryFeatures / keyFeatures. */
async function features(c: Case) {
  const k = await ctx();
  const inp = inputsOf(c);
  const p = upload(k, inp, c);
  const mp = featureDim(c.map, c.m, c.d);
  const { data, ms } = await submitAndRead(
    k,
    'features',
    (enc) => {
      const f = encodeFavorFeatures(k, enc, p);
      return [f.qf, f.kf];
    },
    [c.n * mp, c.n * mp],
  );
  const ref = performerFeatures(inp, c.map, c.stab ?? 'shift');
  const q = featureErrors(data[0]!, ref.qf.data);
  const kk = featureErrors(data[1]!, ref.kf.data);
  return {
    mp,
    ms,
    q,
    k: kk,
    maxAbs: Math.max(q.maxAbs, kk.maxAbs),
    rel: Math.max(q.rel, kk.rel),
    norm: Math.max(q.norm, kk.norm),
    finite: q.finite && kk.finite,
  };
}

/**
 * Performer output (bidirectional or causal chunked scan) on the GPU vs core linearAttentionOutput.
 * The stabilizer statistics are submitted first, on their own (as the backend may do), so no
 * single submission runs for too long on SwiftShader.
 */
async function output(c: Case, causal: boolean, opts: { chunk?: number; sampleRows?: number } = {}) {
  const k = await ctx();
  const inp = inputsOf(c);
  const p = upload(k, inp, c, causal);
  const fast = takesExpPath(k, { ...p, generic: c.generic });
  let pre: { stats?: FavorStats; projection?: FavorProjection } = {};
  const first = await submitAndRead(
    k,
    fast ? 'projection' : 'stats',
    (enc) => {
      if (fast) {
        const projection = encodeFavorProjection(k, enc, p, c.block);
        pre = { projection, stats: projection.stats };
      } else {
        pre = { stats: encodeFavorStats(k, enc, p) };
      }
      return [];
    },
    [],
  );
  const args = { ...p, ...pre, generic: c.generic };
  const { data, ms } = await submitAndRead(
    k,
    causal ? 'causal' : 'bidirectional',
    (enc) => [
      causal
        ? encodePerformerCausal(k, enc, { ...args, chunk: opts.chunk })
        : encodePerformerBidirectional(k, enc, args),
    ],
    [c.n * c.d],
  );
  const t1 = performance.now();
  const f = performerFeatures(inp, c.map, c.stab ?? 'shift', causal);
  const ref = linearAttentionOutput(f.qf, f.kf, inp.v, causal);
  const kappa = conditionNumbers(f.qf, f.kf, causal);
  const cpuMs = performance.now() - t1;
  let rows: number[] | undefined;
  if (opts.sampleRows) {
    const set = new Set<number>([0, 1, c.n - 1]);
    for (let b = 64; b < c.n; b *= 2) set.add(b - 1).add(b);
    for (let t = 0; set.size < Math.min(c.n, opts.sampleRows); t++) set.add((t * 7919 + 13) % c.n);
    rows = [...set].filter((i) => i < c.n).sort((a, b) => a - b);
  }
  const mp = featureDim(c.map, c.m, c.d);
  const maxBinding = Math.min(k.limits.maxStorageBufferBindingSize, k.limits.maxBufferSize);
  const plan = causal ? (fast ? fusedCausalPlan : causalPlan)(c.n, c.d, mp, maxBinding, opts.chunk) : null;
  return {
    ...outputErrors(data[0]!, ref, inp.v, kappa, rows),
    ms: first.ms + ms,
    cpuMs,
    chunk: plan?.chunk ?? null,
    path: fast ? (c.block ? `exp, blocks of ${c.block}` : 'exp') : 'generic',
  };
}

/**
 * On-the-fly key features of the generic path vs materialized ones, bit for bit: with V = [I_n | 0] (n ≤ d) the
 * bidirectional key/value state is S_fc = Σ_j φ(k_j)_f δ_jc = φ(k_c)_f exactly (one nonzero term),
 * so 'bidir.state' holds φ(K)ᵀ as computed inside kv_partials.
 */
async function keyFeatureBits(c: Case) {
  const k = await ctx();
  if (c.n > c.d) throw new Error('keyFeatureBits needs n ≤ d');
  const inp = inputsOf(c);
  const v = new Float32Array(c.n * c.d);
  for (let j = 0; j < c.n; j++) v[j * c.d + j] = 1;
  const p = { ...upload(k, inp, c), v: k.alloc.upload('t.v', v) };
  const mp = featureDim(c.map, c.m, c.d);
  const { data } = await submitAndRead(
    k,
    'key feature bits',
    (enc) => {
      const stats = encodeFavorStats(k, enc, p);
      const f = encodeFavorFeatures(k, enc, p, stats);
      encodePerformerBidirectional(k, enc, { ...p, stats, generic: true });
      // the dispatcher's state buffer (same role, large enough, same usage → the same buffer)
      const state = k.alloc.storage('bidir.state', mp * (c.d + 1) * 4);
      return [f.kf, state];
    },
    [c.n * mp, mp * (c.d + 1)],
  );
  const kf = new Uint32Array(data[0]!.buffer);
  const st = new Uint32Array(data[1]!.buffer);
  let mismatches = 0;
  for (let j = 0; j < c.n; j++) for (let f = 0; f < mp; f++) if (kf[j * mp + f] !== st[f * c.d + j]) mismatches++;
  return { compared: c.n * mp, mismatches };
}

/**
 * The all-zero-normalizer guard: the output kernel's row normalizers (written after the n×d
 * output) vs the CPU twin's count; rows with a zero normalizer must be 0, everything finite.
 */
async function zeroNormalizers(c: Case, causal: boolean) {
  const k = await ctx();
  const inp = inputsOf(c);
  const p = upload(k, inp, c, causal);
  const { data } = await submitAndRead(
    k,
    'zero normalizers',
    (enc) => [causal ? encodePerformerCausal(k, enc, p) : encodePerformerBidirectional(k, enc, p)],
    [c.n * c.d + c.n],
  );
  const all = data[0]!;
  const nd = c.n * c.d;
  let gpuZeroRows = 0;
  let zeroRowsAreZero = true;
  for (let i = 0; i < c.n; i++) {
    if (all[nd + i] !== 0) continue;
    gpuZeroRows++;
    for (let t = 0; t < c.d; t++) if (all[i * c.d + t] !== 0) zeroRowsAreZero = false;
  }
  const f = performerFeatures(inp, c.map, c.stab ?? 'shift', causal);
  const cpu = linearAttention(f.qf, f.kf, inp.v, causal);
  return { gpuZeroRows, cpuZeroRows: cpu.zeroNormalizerRows, zeroRowsAreZero, finite: all.every(Number.isFinite) };
}

/** The dispatchers' typed errors for shapes they cannot run. */
async function rejects(c: Case) {
  const k = await ctx();
  const inp = inputsOf({ ...c, d: Math.min(c.d, 256) });
  const p = { ...upload(k, inp, c), d: c.d };
  try {
    encodePerformerBidirectional(k, k.device.createCommandEncoder(), p);
    return { code: null };
  } catch (e) {
    return { code: (e as { code?: string }).code ?? String(e) };
  }
}

/** Runs the same job twice and reports whether the outputs (and materialized features) are bit-identical. */
/**
 * Two runs of the same problem on the path the dispatchers choose (fast: projection, GEMMs, in row
 * blocks when `c.block` is given; generic: stats, features, on-the-fly kernels — whose materialized
 * features are compared too) give identical bits.
 */
async function determinism(c: Case, causal: boolean) {
  const k = await ctx();
  const inp = inputsOf(c);
  const p = upload(k, inp, c);
  const mp = featureDim(c.map, c.m, c.d);
  const fast = takesExpPath(k, { ...p, generic: c.generic });
  const run = () =>
    submitAndRead(
      k,
      'determinism',
      (enc) => {
        if (fast) {
          const projection = encodeFavorProjection(k, enc, p, c.block);
          const args = { ...p, projection, stats: projection.stats };
          return [causal ? encodePerformerCausal(k, enc, args) : encodePerformerBidirectional(k, enc, args)];
        }
        const stats = encodeFavorStats(k, enc, p);
        const f = encodeFavorFeatures(k, enc, p, stats);
        const args = { ...p, stats, generic: c.generic };
        const out = causal ? encodePerformerCausal(k, enc, args) : encodePerformerBidirectional(k, enc, args);
        return [out, f.qf, f.kf];
      },
      fast ? [c.n * c.d] : [c.n * c.d, c.n * mp, c.n * mp],
    );
  const a = await run();
  const b = await run();
  const same = a.data.every((x, i) => {
    const y = b.data[i]!;
    const xu = new Uint32Array(x.buffer, x.byteOffset, x.length);
    const yu = new Uint32Array(y.buffer, y.byteOffset, y.length);
    return xu.length === yu.length && xu.every((v, t) => v === yu[t]);
  });
  return { same, path: fast ? (c.block ? `exp, blocks of ${c.block}` : 'exp') : 'generic' };
}

async function info() {
  const k = await ctx();
  return {
    adapter: k.adapter,
    maxComputeWorkgroupStorageSize: k.limits.maxComputeWorkgroupStorageSize,
    maxStorageBuffersPerShaderStage: k.limits.maxStorageBuffersPerShaderStage,
    maxStorageBufferBindingSize: k.limits.maxStorageBufferBindingSize,
    tiles: [1, 64, 65, 128, 129, 256].map((d) => ({ d, ...performerTiles(d) })),
  };
}

/** Features, bidirectional and causal output of one case (one page round trip). */
async function runCase(c: Case, opts: { chunk?: number } = {}) {
  const t0 = performance.now();
  const f = await features(c);
  const b = await output(c, false);
  const ca = await output(c, true, opts);
  return { features: f, bidirectional: b, causal: ca, ms: performance.now() - t0 };
}

/** WGSL compilation messages (errors and warnings) of the three shader sources. */
async function shaderMessages() {
  const k = await ctx();
  const out: Record<string, string[]> = {};
  const sources = {
    features: featuresCode,
    bidirectional: bidirectionalCode,
    causal: causalCode,
    projection: projectionCode,
    expGemm: expGemmCode,
  };
  for (const [name, src] of Object.entries(sources)) {
    const code = name === 'bidirectional' || name === 'causal' ? performerSource(src) : favorSource(src);
    const info = await k.device.createShaderModule({ code }).getCompilationInfo();
    out[name] = info.messages.map((m) => `${m.type} ${m.lineNum}:${m.linePos} ${m.message}`);
  }
  return out;
}

/** Wall time of the stats, features and main passes, each submitted alone (second of two runs). */
async function profile(c: Case, causal: boolean) {
  const k = await ctx();
  const p = upload(k, inputsOf(c), c);
  let stats: FavorStats | undefined;
  const out: Record<string, number> = {};
  for (let rep = 0; rep < 2; rep++) {
    out.stats = (await submitAndRead(k, 'stats', (enc) => ((stats = encodeFavorStats(k, enc, p)), []), [])).ms;
    out.features = (await submitAndRead(k, 'features', (enc) => (encodeFavorFeatures(k, enc, p, stats), []), [])).ms;
    out.main = (
      await submitAndRead(
        k,
        'main',
        (enc) => (
          causal
            ? encodePerformerCausal(k, enc, { ...p, stats })
            : encodePerformerBidirectional(k, enc, { ...p, stats }),
          []
        ),
        [],
      )
    ).ms;
  }
  return out;
}

/**
 * Per-pass GPU times of one case (timestamp queries when the device has them, else 0): features
 * (stats + materialized φ), bidirectional and causal on the path the dispatchers choose, each
 * encoded into its own command buffer. `wall` is each submission's wall time (submit to done).
 * A profiling aid (run twice: the first call also pays the pipelines' compilation).
 */
async function passTimes(c: Case, opts: { chunk?: number } = {}) {
  const k0 = await ctx();
  const timer = new GpuTimer(k0.device, k0.device.features.has('timestamp-query'));
  const k: KernelContext = { ...k0, timer };
  const inp = inputsOf(c);
  const passes: Record<string, number> = {};
  const wall: Record<string, number> = {};
  const add = (list: { kernel: string; ms: number }[]) => {
    for (const t of list) passes[t.kernel] = (passes[t.kernel] ?? 0) + t.ms;
  };
  const t0 = performance.now();
  const pf = upload(k, inp, c);
  let r = await timer.submitTimed('features', (enc) => void encodeFavorFeatures(k, enc, pf));
  add(r.passes);
  wall.features = performance.now() - t0;
  for (const causal of [false, true]) {
    const t1 = performance.now();
    const p = upload(k, inp, c, causal);
    r = await timer.submitTimed(causal ? 'causal' : 'bidirectional', (enc) => {
      const args = { ...p, generic: c.generic, block: c.block };
      if (causal) encodePerformerCausal(k, enc, { ...args, chunk: opts.chunk });
      else encodePerformerBidirectional(k, enc, args);
    });
    add(r.passes.map((t) => ({ ...t, kernel: `${causal ? 'c' : 'b'}:${t.kernel}` })));
    wall[causal ? 'causal' : 'bidirectional'] = performance.now() - t1;
  }
  return { passes, wall, timestamps: timer.useTimestamps };
}

/**
 * Compile time of each pipeline the kernels use (createComputePipelineAsync on a fresh module, so
 * nothing is cached): a profiling aid. `which`: [module, entry, constants] triples.
 */
async function compileTimes(which: [string, string, Record<string, number>, [string, string][]?][]) {
  const k = await ctx();
  const sources: Record<string, string> = {
    features: favorSource(featuresCode),
    bidirectional: performerSource(bidirectionalCode),
    causal: performerSource(causalCode),
    projection: favorSource(projectionCode),
    expGemm: favorSource(expGemmCode),
  };
  const out: { module: string; entry: string; constants: Record<string, number>; ms: number }[] = [];
  for (const [module, entry, constants, edits] of which) {
    let code = sources[module]!;
    for (const [from, to] of edits ?? []) code = code.split(from).join(to);
    const mod = k.device.createShaderModule({ code });
    const t0 = performance.now();
    await k.device.createComputePipelineAsync({
      layout: 'auto',
      compute: { module: mod, entryPoint: entry, constants },
    });
    out.push({ module, entry, constants, ms: performance.now() - t0 });
  }
  return out;
}

async function allocatorStats() {
  const k = await ctx();
  return k.alloc.stats();
}

(window as unknown as { performerKernels: unknown }).performerKernels = {
  info,
  shaderMessages,
  features,
  output,
  runCase,
  determinism,
  keyFeatureBits,
  rejects,
  zeroNormalizers,
  profile,
  passTimes,
  compileTimes,
  allocatorStats,
};
