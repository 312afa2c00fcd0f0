import { describe, expect, it } from 'vitest';
import type { BackendInfo } from '../core/attention-job';
import type { ComputeRequest, ComputeResult } from '../engine/protocol';
import type { EngineLike } from '../store/controller';
import { createLazyEngine } from './lazy-engine';

const info: BackendInfo = { kind: 'cpu', reason: 'test' };
function fake() {
  const created: string[] = [];
  const engine: EngineLike = {
    started: Promise.resolve(info),
    backend: () => info,
    warming: () => false,
    calibration: () => null,
    onSwitch: () => () => {},
    cancel: () => false,
    onBackendChange: (cb) => {
      created.push('listen');
      setTimeout(() => cb(info, 'because'), 0);
      return () => {};
    },
    compute: (req: ComputeRequest) => Promise.resolve({ id: 1, params: req.params } as unknown as ComputeResult),
    analyze: <T>() => Promise.resolve('v' as T),
  };
  return { created, create: () => (created.push('engine'), engine) };
}

describe('createLazyEngine', () => {
  it('creates no engine and resolves no `started` until started', async () => {
    const f = fake();
    const lazy = createLazyEngine(f.create);
    let isReady = false;
    void lazy.started.then(() => (isReady = true));
    await new Promise((r) => setTimeout(r, 5));
    expect(f.created).toEqual([]);
    expect(isReady).toBe(false);
    expect(lazy.backend()).toBeNull();
    const changes: string[] = [];
    lazy.onBackendChange((_b, why) => changes.push(why));
    lazy.start();
    lazy.start();
    expect(await lazy.started).toEqual(info);
    expect(f.created).toEqual(['engine', 'listen']);
    expect(lazy.backend()).toEqual(info);
    await new Promise((r) => setTimeout(r, 5));
    expect(changes).toEqual(['because']); // listeners registered before the start are kept
    expect(await lazy.analyze('op', {})).toBe('v');
  });
});
