// Kernel checks of the performer-kernels driver (e2e/pages/performer-kernels.ts): φ(Q), φ(K), the
// bidirectional and causal outputs against the CPU twins, on-the-fly key features bit for bit, the
// all-zero-normalizer guard, the dispatchers' typed errors, and run-to-run determinism.
import { encodeFavorFeatures, encodeFavorStats } from '../../src/gpu/favor-features';
import {
  encodePerformerBidirectional,
  takesExpPath,
  takesMaterializedPath,
  type PerformerArgs,
} from '../../src/gpu/performer-bidirectional';
import { causalPlan, encodePerformerCausal, fusedCausalPlan } from '../../src/gpu/performer-causal';
import { encodeFavorProjection } from '../../src/gpu/favor-projection';
import { featureDim } from '../../src/core/feature-maps';
import { linearAttention, linearAttentionOutput, performerFeatures } from '../../src/core/linear-attention';
import { ctx, inputsOf, submitAndRead, upload, type Case } from './performer-common';
import { conditionNumbers, featureErrors, outputErrors } from './performer-errors';

/** φ(Q), φ(K) materialized on the GPU vs core queryFeatures / keyFeatures. */
export async function features(c: Case) {
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
export async function output(c: Case, causal: boolean, opts: { chunk?: number; sampleRows?: number } = {}) {
  const k = await ctx();
  const inp = inputsOf(c);
  const p = upload(k, inp, c, causal);
  const fast = takesExpPath(k, { ...p, generic: c.generic });
  let pre: Pick<PerformerArgs, 'stats' | 'projection' | 'features'> = {};
  const first = await submitAndRead(
    k,
    fast ? 'projection' : 'stats',
    (enc) => {
      if (fast) {
        const projection = encodeFavorProjection(k, enc, p, c.block);
        pre = { projection, stats: projection.stats };
      } else {
        const stats = encodeFavorStats(k, enc, p);
        pre = { stats, features: c.materialized ? encodeFavorFeatures(k, enc, p, stats) : undefined };
      }
      return [];
    },
    [],
  );
  const args = { ...p, ...pre, generic: c.generic };
  const direct = takesMaterializedPath(k, args);
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
  const plan = causal ? (fast || direct ? fusedCausalPlan : causalPlan)(c.n, c.d, mp, maxBinding, opts.chunk) : null;
  return {
    ...outputErrors(data[0]!, ref, inp.v, kappa, rows),
    ms: first.ms + ms,
    cpuMs,
    chunk: plan?.chunk ?? null,
    path: fast ? (c.block ? `exp, blocks of ${c.block}` : 'exp') : direct ? 'materialized' : 'generic',
  };
}

/**
 * On-the-fly key features of the generic path vs materialized ones, bit for bit: with V = [I_n | 0] (n ≤ d) the
 * bidirectional key/value state is S_fc = Σ_j φ(k_j)_f δ_jc = φ(k_c)_f exactly (one nonzero term),
 * so 'bidir.state' holds φ(K)ᵀ as computed inside kv_partials.
 */
export async function keyFeatureBits(c: Case) {
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
export async function zeroNormalizers(c: Case, causal: boolean) {
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
export async function rejects(c: Case) {
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

/**
 * Two runs of the same problem on the path the dispatchers choose (fast: projection, GEMMs, in row
 * blocks when `c.block` is given; generic: stats, features, on-the-fly kernels — whose materialized
 * features are compared too; materialized: stats, features, the GEMMs on them) give identical bits.
 */
export async function determinism(c: Case, causal: boolean) {
  const k = await ctx();
  const inp = inputsOf(c);
  const p = upload(k, inp, c);
  const mp = featureDim(c.map, c.m, c.d);
  const fast = takesExpPath(k, { ...p, generic: c.generic });
  let direct = false; // the dispatchers' own choice, read where they make it
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
        const args = { ...p, stats, generic: c.generic, features: c.materialized ? f : undefined };
        direct = takesMaterializedPath(k, args);
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
  return { same, path: fast ? (c.block ? `exp, blocks of ${c.block}` : 'exp') : direct ? 'materialized' : 'generic' };
}

/** Features, bidirectional and causal output of one case (one page round trip). */
export async function runCase(c: Case, opts: { chunk?: number } = {}) {
  const t0 = performance.now();
  const f = await features(c);
  const b = await output(c, false);
  const ca = await output(c, true, opts);
  return { features: f, bidirectional: b, causal: ca, ms: performance.now() - t0 };
}
