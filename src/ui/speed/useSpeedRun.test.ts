import { describe, expect, it } from 'vitest';
import type { BackendInfo } from '../../core/attention-job';
import type { SpeedPoint, SpeedResult } from '../../core/speed-model';
import { shownResult, type SpeedRunState } from './useSpeedRun';

const point = (n: number): SpeedPoint => ({ method: 'exact', n, medianMs: n, minMs: n, runs: 1, bytes: n, gflops: 1 });
const previous = { d: 16, m: 32, points: [point(64)], timing: 'timestamp' } as unknown as SpeedResult;
const base: SpeedRunState = {
  status: 'running',
  result: previous,
  live: [point(64), point(128)],
  request: { d: 64, m: 256, budgetMs: 10_000, layer: false },
  progress: { doneMs: 1500, totalMs: 9000, label: 'exact:128' },
  estimateMs: 9000,
  error: null,
  startedAt: 0,
};
const gpu: BackendInfo = { kind: 'webgpu', adapter: 'test adapter', features: [] };

describe('shownResult', () => {
  it('describes live points by the run’s own request (d, m, budget), the backend in use and the previous run’s timing', () => {
    const r = shownResult(base, gpu)!;
    expect(r.points).toBe(base.live);
    expect([r.d, r.m, r.budgetMs, r.layerConfig]).toEqual([64, 256, 10_000, null]);
    expect([r.backend, r.device, r.timing, r.elapsedMs]).toEqual(['webgpu', 'test adapter', 'timestamp', 1500]);
  });

  it('shows the last complete result when no run is going, or before a run’s first point', () => {
    expect(shownResult({ ...base, status: 'done' }, gpu)).toBe(previous);
    expect(shownResult({ ...base, live: [] }, gpu)).toBe(previous);
    expect(shownResult({ ...base, status: 'idle', result: null, live: [] }, null)).toBeNull();
  });
});
