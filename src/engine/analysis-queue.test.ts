import { describe, expect, it } from 'vitest';
import { createAnalysisQueue, createQueueRunner } from './analysis-queue';

const order = (q: ReturnType<typeof createAnalysisQueue<{ id: number; priority: number }>>) => {
  const out: number[] = [];
  for (let j = q.take(); j; j = q.take()) out.push(j.id);
  return out;
};

describe('analysis queue', () => {
  it('runs lower priorities first and keeps arrival order within a priority', () => {
    const q = createAnalysisQueue<{ id: number; priority: number }>();
    // refine / coarse of three analyses as the store sends them: coarse, refine per analysis
    [
      { id: 1, priority: 2 }, // off screen, coarse
      { id: 2, priority: 3 }, // off screen, refine
      { id: 3, priority: 0 }, // on screen, coarse
      { id: 4, priority: 1 }, // on screen, refine
      { id: 5, priority: 0 },
      { id: 6, priority: 1 },
    ].forEach((j) => q.push(j));
    expect(order(q)).toEqual([3, 5, 4, 6, 1, 2]);
  });

  it('drops a waiting job, and says so only when it was waiting', () => {
    const q = createAnalysisQueue<{ id: number; priority: number }>();
    q.push({ id: 1, priority: 0 });
    q.push({ id: 2, priority: 1 });
    q.push({ id: 3, priority: 1 });
    expect(q.take()?.id).toBe(1);
    expect(q.drop(1)).toBe(false); // running already
    expect(q.drop(2)).toBe(true);
    expect(q.drop(2)).toBe(false);
    expect(q.size).toBe(1);
    expect(order(q)).toEqual([3]);
  });
});

describe('queue runner', () => {
  const tick = () => new Promise((r) => setTimeout(r, 0));
  /** a runner whose jobs end when the test says so; `log` gets 'start id' and 'end id' */
  const setup = () => {
    const log: string[] = [];
    const finish = new Map<number, () => void>();
    const runner = createQueueRunner<{ id: number; priority: number }>(async (job) => {
      log.push(`start ${job.id}`);
      await new Promise<void>((r) => finish.set(job.id, r));
      log.push(`end ${job.id}`);
      if (job.id === 99) throw new Error('a failing job');
    });
    const end = async (id: number) => {
      finish.get(id)!();
      await tick();
      await tick();
    };
    return { log, runner, end };
  };

  it('runs a burst in priority order, not in arrival order, one job at a time', async () => {
    const { log, runner, end } = setup();
    // as the store sends them: each panel's coarse and full stage in turn (2, 3 off screen; 0, 1 on screen)
    runner.push({ id: 1, priority: 2 });
    runner.push({ id: 2, priority: 3 });
    runner.push({ id: 3, priority: 0 });
    runner.push({ id: 4, priority: 1 });
    await tick();
    expect(log).toEqual(['start 3']);
    expect(runner.waiting).toBe(3);
    await end(3);
    await end(4);
    await end(1);
    await end(2);
    expect(log).toEqual(['start 3', 'end 3', 'start 4', 'end 4', 'start 1', 'end 1', 'start 2', 'end 2']);
  });

  it('a job pushed while one runs goes before the waiting ones of a later priority; a dropped job never starts', async () => {
    const { log, runner, end } = setup();
    runner.push({ id: 1, priority: 5 });
    await tick();
    runner.push({ id: 2, priority: 4 });
    runner.push({ id: 3, priority: 1 });
    runner.push({ id: 4, priority: 0 });
    expect(runner.drop(1)).toBe(false); // running
    expect(runner.drop(4)).toBe(true);
    await end(1);
    await end(3);
    await end(2);
    expect(log).toEqual(['start 1', 'end 1', 'start 3', 'end 3', 'start 2', 'end 2']);
    expect(runner.waiting).toBe(0);
  });

  it('goes on with the next job after one that throws', async () => {
    const { log, runner, end } = setup();
    runner.push({ id: 99, priority: 0 });
    runner.push({ id: 2, priority: 0 });
    await tick();
    await end(99);
    await end(2);
    expect(log).toEqual(['start 99', 'end 99', 'start 2', 'end 2']);
  });
});
