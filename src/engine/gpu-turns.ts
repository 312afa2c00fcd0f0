/**
 * Turns on the GPU inside the engine worker: compute requests and the speed run's timed points each
 * run alone, in arrival order, so a timed point never overlaps a compute (and the compute's
 * latency never includes a benchmark). A failing turn does not block the next.
 *
 * A turn asked for while none is running or waiting starts at once (synchronously, not a microtask
 * later): an analysis batch then records and submits its GPU work before its caller goes on, so the
 * caller's next CPU work (the next grid point's inputs) overlaps the GPU's (error-sweeps.ts errorVsD).
 */
export function createTurns(): <T>(work: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  // turns asked for and not yet settled
  let open = 0;
  return <T>(work: () => Promise<T>): Promise<T> => {
    let run: Promise<T>;
    if (open === 0) {
      try {
        run = Promise.resolve(work());
      } catch (e) {
        run = Promise.reject(e as Error);
      }
    } else run = tail.then(work, work);
    open++;
    const settled = () => {
      open--;
    };
    tail = run.then(settled, settled);
    return run;
  };
}
