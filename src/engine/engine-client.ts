/**
 * The main-thread face of the engine: two workers behind one small API. `compute` is latest-wins by
 * construction — each call supersedes the previous one, whose promise rejects with an EngineError
 * 'cancelled' — so a stale result can never overwrite a newer one. `analyze` runs the panels'
 * sweeps and spectra in a separate worker with progress and cancellation.
 */
import type { BackendInfo } from '../core/attention-job';
import { EngineError } from '../core/errors';
import type { ExportMeta } from './export-state';
import type { ComputeRequest, ComputeResult, EngineRequestMessage, EngineResponseMessage } from './protocol';
import { deserializeError } from './serialize-error';
import { isEngineOp } from './analysis/types';

export interface EngineStats {
  liveBuffers: number;
  liveBytes: number;
  created: number;
}

export interface AnalyzeOptions {
  onProgress?: (done: number, total: number, label?: string) => void;
  signal?: AbortSignal;
}

export interface EngineClient {
  readonly ready: Promise<BackendInfo>;
  backend(): BackendInfo | null;
  onBackendChange(cb: (b: BackendInfo, why: string) => void): () => void;
  compute(req: ComputeRequest): Promise<ComputeResult>;
  analyze<T>(op: string, payload: unknown, opts?: AnalyzeOptions): Promise<T>;
  stats(): Promise<EngineStats>;
  /** The experiment of `req` (n ≤ EXPORT_MAX_N) as JSON text: dense matrices from the CPU twins plus `meta`. */
  exportState(req: ComputeRequest, meta: ExportMeta): Promise<string>;
  /** Test hook: destroy the GPU device to exercise device-loss recovery. */
  loseDevice(): Promise<void>;
  dispose(): void;
}

interface Pending {
  resolve: (v: never) => void;
  reject: (e: unknown) => void;
  onProgress?: AnalyzeOptions['onProgress'];
}

export function createEngineClient(options: { forceCpu?: boolean } = {}): EngineClient {
  const engine = new Worker(new URL('./engine-worker.ts', import.meta.url), { type: 'module', name: 'attention-engine' });
  let analysis: Worker | null = null;
  const pending = new Map<number, Pending>();
  const listeners = new Set<(b: BackendInfo, why: string) => void>();
  let nextId = 1;
  let current: BackendInfo | null = null;
  let latestCompute = 0;

  let resolveReady!: (b: BackendInfo) => void;
  const ready = new Promise<BackendInfo>((r) => (resolveReady = r));

  const onMessage = (ev: MessageEvent<EngineResponseMessage>) => {
    const msg = ev.data;
    switch (msg.type) {
      case 'ready':
        current = msg.backend;
        resolveReady(msg.backend);
        return;
      case 'backend-changed':
        current = msg.backend;
        listeners.forEach((cb) => cb(msg.backend, msg.why));
        return;
      case 'progress':
        pending.get(msg.id)?.onProgress?.(msg.done, msg.total, msg.label);
        return;
      default: {
        const p = pending.get(msg.id);
        if (!p) return;
        pending.delete(msg.id);
        if (msg.type === 'error') p.reject(deserializeError(msg.error));
        else if (msg.type === 'result') p.resolve(msg.result as never);
        else if (msg.type === 'analysis') p.resolve(msg.value as never);
        else if (msg.type === 'stats') p.resolve(msg.stats as never);
        else if (msg.type === 'export') p.resolve(msg.json as never);
      }
    }
  };
  const onCrash = (worker: string) => (ev: ErrorEvent | MessageEvent) => {
    const message = ev instanceof ErrorEvent ? ev.message : 'message could not be deserialized';
    for (const [id, p] of pending) {
      pending.delete(id);
      p.reject(new EngineError('internal', `${worker} worker failed: ${message}`));
    }
  };
  engine.onmessage = onMessage;
  engine.onerror = onCrash('engine');
  engine.onmessageerror = onCrash('engine');

  function request<T>(worker: Worker, msg: EngineRequestMessage & { id: number }, extra: Partial<Pending> = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      pending.set(msg.id, { resolve: resolve as (v: never) => void, reject, ...extra });
      worker.postMessage(msg);
    });
  }

  function analysisWorker(): Worker {
    if (!analysis) {
      analysis = new Worker(new URL('./analysis-worker.ts', import.meta.url), { type: 'module', name: 'attention-analysis' });
      analysis.onmessage = onMessage;
      analysis.onerror = onCrash('analysis');
    }
    return analysis;
  }

  engine.postMessage({ type: 'init', forceCpu: options.forceCpu ?? false } satisfies EngineRequestMessage);

  return {
    ready,
    backend: () => current,
    onBackendChange(cb) {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    compute(req) {
      const id = nextId++;
      // The worker also answers superseded requests with 'cancelled'; rejecting here as well
      // keeps the guarantee even if a message were lost.
      const prev = pending.get(latestCompute);
      if (prev) {
        pending.delete(latestCompute);
        prev.reject(new EngineError('cancelled', 'superseded by a newer request'));
      }
      latestCompute = id;
      return request<ComputeResult>(engine, { type: 'compute', id, request: req });
    },
    analyze<T>(op: string, payload: unknown, opts: AnalyzeOptions = {}) {
      const id = nextId++;
      // ops that time the live backend run in the engine worker, the rest on the CPU twins beside it
      const worker = isEngineOp(op) ? engine : analysisWorker();
      if (opts.signal?.aborted) return Promise.reject(new EngineError('cancelled', 'cancelled'));
      opts.signal?.addEventListener('abort', () => worker.postMessage({ type: 'cancel', id } satisfies EngineRequestMessage), { once: true });
      return request<T>(worker, { type: 'analyze', id, op, payload }, { onProgress: opts.onProgress });
    },
    stats() {
      const id = nextId++;
      return request<EngineStats>(engine, { type: 'stats', id });
    },
    exportState(req, meta) {
      const id = nextId++;
      return request<string>(engine, { type: 'export', id, request: req, meta });
    },
    async loseDevice() {
      const id = nextId++;
      await request<EngineStats>(engine, { type: 'lose-device', id });
    },
    dispose() {
      engine.terminate();
      analysis?.terminate();
      for (const p of pending.values()) p.reject(new EngineError('cancelled', 'engine disposed'));
      pending.clear();
    },
  };
}
