/**
 * The dispatch kit every feature-using kernel shares (favor-features.ts, performer-bidirectional.ts,
 * performer-causal.ts, performer-exp.ts): the feature-map codes of the WGSL uniform `fm.kind`
 * (FEATURE_MAP_CODE — a new generic map adds its code here and its case to the switch of
 * src/shaders/feature-map-common.wgsl), the problem shape, the FmParams uniform, the source
 * assembly (feature-map-common.wgsl + kernel), bind groups at sparse binding numbers, dispatches
 * split over x/y, and the per-binding size check.
 */
import common from '../shaders/feature-map-common.wgsl?raw';
import { EngineError } from '../core/errors';
import { featureDim, stabilizerEps, usesProjection } from '../core/feature-maps';
import type { FeatureMapKind, Stabilizer } from '../core/types';
import type { KernelContext } from './kernel-context';
import { dispatchGrid } from './pipelines';

/** Feature-map codes of the WGSL override constant FM_KIND. */
export const FEATURE_MAP_CODE: Record<FeatureMapKind, number> = {
  positive: 0,
  hyperbolic: 1,
  trig: 2,
  relu: 3,
  elu1: 4,
  exp: 5,
  'double-softmax': 6,
  oprf: 7,
  taylor2: 8,
  cosformer: 9,
  hedgehog: 10,
};

/** The inputs every feature-map kernel reads. */
export interface FavorProblem {
  n: number;
  d: number;
  /** rows of W (ignored by elu1 / double-softmax, whose W has 0 rows) */
  m: number;
  featureMap: FeatureMapKind;
  /** ε of the exponential maps: none ('shift') or the reference implementation's 1e-6 ('ref') */
  stabilizer: Stabilizer;
  /** n×d row-major f32, unscaled (the kernels apply d^{-1/4}) */
  q: GPUBuffer;
  k: GPUBuffer;
  /** m×d row-major f32; any non-empty buffer when the map uses no projection */
  w: GPUBuffer;
  /** the map's data-dependent parameter (FmParams.map_a): OPRF's A from `featureMapParam` of the job's Q, K; required for 'oprf' */
  mapParam?: number;
}

/** Stabilizer statistics (see feature-map-common.wgsl): query rows (n × vec2) and keys (1 or d × vec2). */
export interface FavorStats {
  qStats: GPUBuffer;
  kStats: GPUBuffer;
}

/** The WGSL source of a feature-using kernel: the shared snippet followed by the kernel. */
export function favorSource(kernel: string): string {
  return `${common}\n${kernel}`;
}

/** u columns of the map: m with a projection, d without. */
export function uColumns(kind: FeatureMapKind, m: number, d: number): number {
  if (kind === 'taylor2') return featureDim(kind, m, d);
  return usesProjection(kind) ? m : d;
}

/** The ratio factor of the map (m^{-1/2}, (2m)^{-1/2} or 1). */
export function featureRatio(kind: FeatureMapKind, m: number): number {
  switch (kind) {
    case 'positive':
    case 'trig':
    case 'relu':
    case 'oprf':
      return 1 / Math.sqrt(m);
    case 'hyperbolic':
      return 1 / Math.sqrt(2 * m);
    default:
      return 1;
  }
}

/** Kernel-specific FmParams fields. */
export interface FmExtra {
  chunk?: number;
  nchunks?: number;
  a0?: number;
  a1?: number;
}

/** The FmParams uniform (64 bytes) of feature-map-common.wgsl. */
export function favorParams(
  p: Pick<FavorProblem, 'n' | 'd' | 'm' | 'featureMap' | 'stabilizer' | 'mapParam'>,
  extra: FmExtra = {},
): ArrayBuffer {
  const buf = new ArrayBuffer(64);
  const u = new Uint32Array(buf);
  const f = new Float32Array(buf);
  const nu = uColumns(p.featureMap, p.m, p.d);
  u[0] = p.n;
  u[1] = p.d;
  u[2] = nu;
  u[3] = featureDim(p.featureMap, p.m, p.d);
  f[4] = Math.pow(p.d, -0.25);
  f[5] = featureRatio(p.featureMap, p.m);
  u[6] = FEATURE_MAP_CODE[p.featureMap];
  u[7] = u[3]! / nu;
  u[8] = extra.chunk ?? 0;
  u[9] = extra.nchunks ?? 0;
  u[10] = extra.a0 ?? 0;
  u[11] = extra.a1 ?? 0;
  f[12] = stabilizerEps(p.stabilizer);
  f[13] = p.mapParam ?? 0;
  return buf;
}

/** A bind group with buffers at explicit binding numbers (the kernels' bindings are sparse). */
export function bindAt(
  device: GPUDevice,
  pipeline: GPUComputePipeline,
  entries: Record<number, GPUBuffer>,
  label?: string,
): GPUBindGroup {
  return device.createBindGroup({
    label,
    layout: pipeline.getBindGroupLayout(0),
    entries: Object.entries(entries).map(([binding, buffer]) => ({ binding: Number(binding), resource: { buffer } })),
  });
}

/** Records one dispatch of `groups` workgroups (split over x and y past the per-dimension limit). */
export function encodeDispatch(
  ctx: KernelContext,
  pass: GPUComputePassEncoder,
  pipeline: GPUComputePipeline,
  entries: Record<number, GPUBuffer>,
  groups: number,
  label?: string,
): void {
  if (groups <= 0) return;
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindAt(ctx.device, pipeline, entries, label));
  const [x, y] = dispatchGrid(groups, ctx.limits.maxComputeWorkgroupsPerDimension);
  pass.dispatchWorkgroups(x, y);
}

/** Throws 'exceeds-limit' when one storage binding of `bytes` does not fit the device. */
export function checkBinding(ctx: KernelContext, what: string, bytes: number): void {
  const max = Math.min(ctx.limits.maxStorageBufferBindingSize, ctx.limits.maxBufferSize);
  if (bytes > max) {
    throw new EngineError(
      'exceeds-limit',
      `${what} needs ${(bytes / 2 ** 20).toFixed(1)} MiB, the device allows ${(max / 2 ** 20).toFixed(0)} MiB per buffer`,
      {
        bytes,
        max,
      },
    );
  }
}
