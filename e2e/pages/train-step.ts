// In-page driver for e2e/train-step.spec.mjs: the whole model on the GPU (src/gpu/train/gpu-model.ts,
// gpu-trainer.ts) against the CPU twins (src/core/train/model.ts, trainer.ts) on one seeded config:
//   grads(cfg)        — one batch: loss and every parameter's gradient (the sharp test: AdamW's first
//                       step is ≈ lr·sign(g) and would hide a gradient's magnitude);
//   steps(cfg, k)     — k optimizer steps of both trainers: losses per step and every parameter;
//   determinism(cfg)  — two GPU trainers with one seed: the loss bits of every step;
//   rate(cfg, k)      — steps per second of each backend.
import { drawFeatureW } from '../../src/core/train/feature-draws';
import { lossAndGrads } from '../../src/core/train/model';
import { initParams } from '../../src/core/train/model-params';
import { makeBatch } from '../../src/core/train/tasks';
import { createCpuTrainer, featureSeed } from '../../src/core/train/trainer';
import type { TrainConfig } from '../../src/core/train/types';
import { acquireGpu, type GpuContext } from '../../src/gpu/device';
import { GpuAllocator } from '../../src/gpu/allocator';
import { withErrorScopes } from '../../src/gpu/error-scope';
import { GpuTimer } from '../../src/gpu/gpu-timer';
import type { KernelContext } from '../../src/gpu/kernel-context';
import { PipelineCache } from '../../src/gpu/pipelines';
import { readFloats } from '../../src/gpu/readback';
import { GpuModel, uploadBatch } from '../../src/gpu/train/gpu-model';
import { createGpuTrainer } from '../../src/gpu/train/gpu-trainer';

let gpuP: Promise<GpuContext> | null = null;
function gpu() {
  gpuP ??= acquireGpu().then((a) => {
    if (!a.ok) throw new Error(a.reason);
    return a.gpu;
  });
  return gpuP;
}

type TensorRow = { name: string; n: number; maxAbs: number; scale: number; rel: number };

function tensorRows(names: string[], got: ArrayLike<number>[], want: ArrayLike<number>[]): TensorRow[] {
  return names.map((name, i) => {
    let maxAbs = 0;
    let scale = 0;
    const g = got[i]!;
    const w = want[i]!;
    for (let j = 0; j < w.length; j++) {
      maxAbs = Math.max(maxAbs, Math.abs(g[j]! - w[j]!));
      scale = Math.max(scale, Math.abs(w[j]!));
    }
    return { name, n: w.length, maxAbs, scale, rel: scale > 0 ? maxAbs / scale : maxAbs };
  });
}

async function grads(cfg: TrainConfig) {
  const g = await gpu();
  const device = g.device;
  const ctx: KernelContext = {
    device,
    pipelines: new PipelineCache(device),
    alloc: new GpuAllocator(device),
    timer: new GpuTimer(device, false),
    limits: device.limits,
  };
  const mc = cfg.model;
  const params = initParams(mc, cfg.seed);
  const batch = makeBatch(cfg.task, cfg.batch, cfg.seed, 0);
  const fw = drawFeatureW(mc, featureSeed(cfg), 0);
  const want = lossAndGrads(params, mc, batch, fw);
  const model = new GpuModel(ctx, mc, params, batch.batch * batch.seqLen, batch.batch, batch.seqLen);
  if (fw) model.setFeatureW(ctx, fw);
  const gb = uploadBatch(ctx, 'b', batch);
  const t0 = performance.now();
  await withErrorScopes(device, 'gpu model step', async () => {
    // the uniforms of one encoder must not share a role: this test encodes forward and backward
    // with a counter-suffixed role per call, as the trainer does
    let k = 0;
    const alloc = Object.create(ctx.alloc) as GpuAllocator;
    alloc.buffer = ctx.alloc.buffer.bind(ctx.alloc);
    alloc.storage = ctx.alloc.storage.bind(ctx.alloc);
    alloc.upload = ctx.alloc.upload.bind(ctx.alloc);
    alloc.uniform = (role, data) => ctx.alloc.uniform(`${k++}:${role}`, data);
    const c2 = { ...ctx, alloc };
    const enc = device.createCommandEncoder();
    enc.clearBuffer(model.grads);
    model.encodeForward(c2, enc, gb);
    model.encodeBackward(c2, enc, gb);
    device.queue.submit([enc.finish()]);
    await device.queue.onSubmittedWorkDone();
  });
  const ms = performance.now() - t0;
  const flat = await readFloats(device, model.grads, model.layout.total);
  const stats = await readFloats(device, model.stats, 4);
  const got = model.layout.tensors.map((t) => flat.subarray(t.offset, t.offset + t.size));
  const rows = tensorRows(
    params.map((p) => p.name),
    got,
    want.grads,
  );
  ctx.alloc.releaseAll();
  return { loss: [stats[0], want.loss], correct: [stats[1], want.correct], count: [stats[2], want.count], rows, ms };
}

async function steps(cfg: TrainConfig, k: number) {
  const g = await gpu();
  const cpu = createCpuTrainer(cfg);
  const gt = await createGpuTrainer(g, cfg);
  const losses: { step: number; gpu: number; cpu: number; gpuNorm: number; cpuNorm: number }[] = [];
  const snapshots: { step: number; rows: TensorRow[] }[] = [];
  for (let s = 1; s <= k; s++) {
    const a = await gt.step();
    const b = await cpu.step();
    losses.push({ step: s, gpu: a.loss, cpu: b.loss, gpuNorm: a.gradNorm, cpuNorm: b.gradNorm });
    if (s === 1 || s === k) {
      const pg = await gt.params();
      const pc = await cpu.params();
      snapshots.push({
        step: s,
        rows: tensorRows(
          pc.map((p) => p.name),
          pg.map((p) => p.data),
          pc.map((p) => p.data),
        ),
      });
    }
  }
  const eg = await gt.evaluate();
  const ec = await cpu.evaluate();
  gt.dispose();
  cpu.dispose();
  return { losses, snapshots, eval: { gpu: eg, cpu: ec }, lr: cfg.optimizer.lr };
}

async function determinism(cfg: TrainConfig, k: number) {
  const g = await gpu();
  const runs: number[][] = [];
  for (let r = 0; r < 2; r++) {
    const t = await createGpuTrainer(g, cfg);
    const bits: number[] = [];
    for (let s = 0; s < k; s++) {
      const rec = await t.step();
      bits.push(new Uint32Array(new Float32Array([rec.loss]).buffer)[0]!);
    }
    t.dispose();
    runs.push(bits);
  }
  return runs;
}

async function rate(cfg: TrainConfig, k: number) {
  const g = await gpu();
  const out: Record<string, number> = {};
  const gt = await createGpuTrainer(g, cfg);
  await gt.step(); // compiles the pipelines
  let t0 = performance.now();
  for (let s = 0; s < k; s++) await gt.step();
  out.webgpu = (k * 1000) / (performance.now() - t0);
  gt.dispose();
  const cpu = createCpuTrainer(cfg);
  await cpu.step();
  t0 = performance.now();
  for (let s = 0; s < k; s++) await cpu.step();
  out.cpu = (k * 1000) / (performance.now() - t0);
  cpu.dispose();
  return out;
}

(window as unknown as { trainStep: unknown }).trainStep = {
  info: async () => ({ adapter: (await gpu()).adapterName }),
  grads,
  steps,
  determinism,
  rate,
};
