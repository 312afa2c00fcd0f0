/**
 * Progressive analyses at the store level: the scheduler's order (analyses on screen first, every
 * coarse stage before any refinement, superseded stages dropped), and that any sequence of changes
 * ends in the view a fresh compute gives. The engine is a serial fake worker with the real queue.
 */
import { describe, expect, it } from 'vitest';
import type { BackendInfo } from '../core/attention-job';
import { EngineError } from '../core/errors';
import type { AttentionParams } from '../core/types';
import { createAnalysisQueue } from '../engine/analysis-queue';
import type { AnalysisOpName } from '../engine/analysis';
import { normSweep } from '../engine/analysis/error-sweeps';
import { DEFAULT_PARAMS } from '../core/default-params';
import {
  entropyVsNRequest,
  entryErrorsRequest,
  errorVsDRequest,
  localTruncationRequest,
  mapRowsRequest,
  normSweepRequest,
  rowEntropiesRequest,
  spectraRequest,
  type AnalysisRequest,
} from './analyses';
import { createController, type EngineLike } from './controller';
import { createActions, createAppStore } from './store';

const tick = () => new Promise((r) => setTimeout(r, 0));

interface Job {
  id: number;
  priority: number;
  op: string;
  payload: Record<string, unknown>;
  stage: 'coarse' | 'full';
  signal?: AbortSignal;
  onRunMs?: (ms: number) => void;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

/**
 * What a fake op returns: a pure function of its payload — the dependency key of its parameters
 * (what the real result depends on, src/store/analyses.ts) and its budgets (which stage made it).
 */
function fakeValue(op: string, payload: Record<string, unknown>) {
  const { params, ...budget } = payload;
  const key = panelRequests(params as AttentionParams).find((r) => r.op === op)?.key;
  return { op, key, budget: JSON.stringify(budget) };
}

/**
 * An analysis worker that runs one job at a time from the real priority queue, when the test says so.
 * `runMs`: the run time it reports for a job (none without it, as a sharded sweep).
 */
function serialWorker(
  coarseOf: (op: string, payload: Record<string, unknown>) => boolean,
  runMs?: (job: Job) => number,
) {
  const queue = createAnalysisQueue<Job>();
  const ran: { op: string; stage: Job['stage']; m: number }[] = [];
  let nextId = 1;
  const engine: EngineLike = {
    started: Promise.resolve({ kind: 'cpu', reason: 'test' }),
    backend: () => ({ kind: 'cpu', reason: 'test' }),
    warming: () => false,
    calibration: () => null,
    onBackendChange: () => () => {},
    onSwitch: () => () => {},
    compute: () => new Promise(() => {}),
    cancel: () => false,
    analyze: <T>(
      op: string,
      payload: unknown,
      opts: { signal?: AbortSignal; priority?: number; onRunMs?: (ms: number) => void } = {},
    ) =>
      new Promise<T>((resolve, reject) => {
        const p = payload as Record<string, unknown>;
        const job: Job = {
          id: nextId++,
          priority: opts.priority ?? 0,
          op,
          payload: p,
          stage: coarseOf(op, p) ? 'coarse' : 'full',
          signal: opts.signal,
          onRunMs: opts.onRunMs,
          resolve: resolve as (v: unknown) => void,
          reject,
        };
        // as the worker does: a cancel drops a waiting job at once
        opts.signal?.addEventListener('abort', () => {
          if (queue.drop(job.id)) reject(new EngineError('cancelled', 'cancelled'));
        });
        queue.push(job);
      }),
  };
  let current: Job | null = null;
  /**
   * Half a job: starts the next one (it leaves the queue: a cancel no longer drops it), or finishes
   * the running one. A job aborted while it ran ends 'cancelled' at its next step — or, every other
   * one here, its result had already been posted when the cancel arrived: the client must ignore it.
   */
  async function advance(): Promise<boolean> {
    if (!current) {
      current = queue.take() ?? null;
      return current !== null;
    }
    const job = current;
    current = null;
    if (job.signal?.aborted && job.id % 2 === 1) job.reject(new EngineError('cancelled', 'cancelled'));
    else {
      ran.push({ op: job.op, stage: job.stage, m: (job.payload.params as AttentionParams).m });
      if (runMs) job.onRunMs?.(runMs(job));
      job.resolve(fakeValue(job.op, job.payload));
    }
    await tick();
    return true;
  }
  /** Runs the next job to its end. */
  async function runOne(): Promise<boolean> {
    if (!current && !(await advance())) return false;
    return advance();
  }
  async function drain() {
    while (await advance());
  }
  return { engine, ran, advance, runOne, drain, waiting: () => queue.size, running: () => current };
}

/** The requests the page's panels make for the default path at parameters p (the ones an m step re-runs). */
const panelRequests = (p: AttentionParams): AnalysisRequest[] => [
  normSweepRequest(p),
  errorVsDRequest(p),
  entryErrorsRequest(p),
  rowEntropiesRequest(p),
  entropyVsNRequest(p),
  localTruncationRequest(p),
  spectraRequest(p),
  mapRowsRequest(p, 0),
];

function setup(runMs?: (job: Job) => number) {
  const store = createAppStore();
  const actions = createActions(store);
  const coarse = new WeakSet<object>();
  const worker = serialWorker((_op, payload) => coarse.has(payload), runMs);
  const c = createController(store, worker.engine);
  /** what a panel's hook does after a change: its request, with its coarse stage */
  const ask = (r: AnalysisRequest) => {
    if (r.coarse) coarse.add(r.coarse);
    c.requestAnalysis(r.op, r.payload, r.key, false, r.coarse);
  };
  /** what the panels' hooks do after a change: every request */
  const requestAll = () => panelRequests(store.getState().params).forEach(ask);
  return { store, actions, worker, c, ask, requestAll };
}

/** The figures' data as the page shows it: per op, the value, the key it is for, and whether it is final. */
function view(store: ReturnType<typeof createAppStore>) {
  const a = store.getState().analyses;
  return Object.fromEntries(
    (Object.keys(a) as AnalysisOpName[]).sort().map((op) => {
      const e = a[op]!;
      return [op, { status: e.status, value: e.value, valueKey: e.valueKey, key: e.key, refined: e.refined }];
    }),
  );
}

describe('progressive analyses: the scheduler', () => {
  it('runs the coarse stages on screen first, then their refinements, then those off screen', async () => {
    const { store, worker, c, requestAll } = setup();
    const fig = {};
    c.setAnalysisOnScreen('normSweep', fig, true);
    c.setAnalysisOnScreen('spectra', fig, true);
    c.setAnalysisOnScreen('entropyVsN', fig, true);
    requestAll();
    // the first coarse value is a preview: current key, not refined, still running
    await worker.runOne();
    expect(worker.ran[0]).toMatchObject({ op: 'entropyVsN', stage: 'coarse' });
    expect(store.getState().analyses.entropyVsN).toMatchObject({
      status: 'running',
      refined: false,
      valueKey: entropyVsNRequest(store.getState().params).key,
    });
    await worker.drain();
    const order = worker.ran.map((r) => `${r.op}:${r.stage}`);
    expect(order).toEqual([
      // on screen, first stages, cheaper first (spectra has one stage: its only run is its first version)
      'entropyVsN:coarse',
      'spectra:full',
      'normSweep:coarse',
      // on screen: refinements
      'entropyVsN:full',
      'normSweep:full',
      // off screen, when the ones on screen are refined: first stages, then refinements
      'mapRows:full',
      'entryErrors:full',
      'rowEntropies:coarse',
      'localTruncation:full',
      'errorVsD:coarse',
      'rowEntropies:full',
      'errorVsD:full',
    ]);
    for (const e of Object.values(view(store))) expect(e).toMatchObject({ status: 'done', refined: true });
  });

  it('a newer request drops the superseded stages still waiting; a figure leaving the screen loses its turn', async () => {
    const { store, actions, worker, c, requestAll } = setup();
    const fig = {};
    c.setAnalysisOnScreen('normSweep', fig, true);
    requestAll();
    await worker.runOne(); // normSweep's coarse stage at m = 64
    actions.setParam('m', 96);
    c.setAnalysisOnScreen('normSweep', fig, false);
    c.setAnalysisOnScreen('mapRows', fig, true);
    requestAll();
    // every stage at m = 64 that had not started is gone from the queue
    expect(worker.waiting()).toBe(panelRequests(store.getState().params).reduce((s, r) => s + (r.coarse ? 2 : 1), 0));
    await worker.drain();
    expect(worker.ran.filter((r) => r.m === 64).map((r) => `${r.op}:${r.stage}`)).toEqual(['normSweep:coarse']);
    expect(worker.ran[1]).toMatchObject({ op: 'mapRows', m: 96 });
    expect(store.getState().analyses.normSweep).toMatchObject({ status: 'done', refined: true });
  });

  it('a figure scrolled into view while its stages wait in the queue goes ahead of those off screen', async () => {
    const { worker, c, requestAll } = setup();
    requestAll(); // nothing on screen yet
    await worker.runOne(); // mapRows, the cheapest first stage
    c.setAnalysisOnScreen('errorVsD', {}, true);
    await worker.drain();
    expect(worker.ran.slice(0, 3).map((r) => `${r.op}:${r.stage}`)).toEqual([
      'mapRows:full',
      'errorVsD:coarse',
      'errorVsD:full',
    ]);
    expect(worker.ran.filter((r) => r.op === 'errorVsD')).toHaveLength(2);
  });

  it('Cancel stays cancelled when the click scrolls the figure into view before the worker answers', async () => {
    const { store, worker, c, requestAll } = setup();
    requestAll(); // nothing on screen yet: errorVsD waits in the queue
    c.cancelAnalysis('errorVsD');
    c.setAnalysisOnScreen('errorVsD', {}, true); // the click scrolled it into view, same task
    await worker.drain();
    expect(worker.ran.filter((r) => r.op === 'errorVsD')).toHaveLength(0);
    expect(store.getState().analyses.errorVsD?.status).toBe('cancelled');
  });

  it('an analysis whose key ignores the changed parameter is not re-run', async () => {
    const { actions, worker, c } = setup();
    const p = { ...DEFAULT_PARAMS };
    const r = normSweepRequest(p);
    c.requestAnalysis(r.op, r.payload, r.key, false, r.coarse);
    await worker.drain();
    actions.setParam('scale', 0.5); // the norm sweep sweeps s itself
    const r2 = normSweepRequest({ ...p, scale: 0.5 });
    expect(r2.key).toBe(r.key);
    c.requestAnalysis(r2.op, r2.payload, r2.key, false, r2.coarse);
    expect(worker.waiting()).toBe(0);
  });

  it('an analysis whose last full run was fast (≤ 100 ms scaled to the new size) goes without its coarse stage, first; a slow one, or a larger n, keeps it', async () => {
    let ms = 40;
    const { store, actions, worker, ask } = setup(() => ms);
    const stages = async (...reqs: ((p: AttentionParams) => AnalysisRequest)[]) => {
      const from = worker.ran.length;
      for (const r of reqs) ask(r(store.getState().params));
      await worker.drain();
      return worker.ran.slice(from).map((r) => `${r.op}:${r.stage}`);
    };
    // no full run yet: both stages
    expect(await stages(rowEntropiesRequest)).toEqual(['rowEntropies:coarse', 'rowEntropies:full']);
    // 40 ms at m = 64, d = 16 → 40·(16 + 96)/(16 + 64) = 56 ms at m = 96: the full run only, with a first
    // stage's priority (ahead of errorVsD's coarse stage, which comes after it among first stages)
    actions.setParam('m', 96);
    ms = 150;
    expect(await stages(rowEntropiesRequest, errorVsDRequest)).toEqual([
      'rowEntropies:full',
      'errorVsD:coarse',
      'errorVsD:full',
    ]);
    expect(store.getState().analyses.rowEntropies).toMatchObject({ status: 'done', refined: true, stages: 1 });
    expect(store.getState().analyses.errorVsD).toMatchObject({ stages: 2 });
    // that run took 150 ms → 150·80/112 = 107 ms predicted at m = 64: the coarse stage again
    actions.setParam('m', 64);
    ms = 40;
    expect(await stages(rowEntropiesRequest)).toEqual(['rowEntropies:coarse', 'rowEntropies:full']);
    // 40 ms at n = 256 → 160 ms at n = 512 (n²): the coarse stage too
    actions.setParam('n', 512);
    expect(await stages(rowEntropiesRequest)).toEqual(['rowEntropies:coarse', 'rowEntropies:full']);
  });

  it('a run time learned on one backend does not drop the coarse stage on another (after a fallback from the GPU to the CPU pool, or the switch to WebGPU)', async () => {
    const { store, worker, ask } = setup(() => 40);
    const stages = async () => {
      const from = worker.ran.length;
      ask(rowEntropiesRequest(store.getState().params));
      await worker.drain();
      return worker.ran.slice(from).map((r) => r.stage);
    };
    const gpu: BackendInfo = { kind: 'webgpu', adapter: 'test gpu', features: [] };
    const onBackend = (info: BackendInfo) => {
      store.setState({ backend: { info, why: null } });
      // the same parameters, a new key: only the backend differs
      store.setState({ params: { ...store.getState().params, seed: store.getState().params.seed + 1 } });
    };
    onBackend(gpu);
    expect(await stages()).toEqual(['coarse', 'full']);
    onBackend(gpu);
    expect(await stages()).toEqual(['full']); // 40 ms on the GPU: fast there
    onBackend({ kind: 'cpu', reason: 'device lost' });
    expect(await stages()).toEqual(['coarse', 'full']); // nothing known of the CPU pool yet
    onBackend({ kind: 'cpu', reason: 'device lost' });
    expect(await stages()).toEqual(['full']);
    onBackend(gpu);
    expect(await stages()).toEqual(['full']); // the GPU's own time is still known
  });

  it('a cancelled sweep stops at its next step, not at its end', async () => {
    const req = normSweepRequest(DEFAULT_PARAMS);
    let steps = 0;
    const run = normSweep(req.coarse!, {
      progress: () => steps++,
      cancelled: () => steps >= 1,
    });
    await expect(run).rejects.toMatchObject({ code: 'cancelled' });
    expect(steps).toBe(1);
    expect(req.coarse!.scales!.length).toBeGreaterThan(1);
  });
});

describe('progressive analyses: rapid changes', () => {
  it('300 rapid changes still end in the view of a fresh compute', async () => {
    const { store, actions, worker, requestAll } = setup();
    let seed = 7;
    const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let i = 0; i < 300; i++) {
      const which = rand();
      if (which < 0.6) actions.setParam('m', 16 + Math.floor(rand() * 8) * 16);
      else if (which < 0.8) actions.setParam('scale', 0.5 + Math.floor(rand() * 4) * 0.25);
      else actions.setParam('n', 128 + Math.floor(rand() * 3) * 64);
      // some changes are superseded before the panels' hooks ask
      if (rand() >= 0.3) requestAll();
      // the worker gets through 0–2 jobs between changes (a change may land while one runs)
      for (let k = Math.floor(rand() * 5); k > 0; k--) await worker.advance();
    }
    // the last change lands while a refinement of the one before runs, its result crossing the cancel
    requestAll();
    for (let j = worker.running(); !(j && j.stage === 'full' && j.id % 2 === 0); j = worker.running())
      expect(await worker.advance()).toBe(true);
    actions.setParam('m', store.getState().params.m === 64 ? 80 : 64);
    requestAll();
    await worker.drain();
    const final = store.getState().params;

    const fresh = setup();
    fresh.actions.setParams(final);
    fresh.requestAll();
    await fresh.worker.drain();

    const got = view(store);
    const want = view(fresh.store);
    expect(Object.keys(got)).toEqual(Object.keys(want));
    expect(got).toEqual(want);
    for (const e of Object.values(got)) expect(e).toMatchObject({ status: 'done', refined: true });
  });
});
