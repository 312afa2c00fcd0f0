/**
 * The speed run's loop, shared by the WebGPU and CPU runners: measure every method's first point
 * (n = 2^6, with a warm-up run; this is the calibration), estimate the rest of the run from it and
 * the FLOP model (src/core/speed-model.ts `planSweep`), then sweep n = 2^7, 2^8, … in
 * rounds (each round visits every method still going, so the figure grows left to right), stopping
 * a method when its next point is predicted — from its last measured time scaled by the work model —
 * to overrun its share of the budget or the per-point cap, or when it fails (e.g. a buffer past the
 * device's limit: the message is kept). The budget is the whole run's: the shares divide what the
 * calibration left of it. The backend-specific part is `timePoint`.
 */
import { EngineError } from './errors';
import {
  ATTENTION_METHODS,
  ATTENTION_SHARE,
  LAYER_METHODS,
  gflopsOf,
  methodFlops,
  planSweep,
  predictNext,
  repeatsFor,
  sweepLengths,
  type LayerConfig,
  type SpeedMethod,
  type SpeedPoint,
  type SpeedProgress,
  type SpeedRequest,
  type SpeedResult,
  type SpeedStop,
  type SpeedTiming,
} from './speed-model';

export interface PointTiming {
  medianMs: number;
  minMs: number;
  runs: number;
  bytes: number;
  parts?: SpeedPoint['parts'];
}

export interface SpeedBackend {
  kind: 'webgpu' | 'cpu';
  device: string;
  timing: SpeedTiming;
  attentionMaxLog2: number;
  layerMaxLog2: number;
  pointCapMs: number;
  layerConfig: LayerConfig;
  /** time `method` at n: an untimed warm-up run when `warmup`, then `repeats` timed runs */
  timePoint(method: SpeedMethod, n: number, repeats: number, warmup: boolean): Promise<PointTiming>;
  /** largest n the backend can run `method` at (device limits), if it knows one */
  maxN?(method: SpeedMethod): number;
}

export interface RunHooks {
  onProgress(p: SpeedProgress): void;
  cancelled(): boolean;
  /** yield to the event loop (so a cancel message can arrive) */
  breathe(): Promise<void>;
}

/** timed runs of the first point (after its warm-up run) */
const CALIBRATION_REPEATS = 3;

