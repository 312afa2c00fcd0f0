/**
 * The speed run on WebGPU (the backend side of src/core/speed-run.ts): attention points go through
 * the benchmark hook `timeKernel` (kernel-bench.ts: the same dispatchers the app computes with), the
 * Transformer layer through the matmul kernel plus those dispatchers, one head at a time.
 *
 * Timing: GPU timestamps (sum of the compute passes) when the device has 'timestamp-query', else
 * wall time from submit to `onSubmittedWorkDone` — the result says which. The runner has its own
 * allocator (so its bytes are counted per point and everything is freed after the run) and its own
 * timer, and shares the backend's device and pipeline cache. Every point runs under `lock`, so a
 * compute request from the page never overlaps a timed point.
 */
import { randomProjection } from '../core/projections';
import { createRng } from '../core/rng';
import { LAYER_GPU, SPEED_RANGE, type SpeedMethod } from '../core/speed-model';
import type { PointTiming, SpeedBackend } from '../core/speed-run';
import { median } from '../core/speed-stats';
import { encodeDummyAttention } from './dummy-attention';
import { withErrorScopes } from './error-scope';
import { encodeExactAttention } from './exact-attention';
import { GpuTimer } from './gpu-timer';
import { JobAllocator } from './job-plan';
import { timeKernel, type BenchKernel } from './kernel-bench';
import type { KernelContext } from './kernel-context';
import { encodeMatmul } from './matmul';
import { encodePerformerBidirectional } from './performer-bidirectional';

export type GpuLock = <T>(work: () => Promise<T>) => Promise<T>;

export interface GpuSpeedBackend extends SpeedBackend {
  /** frees the run's buffers and timer */
  dispose(): void;
}

type LayerPart = 'projections' | 'attention' | 'ffn';

