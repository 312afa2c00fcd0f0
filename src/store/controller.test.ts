import { describe, expect, it } from 'vitest';
import type { BackendInfo } from '../core/attention-job';
import { EngineError } from '../core/errors';
import { LONG_RUN_MS, PRIOR_FLOPS_PER_MS, requestFlops } from '../engine/cost-model';
import type { ComputeRequest, ComputeResult } from '../engine/protocol';
import { buildRequest, CONFIRM_RUN_MS, createController, VIEW_LIMITS, type EngineLike } from './controller';
import { createActions, createAppStore, initialState } from './store';

/** A scripted engine: every compute waits until the test settles it. */
function fakeEngine(
  info: BackendInfo = { kind: 'webgpu', adapter: 'fake', features: [] },
  opts: { warming?: boolean; calibration?: { flops: number; ms: number } } = {},
) {
  const calls: {
    req: ComputeRequest;
    resolve: (r: ComputeResult) => void;
    reject: (e: unknown) => void;
    settled: boolean;
  }[] = [];
  const analyses: {
    op: string;
    signal?: AbortSignal;
    resolve: (v: unknown) => void;
    reject: (e: unknown) => void;
    progress?: (d: number, t: number) => void;
  }[] = [];
  const switchers = new Set<(b: BackendInfo, warming: boolean) => void>();
  let backend = info;
  let warming = opts.warming ?? false;
  let cancels = 0;
  const engine: EngineLike = {
    started: Promise.resolve(info),
    backend: () => backend,
    warming: () => warming,
    calibration: () => opts.calibration ?? null,
    onBackendChange: () => () => {},
    onSwitch: (cb) => {
      switchers.add(cb);
      return () => switchers.delete(cb);
    },
    compute: (req) =>
      new Promise((resolve, reject) => {
        const call = { req, resolve, reject, settled: false };
        calls.push(call);
      }),
    cancel: () => {
      const last = calls.at(-1);
      if (!last || last.settled) return false;
      last.settled = true;
      cancels++;
      last.reject(new EngineError('cancelled', 'cancelled by the user'));
      return true;
    },
    analyze: <T>(
      op: string,
      _payload: unknown,
      opts?: { signal?: AbortSignal; onProgress?: (d: number, t: number) => void },
    ) =>
      new Promise<T>((resolve, reject) => {
        const a = {
          op,
          signal: opts?.signal,
          resolve: resolve as (v: unknown) => void,
          reject,
          progress: opts?.onProgress,
        };
        opts?.signal?.addEventListener('abort', () => reject(new EngineError('cancelled', 'cancelled')));
        analyses.push(a);
      }),
  };
  /** the settled backend takes over (or the stand-in again, warming = true) */
  const switchTo = (b: BackendInfo, w: boolean) => {
    backend = b;
    warming = w;
    switchers.forEach((cb) => cb(b, w));
  };
  return { engine, calls, analyses, switchTo, cancels: () => cancels };
}

