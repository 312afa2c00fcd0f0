import { describe, expect, it } from 'vitest';
import type { BackendInfo } from '../core/attention-job';
import { EngineError } from '../core/errors';
import type { ComputeRequest, ComputeResult } from '../engine/protocol';
import { buildRequest, createController, VIEW_LIMITS, type EngineLike } from './controller';
import { createActions, createAppStore, initialState } from './store';

/** A scripted engine: every compute waits until the test settles it. */
function fakeEngine(info: BackendInfo = { kind: 'webgpu', adapter: 'fake', features: [] }) {
  const calls: { req: ComputeRequest; resolve: (r: ComputeResult) => void; reject: (e: unknown) => void }[] = [];
  const analyses: { op: string; signal?: AbortSignal; resolve: (v: unknown) => void; reject: (e: unknown) => void; progress?: (d: number, t: number) => void }[] = [];
  const engine: EngineLike = {
    ready: Promise.resolve(info),
    backend: () => info,
    onBackendChange: () => () => {},
    compute: (req) => new Promise((resolve, reject) => calls.push({ req, resolve, reject })),
    analyze: <T,>(op: string, _payload: unknown, opts?: { signal?: AbortSignal; onProgress?: (d: number, t: number) => void }) =>
      new Promise<T>((resolve, reject) => {
        const a = { op, signal: opts?.signal, resolve: resolve as (v: unknown) => void, reject, progress: opts?.onProgress };
        opts?.signal?.addEventListener('abort', () => reject(new EngineError('cancelled', 'cancelled')));
        analyses.push(a);
      }),
  };
  return { engine, calls, analyses };
}

const result = (req: ComputeRequest, id: number) => ({ id, params: req.params }) as unknown as ComputeResult;
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('buildRequest', () => {
  it('asks for the view and row statistics only up to the backend limit', () => {
    const gpu = { info: { kind: 'webgpu', adapter: 'x', features: [] } as BackendInfo, why: null };
    const cpu = { info: { kind: 'cpu', reason: 'test' } as BackendInfo, why: null };
    const s = initialState({ n: VIEW_LIMITS.webgpu });
    expect(buildRequest({ ...s, backend: gpu })).toMatchObject({ viewCells: 512, rowStats: true });
    expect(buildRequest({ ...s, backend: cpu })).toMatchObject({ viewCells: 0, rowStats: false });
    expect(buildRequest({ ...initialState({ n: 100 }), backend: cpu })).toMatchObject({ viewCells: 100, rowStats: true, rows: [50] });
  });
});