export function createGpuSpeedBackend(
  base: KernelContext,
  adapter: string,
  d: number,
  m: number,
  lock: GpuLock,
): GpuSpeedBackend {
  const { device } = base;
  const alloc = new JobAllocator(device);
  const timer = new GpuTimer(device, base.timer.useTimestamps);
  const ctx: KernelContext = { device, pipelines: base.pipelines, alloc, timer, limits: base.limits };
  const cfg = LAYER_GPU;
  const maxBinding = Math.min(base.limits.maxStorageBufferBindingSize, base.limits.maxBufferSize);

  /** Runs `encode` as its own submission; GPU time of its passes (timestamps) or wall time. */
  async function phase(encode: (enc: GPUCommandEncoder) => void): Promise<number> {
    return (await timer.submitTimed('speed-layer', encode)).ms;
  }

  async function layerPoint(method: SpeedMethod, n: number, repeats: number, warmup: boolean): Promise<PointTiming> {
    const D = cfg.dModel;
    const dh = D / cfg.heads;
    const F = cfg.dFf;
    const rng = createRng(2);
    alloc.beginJob();
    const g = (role: string, len: number, std: number) =>
      alloc.upload(role, rng.fillNormal(new Float32Array(len), std));
    const x = g('speed.x', n * D, 1);
    const wq = g('speed.wq', D * D, 1 / Math.sqrt(D));
    const wk = g('speed.wk', D * D, 1 / Math.sqrt(D));
    const wv = g('speed.wv', D * D, 1 / Math.sqrt(D));
    const wo = g('speed.wo', D * D, 1 / Math.sqrt(D));
    const w1 = g('speed.w1', D * F, 1 / Math.sqrt(D));
    const w2 = g('speed.w2', F * D, 1 / Math.sqrt(F));
    const wf = alloc.upload('speed.wf', randomProjection('orthogonal-chi', m, dh, rng).data);
    const q = alloc.storage('speed.qh', n * dh * 4);
    const k = alloc.storage('speed.kh', n * dh * 4);
    const v = alloc.storage('speed.vh', n * dh * 4);
    const y = alloc.storage('speed.y', n * D * 4);
    const hidden = alloc.storage('speed.hidden', n * F * 4);

    const once = async () => {
      const parts: Record<LayerPart, number> = { projections: 0, attention: 0, ffn: 0 };
      parts.projections += await phase((enc) => enc.copyBufferToBuffer(x, 0, y, 0, n * D * 4));
      for (let h = 0; h < cfg.heads; h++) {
        parts.projections += await phase((enc) => {
          // this head's slice of Q, K and V: the same product with the three weight matrices
          const heads: [GPUBuffer, GPUBuffer, string][] = [
            [wq, q, 'speed.mm.q'],
            [wk, k, 'speed.mm.k'],
            [wv, v, 'speed.mm.v'],
          ];
          for (const [b, c, role] of heads) {
            encodeMatmul(ctx, enc, { m: n, n: dh, k: D, ldb: D, offB: h * dh, a: x, b, c, role, label: 'proj' });
          }
        });
        let att: GPUBuffer | null = null;
        parts.attention += await phase((enc) => {
          if (method === 'layer-exact')
            att = encodeExactAttention(ctx, enc, { n, d: dh, causal: false, q, k, v, role: 'speed.att' });
          else if (method === 'layer-performer')
            att = encodePerformerBidirectional(ctx, enc, {
              n,
              d: dh,
              m,
              featureMap: 'positive',
              stabilizer: 'shift',
              q,
              k,
              w: wf,
              v,
              role: 'speed.att',
            });
          else att = encodeDummyAttention(ctx, enc, { n, d: dh, q, k, v, role: 'speed.att' });
        });
        parts.projections += await phase((enc) =>
          encodeMatmul(ctx, enc, {
            m: n,
            n: D,
            k: dh,
            offB: h * dh * D,
            accumulate: true,
            a: att!,
            b: wo,
            c: y,
            role: 'speed.mm.o',
            label: 'proj',
          }),
        );
      }
      parts.ffn += await phase((enc) => {
        encodeMatmul(ctx, enc, {
          m: n,
          n: F,
          k: D,
          relu: true,
          a: y,
          b: w1,
          c: hidden,
          role: 'speed.mm.1',
          label: 'ffn',
        });
        encodeMatmul(ctx, enc, {
          m: n,
          n: D,
          k: F,
          accumulate: true,
          a: hidden,
          b: w2,
          c: y,
          role: 'speed.mm.2',
          label: 'ffn',
        });
      });
      return parts;
    };
    if (warmup) await once();
    const runs: Record<LayerPart, number>[] = [];
    for (let r = 0; r < repeats; r++) runs.push(await once());
    const totals = runs.map((p) => p.projections + p.attention + p.ffn);
    return {
      medianMs: median(totals),
      minMs: Math.min(...totals),
      runs: runs.length,
      bytes: alloc.jobBytes(),
      parts: {
        projections: median(runs.map((p) => p.projections)),
        attention: median(runs.map((p) => p.attention)),
        ffn: median(runs.map((p) => p.ffn)),
      },
    };
  }

  return {
    kind: 'webgpu',
    device: adapter,
    timing: timer.useTimestamps ? 'timestamp' : 'wall',
    attentionMaxLog2: SPEED_RANGE.webgpu.attentionMaxLog2,
    layerMaxLog2: SPEED_RANGE.webgpu.layerMaxLog2,
    pointCapMs: SPEED_RANGE.webgpu.pointCapMs,
    layerConfig: cfg,
    maxN(method) {
      // the FFN's hidden activations (n × d_ff floats) are the layer's largest buffer
      if (method.startsWith('layer-')) return Math.floor(maxBinding / (cfg.dFf * 4));
      return Infinity;
    },
    timePoint(method, n, repeats, warmup) {
      return lock(() =>
        withErrorScopes(device, `speed ${method} n=${n}`, async (): Promise<PointTiming> => {
          if (method.startsWith('layer-')) return layerPoint(method, n, repeats, warmup);
          const r = await timeKernel(ctx, { kernel: method as BenchKernel, n, d, m, repeats, warmup });
          return { medianMs: r.medianMs, minMs: Math.min(...r.samples), runs: r.samples.length, bytes: r.bytes };
        }),
      );
    },
    dispose() {
      alloc.releaseAll();
      timer.destroy();
    },
  };
}
