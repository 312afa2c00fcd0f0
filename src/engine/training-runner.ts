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

/** One unit of stepping: run `run`'s trainer, whose step costs `flops`. */
export interface LoopEntry {
  run: number;
  trainer: TrainerLike;
  flops: number;
}

/**
 * The control shared by the comparison and the transfer loops: pause / resume / cancel between
 * two units of work, the buffered step messages, progress and the estimate, freeing the trainers.
 */
export interface Loop {
  setFlopsTotal(f: number): void;
  /** the active time starts (after the trainers are built) */
  begin(): void;
  /** steps every entry `steps` times, interleaved (step 1 of each, then step 2, …); false when cancelled */
  stepAll(entries: readonly LoopEntry[], steps: number): Promise<boolean>;
  /** between two units of work that are not steps: flush, wait while paused, yield; false when cancelled */
  between(): Promise<boolean>;
  readonly isCancelled: () => boolean;
  /** one unit of work that is not a posted step (a fit step) is done */
  count(flops: number): void;
  /** posts `cancelled` and frees the trainers */
  cancelled(): void;
  done(exampleTokens: Int32Array, maps: RunMaps[]): void;
  free(): void;
  session(finished: Promise<void>, weights: (run: number) => Promise<ParamTensor[]>): TrainingSession;
}

/** Timed units (steps or fit steps) the training rate is measured over: the recent rate, not the mean since the start. */
export const RATE_WINDOW = 16;

export function createLoop(
  id: number,
  deps: Pick<RunnerDeps, 'now' | 'yieldNow' | 'post' | 'flushMs'>,
  total: number,
  freeTrainers: () => void,
): Loop {
  const flushMs = deps.flushMs ?? 16;
  let paused = false;
  let cancelled = false;
  let disposed = false;
  let wake: (() => void) | null = null;
  let done = 0;
  let flopsDone = 0;
  let flopsTotal = 0;
  // the active time: what the rate and the ETA divide by (not the trainers' build, a pause, or after the end)
  let activeMs = 0;
  let activeSince = 0;
  let clockRunning = false;
  const clockStart = () => {
    activeSince = deps.now();
    clockRunning = true;
  };
  const clockStop = () => {
    if (clockRunning) activeMs += deps.now() - activeSince;
    clockRunning = false;
  };
  const t0 = deps.now();
  let buffer: RunStep[] = [];
  let lastFlush = t0;

  // A trainer's first step compiles its GPU pipelines (seconds on a software adapter, for steps of
  // milliseconds; each attention kind has its own): the first round of steps of every stepAll is left out
  // of the rate, and so of the ETA, or an ETA of hours would show first and fall for a while. The next
  // steps are still slower than the steady ones (caches warming), so the rate is the recent one: over the
  // last RATE_WINDOW timed units, where a rate since the start would trail the steady one for many steps.
  let warmFlops = 0;
  let warmMs = 0;
  /** after each timed unit: the timed FLOPs and active time so far (cumulative), the last RATE_WINDOW + 1 */
  const recent: { flops: number; ms: number }[] = [];
  const activeNow = () => activeMs + (clockRunning ? deps.now() - activeSince : 0);
  const worked = (flops: number, warmUpMs: number | null = null) => {
    done++;
    flopsDone += flops;
    if (warmUpMs === null) {
      recent.push({ flops: flopsDone - warmFlops, ms: activeNow() - warmMs });
      if (recent.length > RATE_WINDOW + 1) recent.shift();
      return;
    }
    warmFlops += flops;
    warmMs += warmUpMs;
  };

  const progress = (): TrainingProgress => {
    const active = activeNow();
    const timed = flopsDone - warmFlops;
    const first = recent[0];
    const last = recent.at(-1);
    // FLOPs per ms: over the window once it holds two samples, else since the warm-up
    const rate =
      first && last && last.ms > first.ms
        ? (last.flops - first.flops) / (last.ms - first.ms)
        : timed > 0 && active > warmMs
          ? timed / (active - warmMs)
          : null;
    return {
      done,
      total,
      elapsedMs: deps.now() - t0,
      etaMs: rate ? (flopsTotal - flopsDone) / rate : null,
      gflops: rate ? rate / 1e6 : null,
    };
  };
  /** `progressToo`: post the progress even without steps (the fit's steps are not posted) */
  const flush = (progressToo = false) => {
    if (buffer.length || progressToo) deps.post({ type: 'steps', id, steps: buffer, progress: progress() });
    buffer = [];
    lastFlush = deps.now();
  };
  const free = () => {
    try {
      freeTrainers();
    } catch {
      // a trainer that fails to free itself must not keep the page's next comparison from starting
    }
  };

  async function waitWhilePaused(): Promise<void> {
    if (!paused || cancelled) return;
    clockStop();
    deps.post({ type: 'paused', id, progress: progress() });
    while (paused && !cancelled) await new Promise<void>((r) => (wake = r));
    if (cancelled) return;
    clockStart();
    deps.post({ type: 'resumed', id });
  }

  const before = async (): Promise<boolean> => {
    if (paused) {
      flush();
      await waitWhilePaused();
    }
    return !cancelled;
  };

  return {
    setFlopsTotal(f) {
      flopsTotal = f;
    },
    begin() {
      clockStart();
      lastFlush = deps.now();
    },
    async stepAll(entries, steps) {
      for (let step = 0; step < steps; step++) {
        for (const e of entries) {
          if (!(await before())) {
            flush();
            return false;
          }
          const t = activeNow();
          const record = await e.trainer.step();
          worked(e.flops, step === 0 ? activeNow() - t : null);
          buffer.push({ run: e.run, record });
          if (deps.now() - lastFlush >= flushMs) flush();
          await deps.yieldNow();
        }
      }
      flush();
      return !cancelled;
    },
    async between() {
      if (!(await before())) return false;
      if (deps.now() - lastFlush >= flushMs) flush(true);
      await deps.yieldNow();
      return !cancelled;
    },
    isCancelled: () => cancelled,
    count(flops) {
      worked(flops);
    },
    cancelled() {
      clockStop();
      deps.post({ type: 'cancelled', id, progress: progress() });
      free();
    },
    done(exampleTokens, maps) {
      clockStop();
      deps.post({ type: 'done', id, progress: progress(), exampleTokens, maps });
    },
    free,
    session(finished, weights) {
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
          if (disposed) throw new Error(`no trained run ${run}`);
          return weights(run);
        },
        dispose() {
          disposed = true;
          cancelled = true;
          wake?.();
          free();
        },
      };
    },
  };
}

