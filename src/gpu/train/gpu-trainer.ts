/**
 * The WebGPU backend of the trainer (the plan's `Trainer`, twin of createCpuTrainer in
 * src/core/train/trainer.ts): parameters, Adam moments and activations live in GPU buffers across
 * steps (gpu-model.ts); one step is one command encoder — zero the gradients, forward, loss,
 * backward, global norm, AdamW — one submission and one 16-byte readback (loss, correct, count,
 * ‖g‖). The batch comes from the same seeded makeBatch and FAVOR+'s W from the same seeded draw as
 * the CPU trainer, so a GPU step and a CPU step see identical inputs.
 */
import { attentionMatrices, type AttentionCache } from '../../core/train/attention-layer';
import { drawFeatureW, drawIndex } from '../../core/train/feature-draws';
import { evalSet, pool } from '../../core/train/eval-set';
import { headDim, initParams } from '../../core/train/model-params';
import { lrAt } from '../../core/train/schedule';
import { makeBatch } from '../../core/train/tasks/index';
import type { Trainer, TrainerOptions } from '../../core/train/trainer';
import { checkParamsFit } from '../../core/train/transfer';
import type { Batch, ParamTensor, StepRecord, TrainConfig } from '../../core/train/types';
import type { GpuAllocator } from '../allocator';
import type { GpuContext } from '../device';
import { withErrorScopes } from '../error-scope';
import { GpuTimer } from '../gpu-timer';
import type { KernelTiming } from '../../core/attention-job';
import { untimedKernelContext, type KernelContext } from '../kernel-context';
import { readFloats } from '../readback';
import { encodeAdamw, encodeGradNorm, gradNormScratch } from './adamw';
import { uploadBatch, type GpuBatch } from './gpu-batch';
import { GpuModel } from './gpu-model';

/**
 * A context whose uniforms get one buffer per call: every dispatch of an encoder writes its own
 * parameters (queue.writeBuffer runs before the whole submission, so two calls sharing a uniform
 * role would both see the last write). `reset` restarts the numbering, so the same pass sequence
 * reuses the same buffers every step.
 */
export function perCallUniforms(base: KernelContext, prefix: string): { ctx: KernelContext; reset(): void } {
  let n = 0;
  const a = base.alloc;
  const alloc = Object.create(a) as GpuAllocator;
  alloc.buffer = a.buffer.bind(a);
  alloc.storage = a.storage.bind(a);
  alloc.upload = a.upload.bind(a);
  alloc.uniform = (role, data) => a.uniform(`${prefix}#${n++}:${role}`, data);
  return {
    ctx: { ...base, alloc },
    reset: () => {
      n = 0;
    },
  };
}

/** One optimizer step timed pass by pass (timestamp queries): the bench's per-pass profile. */
export interface StepProfile {
  /** wall time of the step: encoding, submission, GPU work and the readback */
  wallMs: number;
  /** every pass in encoding order (empty without timestamp queries) */
  passes: KernelTiming[];
}

export interface GpuTrainer extends Trainer {
  /** Runs the next optimizer step (it counts as one) with every pass timed. */
  profileStep(): Promise<StepProfile>;
}

