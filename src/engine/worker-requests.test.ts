import { describe, expect, it } from 'vitest';
import { EngineError } from '../core/errors';
import type { EngineRequestMessage } from './protocol';
import { createWorkerRequests } from './worker-requests';

class Inbox {
  readonly posted: EngineRequestMessage[] = [];
  postMessage(msg: EngineRequestMessage): void {
    this.posted.push(msg);
  }
}

const analyze = (id: number) => ({ type: 'analyze', id, op: 'spectra', payload: {}, priority: 0 }) as const;
const codeOf = (e: unknown) => (e as EngineError).code;

describe('createWorkerRequests: every request sent is settled once, by its answer or by the client', () => {
  it('send posts the message and the answer of each type resolves with its own field', async () => {
    const t = createWorkerRequests<Inbox>();
    const w = new Inbox();
    const stats = t.send(w, { type: 'stats', id: 1 });
    const exported = t.send(w, { type: 'export', id: 2, request: {} as never, meta: {} as never });
    const analysis = t.send(w, analyze(3));
    expect(w.posted.map((m) => m.type)).toEqual(['stats', 'export', 'analyze']);
    t.answer({ type: 'stats', id: 1, stats: { s: 1 } as never });
    t.answer({ type: 'export', id: 2, json: '{}' });
    t.answer({ type: 'analysis', id: 3, value: 42 });
    await expect(stats).resolves.toEqual({ s: 1 });
    await expect(exported).resolves.toBe('{}');
    await expect(analysis).resolves.toBe(42);
    expect(t.get(1) ?? t.get(2) ?? t.get(3)).toBeUndefined();
  });

  it("an error answer rejects with the worker's EngineError, and a second answer to the same id is ignored", async () => {
    const t = createWorkerRequests<Inbox>();
    const run = t.send(new Inbox(), analyze(7));
    expect(t.answer({ type: 'error', id: 7, error: { code: 'exceeds-limit', message: 'n too big' } })).toBeDefined();
    expect(t.answer({ type: 'analysis', id: 7, value: 1 })).toBeUndefined();
    await expect(run).rejects.toMatchObject({ code: 'exceeds-limit', message: 'n too big' });
  });

  it("an analysis answer reports the worker's run time before resolving; progress goes to the listener", async () => {
    const t = createWorkerRequests<Inbox>();
    const seen: string[] = [];
    const run = t.send(new Inbox(), analyze(4), {
      onProgress: (done, total, label) => seen.push(`${done}/${total} ${label}`),
      onRunMs: (ms) => seen.push(`ran ${ms}`),
    });
    t.progress({ type: 'progress', id: 4, done: 1, total: 3, label: 'A' });
    t.progress({ type: 'progress', id: 99, done: 1, total: 1 }); // not pending: nothing happens
    t.answer({ type: 'analysis', id: 4, value: 'x', runMs: 12 });
    await run;
    expect(seen).toEqual(['1/3 A', 'ran 12']);
  });

  it('resend moves what the old worker held to the new one, and ends an aborted request cancelled instead', async () => {
    const t = createWorkerRequests<Inbox>();
    const old = new Inbox();
    const next = new Inbox();
    const other = new Inbox();
    const kept = t.send(old, analyze(1));
    const aborted = t.send(old, analyze(2));
    void t.send(other, analyze(3));
    t.cancelOnWorker(2);
    expect(old.posted.at(-1)).toEqual({ type: 'cancel', id: 2 });
    t.resend(old, next);
    expect(next.posted).toEqual([analyze(1)]);
    expect(t.get(1)?.worker).toBe(next);
    expect(t.get(3)?.worker).toBe(other);
    await expect(aborted).rejects.toSatisfy((e) => codeOf(e) === 'cancelled');
    t.answer({ type: 'analysis', id: 1, value: 'from next' });
    await expect(kept).resolves.toBe('from next');
  });

  it('cancelOnWorker tells the worker that holds the request now, not the one it was first sent to', () => {
    const t = createWorkerRequests<Inbox>();
    const first = new Inbox();
    const second = new Inbox();
    void t.send(first, analyze(5)).catch(() => undefined);
    t.resend(first, second);
    t.cancelOnWorker(5);
    expect(second.posted.at(-1)).toEqual({ type: 'cancel', id: 5 });
    expect(first.posted.filter((m) => m.type === 'cancel')).toEqual([]);
  });

  it('cancelOnWorker with now: the request ends cancelled before any answer, the worker is still told, its late answer is ignored', async () => {
    const t = createWorkerRequests<Inbox>();
    const w = new Inbox();
    const run = t.send(w, analyze(6));
    t.cancelOnWorker(6, { now: true });
    expect(w.posted.at(-1)).toEqual({ type: 'cancel', id: 6 });
    await expect(run).rejects.toSatisfy((e) => codeOf(e) === 'cancelled');
    expect(t.answer({ type: 'analysis', id: 6, value: 'late' })).toBeUndefined();
  });

  it('rejectWhere rejects only the requests of that worker that the filter accepts; null means every worker', async () => {
    const t = createWorkerRequests<Inbox>();
    const a = new Inbox();
    const b = new Inbox();
    const compute = t.send(a, { type: 'compute', id: 1, request: {} as never }, { request: {} as never });
    const op = t.send(a, analyze(2));
    const onB = t.send(b, analyze(3));
    t.rejectWhere(a, new EngineError('cancelled', 'superseded'), (p) => !!p.request);
    await expect(compute).rejects.toSatisfy((e) => codeOf(e) === 'cancelled');
    expect(t.get(2)).toBeDefined();
    expect(t.heldBy(a).map(([id]) => id)).toEqual([2]);
    t.rejectWhere(null, new EngineError('internal', 'disposed'));
    await expect(op).rejects.toSatisfy((e) => codeOf(e) === 'internal');
    await expect(onB).rejects.toSatisfy((e) => codeOf(e) === 'internal');
  });

  it('a request added for the pool is settled by its answer and can be removed unanswered', async () => {
    const t = createWorkerRequests<Inbox>();
    let settled = false;
    const job = new Promise((resolve, reject) =>
      t.add(8, { resolve: resolve as (v: never) => void, reject, pooled: true }),
    ).finally(() => (settled = true));
    t.add(9, { resolve: () => undefined, reject: () => undefined, pooled: true });
    expect(t.remove(9)).toBe(true);
    expect(t.remove(9)).toBe(false);
    expect(t.answer({ type: 'analysis', id: 8, value: 'done' })?.pooled).toBe(true);
    await expect(job).resolves.toBe('done');
    expect(settled).toBe(true);
  });
});

