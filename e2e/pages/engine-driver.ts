// In-page driver for e2e/engine.spec.mjs: the real engine client (workers and all), with helpers
// that return plain JSON so the spec can assert on them.
import { DEFAULT_PARAMS } from '../../src/core/default-params';
import { isEngineError } from '../../src/core/errors';
import type { AttentionParams } from '../../src/core/types';
import { createEngineClient, type EngineClient } from '../../src/engine/engine-client';
import type { ComputeRequest } from '../../src/engine/protocol';

const forceCpu = new URLSearchParams(location.search).get('backend') === 'cpu';
// the GPU analyses run on SwiftShader too, so the engine's GPU analysis path is what these tests see
let client: EngineClient = createEngineClient({ forceCpu, gpuAnalysesOnSoftware: true });
const backendEvents: string[] = [];
client.onBackendChange((b, why) => backendEvents.push(`${b.kind}: ${why}`));

/**
 * The app's reference experiment at a size SwiftShader computes quickly, on Gaussian inputs at
 * s = 0.5: the benign regime these engine checks assume (FAVOR+ converges, softmax nearly uniform).
 */
export const DEFAULTS: AttentionParams = { ...DEFAULT_PARAMS, n: 128, input: 'gaussian', scale: 0.5 };

function request(p: Partial<AttentionParams>, extra: Partial<ComputeRequest> = {}): ComputeRequest {
  return { params: { ...DEFAULTS, ...p }, viewCells: 64, rowStats: true, rows: [0], ...extra };
}

function outcome(e: unknown) {
  if (isEngineError(e)) return { ok: false as const, code: e.code, message: e.message };
  return { ok: false as const, code: 'not-an-engine-error', message: String(e) };
}

async function compute(p: Partial<AttentionParams>, extra: Partial<ComputeRequest> = {}) {
  try {
    const r = await client.compute(request(p, extra));
    const finite = (a: Float32Array) => a.every(Number.isFinite);
    return {
      ok: true as const,
      id: r.id,
      n: r.params.n,
      backend: r.backend,
      metrics: r.metrics,
      // The n×d outputs stay in the worker (protocol.ts slimResult); the backends reject non-finite
      // outputs, and relErrorOut = ‖out − out_exact‖/‖out_exact‖ is finite only when both are.
      finite:
        Number.isFinite(r.metrics.relErrorOut) &&
        (!r.output.view || (finite(r.output.view.exact) && finite(r.output.view.approx))),
      viewCells: r.output.view?.cells ?? 0,
      rows: r.output.rows.map((row) => row.index),
      bytesAllocated: r.output.bytesAllocated,
    };
  } catch (e) {
    return outcome(e);
  }
}

const driver = {
  ready: () => client.ready,
  /** the first backend able to compute, and whether WebGPU was still warming up then */
  started: async () => ({ backend: await client.started, warming: client.warming() }),
  /** Starts a compute, cancels it after `ms`, then runs a small one: how each ended. */
  async cancelThenCompute(p: Partial<AttentionParams>, extra: Partial<ComputeRequest>, ms: number) {
    const first = compute(p, extra);
    await new Promise((r) => setTimeout(r, ms));
    const cancelled = client.cancel();
    const outcome = await first;
    const next = await compute({});
    return { cancelled, outcome, next };
  },
  backendEvents: () => backendEvents,
  compute,
  /** Fire `count` computes without awaiting; report how each ended. */
  async burst(count: number, vary: (i: number) => Partial<AttentionParams>) {
    const all = Array.from({ length: count }, (_, i) => compute(vary(i)));
    return Promise.all(all);
  },
  async computeWithNaN() {
    const n = DEFAULTS.n;
    const d = DEFAULTS.d;
    const q = new Float32Array(n * d).fill(0.1);
    q[5] = Number.NaN;
    const k = new Float32Array(n * d).fill(0.1);
    return compute({}, { external: { q: { rows: n, cols: d, data: q }, k: { rows: n, cols: d, data: k } } });
  },
  /**
   * Runs an analysis op through the client (routed by the settled backend): where it ran, how it ended,
   * and the run time its worker reported (onRunMs; null when none came).
   */
  async analyze(op: string, payload: Record<string, unknown>, cancelAfterFirstProgress = false) {
    const abort = new AbortController();
    let progress = 0;
    let runMs: number | null = null;
    try {
      const value = await client.analyze<{ computedOn?: string }>(
        op,
        { ...payload, params: { ...DEFAULTS, ...(payload.params as object) } },
        {
          signal: abort.signal,
          onProgress: () => {
            progress++;
            if (cancelAfterFirstProgress) abort.abort();
          },
          onRunMs: (ms) => (runMs = ms),
        },
      );
      return { ok: true as const, computedOn: value.computedOn, progress, runMs };
    } catch (e) {
      return { ...outcome(e), progress, runMs };
    }
  },
  /**
   * Sends the analyses at once (as the store does after a change), each with its priority, aborting
   * those marked `abort` right after they are sent: the order in which they end ('i:ok' or 'i:<code>')
   * and which reported progress (ran).
   */
  async analyzeBurst(jobs: { op: string; payload: Record<string, unknown>; priority: number; abort?: boolean }[]) {
    const order: string[] = [];
    const ran = new Set<number>();
    const all = jobs.map((j, i) => {
      const abort = new AbortController();
      const run = client
        .analyze(
          j.op,
          { ...j.payload, params: { ...DEFAULTS, ...(j.payload.params as object) } },
          { signal: abort.signal, priority: j.priority, onProgress: () => ran.add(i) },
        )
        .then(
          () => order.push(`${i}:ok`),
          (e: unknown) => order.push(`${i}:${isEngineError(e) ? e.code : 'error'}`),
        );
      if (j.abort) abort.abort();
      return run;
    });
    await Promise.all(all);
    return { order, ran: [...ran].sort() };
  },
  stats: () => client.stats(),
  loseDevice: () => client.loseDevice(),
  restart() {
    client.dispose();
    client = createEngineClient({ forceCpu, gpuAnalysesOnSoftware: true });
    return client.ready;
  },
};

(window as unknown as { engineDriver: typeof driver }).engineDriver = driver;
