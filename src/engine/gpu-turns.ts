/**
 * Turns on the GPU inside the engine worker: compute requests and the speed run's timed points each
 * run alone, in arrival order, so a timed point never overlaps a compute (and the compute's
 * latency never includes a benchmark). A failing turn does not block the next.
 */
export function createTurns(): <T>(work: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
}
