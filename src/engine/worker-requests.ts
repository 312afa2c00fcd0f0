/**
 * The engine client's requests in flight: each id sent to a worker and not yet answered, with the
 * promise it settles. A request may move: a worker that is replaced (terminated after a cancel, or
 * superseded by the settled backend) hands its unanswered requests to the replacement (`resend`),
 * except those whose caller aborted, whose 'cancel' died with the old worker. Everything here is
 * about requests and answers; which worker serves what is engine-client.ts's business.
 *
 * Analyses can be sent soon rather than at once (`sendSoon`): those asked in one task (the panels'
 * requests after a change of parameters) go out together, at the end of the task, as one
 * 'analyze-batch' message. A worker that queues its analyses by priority then sees the whole burst
 * before it picks one; sent one message each, the first could start before the rest arrived.
 */
import { EngineError } from '../core/errors';
import type { AnalyzeOptions, SpeedOptions } from './engine-api';
import type { AnalyzeMessage, ComputeRequest, EngineRequestMessage, EngineResponseMessage } from './protocol';
import { deserializeError } from './serialize-error';

/** Where a request was sent, how its answer settles it, and what it needs to be sent again. */
export interface PendingRequest<W> {
  resolve: (v: never) => void;
  reject: (e: unknown) => void;
  onProgress?: AnalyzeOptions['onProgress'];
  onRunMs?: AnalyzeOptions['onRunMs'];
  worker?: W;
  /** an analysis job of the pool (its worker is free again once it is answered) */
  pooled?: boolean;
  /** a compute's request, re-sent if its worker is replaced */
  request?: ComputeRequest;
  /** the message sent to an engine worker, re-sent when that worker is replaced by another */
  msg?: EngineRequestMessage;
  onSpeed?: SpeedOptions['onProgress'];
  /** its caller aborted it (a 'cancel' went to `worker`): a replacement worker must not start it again */
  aborted?: boolean;
}

/** A worker's final answer to a request (progress messages are not final). */
export type FinalAnswer = Exclude<
  Extract<EngineResponseMessage, { id: number }>,
  { type: 'progress' | 'speed-progress' }
>;

interface Postable {
  postMessage(msg: EngineRequestMessage): void;
}

export interface WorkerRequests<W extends Postable> {
  get(id: number): PendingRequest<W> | undefined;
  /** Records a request without sending it (a pool job, sent when a worker is free). */
  add(id: number, p: PendingRequest<W>): void;
  /** Forgets a request without settling it; false when it was not pending. */
  remove(id: number): boolean;
  /** Sends `msg` to `worker`; the promise settles with the answer to `msg.id`. */
  send<T>(worker: W, msg: EngineRequestMessage & { id: number }, extra?: Partial<PendingRequest<W>>): Promise<T>;
  /**
   * As `send`, but the message waits for the end of the task (a microtask) and goes with the other
   * analyses sent meanwhile to the same worker, as one 'analyze-batch'. Until then a cancel only
   * takes it out (it ends 'cancelled' at once) and a resend only changes where it will go.
   */
  sendSoon<T>(worker: W, msg: AnalyzeMessage, extra?: Partial<PendingRequest<W>>): Promise<T>;
  /** Settles a request with `error` now (the worker's own answer, if it comes, is then ignored). */
  reject(id: number, error: EngineError): PendingRequest<W> | undefined;
  /** Rejects the requests sent to `worker` (or all, when null) that `only` accepts. */
  rejectWhere(worker: W | null, error: EngineError, only?: (p: PendingRequest<W>) => boolean): void;
  /** The requests `from` had not answered go to `to`, which takes its place (aborted ones end 'cancelled'). */
  resend(from: W, to: W): void;
  /**
   * Tells the worker that now holds request `id` to stop it (it may have been moved since it was sent);
   * its answer ('cancelled') settles the request. With `now`, the request ends 'cancelled' at once and
   * the worker's late answer finds nothing pending: for a worker that checks for a cancel only between
   * long steps (a speed run's CPU point may run 2.5 s on). One not yet posted always ends at once.
   */
  cancelOnWorker(id: number, options?: { now?: boolean }): void;
  /** The requests sent to `worker`, to be moved elsewhere or dropped by the caller. */
  heldBy(worker: W): [number, PendingRequest<W>][];
  /** A progress message: to the request's listener, if it is still pending. */
  progress(msg: Extract<EngineResponseMessage, { type: 'progress' | 'speed-progress' }>): void;
  /** A final answer: settles and forgets its request, which it returns (undefined if none was pending). */
  answer(msg: FinalAnswer): PendingRequest<W> | undefined;
}