export function startTrainingSession(
  id: number,
  setup: TrainingSetup,
  info: { backend: TrainingBackend; device: string; reduced: boolean },
  deps: RunnerDeps,
): TrainingSession {
  let trainers: TrainerLike[] = [];
  const specs = runSpecs(setup);
  const loop = createLoop(id, deps, specs.length * setup.steps, () => {
    for (const t of trainers) {
      try {
        t.dispose();
      } catch {
        // a trainer that fails to free itself must not keep the others alive
      }
    }
    trainers = [];
  });

  async function run(): Promise<void> {
    const flops = specs.map((s) => deps.stepFlops(s.config));
    loop.setFlopsTotal(flops.reduce((a, f) => a + f * setup.steps, 0));
    // trainers are built one by one: a failure names its run and frees the ones already built
    for (const s of specs) {
      trainers.push(await deps.createTrainer(s.config));
      if (loop.isCancelled()) break;
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
    loop.begin();
    const entries = trainers.map((trainer, r) => ({ run: r, trainer, flops: flops[r] }));
    if (!(await loop.stepAll(entries, setup.steps))) return loop.cancelled();
    // the maps of each kind's first run (first seed, the sweep's middle LR) on one held-out example
    const example = deps.example(setup);
    const maps: RunMaps[] = [];
    for (const s of specs) {
      if (s.seed !== setup.seed || s.lrFactor !== 1) continue;
      maps.push({ run: s.index, seqLen: example.seqLen, maps: await trainers[s.index].attentionMaps(example) });
      await deps.yieldNow();
    }
    loop.done(example.tokens.slice(0, example.seqLen), maps);
  }

  const finished = run().catch((e: unknown) => {
    deps.post({ type: 'error', id, error: serializeError(e) });
    loop.free();
  });

  return loop.session(finished, async (run) => {
    const t = trainers[run];
    if (!t) throw new Error(`no trained run ${run}`);
    return t.params();
  });
}
