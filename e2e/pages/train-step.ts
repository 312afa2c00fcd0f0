// In-page driver for e2e/train-step.spec.mjs: the whole model on the GPU (src/gpu/train/gpu-model.ts,
// gpu-trainer.ts) against the CPU twins (src/core/train/model.ts, trainer.ts) on one seeded config:
//   grads(cfg)        — one batch: loss and every parameter's gradient (the sharp test: AdamW's first
//                       step is ≈ lr·sign(g) and would hide a gradient's magnitude);
//   steps(cfg, k)     — k optimizer steps of both trainers: losses per step, every parameter, and
//                       the steps/s of each backend over steps 2 … k;
//   determinism(cfg)  — two GPU trainers with one seed: the loss bits of every step;
//   fit(cfg, k)       — the transfer experiment's Hedgehog fit, k steps on WebGPU
//                       (src/gpu/train/hedgehog-fit.ts) beside the CPU fit (core/train/hedgehog-distill.ts)
//                       from one softmax teacher: held-out KL before and after, the KL of every step,
//                       every fitted tensor, the ms per step of each, and whether a second GPU
//                       fit repeats the first bit for bit;
import { drawFeatureW } from '../../src/core/train/feature-draws';
import { lossAndGrads, modelForward } from '../../src/core/train/model';
import { createHedgehogFit } from '../../src/core/train/hedgehog-distill';
import { initParams } from '../../src/core/train/model-params';
import { transferParams } from '../../src/core/train/transfer';
import { makeBatch } from '../../src/core/train/tasks/index';
import { createCpuTrainer } from '../../src/core/train/trainer';
import type { TrainConfig } from '../../src/core/train/types';
import type { GpuAllocator } from '../../src/gpu/allocator';
import { withErrorScopes } from '../../src/gpu/error-scope';
import { untimedKernelContext } from '../../src/gpu/kernel-context';
import { readFloats } from '../../src/gpu/readback';
import { uploadBatch } from '../../src/gpu/train/gpu-batch';
import { GpuModel } from '../../src/gpu/train/gpu-model';
import { createGpuTrainer } from '../../src/gpu/train/gpu-trainer';
import { createGpuHedgehogFit } from '../../src/gpu/train/hedgehog-fit';
import { FIT_LR } from '../../src/engine/transfer-runner';
import { pageGpu } from './train-gpu';

const gpu = pageGpu;

/** Per tensor: max |got − want|, max |want|, and how many entries differ by more than `over`. */
type TensorRow = { name: string; n: number; maxAbs: number; scale: number; rel: number; over: number };

function tensorRows(
  names: string[],
  got: ArrayLike<number>[],
  want: ArrayLike<number>[],
  over = Infinity,
): TensorRow[] {
  return names.map((name, i) => {
    let maxAbs = 0;
    let scale = 0;
    let n = 0;
    const g = got[i]!;
    const w = want[i]!;
    for (let j = 0; j < w.length; j++) {
      const e = Math.abs(g[j]! - w[j]!);
      if (!(e <= over)) n++;
      maxAbs = Math.max(maxAbs, e);
      scale = Math.max(scale, Math.abs(w[j]!));
    }
    return { name, n: w.length, maxAbs, scale, rel: scale > 0 ? maxAbs / scale : maxAbs, over: n };
  });
}

async function grads(cfg: TrainConfig) {
  const g = await gpu();
  const device = g.device;
  const ctx = untimedKernelContext(device);
  const mc = cfg.model;
  const params = initParams(mc, cfg.seed);
  const batch = makeBatch(cfg.task, cfg.batch, cfg.seed, 0);
  const fw = drawFeatureW(mc, cfg.seed, 0);
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
  // activations of every layer beside the twin's cache (what a gradient mismatch is traced with)
  const cache = modelForward(params, mc, batch, fw).cache;
  const acts: TensorRow[] = [];
  for (let l = 0; l < mc.layers; l++) {
    const a = model.layers[l]!;
    const c = cache.layers[l]!;
    const pairs: [string, GPUBuffer | null, ArrayLike<number> | undefined][] = [
      ['u', a.u, c.u],
      ['q', a.q, c.q],
      ['k', a.k, c.k],
      ['phiQ', a.phiQ, c.att.phiQ],
      ['phiK', a.phiK, c.att.phiK],
      ['den', a.den, c.att.den],
      ['p', a.p, c.att.p],
      ['ao', a.ao, c.att.out],
      ['h1', a.h1, c.h1],
    ];
    for (const [name, buf, want] of pairs) {
      if (!buf || !want) continue;
      const got = await readFloats(device, buf, want.length);
      acts.push(...tensorRows([`l${l}.${name}`], [got], [want]));
    }
  }
  ctx.alloc.releaseAll();
  return {
    acts,
    loss: [stats[0], want.loss],
    correct: [stats[1], want.correct],
    count: [stats[2], want.count],
    rows,
    ms,
  };
}