export function createWorkerRequests<W extends Postable>(): WorkerRequests<W> {
  const pending = new Map<number, PendingRequest<W>>();
  /** ids sent soon and not yet posted, in the order they were sent */
  const outbox: number[] = [];
  const flush = (): void => {
    const byWorker = new Map<W, AnalyzeMessage[]>();
    for (const id of outbox.splice(0)) {
      const p = pending.get(id);
      // settled meanwhile (rejected by the client), or cancelled: nothing to post
      if (!p?.worker || !p.msg) continue;
      const list = byWorker.get(p.worker) ?? [];
      list.push(p.msg as AnalyzeMessage);
      byWorker.set(p.worker, list);
    }
    for (const [worker, requests] of byWorker)
      worker.postMessage(requests.length === 1 ? requests[0]! : { type: 'analyze-batch', requests });
  };
  const unsent = (id: number): boolean => outbox.includes(id);
  /** Forgets request `id` and rejects it (undefined when it was not pending). */
  const rejectOne = (id: number, error: EngineError): PendingRequest<W> | undefined => {
    const p = pending.get(id);
    if (!p) return undefined;
    pending.delete(id);
    p.reject(error);
    return p;
  };
  return {
    get: (id) => pending.get(id),
    add(id, p) {
      pending.set(id, p);
    },
    remove: (id) => pending.delete(id),
    send<T>(worker: W, msg: EngineRequestMessage & { id: number }, extra: Partial<PendingRequest<W>> = {}) {
      return new Promise<T>((resolve, reject) => {
        pending.set(msg.id, { resolve: resolve as (v: never) => void, reject, worker, msg, ...extra });
        worker.postMessage(msg);
      });
    },
    sendSoon<T>(worker: W, msg: AnalyzeMessage, extra: Partial<PendingRequest<W>> = {}) {
      return new Promise<T>((resolve, reject) => {
        pending.set(msg.id, { resolve: resolve as (v: never) => void, reject, worker, msg, ...extra });
        if (outbox.push(msg.id) === 1) queueMicrotask(flush);
      });
    },
    reject: rejectOne,
    rejectWhere(worker, error, only) {
      for (const [id, p] of pending) if ((!worker || p.worker === worker) && (!only || only(p))) rejectOne(id, error);
    },
    resend(from, to) {
      for (const [id, p] of pending) {
        if (p.worker !== from || !p.msg) continue;
        if (p.aborted) {
          // its 'cancel' died with `from` (and so did the answer): sent again, a speed run would go on
          // for its whole budget with nothing left to stop it
          rejectOne(id, new EngineError('cancelled', 'cancelled'));
          continue;
        }
        p.worker = to;
        // one not yet posted goes to `to` with its batch
        if (!unsent(id)) to.postMessage(p.msg);
      }
    },
    cancelOnWorker(id, { now = false } = {}) {
      const p = pending.get(id);
      if (!p) return;
      // never posted: answered here, as the worker would a waiting one (the flush skips what is not pending)
      if (unsent(id)) return void rejectOne(id, new EngineError('cancelled', 'cancelled'));
      p.aborted = true;
      p.worker?.postMessage({ type: 'cancel', id } satisfies EngineRequestMessage);
      if (now) rejectOne(id, new EngineError('cancelled', 'cancelled'));
    },
    heldBy: (worker) => [...pending].filter(([, p]) => p.worker === worker),
    progress(msg) {
      const p = pending.get(msg.id);
      if (msg.type === 'progress') p?.onProgress?.(msg.done, msg.total, msg.label, msg.detail);
      else p?.onSpeed?.(msg.progress);
    },
    answer(msg) {
      const p = pending.get(msg.id);
      if (!p) return undefined;
      pending.delete(msg.id);
      switch (msg.type) {
        case 'error':
          p.reject(deserializeError(msg.error));
          break;
        case 'analysis':
          if (msg.runMs !== undefined) p.onRunMs?.(msg.runMs);
          p.resolve(msg.value as never);
          break;
        case 'result':
        case 'speed':
        case 'heads':
          p.resolve(msg.result as never);
          break;
        case 'stats':
          p.resolve(msg.stats as never);
          break;
        case 'export':
          p.resolve(msg.json as never);
          break;
      }
      return p;
    },
  };
}
