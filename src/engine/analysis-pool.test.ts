import { describe, expect, it } from 'vitest';
import { analysisPoolSize, createAnalysisPool } from './analysis-pool';

type Job = { id: number; priority: number };

/** A pool over fake workers (numbers) whose dispatch runs when `flush` is called. */
function setup(size: number) {
  const sent: [worker: number, id: number][] = [];
  let spawned = 0;
  let later: (() => void) | null = null;
  const pool = createAnalysisPool<number, Job>({
    size,
    spawn: () => ++spawned,
    send: (w, job) => sent.push([w, job.id]),
    defer: (fn) => (later = fn),
  });
  const flush = () => {
    const fn = later;
    later = null;
    fn?.();
  };
  return { pool, sent, flush, spawned: () => spawned };
}

describe('analysis pool', () => {
  it('sends a burst by priority to up to `size` workers, one job each, and the rest as workers free up', () => {
    const { pool, sent, flush, spawned } = setup(2);
    // as the store sends them: off-screen coarse/refine, then on-screen coarse/refine
    for (const j of [
      { id: 1, priority: 2 },
      { id: 2, priority: 3 },
      { id: 3, priority: 0 },
      { id: 4, priority: 1 },
      { id: 5, priority: 0 },
    ])
      pool.submit(j);
    expect(sent).toEqual([]); // nothing before the burst is complete
    flush();
    expect(sent).toEqual([
      [1, 3],
      [2, 5],
    ]);
    expect(spawned()).toBe(2);
    pool.finished(5);
    flush();
    expect(sent.at(-1)).toEqual([2, 4]); // the freed worker takes the most urgent waiting job
    pool.finished(3);
    flush();
    expect(sent.at(-1)).toEqual([1, 1]);
    expect(spawned()).toBe(2);
  });

  it('while held, submitted jobs wait (a cancel drops them) and running ones finish; released, the waiting go by priority', () => {
    const { pool, sent, flush, spawned } = setup(2);
    pool.submit({ id: 1, priority: 0 });
    flush();
    expect(sent).toEqual([[1, 1]]);
    pool.hold(true);
    pool.submit({ id: 2, priority: 1 });
    pool.submit({ id: 3, priority: 0 });
    pool.submit({ id: 4, priority: 2 });
    flush();
    expect(sent).toEqual([[1, 1]]);
    expect(spawned()).toBe(1);
    // the running job finishes while held: its worker stays idle
    pool.finished(1);
    flush();
    expect(sent).toHaveLength(1);
    expect(pool.cancel(4)).toEqual({ dropped: true });
    pool.hold(false);
    flush();
    expect(sent.slice(1)).toEqual([
      [1, 3],
      [2, 2],
    ]);
  });

  it('spawns a second worker only when a job waits while the first is busy', () => {
    const { pool, flush, spawned } = setup(3);
    pool.submit({ id: 1, priority: 0 });
    flush();
    pool.finished(1);
    pool.submit({ id: 2, priority: 0 });
    flush();
    expect(spawned()).toBe(1);
  });

  it('a job cancelled while it waits is dropped and never sent; a running one names its worker', () => {
    const { pool, sent, flush } = setup(1);
    pool.submit({ id: 1, priority: 0 });
    pool.submit({ id: 2, priority: 0 });
    flush();
    expect(pool.cancel(2)).toEqual({ dropped: true });
    expect(pool.cancel(1)).toEqual({ worker: 1 });
    pool.finished(1);
    flush();
    expect(sent).toEqual([[1, 1]]);
    expect(pool.cancel(1)).toBeNull();
  });

  it('a removed (failed) worker gets no more jobs; the next job goes to a fresh one', () => {
    const { pool, sent, flush, spawned } = setup(1);
    pool.submit({ id: 1, priority: 0 });
    flush();
    expect(pool.runningOn(1)).toEqual([1]);
    pool.remove(1);
    pool.submit({ id: 2, priority: 0 });
    flush();
    expect(spawned()).toBe(2);
    expect(sent.at(-1)).toEqual([2, 2]);
    expect(pool.workers).toEqual([2]);
  });

  it('sizes the pool one worker per core, between 1 and 3 (2 when the browser does not say)', () => {
    expect([1, 2, 4, 16].map(analysisPoolSize)).toEqual([1, 2, 3, 3]);
    expect(analysisPoolSize(undefined)).toBe(2);
    expect(analysisPoolSize(0)).toBe(2);
  });
});
