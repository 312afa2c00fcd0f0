/**
 * Turns on the GPU inside the engine worker: compute requests and the speed run's timed points each
 * run alone, in arrival order, so a timed point never overlaps a compute (and the compute's
 * latency never includes a benchmark). A failing turn does not block the next.
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
