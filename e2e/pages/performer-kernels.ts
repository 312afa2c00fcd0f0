/**
 * In-page driver of e2e/performer-kernels.spec.mjs: runs the feature-map, bidirectional and causal
 * Performer kernels on the GPU and their CPU twins (src/core) on the same inputs, and returns the
 * errors (measures: performer-errors.ts). Exposes `window.performerKernels`.
 *
 * The pieces: performer-common.ts (Case, context, inputs, submit-and-read), performer-errors.ts,
 * performer-checks.ts (features, output, runCase, determinism, keyFeatureBits, rejects,
 * zeroNormalizers), performer-projection-stats.ts (the projection pass's maxima and hn),
 * performer-profiling.ts (profile, passTimes, compileTimes).
 */
import { favorSource } from '../../src/gpu/favor-features';
import { performerSource, performerTiles } from '../../src/gpu/performer-bidirectional';
import featuresCode from '../../src/shaders/favor-features.wgsl?raw';
import bidirectionalCode from '../../src/shaders/performer-bidirectional.wgsl?raw';
import causalCode from '../../src/shaders/performer-causal.wgsl?raw';
import projectionCode from '../../src/shaders/favor-projection.wgsl?raw';
import expGemmCode from '../../src/shaders/performer-exp-gemm.wgsl?raw';
import { determinism, features, keyFeatureBits, output, rejects, runCase, zeroNormalizers } from './performer-checks';
import { ctx } from './performer-common';
import { projectionStats } from './performer-projection-stats';
import { compileTimes, passTimes, profile } from './performer-profiling';

export type { Case } from './performer-common';

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
  projectionStats,
  profile,
  passTimes,
  compileTimes,
  allocatorStats,
};