const GPU: BackendInfo = { kind: 'webgpu', adapter: 'fake', features: [] };
const CPU: BackendInfo = { kind: 'cpu', reason: 'stand-in' };
const result = (req: ComputeRequest, id: number, backend: BackendInfo = GPU, elapsedMs = 5) =>
  ({ id, params: req.params, backend, elapsedMs }) as unknown as ComputeResult;
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('buildRequest', () => {
  it('asks for the view and row statistics only up to the backend limit', () => {
    const gpu = { info: { kind: 'webgpu', adapter: 'x', features: [] } as BackendInfo, why: null };
    const cpu = { info: { kind: 'cpu', reason: 'test' } as BackendInfo, why: null };
    const s = initialState({ n: VIEW_LIMITS.webgpu });
    expect(buildRequest({ ...s, backend: gpu })).toMatchObject({ viewCells: 512, rowStats: true });
    expect(buildRequest({ ...s, backend: cpu })).toMatchObject({ viewCells: 0, rowStats: false });
    expect(buildRequest({ ...initialState({ n: 100 }), backend: cpu })).toMatchObject({
      viewCells: 100,
      rowStats: true,
      rows: [50],
    });
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

  it('a notice repeated (the same value refused again) is listed once, moved to the end; a different one is its own', () => {
    const store = createAppStore();
    const actions = createActions(store);
    actions.setParam('seed', '1.5');
    actions.setParam('n', 'lots');
    actions.setParam('seed', '1.5');
    actions.setParam('seed', '1.5');
    actions.setParam('seed', '2.5');
    const notices = store.getState().notices;
    expect(notices.map((n) => [n.code, 'key' in n ? n.key : null, 'raw' in n ? n.raw : null])).toEqual([
      ['param-rejected', 'n', 'lots'],
      ['param-rejected', 'seed', '1.5'],
      ['param-rejected', 'seed', '2.5'],
    ]);
    expect(new Set(notices.map((n) => n.id)).size).toBe(3);
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
    expect(store.getState().analyses.errorVsM).toMatchObject({
      status: 'cancelled',
      value: [1, 2, 3],
      valueKey: 'k1',
      key: 'k2',
    });
  });
});

describe('controller: estimates, cancel, the CPU stand-in', () => {
  const HEAVY = { n: 65_536, d: 256, m: 1_024 };
  /** long enough to announce (≥ 2 s at the priors), short enough to start unasked (< 60 s) */
  const MEDIUM = { n: 8_192, d: 64 };

  it('prices every run: small runs are not long; n = 8,192, d = 64 starts announced as long', async () => {
    const store = createAppStore();
    const actions = createActions(store);
    const { engine, calls } = fakeEngine();
    createController(store, engine);
    await tick();
    const first = store.getState().compute.running;
    expect(first).toMatchObject({ long: false, backend: 'webgpu' });
    expect(first!.estimateMs).toBeLessThan(LONG_RUN_MS);
    calls[0]!.resolve(result(calls[0]!.req, 1));
    await tick();
    expect(store.getState().compute.running).toBeNull();
    actions.setParams(MEDIUM);
    const medium = store.getState().compute.running;
    expect(medium).toMatchObject({ long: true, params: expect.objectContaining(MEDIUM) });
    expect(medium!.estimateMs).toBeGreaterThanOrEqual(LONG_RUN_MS);
    expect(calls.length).toBe(2);
  });

  it('n = 65,536, d = 256, m = 1,024 is not started unasked: held with its estimate until "compute anyway"', async () => {
    const store = createAppStore();
    const actions = createActions(store);
    const { engine, calls } = fakeEngine();
    const c = createController(store, engine);
    await tick();
    calls[0]!.resolve(result(calls[0]!.req, 1));
    await tick();
    actions.setParams(HEAVY);
    const st = store.getState().compute;
    expect(st.status).toBe('held');
    expect(st.held).toMatchObject({ long: true, params: expect.objectContaining(HEAVY) });
    expect(st.held!.estimateMs).toBeGreaterThanOrEqual(CONFIRM_RUN_MS);
    expect(st.result?.id).toBe(1);
    expect(calls.length).toBe(1);
    c.computeAnyway();
    expect(calls.length).toBe(2);
    expect(store.getState().compute).toMatchObject({
      status: 'computing',
      held: null,
      running: expect.objectContaining({ long: true }),
    });
  });

  it('learns the rate from finished runs: the estimate follows the measured throughput', async () => {
    const store = createAppStore(initialState({ n: 2_048, d: 64, m: 256 }));
    const actions = createActions(store);
    const { engine, calls } = fakeEngine();
    const c = createController(store, engine);
    await tick();
    const before = store.getState().compute.running!.estimateMs;
    const flops = requestFlops(calls[0]!.req, 'webgpu').total;
    // the device turned out 100× faster than the prior
    calls[0]!.resolve(result(calls[0]!.req, 1, GPU, flops / (100 * PRIOR_FLOPS_PER_MS.webgpu)));
    await tick();
    expect(c.rates.rate('webgpu').measured).toBe(true);
    actions.setParam('seed', 2);
    const after = store.getState().compute.running!.estimateMs;
    expect(after).toBeGreaterThan(before / 150);
    expect(after).toBeLessThan(before / 50);
  });

  it('seeds the WebGPU rate from the engine’s calibration run when WebGPU takes over', async () => {
    const store = createAppStore();
    const { engine, switchTo } = fakeEngine(CPU, { warming: true, calibration: { flops: 1e9, ms: 10 } });
    const c = createController(store, engine);
    await tick();
    expect(c.rates.rate('webgpu').measured).toBe(false);
    switchTo(GPU, false);
    expect(c.rates.rate('webgpu')).toMatchObject({ measured: true });
    expect(c.rates.rate('webgpu').flopsPerMs).toBeCloseTo(1e8, -4);
  });

  it('cancel stops the engine run, keeps the shown result and reverts the parameters to it', async () => {
    const store = createAppStore();
    const actions = createActions(store);
    const { engine, calls, cancels } = fakeEngine();
    const c = createController(store, engine);
    await tick();
    calls[0]!.resolve(result(calls[0]!.req, 1));
    await tick();
    const shownParams = store.getState().params;
    actions.setParams(HEAVY);
    c.computeAnyway();
    expect(calls.length).toBe(2);
    c.cancelCompute();
    await tick();
    expect(cancels()).toBe(1);
    const st = store.getState();
    expect(st.compute.status).toBe('ok');
    expect(st.compute.result?.id).toBe(1);
    expect(st.params).toEqual(shownParams);
    expect(st.compute.cancelled).toMatchObject({ reverted: true, params: expect.objectContaining(HEAVY) });
    // the revert itself starts no run
    await tick();
    expect(calls.length).toBe(2);
  });

  it('cancel with nothing on screen keeps the parameters and marks them as not computed', async () => {
    const store = createAppStore(initialState(MEDIUM));
    const { engine, calls } = fakeEngine();
    const c = createController(store, engine);
    await tick();
    expect(store.getState().compute.running?.long).toBe(true);
    c.cancelCompute();
    await tick();
    const st = store.getState();
    expect(st.compute.status).toBe('cancelled');
    expect(st.params).toMatchObject(MEDIUM);
    expect(st.compute.cancelled).toMatchObject({ reverted: false });
    c.recompute();
    expect(calls.length).toBe(2);
    expect(store.getState().compute.status).toBe('computing');
  });

  it('when the settled backend is the CPU too (no adapter), the stand-in’s run in flight is kept, not repeated', async () => {
    const store = createAppStore();
    const { engine, calls, switchTo } = fakeEngine(CPU, { warming: true });
    createController(store, engine);
    await tick();
    switchTo({ kind: 'cpu', reason: 'no adapter' }, false);
    expect(calls.length).toBe(1);
    calls[0]!.resolve(result(calls[0]!.req, 1, CPU));
    await tick();
    expect(calls.length).toBe(1);
    expect(store.getState().compute).toMatchObject({ status: 'ok', result: { id: 1 } });
    expect(store.getState().backend).toMatchObject({ info: { reason: 'no adapter' }, warming: false });
  });

  it('a user cancel with nothing on screen is respected when WebGPU takes over (no automatic rerun)', async () => {
    const store = createAppStore(initialState(MEDIUM));
    const { engine, calls, switchTo } = fakeEngine(CPU, { warming: true });
    const c = createController(store, engine);
    await tick();
    c.cancelCompute();
    await tick();
    switchTo(GPU, false);
    await tick();
    expect(calls.length).toBe(1);
    expect(store.getState().compute.status).toBe('cancelled');
  });

  it('a parameter change during a long run stops it and computes the newest parameters', async () => {
    const store = createAppStore(initialState(MEDIUM));
    const actions = createActions(store);
    const { engine, calls, cancels } = fakeEngine();
    createController(store, engine);
    await tick();
    actions.setParams({ n: 256, d: 16, m: 64 });
    await tick();
    expect(cancels()).toBe(1);
    expect(calls.length).toBe(2);
    expect(calls[1]!.req.params.n).toBe(256);
    // a superseded run is not a user cancel: nothing reverts
    expect(store.getState().params.n).toBe(256);
    expect(store.getState().compute.cancelled ?? null).toBeNull();
  });

  it('a failed first run leaves status error with its code and no result (the page explains it)', async () => {
    const store = createAppStore(initialState({ featureMap: 'trig', scale: 4, d: 256 }));
    const { engine, calls } = fakeEngine();
    createController(store, engine);
    await tick();
    calls[0]!.reject(new EngineError('non-finite-result', 'approximate output overflowed'));
    await tick();
    const c = store.getState().compute;
    expect(c).toMatchObject({ status: 'error', result: null, running: null });
    expect(c.error?.code).toBe('non-finite-result');
  });

  it('CPU stand-in first, then WebGPU: warming is shown, and the switch recomputes on WebGPU', async () => {
    const store = createAppStore();
    const { engine, calls, switchTo } = fakeEngine(CPU, { warming: true });
    createController(store, engine);
    await tick();
    expect(store.getState().backend).toMatchObject({ info: CPU, warming: true });
    calls[0]!.resolve(result(calls[0]!.req, 1, CPU));
    await tick();
    expect(store.getState().compute.result?.backend.kind).toBe('cpu');
    switchTo(GPU, false);
    expect(store.getState().backend).toMatchObject({ info: GPU, warming: false });
    expect(calls.length).toBe(2);
    calls[1]!.resolve(result(calls[1]!.req, 2, GPU));
    await tick();
    expect(store.getState().compute.result?.backend.kind).toBe('webgpu');
    // a later switch back to the stand-in (WebGPU restarting) keeps the WebGPU result, no rerun
    switchTo(CPU, true);
    expect(calls.length).toBe(2);
    expect(store.getState().backend.warming).toBe(true);
  });

  it('switching while the stand-in still computes reruns the newest parameters on WebGPU', async () => {
    const store = createAppStore();
    const { engine, calls, switchTo } = fakeEngine(CPU, { warming: true });
    createController(store, engine);
    await tick();
    switchTo(GPU, false);
    calls[0]!.reject(new EngineError('cancelled', 'superseded: the settled backend is ready'));
    await tick();
    expect(calls.length).toBe(2);
    expect(store.getState().compute.status).toBe('computing');
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

describe('controller in an embed: the main comparison is computed only where something shows it', () => {
  const embedded = (ui: Partial<ReturnType<typeof initialState>['ui']>, params = {}) => {
    const store = createAppStore(initialState(params, ui));
    const fake = fakeEngine();
    const c = createController(store, fake.engine);
    return { store, c, ...fake };
  };

  it('computes for the page, the main panel, the error panel and its error-vs-m figure', async () => {
    for (const ui of [
      {},
      { embed: 'main' as const },
      { embed: 'main' as const, embedFigure: 'attention-row' as const },
      { embed: 'error' as const },
      { embed: 'error' as const, embedFigure: 'error-vs-m' as const },
    ]) {
      const { calls } = embedded(ui);
      await tick();
      expect(calls.length, JSON.stringify(ui)).toBe(1);
    }
  });

  it('sends no compute for a panel or figure that never draws its result, before or after a change, while its analyses run', async () => {
    for (const ui of [
      { embed: 'rank' as const },
      { embed: 'sparsity' as const },
      { embed: 'error' as const, embedFigure: 'entropy-vs-scale' as const },
      { embed: 'beyond' as const, embedFigure: 'beyond-error-vs-dim' as const },
    ]) {
      const { store, c, calls, analyses } = embedded(ui);
      await tick();
      createActions(store).setParam('m', 32);
      c.setActive(false);
      c.setActive(true);
      c.requestAnalysis('spectra', { params: store.getState().params }, 'k1');
      await tick();
      expect(calls.length, JSON.stringify(ui)).toBe(0);
      expect(store.getState().compute.status, JSON.stringify(ui)).toBe('idle');
      expect(analyses.map((a) => a.op)).toEqual(['spectra']);
    }
  });

  it('map=hedgehog there: the fit still runs (its analyses wait for it), and once fitted nothing stays "computing"', async () => {
    const { store, calls, analyses } = embedded({ embed: 'rank' }, { featureMap: 'hedgehog' });
    await tick();
    const fit = analyses.find((a) => a.op === 'hedgehogFit');
    expect(fit).toBeDefined();
    expect(store.getState().compute.status).toBe('computing'); // the fit, shown as the page's work
    fit!.resolve({ w: new Float32Array(4), losses: [] });
    await tick();
    await tick();
    expect(store.getState().analyses.hedgehogFit?.status).toBe('done');
    expect(store.getState().compute.status).toBe('idle');
    expect(calls.length).toBe(0);
  });
});
