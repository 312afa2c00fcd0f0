/**
 * The engine client's worker bookkeeping with fake workers: every request it sends is answered,
 * whichever worker ends up serving it. (The real workers are covered by e2e/engine.spec.mjs.)
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BackendInfo } from '../core/attention-job';
import { COMPUTE_FIRST_MS, createEngineClient } from './engine-client';
import type { EngineRequestMessage, EngineResponseMessage } from './protocol';

class FakeWorker {
  static all: FakeWorker[] = [];
  readonly name: string;
  readonly posted: EngineRequestMessage[] = [];
  terminated = false;
  onmessage: ((ev: MessageEvent<EngineResponseMessage>) => void) | null = null;
  onerror: unknown = null;
  onmessageerror: unknown = null;
  constructor(_url: URL, opts: { name: string }) {
    this.name = opts.name;
    FakeWorker.all.push(this);
  }
  postMessage(msg: EngineRequestMessage): void {
    this.posted.push(msg);
  }
  terminate(): void {
    this.terminated = true;
  }
  /** the worker answers (nothing reaches the page from a terminated worker) */
  answer(msg: EngineResponseMessage): void {
    if (!this.terminated) this.onmessage?.({ data: msg } as MessageEvent<EngineResponseMessage>);
  }
  sent(type: string): Extract<EngineRequestMessage, { id: number }>[] {
    return this.posted.filter((m) => m.type === type) as Extract<EngineRequestMessage, { id: number }>[];
  }
}

/** Lets the task end: the analyses sent to an engine worker are posted then (worker-requests.ts sendSoon). */
const endOfTask = () => new Promise<void>((r) => queueMicrotask(r));

const CPU = { kind: 'cpu', label: 'CPU', reason: 'no WebGPU adapter' } as unknown as BackendInfo;
const GPU = { kind: 'webgpu', label: 'WebGPU', adapter: 'test' } as unknown as BackendInfo;
const engineWorkers = (name: string) => FakeWorker.all.filter((w) => w.name === name);
/** A client forced onto the CPU, its one engine worker (the primary) ready. */
const cpuClient = async () => {
  const client = createEngineClient({ forceCpu: true });
  const [primary] = engineWorkers('attention-engine');
  primary!.answer({ type: 'ready', backend: CPU });
  await client.ready;
  return { client, primary: primary! };
};
const answer = (value: unknown, id: number) => ({ type: 'analysis', id, value }) as unknown as EngineResponseMessage;
const cancelled = (id: number) =>
  ({
    type: 'error',
    id,
    error: { name: 'EngineError', code: 'cancelled', message: 'cancelled' },
  }) as unknown as EngineResponseMessage;

beforeEach(() => {
  FakeWorker.all = [];
  vi.stubGlobal('Worker', FakeWorker);
  // a browser that has navigator.gpu, so the client starts the CPU stand-in beside the primary
  vi.stubGlobal('navigator', { gpu: {}, hardwareConcurrency: 2 });
});
afterEach(() => vi.unstubAllGlobals());

