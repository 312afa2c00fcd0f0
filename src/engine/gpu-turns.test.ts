import { describe, expect, it } from 'vitest';
import { createTurns } from './gpu-turns';

describe('createTurns', () => {
  it('runs turns in arrival order, one at a time; a failing turn does not block the next', async () => {
    const turn = createTurns();
    const log: string[] = [];
    let release!: () => void;
    const first = turn(async () => {
      log.push('a start');
      await new Promise<void>((r) => (release = r));
      log.push('a end');
      return 1;
    });
    const second = turn(async () => {
      log.push('b start');
      return 2;
    });
    const third = turn(() => Promise.reject(new Error('c fails')));
    const fourth = turn(async () => {
      log.push('d start');
      return 4;
    });
    for (let k = 0; k < 5; k++) await Promise.resolve();
    expect(log).toEqual(['a start']);
    release();
    expect(await first).toBe(1);
    expect(await second).toBe(2);
    await expect(third).rejects.toThrow('c fails');
    expect(await fourth).toBe(4);
    expect(log).toEqual(['a start', 'a end', 'b start', 'd start']);
  });

  it('turns a synchronous throw into a rejected turn that does not block the next', async () => {
    const turn = createTurns();
    const bad = turn(() => {
      throw new Error('sync');
    });
    await expect(bad).rejects.toThrow('sync');
    expect(await turn(async () => 'next')).toBe('next');
  });

  it('a turn asked for from inside a running turn waits for it (no overlap)', async () => {
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
    for (let k = 0; k < 5; k++) await Promise.resolve();
    expect(log).toEqual(['outer start']);
    release();
    expect(await outer).toBe('outer');
    expect(await inner).toBe('inner');
    expect(log).toEqual(['outer start', 'outer end', 'inner start']);
  });
});
