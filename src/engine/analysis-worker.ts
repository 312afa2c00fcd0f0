/// <reference lib="webworker" />
/**
 * Runs the panels' heavy analyses (sweeps over seeds and m, singular value spectra) off the main
 * thread and away from the engine worker, so a long sweep never delays the live heatmaps.
 * Each analysis reports progress and stops at the next step after a cancel.
 */
import { EngineError } from '../core/errors';
import { isAnalysisOp, runAnalysisOp } from './analysis';
import { analysisJob, createQueueRunner, type AnalysisJob } from './analysis-queue';
import type { EngineRequestMessage, EngineResponseMessage } from './protocol';
import { serializeError } from './serialize-error';

declare const self: DedicatedWorkerGlobalScope;

const cancelled = new Set<number>();

function post(msg: EngineResponseMessage): void {
  self.postMessage(msg);
}

/** Yield to the event loop so that cancel messages are seen between steps. */
const yieldToEvents = () => new Promise<void>((r) => setTimeout(r, 0));

async function run(job: AnalysisJob): Promise<void> {
  try {
    if (cancelled.has(job.id)) throw new EngineError('cancelled', 'cancelled');
    if (!isAnalysisOp(job.op)) throw new EngineError('internal', `unknown analysis "${job.op}"`);
    let lastYield = performance.now();
    const t0 = lastYield;
    const value = await runAnalysisOp(job.op, job.payload, {
      progress: (done: number, total: number, label?: string, detail?: unknown) =>
        post({ type: 'progress', id: job.id, done, total, label, ...(detail !== undefined ? { detail } : {}) }),
      cancelled: () => cancelled.has(job.id),
      // Long synchronous ops call this between steps so cancel messages get through.
      breathe: async () => {
        if (performance.now() - lastYield > 30) {
          await yieldToEvents();
          lastYield = performance.now();
        }
      },
    });
    if (cancelled.has(job.id)) throw new EngineError('cancelled', 'cancelled');
    post({ type: 'analysis', id: job.id, value, runMs: performance.now() - t0 });
  } catch (e) {
    post({ type: 'error', id: job.id, error: serializeError(e) });
  } finally {
    cancelled.delete(job.id);
  }
}

const jobs = createQueueRunner(run);

self.onmessage = (ev: MessageEvent<EngineRequestMessage>) => {
  const msg = ev.data;
  if (msg.type === 'analyze') {
    jobs.push(analysisJob(msg));
  } else if (msg.type === 'cancel') {
    cancelled.add(msg.id);
    if (jobs.drop(msg.id)) {
      cancelled.delete(msg.id);
      post({ type: 'error', id: msg.id, error: { code: 'cancelled', message: 'cancelled' } });
    }
  }
};
