/// <reference lib="webworker" />
/**
 * The training worker: one comparison at a time (src/engine/training-runner.ts), on the WebGPU
 * trainer (src/gpu/train/gpu-trainer.ts) when this worker gets an adapter, else on the CPU twins
 * (src/core/train) — with the smaller CPU default when the page asked for the default comparison,
 * and the `started` message says which and why. Every failure becomes an `error` message.
 */
import type { createHedgehogFit } from '../core/train/hedgehog-distill';
import { createCpuTrainer } from '../core/train/trainer';
import { trainStepFlops } from '../core/train/flops';
import { makeBatch } from '../core/train/tasks';
import type { Batch, ParamTensor, TrainConfig } from '../core/train/types';
import { acquireGpu, type GpuContext } from '../gpu/device';
import { createGpuTrainer } from '../gpu/train/gpu-trainer';
import { createGpuHedgehogFit } from '../gpu/train/hedgehog-fit';
import { isSoftwareAdapter } from '../gpu/analysis-backend';
import type { TrainingRequest, TrainingResponse } from './training-protocol';
import { startTrainingSession, type TrainingSession } from './training-runner';
import { startTransferSession } from './transfer-runner';
import { defaultSetup, lectureSetup, taskConfig, type TrainingSetup } from './training-setup';
import { serializeError } from './serialize-error';

declare const self: DedicatedWorkerGlobalScope;

// One device for the worker's lifetime (acquired with the first comparison); a lost device is
// acquired again by the next one.
let gpuPromise: Promise<{ gpu: GpuContext } | { reason: string }> | null = null;
function gpuDevice(): Promise<{ gpu: GpuContext } | { reason: string }> {
  gpuPromise ??= (async () => {
    const acq = await acquireGpu();
    if (!acq.ok) return { reason: acq.reason };
    void acq.gpu.lost.then(() => (gpuPromise = null));
    return { gpu: acq.gpu };
  })();
  return gpuPromise;
}

/** A message-channel turn: unlike setTimeout(0) it is not clamped to 4 ms after a few nestings. */
const channel = new MessageChannel();
const turns: (() => void)[] = [];
channel.port1.onmessage = () => turns.shift()?.();
function yieldNow(): Promise<void> {
  return new Promise((r) => {
    turns.push(r);
    channel.port2.postMessage(null);
  });
}

function post(msg: TrainingResponse): void {
  const transfer: Transferable[] = [];
  if (msg.type === 'done') for (const r of msg.maps) for (const l of r.maps) for (const h of l) transfer.push(h.buffer);
  self.postMessage(msg, transfer);
}

function example(setup: TrainingSetup): Batch {
  // a held-out sequence: a seed no training or eval batch uses
  return makeBatch(taskConfig(setup), 1, (setup.seed ^ 0x0e8a) >>> 0, 0);
}

let session: TrainingSession | null = null;

/**
 * Measured (npm run bench:train, SwiftShader on an idle 2-core machine, default MQAR): a GPU
 * training step's minimum is 8–29% below the CPU twins', its median 0.83–1.06× theirs (it was
 * 3–7× before the register-tiled kernels). Being on par there, a software adapter keeps the CPU
 * twins, which leaves the adapter (the same CPU cores) to the explainer's own kernels; trainer=webgpu
 * forces it.
 */
const SOFTWARE_REASON =
  'the WebGPU adapter is a software rasterizer, which runs on the CPU and trains no faster than the CPU twins';

async function start(
  id: number,
  requested: TrainingSetup | null,
  gpu: 'auto' | 'force' | 'off',
  defaults: 'panel' | 'lecture',
): Promise<void> {
  session?.cancel();
  session?.dispose();
  session = null;
  const acquired = gpu === 'off' ? { reason: 'CPU path requested (?backend=cpu)' } : await gpuDevice();
  let device: GpuContext | null = 'gpu' in acquired ? acquired.gpu : null;
  let reason = 'reason' in acquired ? acquired.reason : '';
  if (device && gpu === 'auto' && isSoftwareAdapter(device.adapterName)) {
    device = null;
    reason = SOFTWARE_REASON;
  }
  const gpuCtx = device;
  const setup = requested ?? (defaults === 'lecture' ? lectureSetup : defaultSetup)(gpuCtx ? 'webgpu' : 'cpu');
  const info = {
    backend: gpuCtx ? ('webgpu' as const) : ('cpu' as const),
    device: gpuCtx ? gpuCtx.adapterName : reason,
    reduced: !gpuCtx && requested === null,
  };
  const deps = {
    createTrainer: async (cfg: TrainConfig, initial?: readonly ParamTensor[]) =>
      gpuCtx ? createGpuTrainer(gpuCtx, cfg, { initial }) : createCpuTrainer(cfg, { initial }),
    // the transfer experiment's Hedgehog fit on this backend too (absent: the CPU twins' fit)
    createFit: gpuCtx
      ? (...args: Parameters<typeof createHedgehogFit>) => createGpuHedgehogFit(gpuCtx, ...args)
      : undefined,
    stepFlops: (cfg: TrainConfig) => trainStepFlops(cfg.model, { batch: cfg.batch, seqLen: cfg.task.seqLen }),
    example,
    now: () => performance.now(),
    yieldNow,
    post,
  };
  // the transfer experiment: phase 1, the Hedgehog fit and phase 2 on this backend
  session = (setup.transfer ? startTransferSession : startTrainingSession)(id, setup, info, deps);
}

self.onmessage = (e: MessageEvent<TrainingRequest>) => {
  const msg = e.data;
  try {
    switch (msg.type) {
      case 'start':
        start(msg.id, msg.setup, msg.gpu, msg.defaults ?? 'panel').catch((err: unknown) =>
          post({ type: 'error', id: msg.id, error: serializeError(err) }),
        );
        break;
      case 'pause':
        if (session?.id === msg.id) session.pause();
        break;
      case 'resume':
        if (session?.id === msg.id) session.resume();
        break;
      case 'cancel':
        if (session?.id === msg.id) session.cancel();
        else post({ type: 'cancelled', id: msg.id, progress: null });
        break;
      case 'weights':
        if (!session || session.id !== msg.id) {
          post({ type: 'weights', id: msg.id, run: msg.run, params: null, error: 'no trained comparison to export' });
          break;
        }
        session
          .weights(msg.run)
          .then((params) => post({ type: 'weights', id: msg.id, run: msg.run, params }))
          .catch((err: unknown) =>
            post({ type: 'weights', id: msg.id, run: msg.run, params: null, error: serializeError(err).message }),
          );
        break;
    }
  } catch (err) {
    post({ type: 'error', id: msg.id, error: serializeError(err) });
  }
};