export async function createGpuTrainer(
  gpu: GpuContext,
  cfg: TrainConfig,
  opts: TrainerOptions = {},
): Promise<GpuTrainer> {
  const device = gpu.device;
  // the device's one pipeline cache: the 2nd–4th trainer of a comparison compiles nothing
  const base = untimedKernelContext(device);
  const mc = cfg.model;
  const B = cfg.batch;
  const L = cfg.task.seqLen;
  if (L > mc.seqLen) throw new RangeError('trainer: task seqLen exceeds the model’s');
  if (cfg.task.vocab > mc.vocab) throw new RangeError('trainer: task vocab exceeds the model’s');
  if (opts.initial) checkParamsFit(opts.initial, mc);
  const init = opts.initial ?? initParams(mc, cfg.seed);
  const model = new GpuModel(base, mc, init, B * L, B, L);
  const n = model.layout.total;
  const partial = base.alloc.storage('train.gnorm.partial', gradNormScratch(n) * 4);
  const heldOut = evalSet(cfg).map((b, i) => uploadBatch(base, `train.eval.${i}`, b));
  const staging = (floats: number) =>
    base.alloc.buffer('train.staging', floats * 4, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST);
  const stepCtx = perCallUniforms(base, 'step');
  const evalCtx = perCallUniforms(base, 'eval');
  const mapCtx = perCallUniforms(base, 'maps');
  let step = 0;
  let draw = -1;
  let disposed = false;

  const ensureDraw = (t: number) => {
    const k = drawIndex(mc, t);
    if (k === draw) return;
    const w = drawFeatureW(mc, cfg.seed, k);
    if (w) model.setFeatureW(base, w);
    draw = k;
  };

  /** Submits `enc` with copies of `parts` (float ranges of the stats buffer), returns their floats. */
  const finish = async (enc: GPUCommandEncoder, floats: number): Promise<Float32Array> => {
    const st = staging(floats);
    enc.copyBufferToBuffer(model.stats, 0, st, 0, floats * 4);
    device.queue.submit([enc.finish()]);
    await st.mapAsync(GPUMapMode.READ, 0, floats * 4);
    try {
      return new Float32Array(st.getMappedRange(0, floats * 4).slice(0));
    } finally {
      st.unmap();
    }
  };

  const evaluate = async (): Promise<{ loss: number; accuracy: number }> => {
    ensureDraw(Math.max(0, step - 1));
    const parts: { loss: number; correct: number; count: number }[] = [];
    for (const b of heldOut) {
      evalCtx.reset();
      const enc = device.createCommandEncoder({ label: 'train.eval' });
      model.encodeForward(evalCtx.ctx, enc, b);
      const s = await finish(enc, 4);
      parts.push({ loss: s[0]!, correct: s[1]!, count: s[2]! });
    }
    return pool(parts);
  };

  /**
   * One optimizer step. `timer`: time every pass (the profile); `around` then wraps the
   * submission (resolves the timestamps into the encoder before it is finished).
   */
  const runStep = async (
    timer: GpuTimer | null,
    around?: (enc: GPUCommandEncoder, submit: () => Promise<Float32Array>) => Promise<Float32Array>,
  ): Promise<StepRecord> => {
    if (disposed) throw new Error('trainer disposed');
    const t = step;
    ensureDraw(t);
    const batch = makeBatch(cfg.task, B, cfg.seed, t);
    const gb: GpuBatch = uploadBatch(base, 'train.batch', batch);
    const lr = lrAt(cfg.optimizer, t, cfg.steps);
    const run = async () => {
      stepCtx.reset();
      const ctx = timer ? { ...stepCtx.ctx, timer } : stepCtx.ctx;
      const enc = device.createCommandEncoder({ label: `train.step ${t}` });
      enc.clearBuffer(model.grads);
      model.encodeForward(ctx, enc, gb);
      model.encodeBackward(ctx, enc, gb);
      encodeGradNorm(ctx, enc, { grads: model.grads, n, partial, stats: model.stats, clip: cfg.optimizer.clip });
      encodeAdamw(ctx, enc, {
        params: model.params,
        grads: model.grads,
        m: model.m1,
        v: model.m2,
        decay: model.decay,
        stats: model.stats,
        partial,
        n,
        t: t + 1,
        lr,
        opt: cfg.optimizer,
      });
      return around ? around(enc, () => finish(enc, 4)) : finish(enc, 4);
    };
    // the first step compiles every pipeline: a validation error there is a bug, said plainly
    const s = t === 0 ? await withErrorScopes(device, 'GPU training step', run) : await run();
    step++;
    const rec: StepRecord = {
      step: t + 1,
      loss: s[0]!,
      accuracy: s[2]! > 0 ? s[1]! / s[2]! : 0,
      lr,
      gradNorm: s[3]!,
    };
    if ((cfg.evalEvery > 0 && step % cfg.evalEvery === 0) || step === cfg.steps) {
      const e = await evaluate();
      rec.evalLoss = e.loss;
      rec.evalAccuracy = e.accuracy;
    }
    return rec;
  };

  const trainer: GpuTrainer = {
    config: cfg,
    backend: 'webgpu',
    async step(): Promise<StepRecord> {
      return runStep(null);
    },
    async profileStep(): Promise<StepProfile> {
      const timer = new GpuTimer(device, gpu.hasTimestamps, 512);
      let passes: KernelTiming[] = [];
      const t0 = performance.now();
      await runStep(timer, async (enc, s) => {
        timer.resolve(enc);
        const r = timer.resolved();
        const st = r && base.alloc.buffer('train.profile', r.bytes, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST);
        if (r && st) enc.copyBufferToBuffer(r.buffer, 0, st, 0, r.bytes);
        const out = await s();
        if (r && st) {
          await st.mapAsync(GPUMapMode.READ, 0, r.bytes);
          passes = timer.decodeEach(st.getMappedRange(0, r.bytes).slice(0));
          st.unmap();
        }
        return out;
      });
      const wallMs = performance.now() - t0;
      timer.destroy();
      return { wallMs, passes };
    },
    evaluate,
    async params(): Promise<ParamTensor[]> {
      const flat = await readFloats(device, model.params, n);
      return model.layout.tensors.map((t) => ({
        name: t.name,
        shape: t.shape,
        decay: t.decay,
        data: flat.slice(t.offset, t.offset + t.size),
      }));
    },
    async attentionMaps(example: Batch): Promise<Float32Array[][]> {
      // sequence 0 of the example, as a batch of one
      const Le = Math.min(example.seqLen, L);
      const one: Batch = {
        batch: 1,
        seqLen: Le,
        tokens: example.tokens.slice(0, Le),
        targets: example.targets.slice(0, Le),
        mask: example.mask.slice(0, Le),
      };
      ensureDraw(Math.max(0, step - 1));
      mapCtx.reset();
      const gb = uploadBatch(base, 'train.maps', one);
      const enc = device.createCommandEncoder({ label: 'train.maps' });
      model.encodeForward(mapCtx.ctx, enc, gb);
      device.queue.submit([enc.finish()]);
      const H = mc.heads;
      const s = { B: 1, L: Le, H, dh: headDim(mc), causal: mc.causal };
      const out: Float32Array[][] = [];
      for (const a of model.layers) {
        const cache: AttentionCache =
          mc.attention.kind === 'softmax'
            ? { out: new Float32Array(0), p: await readFloats(device, a.p!, H * Le * Le), F: 0 }
            : {
                out: new Float32Array(0),
                phiQ: await readFloats(device, a.phiQ!, Le * H * model.F),
                phiK: await readFloats(device, a.phiK!, Le * H * model.F),
                den: await readFloats(device, a.den!, Le * H),
                F: model.F,
              };
        out.push(attentionMatrices(mc.attention, s, cache));
      }
      return out;
    },
    dispose(): void {
      disposed = true;
      base.alloc.releaseAll();
    },
  };
  return trainer;
}