describe('controller', () => {
  it('keeps one compute in flight and sends only the newest parameters afterwards', async () => {
    const store = createAppStore();
    const actions = createActions(store);
    const { engine, calls } = fakeEngine();
    createController(store, engine);
    await tick();
    expect(calls.length).toBe(1);
    actions.setParam('m', 8);
    actions.setParam('m', 16);
    actions.setParam('m', 32);
    expect(calls.length).toBe(1); // coalesced while the first runs
    calls[0]!.resolve(result(calls[0]!.req, 1));
    await tick();
    expect(calls.length).toBe(2);
    expect(calls[1]!.req.params.m).toBe(32);
    expect(store.getState().compute.status).toBe('computing');
    calls[1]!.resolve(result(calls[1]!.req, 2));
    await tick();
    expect(store.getState().compute.status).toBe('ok');
    expect(store.getState().compute.result?.params.m).toBe(32);
  });

  it('keeps the previous result on an error and shows the error', async () => {
    const store = createAppStore();
    const actions = createActions(store);
    const { engine, calls } = fakeEngine();
    createController(store, engine);
    await tick();
    calls[0]!.resolve(result(calls[0]!.req, 1));
    await tick();
    actions.setParam('featureMap', 'trig');
    calls[1]!.reject(new EngineError('non-finite-result', 'overflow'));
    await tick();
    const c = store.getState().compute;
    expect(c.status).toBe('error');
    expect(c.error?.code).toBe('non-finite-result');
    expect(c.result?.id).toBe(1);
  });

  it('rejects bad values with a notice and leaves the parameters untouched', () => {
    const store = createAppStore();
    const actions = createActions(store);
    const before = store.getState().params;
    expect(actions.setParam('n', 'lots')).toBe(false);
    expect(store.getState().params).toBe(before);
    expect(store.getState().notices.at(-1)).toMatchObject({ code: 'param-rejected', key: 'n', reason: 'not-a-number' });
    expect(actions.setParam('m', 4096)).toBe(true);
    expect(store.getState().params.m).toBe(1024);
    expect(store.getState().notices.at(-1)).toMatchObject({ code: 'param-clamped', key: 'm', to: 1024 });
  });

  it('redrawFeatures changes only the feature seed', () => {
    const store = createAppStore();
    const actions = createActions(store);
    const p = store.getState().params;
    actions.redrawFeatures();
    expect(store.getState().params).toEqual({ ...p, featureSeed: p.featureSeed + 1 });
  });

  it('runs an analysis once per key, reports progress, and can be cancelled', async () => {
    const store = createAppStore();
    const { engine, analyses } = fakeEngine();
    const c = createController(store, engine);
    c.requestAnalysis('errorVsM', {}, 'k1');
    c.requestAnalysis('errorVsM', {}, 'k1');
    expect(analyses.length).toBe(1);
    analyses[0]!.progress?.(1, 2);
    expect(store.getState().analyses.errorVsM?.progress).toEqual({ done: 1, total: 2, label: undefined });
    analyses[0]!.resolve([1, 2, 3]);
    await tick();
    expect(store.getState().analyses.errorVsM).toMatchObject({ status: 'done', value: [1, 2, 3], valueKey: 'k1' });
    c.requestAnalysis('errorVsM', {}, 'k2');
    expect(analyses.length).toBe(2);
    c.cancelAnalysis('errorVsM');
    await tick();
    // cancelled: the old value stays, marked with the key it belongs to
    expect(store.getState().analyses.errorVsM).toMatchObject({ status: 'cancelled', value: [1, 2, 3], valueKey: 'k1', key: 'k2' });
  });
});

describe('controller.setActive (embeds compute only while on screen)', () => {
  it('sends nothing while paused and the newest parameters on resume', async () => {
    const store = createAppStore();
    const actions = createActions(store);
    const { engine, calls } = fakeEngine();
    const c = createController(store, engine);
    c.setActive(false);
    await tick();
    expect(calls.length).toBe(0); // engine ready, but paused: the first compute waits
    actions.setParam('m', 8);
    actions.setParam('m', 32);
    expect(calls.length).toBe(0);
    c.setActive(true);
    expect(calls.length).toBe(1);
    expect(calls[0]!.req.params.m).toBe(32);
  });

  it('stops running analyses on pause without marking them cancelled, and re-runs them on resume', async () => {
    const store = createAppStore();
    const { engine, analyses } = fakeEngine();
    const c = createController(store, engine);
    c.requestAnalysis('errorVsM', { a: 1 }, 'k1');
    expect(analyses.length).toBe(1);
    c.setActive(false);
    expect(analyses[0]!.signal?.aborted).toBe(true);
    await tick();
    expect(store.getState().analyses.errorVsM?.status).toBe('running');
    c.requestAnalysis('spectra', {}, 'k9'); // asked for while paused: deferred
    expect(analyses.length).toBe(1);
    c.setActive(true);
    expect(analyses.map((a) => a.op)).toEqual(['errorVsM', 'errorVsM', 'spectra']);
    analyses[1]!.resolve('v');
    await tick();
    expect(store.getState().analyses.errorVsM).toMatchObject({ status: 'done', value: 'v', valueKey: 'k1' });
  });

  it('does not redo finished analyses after a pause', async () => {
    const store = createAppStore();
    const { engine, analyses } = fakeEngine();
    const c = createController(store, engine);
    c.requestAnalysis('errorVsM', {}, 'k1');
    analyses[0]!.resolve(1);
    await tick();
    c.setActive(false);
    c.requestAnalysis('errorVsM', {}, 'k1');
    c.setActive(true);
    expect(analyses.length).toBe(1);
  });
});