export async function runSpeedSweep(req: SpeedRequest, be: SpeedBackend, hooks: RunHooks): Promise<SpeedResult> {
  const t0 = performance.now();
  const { d, m } = req;
  const mp = m; // positive features: m' = m
  const cfg = be.layerConfig;
  const check = async () => {
    await hooks.breathe();
    if (hooks.cancelled()) throw new EngineError('cancelled', 'speed run cancelled');
  };
  const sections = [
    {
      methods: ATTENTION_METHODS as readonly SpeedMethod[],
      ns: sweepLengths(be.attentionMaxLog2),
      budget: req.layer ? req.budgetMs * ATTENTION_SHARE : req.budgetMs,
    },
    ...(req.layer
      ? [
          {
            methods: LAYER_METHODS as readonly SpeedMethod[],
            ns: sweepLengths(be.layerMaxLog2),
            budget: req.budgetMs * (1 - ATTENTION_SHARE),
          },
        ]
      : []),
  ].map((s) => ({ ...s, ns: s.ns.filter((n) => n <= Math.min(...s.methods.map((mm) => be.maxN?.(mm) ?? Infinity))) }));

  // ---- calibration = the first point (n = 2^6) of every method, with a warm-up run (compiles
  // pipelines); its time scaled by the work model predicts the rest of the sweep
  const calibration: Partial<Record<SpeedMethod, { n: number; ms: number }>> = {};
  const points: SpeedPoint[] = [];
  const stops: Partial<Record<SpeedMethod, SpeedStop>> = {};
  const used = new Map<SpeedMethod, number>();
  const measure = async (
    method: SpeedMethod,
    n: number,
    repeats: number,
    warmup: boolean,
    charge: boolean,
  ): Promise<SpeedPoint | null> => {
    await check();
    const t1 = performance.now();
    try {
      const r = await be.timePoint(method, n, repeats, warmup);
      const point: SpeedPoint = { method, n, ...r, gflops: gflopsOf(methodFlops(method, n, d, mp, cfg), r.medianMs) };
      points.push(point);
      return point;
    } catch (e) {
      if (e instanceof EngineError && e.code === 'cancelled') throw e;
      stops[method] = { kind: 'error', n, message: e instanceof Error ? e.message : String(e) };
      return null;
    } finally {
      // the calibration point (pipeline compilation, first allocations) is charged to the whole run
      // (the shares divide what it left), not to the method's share
      if (charge) used.set(method, (used.get(method) ?? 0) + performance.now() - t1);
    }
  };
  for (const s of sections) {
    for (const method of s.methods) {
      const n = s.ns[0];
      if (n === undefined) continue;
      hooks.onProgress({ doneMs: 0, totalMs: 0, label: `calibrate:${method}` });
      const p = await measure(method, n, CALIBRATION_REPEATS, true, false);
      if (p) calibration[method] = { n, ms: p.minMs }; // the fastest run: least inflated by a busy machine
    }
  }
  const calibrated = performance.now() - t0;
  // The budget covers the whole run: the sweep gets what calibration (compiles, first allocations)
  // left of it, in the sections' proportions, so a 10 s run takes about 10 s on a slow backend too.
  const left = Math.max(0, req.budgetMs - calibrated) / req.budgetMs;
  for (const s of sections) s.budget *= left;
  const estimateMs =
    calibrated +
    sections.reduce((sum, s) => {
      const plan = planSweep({
        methods: s.methods,
        ns: s.ns,
        calibration,
        budgetMs: s.budget,
        pointCapMs: be.pointCapMs,
        d,
        mp,
        layer: cfg,
      });
      return sum + plan.points.filter((p) => p.n > s.ns[0]!).reduce((a, p) => a + p.costMs, 0);
    }, 0);
  hooks.onProgress({ doneMs: calibrated, totalMs: estimateMs, label: 'estimate', estimateMs });

  for (const s of sections) {
    const share = s.budget / s.methods.length;
    const going = new Set(s.methods.filter((mm) => calibration[mm]));
    const last = new Map(s.methods.map((mm) => [mm, calibration[mm] ?? null]));
    for (let i = 1; i < s.ns.length; i++) {
      const n = s.ns[i]!;
      for (const method of s.methods) {
        if (!going.has(method)) continue;
        const predicted = predictNext(method, last.get(method)!, n, d, mp, cfg);
        const repeats = repeatsFor(predicted, share / 8);
        const spent = used.get(method) ?? 0;
        if (spent + predicted * (repeats + 1) > share || predicted > be.pointCapMs) {
          going.delete(method);
          stops[method] = { kind: 'budget', nextN: n, predictedMs: predicted };
          continue;
        }
        // a warm-up run allocates the larger buffers; skipped for slow points, where it would double the cost
        const p = await measure(method, n, repeats, predicted < share / 16, true);
        if (!p) {
          going.delete(method);
          continue;
        }
        last.set(method, { n, ms: p.minMs });
        const done = performance.now() - t0;
        hooks.onProgress({ doneMs: done, totalMs: Math.max(estimateMs, done), label: `${method}:${n}`, point: p });
      }
    }
    for (const method of going) stops[method] = { kind: 'range', maxN: s.ns[s.ns.length - 1]! };
  }
  await check();
  return {
    backend: be.kind,
    device: be.device,
    timing: be.timing,
    d,
    m,
    layerConfig: req.layer ? cfg : null,
    points,
    stops,
    budgetMs: req.budgetMs,
    estimateMs,
    elapsedMs: performance.now() - t0,
  };
}