describe('createEngineClient: no request is left unanswered when a worker is replaced', () => {
  it('an engine op sent to the primary while it starts is answered by the stand-in when the primary comes up without WebGPU', async () => {
    const client = createEngineClient();
    const [primary] = engineWorkers('attention-engine');
    const [standIn] = engineWorkers('attention-engine-cpu');
    standIn.answer({ type: 'ready', backend: CPU });
    await client.started;
    // the Beyond panel asks for the timing once a backend is known (the stand-in's)
    const timing = client.analyze<string>('estimatorTiming', { n: 8 });
    await endOfTask();
    const sent = primary.sent('analyze');
    expect(sent).toHaveLength(1);
    // the primary finds no adapter: the stand-in becomes the engine and the primary goes
    primary.answer({ type: 'ready', backend: CPU });
    expect(primary.terminated).toBe(true);
    expect(standIn.terminated).toBe(false);
    expect(standIn.sent('analyze').map((m) => m.id)).toEqual([sent[0].id]);
    standIn.answer(answer('timed', sent[0].id));
    await expect(timing).resolves.toBe('timed');
    // a later abort reaches the worker that now runs the op
    const stop = new AbortController();
    const second = client.analyze<string>('estimatorTiming', { n: 9 }, { signal: stop.signal });
    await endOfTask();
    const id2 = standIn.sent('analyze')[1].id;
    stop.abort();
    expect(standIn.sent('cancel').map((m) => m.id)).toEqual([id2]);
    standIn.answer(cancelled(id2));
    await expect(second).rejects.toMatchObject({ code: 'cancelled' });
    client.dispose();
  });

  it('stats asked of the starting primary are answered by the stand-in that replaces it', async () => {
    const client = createEngineClient();
    const [primary] = engineWorkers('attention-engine');
    const [standIn] = engineWorkers('attention-engine-cpu');
    const stats = client.stats();
    const id = primary.sent('stats')[0].id;
    standIn.answer({ type: 'ready', backend: CPU });
    primary.answer({ type: 'ready', backend: CPU });
    expect(standIn.sent('stats').map((m) => m.id)).toEqual([id]);
    standIn.answer({ type: 'stats', id, stats: { runs: 1 } } as unknown as EngineResponseMessage);
    await expect(stats).resolves.toEqual({ runs: 1 });
    client.dispose();
  });

  it("when WebGPU comes up, the stand-in's compute is superseded and an export it was asked is answered by the primary", async () => {
    const client = createEngineClient();
    const [primary] = engineWorkers('attention-engine');
    const [standIn] = engineWorkers('attention-engine-cpu');
    standIn.answer({ type: 'ready', backend: CPU });
    await client.started;
    const compute = client.compute({} as Parameters<typeof client.compute>[0]);
    const exported = client.exportState({} as Parameters<typeof client.exportState>[0], {} as never);
    const exportId = standIn.sent('export')[0]!.id;
    expect(standIn.sent('compute')).toHaveLength(1);
    primary.answer({ type: 'ready', backend: GPU });
    expect(standIn.terminated).toBe(true);
    await expect(compute).rejects.toMatchObject({ code: 'cancelled' });
    // the page recomputes on WebGPU itself: the superseded compute is not sent again
    expect(primary.sent('compute')).toHaveLength(0);
    expect(primary.sent('export').map((m) => m.id)).toEqual([exportId]);
    primary.answer({ type: 'export', id: exportId, json: '{}' } as unknown as EngineResponseMessage);
    await expect(exported).resolves.toBe('{}');
    client.dispose();
  });

  it('cancelling a CPU compute restarts its worker, and the engine op it also held goes on in the replacement', async () => {
    const client = createEngineClient({ forceCpu: true });
    const [primary] = engineWorkers('attention-engine');
    expect(engineWorkers('attention-engine-cpu')).toHaveLength(0);
    primary.answer({ type: 'ready', backend: CPU });
    await client.ready;
    const compute = client.compute({} as Parameters<typeof client.compute>[0]);
    const timing = client.analyze<string>('estimatorTiming', { n: 8 });
    await endOfTask();
    const opId = primary.sent('analyze')[0].id;
    expect(client.cancel()).toBe(true);
    await expect(compute).rejects.toMatchObject({ code: 'cancelled' });
    expect(primary.terminated).toBe(true);
    const replacement = engineWorkers('attention-engine')[1];
    expect(replacement).toBeDefined();
    // the cancelled compute is not sent again; the timing is
    expect(replacement.sent('compute')).toHaveLength(0);
    expect(replacement.sent('analyze').map((m) => m.id)).toEqual([opId]);
    replacement.answer(answer('timed', opId));
    await expect(timing).resolves.toBe('timed');
    client.dispose();
  });
});

