/**
 * The analysis worker's queue: jobs run one at a time, lowest priority number first, and in arrival
 * order within a priority. The store numbers them (src/store/analysis-runs.ts): the coarse stages of
 * the analyses on screen, then their refinements, then the same for those off screen. A job can be
 * dropped while it waits (a superseded or cancelled request never starts). `createQueueRunner` runs a
 * worker's jobs from such a queue one at a time: the analysis worker's, and the engine worker's
 * analyses on the GPU.
 */
import type { AnalyzeMessage } from './protocol';

export interface QueuedJob {
  id: number;
  priority: number;
}

/** An analysis request as a worker queues it (both workers' runners). */
export type AnalysisJob = QueuedJob & Pick<AnalyzeMessage, 'op' | 'payload'>;

/** The queued form of an 'analyze' message (priority 0 when it has none). */
export const analysisJob = (msg: AnalyzeMessage): AnalysisJob => ({
  id: msg.id,
  op: msg.op,
  payload: msg.payload,
  priority: msg.priority ?? 0,
});

export interface AnalysisQueue<J extends QueuedJob> {
  push(job: J): void;
  /** the next job to run (removed), or undefined when none waits */
  take(): J | undefined;
  /** removes a waiting job; false when it is not waiting (running, finished or unknown) */
  drop(id: number): boolean;
  readonly size: number;
}

export function createAnalysisQueue<J extends QueuedJob>(): AnalysisQueue<J> {
  const jobs: J[] = [];
  return {
    push(job) {
      // after every job of the same or a more urgent priority: stable within a priority
      let i = jobs.length;
      while (i > 0 && jobs[i - 1]!.priority > job.priority) i--;
      jobs.splice(i, 0, job);
    },
    take: () => jobs.shift(),
    drop(id) {
      const i = jobs.findIndex((j) => j.id === id);
      if (i < 0) return false;
      jobs.splice(i, 1);
      return true;
    },
    get size() {
      return jobs.length;
    },
  };
}

export interface QueueRunner<J extends QueuedJob> {
  /** queues a job; it starts once the jobs before it have ended */
  push(job: J): void;
  /** removes a waiting job (it never starts); false when it is not waiting */
  drop(id: number): boolean;
  /** jobs waiting (not the one running) */
  readonly waiting: number;
}

/**
 * A worker's jobs run one at a time from the queue. The next one is picked a macrotask after a job
 * is pushed or ends, so that the messages of a burst that have arrived by then are ordered by priority
 * (the store sends an analysis's stages one panel after another, not in priority order). The browser
 * may run that macrotask before the rest of a burst sent as separate messages is delivered (seen in a
 * full test run): then the first job sent runs first. So the client sends the analyses asked in one task
 * as one message (worker-requests.ts `sendSoon`), whose jobs are all pushed before the pick.
 * `run` reports its own failures (the runner goes on with the next job either way).
 */
export function createQueueRunner<J extends QueuedJob>(run: (job: J) => Promise<void>): QueueRunner<J> {
  const queue = createAnalysisQueue<J>();
  let running = false;
  let picking = false;
  const next = async (): Promise<void> => {
    if (running) return;
    const job = queue.take();
    if (!job) return;
    running = true;
    try {
      await run(job);
    } catch {
      // run reports its own errors; a throw here must not stop the queue
    } finally {
      running = false;
      schedule();
    }
  };
  const schedule = (): void => {
    if (running || picking) return;
    picking = true;
    setTimeout(() => {
      picking = false;
      void next();
    }, 0);
  };
  return {
    push(job) {
      queue.push(job);
      schedule();
    },
    drop: (id) => queue.drop(id),
    get waiting() {
      return queue.size;
    },
  };
}
