/**
 * The speed run's loop, shared by the WebGPU and CPU runners: calibrate every method once, estimate
 * the run from the FLOP model (src/core/speed-model.ts `planSweep`), then sweep n = 2^6, 2^7, … in
 * rounds (each round visits every method still going, so the figure grows left to right), stopping
 * a method when its next point is predicted — from its last measured time scaled by the work model —
 * to overrun its share of the budget or the per-point cap, or when it fails (e.g. a buffer past the
 * device's limit: the message is kept). The backend-specific part is `timePoint`.
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

const CALIBRATION_N = { attention: 256, layer: 128 } as const;

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
    { methods: ATTENTION_METHODS as readonly SpeedMethod[], ns: sweepLengths(be.attentionMaxLog2), budget: req.layer ? req.budgetMs * ATTENTION_SHARE : req.budgetMs, calN: CALIBRATION_N.attention },
    ...(req.layer ? [{ methods: LAYER_METHODS as readonly SpeedMethod[], ns: sweepLengths(be.layerMaxLog2), budget: req.budgetMs * (1 - ATTENTION_SHARE), calN: CALIBRATION_N.layer }] : []),
  ].map((s) => ({ ...s, ns: s.ns.filter((n) => n <= Math.min(...s.methods.map((mm) => be.maxN?.(mm) ?? Infinity))) }));

  // ---- calibration: one warm run + one timed run per method (compiles pipelines too)
  const calibration: Partial<Record<SpeedMethod, { n: number; ms: number }>> = {};
  for (const s of sections) {
    for (const method of s.methods) {
      await check();
      hooks.onProgress({ doneMs: 0, totalMs: 0, label: `calibrate:${method}`, estimateMs: undefined });
      const n = Math.min(s.calN, s.ns[s.ns.length - 1] ?? s.calN);
      try {
        const r = await be.timePoint(method, n, 1, true);
        calibration[method] = { n, ms: r.medianMs };
      } catch (e) {
        if (e instanceof EngineError && e.code === 'cancelled') throw e;
        // no calibration: the planner assumes the first point is cheap; the sweep will report the error
      }
    }
  }
  const estimateMs = sections.reduce(
    (sum, s) => sum + planSweep({ methods: s.methods, ns: s.ns, calibration, budgetMs: s.budget, pointCapMs: be.pointCapMs, d, mp, layer: cfg }).totalMs,
    0,
  );
  const tSweep = performance.now();
  hooks.onProgress({ doneMs: 0, totalMs: estimateMs, label: 'estimate', estimateMs });

  const points: SpeedPoint[] = [];
  const stops: Partial<Record<SpeedMethod, SpeedStop>> = {};
  for (const s of sections) {
    const share = s.budget / s.methods.length;
    const state = new Map(s.methods.map((mm) => [mm, { used: 0, last: null as { n: number; ms: number } | null, going: true, warm: false }]));
    for (let i = 0; i < s.ns.length; i++) {
      const n = s.ns[i]!;
      for (const method of s.methods) {
        const st = state.get(method)!;
        if (!st.going) continue;
        const base = st.last ?? calibration[method] ?? null;
        const predicted = base ? predictNext(method, base, n, d, mp, cfg) : 0;
        const repeats = repeatsFor(predicted, share / 8);
        const cost = predicted * (repeats + 1);
        if (i > 0 && (st.used + cost > share || predicted > be.pointCapMs)) {
          st.going = false;
          stops[method] = { kind: 'budget', nextN: n, predictedMs: predicted };
          continue;
        }
        await check();
        const t1 = performance.now();
        try {
          // a warm-up run compiles and allocates; skipped for slow points, where it would double the cost
          const warmup = !st.warm || predicted < share / 16;
          const r = await be.timePoint(method, n, repeats, warmup);
          st.warm = true;
          st.last = { n, ms: r.medianMs };
          const point: SpeedPoint = { method, n, ...r, gflops: gflopsOf(methodFlops(method, n, d, mp, cfg), r.medianMs) };
          points.push(point);
          const done = performance.now() - tSweep;
          hooks.onProgress({ doneMs: done, totalMs: Math.max(estimateMs, done), label: `${method}:${n}`, point });
        } catch (e) {
          if (e instanceof EngineError && e.code === 'cancelled') throw e;
          st.going = false;
          stops[method] = { kind: 'error', n, message: e instanceof Error ? e.message : String(e) };
        }
        st.used += performance.now() - t1;
        if (st.going && i === s.ns.length - 1) stops[method] = { kind: 'range', maxN: n };
      }
    }
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
