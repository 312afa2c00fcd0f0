import { describe, expect, it } from 'vitest';
import { createTurns } from './gpu-turns';

describe('createTurns', () => {
  it('starts a turn synchronously when none is open, and queues later ones in arrival order, one at a time', async () => {
    const turn = createTurns();
    const log: string[] = [];
    let release!: () => void;
    const first = turn(async () => {
      log.push('a start');
      await new Promise<void>((r) => (release = r));
      log.push('a end');
      return 1;
    });
    // synchronous start
    expect(log).toEqual(['a start']);
    const second = turn(async () => {
      log.push('b start');
      return 2;
    });
    const third = turn(() => Promise.reject(new Error('c fails')));
    const fourth = turn(async () => {
      log.push('d start');
      return 4;
    });
    await Promise.resolve();
    expect(log).toEqual(['a start']);
    release();
    expect(await first).toBe(1);
    expect(await second).toBe(2);
    await expect(third).rejects.toThrow('c fails');
    expect(await fourth).toBe(4);
    expect(log).toEqual(['a start', 'a end', 'b start', 'd start']);
    // idle again: the next starts at once
    let started = false;
    const fifth = turn(async () => {
      started = true;
      return 5;
    });
    expect(started).toBe(true);
    expect(await fifth).toBe(5);
  });

  it('turns a synchronous throw into a rejected turn that does not block the next', async () => {
    const turn = createTurns();
    const bad = turn(() => {
      throw new Error('sync');
    });
    await expect(bad).rejects.toThrow('sync');
    expect(await turn(async () => 'next')).toBe('next');
  });

  it('a turn asked for synchronously from inside a running turn waits for it (no overlap)', async () => {
    const turn = createTurns();
    const log: string[] = [];
    let inner: Promise<string> | undefined;
    let release!: () => void;
    const outer = turn(async () => {
      log.push('outer start');
      inner = turn(async () => {
        log.push('inner start');
        return 'inner';
      });
      await new Promise<void>((r) => (release = r));
      log.push('outer end');
      return 'outer';
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(log).toEqual(['outer start']);
    release();
    expect(await outer).toBe('outer');
    expect(await inner).toBe('inner');
    expect(log).toEqual(['outer start', 'outer end', 'inner start']);
  });
});
