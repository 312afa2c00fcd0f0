/**
 * How far the compute in flight has gone, for the status lines that show it (the main comparison's
 * and an embed's): the run, its elapsed time, and whether its progress is worth showing yet.
 */
import { useEffect, useState } from 'react';
import type { RunningCompute } from '../store/store';
import { useStore } from '../store/react';

/** Runs that take longer than this get elapsed time and Cancel even when they were predicted short. */
export const SHOW_ELAPSED_AFTER_MS = 1_000;
/**
 * A run predicted short shows its progress (spinner, "computing…") only once it has taken this
 * long: a slider step's compute answers well within it, and a line that appears and vanishes in
 * the same tenth of a second is flicker — and a relayout of the page while the heatmaps compute.
 */
export const SHOW_PROGRESS_AFTER_MS = 400;

/**
 * Date.now(), refreshed every `everyMs` while `active`. The first refresh comes after `everyMs`, not
 * at once: a run's start re-renders no status line while the compute is still short (until then the
 * value is older than the run's start, so its elapsed time reads 0).
 */
function useNow(active: boolean, everyMs = 250): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs]);
  return now;
}

export interface ComputeProgress {
  /** the run in flight (null when none) */
  running: RunningCompute | null;
  elapsedMs: number;
  /** show that it computes: a long run at once, a short one once it took SHOW_PROGRESS_AFTER_MS */
  showProgress: boolean;
  /** show elapsed time and Cancel: a long run, or one that took SHOW_ELAPSED_AFTER_MS */
  showElapsed: boolean;
}

export function useComputeProgress(): ComputeProgress {
  const running = useStore((s) => (s.compute.status === 'computing' ? (s.compute.running ?? null) : null));
  const now = useNow(running !== null);
  const elapsedMs = running ? Math.max(0, now - running.startedAt) : 0;
  return {
    running,
    elapsedMs,
    showProgress: running !== null && (running.long || elapsedMs >= SHOW_PROGRESS_AFTER_MS),
    showElapsed: running !== null && (running.long || elapsedMs >= SHOW_ELAPSED_AFTER_MS),
  };
}
