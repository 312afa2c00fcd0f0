import { acquireGpu } from '../../src/gpu/device';
import { GpuAllocator } from '../../src/gpu/allocator';
import { PipelineCache } from '../../src/gpu/pipelines';
import { GpuTimer } from '../../src/gpu/gpu-timer';
import { readFloats } from '../../src/gpu/readback';
import { encodeExactAttention, exactTileConfig } from '../../src/gpu/exact-attention';
import { createRng } from '../../src/core/rng';
import { exactAttentionOutput } from '../../src/core/exact-attention';
import type { KernelContext } from '../../src/gpu/kernel-context';

let ctxP: Promise<KernelContext> | null = null;
async function ctx(): Promise<KernelContext> {
  ctxP ??= (async () => {
    const a = await acquireGpu();
    if (!a.ok) throw new Error(a.reason);
    const device = a.gpu.device;
    return { device, pipelines: new PipelineCache(device), alloc: new GpuAllocator(device), timer: new GpuTimer(device, a.gpu.hasTimestamps), limits: device.limits };
  })();
  return ctxP;
}
function rand(n: number, seed: number, std = 1) { return createRng(seed).fillNormal(new Float32Array(n), std); }

async function exact(n: number, d: number, causal: boolean, check = true) {
  const c = await ctx();
  const q = rand(n * d, 1, 0.5), k = rand(n * d, 2, 0.5), v = rand(n * d, 3);
  const qb = c.alloc.upload('t.q', q), kb = c.alloc.upload('t.k', k), vb = c.alloc.upload('t.v', v);
  const enc = c.device.createCommandEncoder();
  const out = encodeExactAttention(c, enc, { n, d, causal, q: qb, k: kb, v: vb });
  const t0 = performance.now();
  c.device.queue.submit([enc.finish()]);
  const got = await readFloats(c.device, out, n * d);
  const ms = performance.now() - t0;
  let maxAbs = 0;
  if (check) {
    const ref = exactAttentionOutput({ rows: n, cols: d, data: q }, { rows: n, cols: d, data: k }, { rows: n, cols: d, data: v }, causal);
    for (let i = 0; i < n * d; i++) maxAbs = Math.max(maxAbs, Math.abs(got[i]! - ref.data[i]!));
  }
  return { ms, maxAbs, cfg: exactTileConfig(d, c.limits.maxComputeWorkgroupStorageSize), lim: c.limits.maxComputeWorkgroupStorageSize };
}
(window as any).exactKernels = { exact };
