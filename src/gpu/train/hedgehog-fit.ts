/**
 * The Hedgehog fit of the transfer experiment on WebGPU — the twin of createHedgehogFit
 * (src/core/train/hedgehog-distill.ts: same batches, same loss, same AdamW, the CPU fit is the
 * reference the e2e/train-step spec holds this one to).
 *
 * The teacher's Q, K, P come from the GPU softmax model's forward cache: the teacher's parameters
 * in a GpuModel of their own (gpu-model.ts), whose encodeForward leaves every layer's q, k and P
 * in its activation buffers (one forward per batch, as the CPU fit's teacherLayers runs
 * modelForward; it stops after the last layer's attention). Per layer and step, in one command encoder: the Hedgehog feature forward
 * (train-feature-maps.wgsl) of the teacher's q and k under the student's Wh, bh; the distillation
 * core (train-hedgehog-distill.wgsl: KL per row, dφq, dφk); the feature backward for dWh, dbh;
 * then one AdamW pass (train-adamw.wgsl, no weight decay, clip scale 1) over a flat buffer that
 * holds only the Hedgehog tensors (l{l}.hh.q.w, hh.q.b, hh.k.w, hh.k.b). One submission and one
 * readback (the rows' KL, summed on the host in f64) per step; the held-out loss is one
 * submission for the EVAL_BATCHES batches.
 */
import { checkFitModels, type HedgehogFitLike } from '../../core/train/hedgehog-distill';
import { evalSet } from '../../core/train/eval-set';
import { headDim } from '../../core/train/model-params';
import { makeBatch } from '../../core/train/tasks/index';
import type { Batch, ModelConfig, ParamTensor, TrainConfig } from '../../core/train/types';
import type { GpuContext } from '../device';
import { withErrorScopes } from '../error-scope';
import { untimedKernelContext, type KernelContext } from '../kernel-context';
import { readFloats } from '../readback';
import { encodeAdamw } from './adamw';
import { encodeFeatureBackward, encodeFeatureForward } from './feature-maps';
import { flatLayout } from './flat-layout';
import { uploadBatch, type GpuBatch } from './gpu-batch';
import { GpuModel } from './gpu-model';
import { perCallUniforms } from './gpu-trainer';
import { encodeHedgehogDistill } from './hedgehog-distill';

export interface GpuHedgehogFit extends HedgehogFitLike {
  step(): Promise<number>;
  heldOutLoss(): Promise<number>;
  params(): Promise<ParamTensor[]>;
  readonly steps: number;
  dispose(): void;
}

const HH = ['hh.q.w', 'hh.q.b', 'hh.k.w', 'hh.k.b'] as const;

