/**
 * The analysis workers as a pool: jobs wait here, in one priority queue (src/engine/analysis-queue.ts),
 * and each goes to a worker only when that worker is free, so priorities hold across the whole pool
 * (the coarse stages on screen first, whichever worker is free) and a job cancelled while it waits
 * never reaches a worker. Workers are spawned lazily, up to `size`: an embed that asks for one
 * analysis never starts a second worker. Why several: the analyses are CPU sweeps (seconds on a
 * laptop), and after a step of a slider the page's nine run while the main thread and the engine
 * worker are idle — one worker leaves every other core idle too.
 * Transport-free: `spawn` and `send` are the client's (src/engine/engine-client.ts); tests pass fakes.
 */
import { createAnalysisQueue } from './analysis-queue';

export interface PoolJob {
  id: number;
  priority: number;
}

export interface AnalysisPool<W, J extends PoolJob> {
  /** Queues `job`; it is sent once a worker is free (after the current burst of submits). */
  submit(job: J): void;
  /** A waiting job is removed ('dropped'); a running one gives its worker (to send the cancel to). */
  cancel(id: number): { dropped: true } | { worker: W } | null;
  /** The job's final answer arrived (or it was rejected): its worker takes the next job. */
  finished(id: number): void;
  /** Forgets a worker that failed; the jobs it ran are the caller's to reject (`runningOn`). */
  remove(worker: W): void;
  /** ids of the jobs sent to `worker` and not yet finished */
  runningOn(worker: W): number[];
  /**
   * While held, queued jobs stay queued (running ones go on); releasing sends them. The client
   * holds the pool while a live compute is in flight, so the figure the user is looking at does
   * not share the cores with sweeps that start at the same step.
   */
  hold(held: boolean): void;
  /** every worker spawned so far (for dispose) */
  readonly workers: readonly W[];
}

/** How many analysis workers: one per core, at most 3 (the engine worker and the page need the rest on bigger machines). */
export function analysisPoolSize(hardwareConcurrency: number | undefined): number {
  const cores =
    Number.isFinite(hardwareConcurrency) && hardwareConcurrency! >= 1 ? Math.floor(hardwareConcurrency!) : 2;
  return Math.max(1, Math.min(3, cores));
}

export function createAnalysisPool<W, J extends PoolJob>(opts: {
  size: number;
  spawn: () => W;
  send: (worker: W, job: J) => void;
  /** runs the dispatch after the current burst of submits (default setTimeout 0) */
  defer?: (fn: () => void) => void;
}): AnalysisPool<W, J> {
  const size = Math.max(1, Math.floor(opts.size));
  const defer = opts.defer ?? ((fn: () => void) => setTimeout(fn, 0));
  const queue = createAnalysisQueue<J>();
  const workers: W[] = [];
  const idle: W[] = [];
  const running = new Map<number, W>();
  let scheduled = false;
  let held = false;

  function dispatch(): void {
    scheduled = false;
    while (queue.size > 0 && !held) {
      let w = idle.shift();
      if (w === undefined && workers.length < size) {
        w = opts.spawn();
        workers.push(w);
      }
      if (w === undefined) return;
      const job = queue.take()!;
      running.set(job.id, w);
      opts.send(w, job);
    }
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    defer(dispatch);
  }

  return {
    submit(job) {
      queue.push(job);
      schedule();
    },
    cancel(id) {
      if (queue.drop(id)) return { dropped: true };
      const w = running.get(id);
      return w === undefined ? null : { worker: w };
    },
    finished(id) {
      const w = running.get(id);
      if (w === undefined) return;
      running.delete(id);
      // a worker still running another job of ours (after a removal race) is not idle
      if (workers.includes(w) && ![...running.values()].includes(w)) idle.push(w);
      schedule();
    },
    remove(worker) {
      const i = workers.indexOf(worker);
      if (i >= 0) workers.splice(i, 1);
      const j = idle.indexOf(worker);
      if (j >= 0) idle.splice(j, 1);
      for (const [id, w] of running) if (w === worker) running.delete(id);
      schedule();
    },
    hold(on) {
      held = on;
      if (!on) schedule();
    },
    runningOn(worker) {
      return [...running].filter(([, w]) => w === worker).map(([id]) => id);
    },
    get workers() {
      return workers;
    },
  };
}
