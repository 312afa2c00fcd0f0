/**
 * The speed panel's run state: one run at a time on the engine worker, with live points and
 * progress; Cancel (or a failure) keeps the previous complete result on screen.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { isEngineError } from '../../core/errors';
import type { BackendInfo } from '../../core/attention-job';
import type { SpeedPoint, SpeedRequest, SpeedResult } from '../../core/speed-model';
import { useController } from '../../store/react';

export type SpeedStatus = 'idle' | 'running' | 'done' | 'cancelled' | 'error';

export interface SpeedRunState {
  status: SpeedStatus;
  /** the last complete run */
  result: SpeedResult | null;
  /** points of the run in progress */
  live: SpeedPoint[];
  /** what the run in progress (or the last one) was asked for */
  request: SpeedRequest | null;
  progress: { doneMs: number; totalMs: number; label: string } | null;
  estimateMs: number | null;
  error: string | null;
  startedAt: number | null;
}

const INITIAL: SpeedRunState = {
  status: 'idle',
  result: null,
  live: [],
  request: null,
  progress: null,
  estimateMs: null,
  error: null,
  startedAt: null,
};

export function useSpeedRun() {
  const controller = useController();
  const [state, setState] = useState<SpeedRunState>(INITIAL);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const run = useCallback(
    (req: SpeedRequest) => {
      abort.current?.abort();
      const ac = new AbortController();
      abort.current = ac;
      setState((s) => ({
        ...s,
        status: 'running',
        live: [],
        request: req,
        progress: null,
        estimateMs: null,
        error: null,
        startedAt: performance.now(),
      }));
      controller
        .runSpeed(req, {
          signal: ac.signal,
          onProgress: (p) => {
            if (abort.current !== ac) return;
            setState((s) => ({
              ...s,
              live: p.point ? [...s.live, p.point] : s.live,
              progress: { doneMs: p.doneMs, totalMs: p.totalMs, label: p.label },
              estimateMs: p.estimateMs ?? s.estimateMs,
            }));
          },
        })
        .then(
          (result) => {
            if (abort.current !== ac) return;
            abort.current = null;
            setState((s) => ({ ...s, status: 'done', result, live: [], progress: null }));
          },
          (e: unknown) => {
            if (abort.current !== ac) return; // superseded by a newer run
            abort.current = null;
            const cancelled = isEngineError(e) && e.code === 'cancelled';
            setState((s) => ({
              ...s,
              status: cancelled ? 'cancelled' : 'error',
              live: [],
              progress: null,
              error: cancelled ? null : e instanceof Error ? e.message : String(e),
            }));
          },
        );
    },
    [controller],
  );

  const cancel = useCallback(() => abort.current?.abort(), []);
  return { state, run, cancel };
}

/**
 * What the charts show: while a run is going and has points, those live points (described by the
 * run's own request, so moving d or m mid-run does not relabel them, and the backend in use);
 * otherwise the last complete result (null before the first).
 */
export function shownResult(state: SpeedRunState, backend: BackendInfo | null): SpeedResult | null {
  const req = state.request;
  if (state.status !== 'running' || state.live.length === 0 || !req) return state.result;
  const base = state.result;
  const gpu = backend?.kind === 'webgpu';
  return {
    backend: gpu ? 'webgpu' : 'cpu',
    device: backend ? (backend.kind === 'webgpu' ? backend.adapter : backend.reason) : '',
    timing: base?.timing ?? (gpu ? 'wall' : 'cpu'),
    d: req.d,
    m: req.m,
    layerConfig: req.layer ? (base?.layerConfig ?? null) : null,
    points: state.live,
    stops: {},
    budgetMs: req.budgetMs,
    estimateMs: state.estimateMs ?? 0,
    elapsedMs: state.progress?.doneMs ?? 0,
  };
}
