import { describe, expect, it } from 'vitest';
import { createAnalysisQueue } from './analysis-queue';

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
