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
  // settles when the last turn asked for has ended
  let tail: Promise<void> = Promise.resolve();
  // turns asked for and not yet ended
  let open = 0;
  return <T>(work: () => Promise<T>): Promise<T> => {
    const idle = open === 0;
    open++;
    // the tail moves before `work` runs: a turn asked for from inside it (synchronously) waits
    const prev = tail;
    let release!: () => void;
    tail = new Promise<void>((r) => (release = r));
    const end = () => {
      open--;
      release();
    };
    const start = (): Promise<T> => {
      let run: Promise<T>;
      try {
        run = Promise.resolve(work());
      } catch (e) {
        run = Promise.reject(e as Error);
      }
      run.then(end, end);
      return run;
    };
    return idle ? start() : prev.then(start);
  };
}
