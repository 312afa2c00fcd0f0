/**
 * Turns on the GPU inside the engine worker: compute requests and the speed run's timed points each
 * run alone, in arrival order, so a timed point never overlaps a compute (and the compute's
 * latency never includes a benchmark). A failing turn does not block the next.
 *
 * An analysis batch's turn ends at its submission, not its read-back (gpu/analysis-backend.ts): the
 * device's queue runs what is submitted in order, so the next batch or compute only queues behind it,
 * and the wall-timed paths wait for the queue before they time (gpu-timer.ts submitTimed, the
 * attention job's wall-timed stages).
 *
 * A turn always starts from the queue (a microtask later at the earliest), never synchronously inside
 * the call: a synchronous start when the queue was empty (tried for errorVsD's overlap of CPU and GPU
 * work) left `estimatorTiming` running forever on the CPU engine in two of four fresh-clone runs.
 */
export function createTurns(): <T>(work: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
}
