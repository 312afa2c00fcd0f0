/**
 * The analysis worker's queue: jobs run one at a time, lowest priority number first, and in arrival
 * order within a priority. The store numbers them (src/store/analysis-runs.ts): the coarse stages of
 * the analyses on screen, then their refinements, then the same for those off screen. A job can be
 * dropped while it waits (a superseded or cancelled request never starts).
 */
export interface QueuedJob {
  id: number;
  priority: number;
}

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