async function steps(cfg: TrainConfig, k: number) {
  const g = await gpu();
  const cpu = createCpuTrainer(cfg);
  const gt = await createGpuTrainer(g, cfg);
  const losses: { step: number; gpu: number; cpu: number; gpuNorm: number; cpuNorm: number }[] = [];
  const snapshots: { step: number; rows: TensorRow[] }[] = [];
  // wall time of steps 2 … k (step 1 compiles pipelines), eval steps included
  const ms = { webgpu: 0, cpu: 0 };
  for (let s = 1; s <= k; s++) {
    const t0 = performance.now();
    const a = await gt.step();
    const t1 = performance.now();
    const b = await cpu.step();
    if (s > 1) {
      ms.webgpu += t1 - t0;
      ms.cpu += performance.now() - t1;
    }
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
          0.01 * cfg.optimizer.lr * s,
        ),
      });
    }
  }
  const eg = await gt.evaluate();
  const ec = await cpu.evaluate();
  // the attention maps of one held-out example ([layer][head] L×L) after the steps
  const example = makeBatch(cfg.task, 1, cfg.seed ^ 0x5eed, 99);
  const mg = (await gt.attentionMaps(example)).flat();
  const mcpu = (await cpu.attentionMaps(example)).flat();
  const maps = tensorRows(
    mcpu.map((_, i) => `map ${i}`),
    mg,
    mcpu,
  );
  gt.dispose();
  cpu.dispose();
  const rate = { webgpu: ((k - 1) * 1000) / ms.webgpu, cpu: ((k - 1) * 1000) / ms.cpu };
  return { losses, snapshots, maps, eval: { gpu: eg, cpu: ec }, lr: cfg.optimizer.lr, rate };
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

/**
 * `cfg` is the student (a Hedgehog model); its teacher is the same model with softmax attention,
 * trained `teacherSteps` steps on the CPU twins (so its heads attend somewhere), swapped in as the
 * transfer runner does, then fitted k steps at the runner's learning rate by both fits.
 */
async function fit(cfg: TrainConfig, k: number, teacherSteps: number) {
  const g = await gpu();
  const teacherCfg: TrainConfig = { ...cfg, model: { ...cfg.model, attention: { kind: 'softmax' } } };
  const tt = createCpuTrainer(teacherCfg);
  for (let i = 0; i < teacherSteps; i++) await tt.step();
  const teacher = await tt.params();
  tt.dispose();
  const student = transferParams(teacher, cfg.model, cfg.seed);
  const cpu = createHedgehogFit(teacher, teacherCfg.model, student, cfg, k, FIT_LR);
  const gf = await createGpuHedgehogFit(g, teacher, teacherCfg.model, student, cfg, k, FIT_LR);
  const before = { gpu: await gf.heldOutLoss(), cpu: cpu.heldOutLoss() };
  const losses: { step: number; gpu: number; cpu: number }[] = [];
  // ms of steps 2 … k (step 1 compiles the pipelines)
  const ms = { webgpu: 0, cpu: 0 };
  for (let s = 1; s <= k; s++) {
    const t0 = performance.now();
    const a = await gf.step();
    const t1 = performance.now();
    const b = cpu.step();
    if (s > 1) {
      ms.webgpu += t1 - t0;
      ms.cpu += performance.now() - t1;
    }
    losses.push({ step: s, gpu: a, cpu: b });
  }
  const after = { gpu: await gf.heldOutLoss(), cpu: cpu.heldOutLoss() };
  const pg = await gf.params();
  const pc = cpu.params();
  gf.dispose();
  const hh = pc.filter((p) => p.name.includes('.hh.'));
  const rows = tensorRows(
    hh.map((p) => p.name),
    hh.map((p) => pg.find((x) => x.name === p.name)!.data),
    hh.map((p) => p.data),
    0.01 * FIT_LR * k,
  );
  // every other tensor is the student's, untouched, in both
  const others = pg.every(
    (p, i) =>
      p.name.includes('.hh.') || (p.name === student[i]!.name && p.data.every((x, j) => x === student[i]!.data[j])),
  );
  const perStep = { webgpu: ms.webgpu / (k - 1), cpu: ms.cpu / (k - 1) };
  // a second GPU fit from the same inputs: the same KL bits every step, the same fitted bits
  const again = await createGpuHedgehogFit(g, teacher, teacherCfg.model, student, cfg, k, FIT_LR);
  const bits = (x: number) => new Uint32Array(new Float32Array([x]).buffer)[0]!;
  let repeat = true;
  for (let s = 0; s < k; s++) repeat &&= bits(await again.step()) === bits(losses[s]!.gpu);
  const pa = await again.params();
  again.dispose();
  repeat &&= pa.every((p, i) => p.data.every((x, j) => Object.is(x, pg[i]!.data[j])));
  return { before, after, losses, rows, others, lr: FIT_LR, perStep, repeat };
}

(window as unknown as { trainStep: unknown }).trainStep = {
  info: async () => ({ adapter: (await gpu()).adapterName }),
  grads,
  steps,
  determinism,
  fit,
};