describe('createWorkerRequests.sendSoon: the analyses of one task go out together', () => {
  const endOfTask = () => new Promise<void>((r) => queueMicrotask(r));
  const ids = (w: Inbox) =>
    w.posted.map((m) => (m.type === 'analyze-batch' ? m.requests.map((r) => r.id) : 'id' in m ? [m.id] : []));

  it('one batch per worker at the end of the task, in the order sent; a lone analysis goes as itself', async () => {
    const t = createWorkerRequests<Inbox>();
    const a = new Inbox();
    const b = new Inbox();
    for (const [w, id] of [
      [a, 1],
      [b, 2],
      [a, 3],
      [a, 4],
    ] as const)
      void t.sendSoon(w, analyze(id));
    expect(a.posted).toEqual([]);
    await endOfTask();
    expect(ids(a)).toEqual([[1, 3, 4]]);
    expect(a.posted[0]!.type).toBe('analyze-batch');
    expect(b.posted).toEqual([analyze(2)]);
  });

  it('a request moved to another worker before its batch is posted goes there, once', async () => {
    const t = createWorkerRequests<Inbox>();
    const old = new Inbox();
    const next = new Inbox();
    void t.sendSoon(old, analyze(1));
    void t.sendSoon(old, analyze(2));
    t.resend(old, next);
    expect(next.posted).toEqual([]);
    await endOfTask();
    expect(old.posted).toEqual([]);
    expect(ids(next)).toEqual([[1, 2]]);
  });

  it('a request rejected or cancelled before its batch is posted is left out of it, and a cancel posts nothing', async () => {
    const t = createWorkerRequests<Inbox>();
    const w = new Inbox();
    const rejected = t.sendSoon(w, analyze(1));
    const cancelled = t.sendSoon(w, analyze(2));
    void t.sendSoon(w, analyze(3));
    t.reject(1, new EngineError('cancelled', 'superseded'));
    t.cancelOnWorker(2);
    await expect(rejected).rejects.toSatisfy((e) => codeOf(e) === 'cancelled');
    await expect(cancelled).rejects.toSatisfy((e) => codeOf(e) === 'cancelled');
    await endOfTask();
    expect(w.posted).toEqual([analyze(3)]);
  });
});
