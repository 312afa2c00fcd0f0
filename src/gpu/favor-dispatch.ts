/**
 * The dispatch kit every feature-using kernel shares (favor-features.ts, performer-bidirectional.ts,
 * performer-causal.ts, performer-exp.ts): the problem shape, the FmParams uniform, the source
 * assembly (the shared helpers, the generated map constants and flags of feature-map-wgsl.ts,
 * feature-map-common.wgsl, then the kernel), bind groups at sparse binding numbers, dispatches split
 * over x/y, and the per-binding size check. The map's code (the uniform fm.kind), u columns and ratio
 * come from its record in src/core/feature-map-specs.ts.
 */
import common from '../shaders/feature-map-common.wgsl?raw';
import { EngineError } from '../core/errors';
import { FEATURE_MAP_SPECS } from '../core/feature-map-specs';
import { causalKeyShift, featureDim, stabilizerEps } from '../core/feature-maps';
import type { FeatureMapKind, Stabilizer } from '../core/types';
import { FEATURE_MAP_CODE, featureMapWgsl } from './feature-map-wgsl';
import type { KernelContext } from './kernel-context';
import { dispatchGrid } from './pipelines';
import { shaderSource } from './shader-source';

export { FEATURE_MAP_CODE } from './feature-map-wgsl';

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
  /** causal attention: the maps' causal variants (key statistics no future key can change); default false */
  causal?: boolean;
}

/** Stabilizer statistics (see feature-map-common.wgsl): query rows (n × vec2) and keys (1 or d × vec2). */
export interface FavorStats {
  qStats: GPUBuffer;
  kStats: GPUBuffer;
}

/** The WGSL source of a feature-using kernel: helpers, the generated map constants, the shared snippet, the kernel's parts. */
export function favorSource(...kernel: string[]): string {
  return shaderSource(featureMapWgsl(), common, ...kernel);
}

/** u columns of the map (FeatureMapSpec.uColumns): m with a projection, d without (taylor2: its m'). */
export function uColumns(kind: FeatureMapKind, m: number, d: number): number {
  return FEATURE_MAP_SPECS[kind].uColumns(m, d);
}

/** The ratio factor of the map (FeatureMapSpec.ratio: m^{-1/2}, (2m)^{-1/2} or 1). */
export function featureRatio(kind: FeatureMapKind, m: number): number {
  return FEATURE_MAP_SPECS[kind].ratio(m);
}

/**
 * FmParams.causal_keys: 1 when the key statistics take their causal variant — double softmax in
 * causal mode (one scalar max instead of per-coordinate softmax sums), or a 'max' map in causal mode
 * under ε (key 0's max instead of the max over all keys; feature-maps.ts causalKeyShift).
 */
export function causalKeys(p: Pick<FavorProblem, 'featureMap' | 'stabilizer' | 'causal'>): boolean {
  const causal = p.causal ?? false;
  const stats = FEATURE_MAP_SPECS[p.featureMap].stats;
  if (stats === 'softmax') return causal;
  if (stats === 'max') return causalKeyShift(causal, stabilizerEps(p.stabilizer));
  return false;
}

/** Kernel-specific FmParams fields. */
export interface FmExtra {
  chunk?: number;
  nchunks?: number;
  a0?: number;
  a1?: number;
  /**
   * performer-exp-gemm.wgsl reads φ itself from U (n×m' per side, materialized by favor-features.wgsl)
   * instead of exp of projections: nu = m', one block, flag phi_direct (ratio, ε and the offsets unread)
   */
  phiDirect?: boolean;
}

/** The FmParams uniform (64 bytes) of feature-map-common.wgsl. */
export function favorParams(
  p: Pick<FavorProblem, 'n' | 'd' | 'm' | 'featureMap' | 'stabilizer' | 'mapParam' | 'causal'>,
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
  u[14] = causalKeys(p) ? 1 : 0;
  if (extra.phiDirect) {
    u[2] = u[3]!;
    u[7] = 1;
    u[15] = 1;
  }
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
