/**
 * Dispatcher of the fused exact-attention kernel (src/shaders/exact-attention.wgsl):
 * out = softmax(Q Kᵀ / √d) V with an online softmax over streamed key tiles — O(n·d) memory.
 * CPU twin: core/exact-attention.ts `exactAttentionOutput`.
 */
import code from '../shaders/exact-attention.wgsl?raw';
import { shaderSource } from './shader-source';
import type { KernelContext } from './kernel-context';
import { encodeVec4Rows } from './pack-vec4';
import { bindBuffers, dispatchGrid } from './pipelines';

const SOURCE = shaderSource(code);

export interface ExactTileConfig {
  /** invocations per workgroup */
  wg: number;
  /** query rows per workgroup */
  br: number;
  /** keys per thread in the score micro-tile (1, 2, 4); keys per tile bc = rn · wg · 4 / br */
  rn: number;
  /** keys per streamed tile */
  bc: number;
  /** vec4 columns per K/V chunk */
  dc4: number;
  /** chunks per row */
  nch: number;
  /** Q tile resident in workgroup memory */
  qShared: boolean;
  /** workgroup memory the kernel declares, bytes */
  bytes: number;
}

const WG = 64;
/** vec4 accumulators a thread may hold (the kernel's private array has 16). */
const MAX_ACC = 16;

/** Candidate (rows per workgroup, keys per thread), best first, by the number of vec4 columns. */
function candidates(d4: number): [number, number][] {
  if (d4 <= 8)
    return [
      [64, 4],
      [32, 4],
      [32, 2],
      [16, 4],
      [16, 2],
      [16, 1],
    ];
  if (d4 <= 32)
    return [
      [32, 4],
      [64, 4],
      [32, 2],
      [16, 4],
      [16, 2],
      [16, 1],
    ];
  return [
    [16, 4],
    [16, 2],
    [16, 1],
  ];
}

function describe(d: number, br: number, rn: number, dc4: number, qShared: boolean): ExactTileConfig {
  const d4 = Math.ceil(d / 4);
  const tg = WG / (br / 4);
  const bc = rn * tg;
  const floats = 4 * (qShared ? br * d4 : 1) + 4 * bc * dc4 + br * bc + 4 * WG;
  return { wg: WG, br, rn, bc, dc4, nch: Math.ceil(d4 / dc4), qShared, bytes: floats * 4 };
}

/**
 * Tile shapes for head dimension d within `storageBytes` of workgroup memory (16 KiB by default,
 * 32 KiB where the device grants it): the first candidate whose K/V chunk covers the whole row
 * (or else the widest chunk) that fits, keeping the Q tile resident when there is room.
 */
export function exactTileConfig(d: number, storageBytes: number): ExactTileConfig {
  const d4 = Math.ceil(d / 4);
  let best: ExactTileConfig | null = null;
  for (const [br, rn] of candidates(d4)) {
    const tg = WG / (br / 4);
    for (const dc4 of [d4, 32, 16, 8, 4, 2, 1]) {
      if (dc4 > d4) continue;
      const nch = Math.ceil(d4 / dc4);
      if (4 * nch * Math.ceil(dc4 / tg) > MAX_ACC) continue;
      for (const qShared of [true, false]) {
        const cfg = describe(d, br, rn, dc4, qShared);
        if (cfg.bytes > storageBytes) continue;
        if (nch === 1) return cfg;
        if (!best || cfg.nch < best.nch) best = cfg;
        break;
      }
    }
  }
  if (best) return best;
  throw new RangeError(`exact attention: d = ${d} does not fit ${storageBytes} bytes of workgroup memory`);
}

export interface ExactAttentionArgs {
  n: number;
  d: number;
  causal: boolean;
  /** n×d row-major f32 (or rows padded to ⌈d/4⌉ vec4s when `vec4Inputs`) */
  q: GPUBuffer;
  k: GPUBuffer;
  v: GPUBuffer;
  /** Q, K, V are already padded to vec4 rows (pack-vec4.ts) */
  vec4Inputs?: boolean;
  /** output role (default 'exact.out') */
  role?: string;
  /** split the rows over dispatches of at most this many workgroups (default: one dispatch) */
  maxWorkgroupsPerPass?: number;
  /** tile shapes (default: `exactTileConfig` for the device's workgroup memory) */
  tiles?: ExactTileConfig;
  /**
   * compute only the row blocks (workgroups of `tiles.br` query rows) first … end − 1; the other
   * rows of the output are left unwritten. Each block still streams every key it may see, so one
   * block near the end of a long causal sequence costs what it costs inside the whole run.
   */
  blocks?: { first: number; end: number };
}

/**
 * Encodes out = softmax(QKᵀ/√d)V into `encoder` (pads Q, K, V to vec4 rows first when 4 ∤ d);
 * returns the n×d output buffer (role `args.role`).
 */
export function encodeExactAttention(
  ctx: KernelContext,
  encoder: GPUCommandEncoder,
  args: ExactAttentionArgs,
): GPUBuffer {
  const { n, d, causal } = args;
  const role = args.role ?? 'exact.out';
  const cfg = args.tiles ?? exactTileConfig(d, ctx.limits.maxComputeWorkgroupStorageSize);
  const packed = args.vec4Inputs === true;
  const q4 = packed ? args.q : encodeVec4Rows(ctx, encoder, args.q, n, d, 'exact.q4');
  const k4 = packed ? args.k : encodeVec4Rows(ctx, encoder, args.k, n, d, 'exact.k4');
  const v4 = packed ? args.v : encodeVec4Rows(ctx, encoder, args.v, n, d, 'exact.v4');
  const pipeline = ctx.pipelines.pipeline('exact-attention', SOURCE, 'main', {
    WG: cfg.wg,
    BR: cfg.br,
    RN: cfg.rn,
    D: d,
    DC4: cfg.dc4,
    Q_SHARED: cfg.qShared ? 1 : 0,
  });
  const out = ctx.alloc.storage(role, n * d * 4);
  const groups = Math.ceil(n / cfg.br);
  const first = Math.max(0, Math.min(groups, args.blocks?.first ?? 0));
  const end = Math.max(first, Math.min(groups, args.blocks?.end ?? groups));
  const perPass = Math.max(1, Math.min(end - first, args.maxWorkgroupsPerPass ?? end - first));
  const maxDim = ctx.limits.maxComputeWorkgroupsPerDimension;
  for (let offset = first, part = 0; offset < end; offset += perPass, part++) {
    const count = Math.min(perPass, end - offset);
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
    pass.setBindGroup(0, bindBuffers(ctx.device, pipeline, [uniform, q4, k4, v4, out], 'exact-attention'));
    pass.dispatchWorkgroups(gx, gy);
    pass.end();
  }
  return out;
}