describe('createEngineClient: a cancel is not lost when its worker is replaced', () => {
  it('a speed run cancelled just before its CPU worker is replaced (a compute cancel) ends cancelled and is not sent to the replacement', async () => {
    const { client, primary } = await cpuClient();
    const ac = new AbortController();
    const speed = client.speed({ d: 16, m: 32, budgetMs: 120_000, layer: false }, { signal: ac.signal });
    const speedId = primary.sent('speed')[0].id;
    const compute = client.compute({} as Parameters<typeof client.compute>[0]);
    // the user's cancel reaches the worker, but the worker is replaced before it answers
    ac.abort();
    expect(primary.sent('cancel').map((m) => m.id)).toEqual([speedId]);
    expect(client.cancel()).toBe(true);
    await expect(compute).rejects.toMatchObject({ code: 'cancelled' });
    const replacement = engineWorkers('attention-engine')[1];
    expect(replacement).toBeDefined();
    expect(replacement.sent('speed')).toHaveLength(0);
    await expect(speed).rejects.toMatchObject({ code: 'cancelled' });
    client.dispose();
  });

  it('a cancelled speed run ends cancelled at once, before its worker answers; the worker is told, and its late answer changes nothing', async () => {
    const { client, primary } = await cpuClient();
    const ac = new AbortController();
    const progress: unknown[] = [];
    const speed = client.speed(
      { d: 16, m: 32, budgetMs: 120_000, layer: false },
      { signal: ac.signal, onProgress: (p) => progress.push(p) },
    );
    const speedId = primary.sent('speed')[0].id;
    ac.abort();
    // no answer from the worker yet (it is inside a point): the caller hears now
    await expect(speed).rejects.toMatchObject({ code: 'cancelled' });
    expect(primary.sent('cancel').map((m) => m.id)).toEqual([speedId]);
    // the point ends: its progress and the worker's 'cancelled' find nothing pending
    primary.answer({ type: 'speed-progress', id: speedId, progress: { done: 1 } } as unknown as EngineResponseMessage);
    primary.answer(cancelled(speedId));
    expect(progress).toEqual([]);
    client.dispose();
  });

  it('a speed run not cancelled goes on in the replacement and is answered there', async () => {
    const { client } = await cpuClient();
    const speed = client.speed(
      { d: 16, m: 32, budgetMs: 2_000, layer: false },
      { signal: new AbortController().signal },
    );
    const compute = client.compute({} as Parameters<typeof client.compute>[0]);
    expect(client.cancel()).toBe(true);
    await expect(compute).rejects.toMatchObject({ code: 'cancelled' });
    const replacement = engineWorkers('attention-engine')[1];
    const [resent] = replacement.sent('speed');
    expect(resent).toBeDefined();
    replacement.answer({ type: 'speed', id: resent.id, result: 'timed' } as unknown as EngineResponseMessage);
    await expect(speed).resolves.toBe('timed');
    client.dispose();
  });
});

