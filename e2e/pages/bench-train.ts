// In-page driver of e2e/bench-train.mjs: optimizer steps of the same training configuration on the
// CPU twins (src/core/train/trainer.ts) and on the WebGPU trainer (src/gpu/train/gpu-trainer.ts,
// when it is built in), in this one page, plus the exact attention kernel's time at the model's
// attention shape for a GFLOP/s reference. Each call times `steps` consecutive optimizer steps of a
// trainer kept per (backend, config), so the bench can interleave the backends round by round.
import { createCpuTrainer, type Trainer } from '../../src/core/train/trainer';
import { trainStepFlops } from '../../src/core/train/flops';
import type { TrainConfig } from '../../src/core/train/types';
import { acquireGpu, type GpuContext } from '../../src/gpu/device';
import { createWebGpuBackend, type WebGpuBackend } from '../../src/gpu/webgpu-backend';
import { runSpecs, defaultSetup, type TrainKind, type TrainingSetup } from '../../src/engine/training-setup';

import { createGpuTrainer, type GpuTrainer } from '../../src/gpu/train/gpu-trainer';

let gpu: Promise<GpuContext | null> | null = null;
const gpuContext = () => (gpu ??= acquireGpu().then((a) => (a.ok ? a.gpu : null)));
let backend: WebGpuBackend | null = null;

const trainers = new Map<string, Trainer>();

function configFor(kind: TrainKind, over: Partial<TrainingSetup>): TrainConfig {
  const setup: TrainingSetup = {
    ...defaultSetup('webgpu'),
    ...over,
    kinds: [kind],
    lr: ['auto'],
    seeds: 1,
    sweep: false,
  };
  return runSpecs(setup)[0].config;
}

async function trainerFor(which: 'cpu' | 'webgpu', cfg: TrainConfig): Promise<Trainer> {
  const key = `${which}|${JSON.stringify(cfg)}`;
  let t = trainers.get(key);
  if (t) return t;
  if (which === 'cpu') t = createCpuTrainer(cfg);
  else {
    const g = await gpuContext();
    if (!g) throw new Error('no WebGPU adapter');
    t = await createGpuTrainer(g, cfg);
  }
  trainers.set(key, t);
  return t;
}

declare global {
  interface Window {
    trainBench: unknown;
  }
}

window.trainBench = {
  async info() {
    const g = await gpuContext();
    return { adapter: g?.adapterName ?? null, gpuTrainer: true, timestamps: g?.hasTimestamps ?? false };
  },
  /** Time `steps` optimizer steps; returns ms per step and the model's GFLOP/s. */
  async steps(which: 'cpu' | 'webgpu', kind: TrainKind, over: Partial<TrainingSetup>, steps: number) {
    const cfg = configFor(kind, over);
    const t = await trainerFor(which, cfg);
    const t0 = performance.now();
    let last = null;
    for (let i = 0; i < steps; i++) last = await t.step();
    const ms = (performance.now() - t0) / steps;
    const flops = trainStepFlops(cfg.model, { batch: cfg.batch, seqLen: cfg.task.seqLen });
    return { ms, gflops: flops / ms / 1e6, flops, loss: last?.loss ?? null };
  },
  /**
   * One WebGPU optimizer step of `kind` timed pass by pass (after `warm` untimed steps): per pass
   * its label and GPU ms (timestamp queries), and the step's wall ms.
   */
  async profile(kind: TrainKind, over: Partial<TrainingSetup>, warm: number) {
    const cfg = configFor(kind, over);
    const t = (await trainerFor('webgpu', cfg)) as GpuTrainer;
    for (let i = 0; i < warm; i++) await t.step();
    return t.profileStep();
  },
  /** The exact attention kernel at the model's attention shape (n = L, d = dh): GPU ms and GFLOP/s (4n²d FLOPs). */
  async exact(n: number, d: number) {
    const g = await gpuContext();
    if (!g) return null;
    backend ??= createWebGpuBackend(g);
    const r = await backend.timeKernel({ kernel: 'exact', n, d, repeats: 5 });
    return { ms: r.medianMs, gflops: (4 * n * n * d) / r.medianMs / 1e6, source: r.source };
  },
};
