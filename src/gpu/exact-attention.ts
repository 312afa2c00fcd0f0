/**
 * Dispatcher of the fused exact-attention kernel (src/shaders/exact-attention.wgsl):
 * out = softmax(Q Kᵀ / √d) V with an online softmax over streamed key tiles, never n×n.
 * CPU twin: core/exact-attention.ts `exactAttentionOutput`.
 */
import code from '../shaders/exact-attention.wgsl?raw';
import type { KernelContext } from './kernel-context';
import { bindBuffers, dispatchGrid } from './pipelines';

export interface ExactTileConfig {
  /** invocations per workgroup */
  wg: number;
  /** query rows per workgroup */
  br: number;
  /** keys per streamed tile */
  bc: number;
  /** lanes per query row (wg / br) */
  tpr: number;
  /** workgroup-memory row stride (≥ d) */
  ds: number;
  /** workgroup memory the kernel declares, bytes */
  bytes: number;
}

const WG = 64;
/** Most accumulators a lane may hold (the kernel's private array has 64 slots). */
const MAX_ACC = 32;

function sharedFloats(br: number, bc: number, ds: number, wg: number): number {
  return (br + bc) * ds + br * bc + wg;
}

/**
 * Tile shapes for head dimension d within `storageBytes` of workgroup memory (16 KiB default,
 * 32 KiB where the device grants it): few lanes per row (≤ 32 accumulators each), then the widest
 * key tile that fits (≤ 64, a multiple of 8 when ≥ 8).
 */
export function exactTileConfig(d: number, storageBytes: number): ExactTileConfig {
  const budget = Math.floor(storageBytes / 4);
  const ds = d % 2 === 0 ? d + 1 : d;
  let tpr = 1;
  while (tpr < WG && Math.ceil(d / tpr) > MAX_ACC) tpr *= 2;
  for (; tpr <= WG; tpr *= 2) {
    const br = WG / tpr;
    const fixed = br * ds + WG;
    let bc = Math.floor((budget - fixed) / (ds + br));
    bc = Math.min(64, bc);
    if (bc >= 8) bc -= bc % 8;
    if (bc >= 1) return { wg: WG, br, bc, tpr, ds, bytes: 4 * sharedFloats(br, bc, ds, WG) };
  }
  throw new RangeError(`exact attention: d = ${d} does not fit ${storageBytes} bytes of workgroup memory`);
}

export interface ExactAttentionArgs {
  n: number;
  d: number;
  causal: boolean;
  q: GPUBuffer;
  k: GPUBuffer;
  v: GPUBuffer;
  /** output role (default 'exact.out') */
  role?: string;
  /** split the rows over dispatches of at most this many workgroups (default: one dispatch) */
  maxWorkgroupsPerPass?: number;
}

/** Encodes out = softmax(QKᵀ/√d)V into `encoder` (one compute pass per dispatch); returns the n×d output buffer. */
export function encodeExactAttention(ctx: KernelContext, encoder: GPUCommandEncoder, args: ExactAttentionArgs): GPUBuffer {
  const { n, d, causal } = args;
  const role = args.role ?? 'exact.out';
  const cfg = exactTileConfig(d, ctx.limits.maxComputeWorkgroupStorageSize);
  const pipeline = ctx.pipelines.pipeline('exact-attention', code, 'main', {
    WG: cfg.wg,
    BR: cfg.br,
    BC: cfg.bc,
    D: d,
    DS: cfg.ds,
  });
  const out = ctx.alloc.storage(role, n * d * 4);
  const groups = Math.ceil(n / cfg.br);
  const perPass = Math.max(1, Math.min(groups, args.maxWorkgroupsPerPass ?? groups));
  const maxDim = ctx.limits.maxComputeWorkgroupsPerDimension;
  for (let offset = 0, part = 0; offset < groups; offset += perPass, part++) {
    const count = Math.min(perPass, groups - offset);
    const [gx, gy] = dispatchGrid(count, maxDim);
    const params = new ArrayBuffer(32);
    const u = new Uint32Array(params);
    u[0] = n;
    u[1] = causal ? 1 : 0;
    u[2] = gx;
    u[3] = offset;
    new Float32Array(params)[4] = 1 / Math.sqrt(d);
    u[5] = offset + count;
    const uniform = ctx.alloc.uniform(`${role}.params${part === 0 ? '' : `.${part}`}`, new Uint8Array(params));
    const pass = encoder.beginComputePass(ctx.timer.pass('exact-attention'));
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bindBuffers(ctx.device, pipeline, [uniform, args.q, args.k, args.v, out], 'exact-attention'));
    pass.dispatchWorkgroups(gx, gy);
    pass.end();
  }
  return out;
}