describe('createEngineClient: the live compute goes first', () => {
  const analysisSent = () => engineWorkers('attention-analysis').flatMap((w) => w.sent('analyze'));
  /** A ready CPU client on one core under fake timers (the pool's dispatch and the compute's hold are timers). */
  const withCpuClient = async (body: (client: ReturnType<typeof createEngineClient>) => Promise<void>) => {
    vi.stubGlobal('navigator', { hardwareConcurrency: 1 });
    vi.useFakeTimers();
    try {
      const client = createEngineClient({ forceCpu: true });
      engineWorkers('attention-engine')[0]!.answer({ type: 'ready', backend: CPU });
      await client.ready;
      await body(client);
      client.dispose();
    } finally {
      vi.useRealTimers();
    }
  };

  it('an analysis asked for while a compute is in flight is sent to the pool once the compute has answered', async () => {
    await withCpuClient(async (client) => {
      const primary = engineWorkers('attention-engine')[0]!;
      const result = client.compute({} as Parameters<typeof client.compute>[0]);
      const spectra = client.analyze<string>('spectra', { n: 8 });
      await vi.advanceTimersByTimeAsync(10);
      expect(analysisSent()).toHaveLength(0);
      const id = primary.sent('compute')[0]!.id;
      primary.answer({ type: 'result', id, result: 'shown' } as unknown as EngineResponseMessage);
      await expect(result).resolves.toBe('shown');
      await vi.advanceTimersByTimeAsync(1);
      const sent = analysisSent();
      expect(sent.map((m) => m.type)).toEqual(['analyze']);
      engineWorkers('attention-analysis')[0]!.answer(answer('spectrum', sent[0]!.id));
      await expect(spectra).resolves.toBe('spectrum');
    });
  });

  it(`a compute that has not answered after ${COMPUTE_FIRST_MS} ms holds the analyses no longer`, async () => {
    await withCpuClient(async (client) => {
      void client.compute({} as Parameters<typeof client.compute>[0]).catch(() => {});
      void client.analyze<string>('spectra', { n: 8 }).catch(() => {});
      await vi.advanceTimersByTimeAsync(COMPUTE_FIRST_MS - 5);
      expect(analysisSent()).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(10);
      expect(analysisSent()).toHaveLength(1);
    });
  });

  it('the run time a worker sends with an analysis reaches onRunMs, whether the pool or the engine worker answers', async () => {
    await withCpuClient(async (client) => {
      const primary = engineWorkers('attention-engine')[0]!;
      const times: string[] = [];
      const spectra = client.analyze<string>('spectra', { n: 8 }, { onRunMs: (ms) => times.push(`spectra ${ms}`) });
      const timing = client.analyze<string>(
        'estimatorTiming',
        { n: 8 },
        { onRunMs: (ms) => times.push(`estimatorTiming ${ms}`) },
      );
      await vi.advanceTimersByTimeAsync(1);
      const sent = analysisSent();
      expect(sent).toHaveLength(1);
      const runMs = (value: string, id: number, ms: number) =>
        ({ type: 'analysis', id, value, runMs: ms }) as unknown as EngineResponseMessage;
      engineWorkers('attention-analysis')[0]!.answer(runMs('spectrum', sent[0]!.id, 42));
      primary.answer(runMs('timed', primary.sent('analyze')[0]!.id, 7));
      await expect(spectra).resolves.toBe('spectrum');
      await expect(timing).resolves.toBe('timed');
      expect(times).toEqual(['spectra 42', 'estimatorTiming 7']);
    });
  });
});

describe('createEngineClient: the analyses on the GPU reach the engine worker by burst', () => {
  /** A client whose settled engine is WebGPU on a hardware adapter (so the GPU analyses go to it). */
  const gpuClient = async () => {
    const client = createEngineClient();
    const [primary] = engineWorkers('attention-engine');
    primary.answer({ type: 'ready', backend: GPU });
    await client.ready;
    return { client, primary: primary! };
  };
  const batches = (w: FakeWorker) =>
    w.posted.flatMap((m) =>
      m.type === 'analyze-batch'
        ? [m.requests.map((r) => `${r.op}:${r.priority}`)]
        : m.type === 'analyze'
          ? [[`${m.op}:${m.priority}`]]
          : [],
    );

  it('the analyses asked in one task go as one batch message, in the order asked; one asked later goes alone', async () => {
    const { client, primary } = await gpuClient();
    client.analyze('entryErrors', {}, { priority: 7 }).catch(() => {});
    client.analyze('spectra', {}, { priority: 1 }).catch(() => {});
    client.analyze('mapRows', {}, { priority: 3 }).catch(() => {});
    expect(batches(primary)).toEqual([]); // nothing posted before the task ends
    await endOfTask();
    client.analyze('rowEntropies', {}, { priority: 0 }).catch(() => {});
    await endOfTask();
    expect(batches(primary)).toEqual([['entryErrors:7', 'spectra:1', 'mapRows:3'], ['rowEntropies:0']]);
    client.dispose();
  });

  it('an analysis aborted before its batch is posted is never sent and ends cancelled at once; the rest go', async () => {
    const { client, primary } = await gpuClient();
    const stop = new AbortController();
    const dropped = client.analyze('spectra', {}, { priority: 1, signal: stop.signal });
    client.analyze('mapRows', {}, { priority: 2 }).catch(() => {});
    stop.abort();
    await expect(dropped).rejects.toMatchObject({ code: 'cancelled' });
    await endOfTask();
    expect(batches(primary)).toEqual([['mapRows:2']]);
    expect(primary.sent('cancel')).toEqual([]);
    client.dispose();
  });
});
