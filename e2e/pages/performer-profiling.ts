// Profiling aids of the performer-kernels driver (e2e/pages/performer-kernels.ts), not checks: wall
// times of the passes submitted alone, per-pass GPU times, and pipeline compile times.
import { encodeFavorFeatures, encodeFavorStats, favorSource, type FavorStats } from '../../src/gpu/favor-features';
import type { KernelContext } from '../../src/gpu/kernel-context';
import { encodePerformerBidirectional, performerSource } from '../../src/gpu/performer-bidirectional';
import { encodePerformerCausal } from '../../src/gpu/performer-causal';
import { GpuTimer } from '../../src/gpu/gpu-timer';
import featuresCode from '../../src/shaders/favor-features.wgsl?raw';
import bidirectionalCode from '../../src/shaders/performer-bidirectional.wgsl?raw';
import causalCode from '../../src/shaders/performer-causal.wgsl?raw';
import projectionCode from '../../src/shaders/favor-projection.wgsl?raw';
import expGemmCode from '../../src/shaders/performer-exp-gemm.wgsl?raw';
import { ctx, inputsOf, submitAndRead, upload, type Case } from './performer-common';

/** Wall time of the stats, features and main passes, each submitted alone (second of two runs). */
export async function profile(c: Case, causal: boolean) {
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
export async function passTimes(c: Case, opts: { chunk?: number } = {}) {
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
export async function compileTimes(which: [string, string, Record<string, number>, [string, string][]?][]) {
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