/** The GPU twin of createHedgehogFit (same arguments, after the device). */
export async function createGpuHedgehogFit(
  gpu: GpuContext,
  teacher: readonly ParamTensor[],
  teacherModel: ModelConfig,
  student: readonly ParamTensor[],
  cfg: TrainConfig,
  steps: number,
  lr: number,
): Promise<GpuHedgehogFit> {
  const a = checkFitModels(teacherModel, cfg);
  const device = gpu.device;
  const base = untimedKernelContext(device);
  const B = cfg.batch;
  const L = cfg.task.seqLen;
  const H = cfg.model.heads;
  const dh = headDim(cfg.model);
  const m = a.m;
  const F = 2 * m;
  const layers = cfg.model.layers;
  const R = B * L;
  const norm = layers * H * B * L;
  const name = (l: number, t: string) => `l${l}.${t}`;
  const hhList = Array.from({ length: layers }, (_, l) =>
    HH.map((t) => {
      const p = student.find((x) => x.name === name(l, t));
      if (!p) throw new RangeError(`distill: missing ${name(l, t)}`);
      return p;
    }),
  ).flat();
  const layout = flatLayout(hhList);
  const n = layout.total;
  const flat = new Float32Array(n);
  hhList.forEach((p, i) => flat.set(p.data, layout.tensors[i]!.offset));
  const alloc = base.alloc;
  const params = alloc.upload('fit.params', flat);
  const grads = alloc.storage('fit.grads', n * 4);
  const m1 = alloc.upload('fit.adam.m', new Float32Array(n));
  const m2 = alloc.upload('fit.adam.v', new Float32Array(n));
  const decay = alloc.upload('fit.decay', new Float32Array(n));
  // AdamW's stats[4] is the clip scale: the fit does not clip (adamwStep on the raw gradient)
  const stats = alloc.upload('fit.stats', Float32Array.from([0, 0, 0, 0, 1, 0, 0, 0]));
  const partial = alloc.storage('fit.partial', 4);
  const teacherGpu = new GpuModel(base, teacherModel, teacher, R, B, L);
  const scratch = (role: string, floats: number) => alloc.storage(`fit.${role}`, Math.max(1, floats) * 4);
  const phiQ = scratch('phiq', R * H * F);
  const phiK = scratch('phik', R * H * F);
  const dPhiQ = scratch('dphiq', R * H * F);
  const dPhiK = scratch('dphik', R * H * F);
  const dx = scratch('dx', R * H * dh);
  const g = scratch('g', B * H * L * L);
  const heldOut = evalSet(cfg);
  const heldOutGpu = heldOut.map((b, i) => uploadBatch(base, `fit.eval.${i}`, b));
  const rowsPerLayer = B * H * L;
  const kl = scratch('kl', heldOut.length * layers * rowsPerLayer);
  const stepCtx = perCallUniforms(base, 'fit.step');
  const evalCtx = perCallUniforms(base, 'fit.eval');
  const optimizer = { ...cfg.optimizer, weightDecay: 0 };
  const view = (buf: GPUBuffer, l: number, t: string) => ({
    buffer: buf,
    offset: layout.byName.get(name(l, t))!.offset,
  });
  let t = 0;
  let disposed = false;

  /** The teacher's forward on `b`, then per layer φ, the distillation core and (grads) dWh, dbh. */
  const encodeLayers = (ctx: KernelContext, enc: GPUCommandEncoder, b: GpuBatch, klAt: number, withGrads: boolean) => {
    teacherGpu.encodeForward(ctx, enc, b, 'attention');
    for (let l = 0; l < layers; l++) {
      const act = teacherGpu.layers[l]!;
      const shape = { map: 'hedgehog' as const, B, L, H, dh, m };
      for (const [side, s, x, phi] of [
        ['query', 'q', act.q, phiQ],
        ['key', 'k', act.k, phiK],
      ] as const)
        encodeFeatureForward(ctx, enc, {
          ...shape,
          side,
          x,
          w: view(params, l, `hh.${s}.w`),
          b: view(params, l, `hh.${s}.b`),
          phi,
          role: `fit.l${l}.fm.${s}.fwd`,
        });
      encodeHedgehogDistill(ctx, enc, {
        B,
        L,
        H,
        F,
        causal: cfg.model.causal,
        norm,
        phiQ,
        phiK,
        p: act.p!,
        kl,
        klOffset: klAt + l * rowsPerLayer,
        dPhiQ,
        dPhiK,
        g,
        gradients: withGrads,
        role: `fit.l${l}.hhd`,
      });
      if (!withGrads) continue;
      for (const [side, s, x, phi, dPhi] of [
        ['query', 'q', act.q, phiQ, dPhiQ],
        ['key', 'k', act.k, phiK, dPhiK],
      ] as const)
        encodeFeatureBackward(ctx, enc, {
          ...shape,
          side,
          x,
          w: view(params, l, `hh.${s}.w`),
          phi,
          dPhi,
          dx,
          dw: view(grads, l, `hh.${s}.w`),
          db: view(grads, l, `hh.${s}.b`),
          role: `fit.l${l}.fm.${s}.bwd`,
        });
    }
  };

  /** Submits `enc` with a copy of the first `count` KL rows, returns Σ per batch of (Σ_l Σ_rows KL / norm). */
  const finish = async (enc: GPUCommandEncoder, batches: number): Promise<number[]> => {
    const floats = batches * layers * rowsPerLayer;
    const st = alloc.buffer('fit.staging', floats * 4, GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST);
    enc.copyBufferToBuffer(kl, 0, st, 0, floats * 4);
    device.queue.submit([enc.finish()]);
    await st.mapAsync(GPUMapMode.READ, 0, floats * 4);
    let rows: Float32Array;
    try {
      rows = new Float32Array(st.getMappedRange(0, floats * 4).slice(0));
    } finally {
      st.unmap();
    }
    const out: number[] = [];
    for (let bi = 0; bi < batches; bi++) {
      let sum = 0;
      for (let l = 0; l < layers; l++) {
        let s = 0;
        const o = (bi * layers + l) * rowsPerLayer;
        for (let r = 0; r < rowsPerLayer; r++) s += rows[o + r]!;
        sum += s / norm;
      }
      out.push(sum);
    }
    return out;
  };

  const alive = () => {
    if (disposed) throw new Error('Hedgehog fit disposed');
  };

  const fit: GpuHedgehogFit = {
    steps,
    async step() {
      alive();
      const batch: Batch = makeBatch(cfg.task, B, cfg.seed, t);
      const gb = uploadBatch(base, 'fit.batch', batch);
      const run = async () => {
        stepCtx.reset();
        const ctx = stepCtx.ctx;
        const enc = device.createCommandEncoder({ label: `fit.step ${t}` });
        enc.clearBuffer(grads);
        encodeLayers(ctx, enc, gb, 0, true);
        encodeAdamw(ctx, enc, { params, grads, m: m1, v: m2, decay, stats, partial, n, t: t + 1, lr, opt: optimizer });
        return finish(enc, 1);
      };
      // the first step compiles the pipelines: a validation error there is a bug, said plainly
      const r = t === 0 ? await withErrorScopes(device, 'GPU Hedgehog fit step', run) : await run();
      t++;
      return r[0]!;
    },
    async heldOutLoss() {
      alive();
      evalCtx.reset();
      const enc = device.createCommandEncoder({ label: 'fit.eval' });
      heldOutGpu.forEach((b, i) => encodeLayers(evalCtx.ctx, enc, b, i * layers * rowsPerLayer, false));
      const parts = await withErrorScopes(device, 'GPU Hedgehog fit held-out loss', () => finish(enc, heldOut.length));
      return parts.reduce((s, x) => s + x, 0) / parts.length;
    },
    async params() {
      alive();
      const got = await readFloats(device, params, n);
      const fitted = new Map(layout.tensors.map((x) => [x.name, got.slice(x.offset, x.offset + x.size)]));
      return student.map((p) => ({ ...p, shape: [...p.shape], data: fitted.get(p.name) ?? p.data.slice() }));
    },
    dispose() {
      disposed = true;
      alloc.releaseAll();
    },
  };
  return fit;
}
