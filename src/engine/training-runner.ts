/**
 * The training loop of one comparison, independent of the worker around it (so it is unit-tested
 * with a test double for the trainer): build one trainer per run, then step the runs interleaved —
 * step 1 of every run, then step 2 of every run, … — so the curves grow together and a Pause or a
 * Cancel leaves every run at the same step. Between two optimizer steps the loop yields to the
 * worker's event loop (a message-channel turn, not a clamped timer), so pause / resume / cancel /
 * weights requests are handled within one step. Steps are posted in batches, at most one message
 * per animation frame (16 ms), so a fast GPU does not flood the page with messages.
 *
 * The estimate: FLOPs left (trainStepFlops per run × steps left) ÷ the measured rate (FLOPs done ÷
 * the active time, pauses excluded).
 */
import type { Batch, ParamTensor, StepRecord, TrainConfig } from '../core/train/types';
import type {
  RunInfo,
  RunMaps,
  RunStep,
  TrainingBackend,
  TrainingProgress,
  TrainingResponse,
} from './training-protocol';
import { runSpecs, type TrainingSetup } from './training-setup';
import { serializeError } from './serialize-error';

/** The part of src/core/train/trainer.ts `Trainer` the loop uses (both backends implement it). */
export interface TrainerLike {
  step(): Promise<StepRecord>;
  params(): Promise<ParamTensor[]>;
  attentionMaps(example: Batch): Promise<Float32Array[][]>;
  dispose(): void;
}

export interface RunnerDeps {
  createTrainer(cfg: TrainConfig): Promise<TrainerLike>;
  /** FLOPs of one optimizer step (src/core/train/flops.ts) */
  stepFlops(cfg: TrainConfig): number;
  /** the one example sequence whose attention maps are shown at the end */
  example(setup: TrainingSetup): Batch;
  now(): number;
  /** give the event loop one turn */
  yieldNow(): Promise<void>;
  post(msg: TrainingResponse): void;
  /** ms between two step messages (default 16: one per frame) */
  flushMs?: number;
}

export interface TrainingSession {
  readonly id: number;
  /** resolves when the session ended (done, cancelled or failed); never rejects */
  readonly finished: Promise<void>;
  pause(): void;
  resume(): void;
  cancel(): void;
  weights(run: number): Promise<ParamTensor[]>;
  /** free the trainers (after the next comparison started, or the worker closes) */
  dispose(): void;
}

export function startTrainingSession(
  id: number,
  setup: TrainingSetup,
  info: { backend: TrainingBackend; device: string; reduced: boolean },
  deps: RunnerDeps,
): TrainingSession {
  const flushMs = deps.flushMs ?? 16;
  let paused = false;
  let cancelled = false;
  let wake: (() => void) | null = null;
  let trainers: TrainerLike[] = [];
  let disposed = false;

  const specs = runSpecs(setup);
  const total = specs.length * setup.steps;
  let done = 0;
  let flopsDone = 0;
  let flopsTotal = 0;
  let activeMs = 0;
  let activeSince = 0;
  const t0 = deps.now();

  const progress = (): TrainingProgress => {
    const active = activeMs + (paused ? 0 : deps.now() - activeSince);
    const rate = active > 0 && flopsDone > 0 ? flopsDone / active : null; // FLOPs per ms
    return {
      done,
      total,
      elapsedMs: deps.now() - t0,
      etaMs: rate ? (flopsTotal - flopsDone) / rate : null,
      gflops: rate ? rate / 1e6 : null,
    };
  };

  const freeTrainers = () => {
    for (const t of trainers) {
      try {
        t.dispose();
      } catch {
        // a trainer that fails to free itself must not keep the others alive
      }
    }
    trainers = [];
  };

  async function waitWhilePaused(): Promise<void> {
    if (!paused || cancelled) return;
    activeMs += deps.now() - activeSince;
    deps.post({ type: 'paused', id, progress: progress() });
    while (paused && !cancelled) await new Promise<void>((r) => (wake = r));
    activeSince = deps.now();
    if (!cancelled) deps.post({ type: 'resumed', id });
  }

  async function run(): Promise<void> {
    const flops = specs.map((s) => deps.stepFlops(s.config));
    flopsTotal = flops.reduce((a, f) => a + f * setup.steps, 0);
    // trainers are built one by one: a failure names its run and frees the ones already built
    for (const s of specs) {
      trainers.push(await deps.createTrainer(s.config));
      if (cancelled) break;
    }
    const runs: RunInfo[] = specs.map((s, i) => ({
      index: s.index,
      kind: s.kind,
      seed: s.seed,
      lr: s.lr,
      lrFactor: s.lrFactor,
      flopsPerStep: flops[i],
    }));
    deps.post({ type: 'started', id, backend: info.backend, device: info.device, setup, reduced: info.reduced, runs });
    activeSince = deps.now();
    let buffer: RunStep[] = [];
    let lastFlush = deps.now();
    const flush = () => {
      if (buffer.length) deps.post({ type: 'steps', id, steps: buffer, progress: progress() });
      buffer = [];
      lastFlush = deps.now();
    };
    outer: for (let step = 0; step < setup.steps; step++) {
      for (let r = 0; r < trainers.length; r++) {
        if (paused) {
          flush();
          await waitWhilePaused();
        }
        if (cancelled) break outer;
        const record = await trainers[r].step();
        done++;
        flopsDone += flops[r];
        buffer.push({ run: r, record });
        if (deps.now() - lastFlush >= flushMs) flush();
        await deps.yieldNow();
      }
    }
    flush();
    if (cancelled) {
      activeMs += paused ? 0 : deps.now() - activeSince;
      deps.post({ type: 'cancelled', id, progress: progress() });
      freeTrainers();
      return;
    }
    // the maps of each kind's first run (first seed, the sweep's middle LR) on one held-out example
    const example = deps.example(setup);
    const maps: RunMaps[] = [];
    for (const s of specs) {
      if (s.seed !== setup.seed || s.lrFactor !== 1) continue;
      maps.push({ run: s.index, seqLen: example.seqLen, maps: await trainers[s.index].attentionMaps(example) });
      await deps.yieldNow();
    }
    const p = progress();
    deps.post({ type: 'done', id, progress: p, exampleTokens: example.tokens.slice(0, example.seqLen), maps });
  }

  const finished = run().catch((e: unknown) => {
    deps.post({ type: 'error', id, error: serializeError(e) });
    freeTrainers();
  });

  return {
    id,
    finished,
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      wake?.();
      wake = null;
    },
    cancel() {
      cancelled = true;
      paused = false;
      wake?.();
      wake = null;
    },
    async weights(run) {
      const t = trainers[run];
      if (!t || disposed) throw new Error(`no trained run ${run}`);
      return t.params();
    },
    dispose() {
      disposed = true;
      cancelled = true;
      wake?.();
      freeTrainers();
    },
  };
}
