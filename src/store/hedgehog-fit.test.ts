import { describe, expect, it } from 'vitest';
import type { BackendInfo } from '../core/attention-job';
import { EngineError } from '../core/errors';
import { hedgehogKey } from '../core/hedgehog-fit';
import type { ComputeRequest } from '../engine/protocol';
import { createController, type EngineLike } from './controller';
import { HEDGEHOG_ID, HEDGEHOG_OP } from './hedgehog-fit';
import { createActions, createAppStore } from './store';

const tick = () => new Promise((r) => setTimeout(r, 0));

function fakeEngine() {
  const info: BackendInfo = { kind: 'cpu', reason: 'test' };
  const computes: ComputeRequest[] = [];
  const analyses: { op: string; payload: unknown; resolve: (v: unknown) => void; reject: (e: unknown) => void }[] = [];
  const engine: EngineLike = {
    started: Promise.resolve(info),
    backend: () => info,
    warming: () => false,
    calibration: () => null,
    onSwitch: () => () => {},
    cancel: () => false,
    onBackendChange: () => () => {},
    compute: (req) => {
      computes.push(req);
      return new Promise(() => {});
    },
    analyze: <T>(op: string, payload: unknown, opts?: { signal?: AbortSignal }) =>
      new Promise<T>((resolve, reject) => {
        opts?.signal?.addEventListener('abort', () => reject(new EngineError('cancelled', 'cancelled')));
        analyses.push({ op, payload, resolve: resolve as (v: unknown) => void, reject });
      }),
  };
  return { engine, computes, analyses };
}

describe('controller with map = hedgehog', () => {
  it('starts the fit by itself (even while a compute is in flight), computes nothing until the fitted W arrives, then sends it with the request', async () => {
    const store = createAppStore();
    const { engine, computes, analyses } = fakeEngine();
    createController(store, engine);
    await tick();
    expect(computes.length).toBe(1); // the default map computes at once
    createActions(store).setParam('featureMap', 'hedgehog');
    await tick();
    expect(computes.length).toBe(1);
    const fit = analyses.find((a) => a.op === HEDGEHOG_OP)!;
    expect(fit).toBeDefined();
    const p = store.getState().params;
    const w = { rows: p.m, cols: p.d, data: new Float32Array(p.m * p.d).fill(0.5) };
    fit.resolve({ key: hedgehogKey(p), w });
    await tick();
    // the first compute (default map) never answers in this fake, so nothing more is sent; the
    // fit started anyway, and the request the store builds now carries the fitted W
    const s = store.getState();
    expect(s.analyses[HEDGEHOG_ID]?.status).toBe('done');
    const { buildRequest } = await import('./controller');
    expect(buildRequest(s).fitted).toEqual({ key: hedgehogKey(p), w });
  });

  it('a cancelled fit leaves the comparison with a "not fitted" error instead of computing with a random W', async () => {
    const store = createAppStore();
    const { engine, computes } = fakeEngine();
    const c = createController(store, engine);
    createActions(store).setParam('featureMap', 'hedgehog');
    await tick();
    expect(computes.length).toBe(0);
    c.cancelAnalysis(HEDGEHOG_ID);
    await tick();
    await tick();
    expect(store.getState().compute).toMatchObject({ status: 'error', error: { code: 'hedgehog-not-fitted' } });
    expect(computes.length).toBe(0);
  });

  it('analyses that use the current map wait for the fit and then get its W; sweeps of fixed estimators do not wait', async () => {
    const store = createAppStore();
    const { engine, analyses } = fakeEngine();
    const c = createController(store, engine);
    createActions(store).setParam('featureMap', 'hedgehog');
    await tick();
    const p = store.getState().params;
    c.requestAnalysis('spectra', { params: p }, 'k-spectra');
    c.requestAnalysis('errorVsM', { params: p }, 'k-sweep');
    expect(analyses.map((a) => a.op).sort()).toEqual(['errorVsM', HEDGEHOG_OP].sort());
    const w = { rows: p.m, cols: p.d, data: new Float32Array(p.m * p.d) };
    analyses.find((a) => a.op === HEDGEHOG_OP)!.resolve({ key: hedgehogKey(p), w });
    await tick();
    const spectra = analyses.find((a) => a.op === 'spectra');
    expect((spectra?.payload as { fitted?: unknown }).fitted).toEqual({ key: hedgehogKey(p), w });
    expect(store.getState().analyses.spectra?.key).toBe(`k-spectra|${hedgehogKey(p)}`);
  });
});
