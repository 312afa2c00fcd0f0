/**
 * The speed figure's model and bookkeeping, pure: what a speed run is asked (SpeedRequest), what it
 * answers (SpeedResult), the FLOP model, the sweep planner that keeps a run inside its time budget,
 * and the crossover finder. Runners: src/gpu/speed-runner.ts (WebGPU) and src/core/speed-cpu.ts
 * (the CPU twins); the panel: src/panels/SpeedPanel.tsx.
 *
 * FLOP model (multiply + add = 2 FLOPs), head dimension d, m' random features:
 *   exact attention     4·n²·d      (Q Kᵀ: 2n²d, A V: 2n²d; exp and the softmax sums are O(n²), left out)
 *   Performer           8·n·m'·d    (projections of Q and K: 2·2nm'd, φ(K)ᵀV: 2nm'd, φ(Q)·S: 2nm'd)
 *   dummy attention     0           (returns V: memory traffic only)
 * so the FLOP-model crossover is 4n²d = 8nm'd ⇔ n = 2m'. With measured rates R (FLOP/s) the times
 * are t = FLOPs / R, and the crossover moves to n = 2m'·R_exact / R_performer.
 */

export const ATTENTION_METHODS = ['exact', 'performer-bidirectional', 'performer-causal', 'dummy'] as const;
export type AttentionMethod = (typeof ATTENTION_METHODS)[number];
export const LAYER_METHODS = ['layer-exact', 'layer-performer', 'layer-dummy'] as const;
export type LayerMethod = (typeof LAYER_METHODS)[number];
export type SpeedMethod = AttentionMethod | LayerMethod;

/** The Transformer layer of the layer view (the blog's setting: d_model 512, 8 heads, d_ff 2048). */
export interface LayerConfig {
  dModel: number;
  heads: number;
  dFf: number;
}
export const LAYER_GPU: LayerConfig = { dModel: 512, heads: 8, dFf: 2048 };
/** smaller on the CPU twins, where a 512-wide layer takes seconds per point */
export const LAYER_CPU: LayerConfig = { dModel: 256, heads: 4, dFf: 1024 };

export interface SpeedRequest {
  /** head dimension of the attention sweep */
  d: number;
  /** random features (positive map: m' = m) */
  m: number;
  /** total wall-clock budget of the run, ms (calibration not included) */
  budgetMs: number;
  /** time the layer view too */
  layer: boolean;
}

export interface SpeedPoint {
  method: SpeedMethod;
  n: number;
  medianMs: number;
  minMs: number;
  /** timed runs */
  runs: number;
  /** bytes of the buffers (GPU: counted by the allocator) or arrays (CPU) the method used */
  bytes: number;
  /** model FLOPs / median time, GFLOP/s (null for dummy attention) */
  gflops: number | null;
  /** layer points: time per component (GPU timestamps or CPU clock), ms */
  parts?: { projections: number; attention: number; ffn: number };
}

export type SpeedTiming = 'timestamp' | 'wall' | 'cpu';

export interface SpeedResult {
  backend: 'webgpu' | 'cpu';
  /** adapter name, or the CPU fallback's reason */
  device: string;
  timing: SpeedTiming;
  d: number;
  m: number;
  layerConfig: LayerConfig | null;
  points: SpeedPoint[];
  /** why each method stopped where it did */
  stops: Partial<Record<SpeedMethod, SpeedStop>>;
  budgetMs: number;
  estimateMs: number;
  elapsedMs: number;
}

export type SpeedStop =
  | { kind: 'budget'; nextN: number; predictedMs: number }
  | { kind: 'range'; maxN: number }
  | { kind: 'error'; n: number; message: string };

/** Progress of a run: elapsed vs estimated ms, the point just measured. */
export interface SpeedProgress {
  doneMs: number;
  totalMs: number;
  label: string;
  point?: SpeedPoint;
  estimateMs?: number;
}

// ---- FLOP model ---------------------------------------------------------------------------------

export function attentionFlops(method: AttentionMethod, n: number, d: number, mp: number): number {
  switch (method) {
    case 'exact':
      return 4 * n * n * d;
    case 'performer-bidirectional':
    case 'performer-causal':
      return 8 * n * mp * d;
    case 'dummy':
      return 0;
  }
}

/** FLOPs of one layer: Q, K, V, O projections 8·n·D², FFN 4·n·D·F, plus the attention of every head. */
export function layerFlops(method: LayerMethod, n: number, cfg: LayerConfig, mp: number): number {
  const dh = cfg.dModel / cfg.heads;
  const att =
    method === 'layer-exact'
      ? attentionFlops('exact', n, dh, mp)
      : method === 'layer-performer'
        ? attentionFlops('performer-bidirectional', n, dh, mp)
        : 0;
  return 8 * n * cfg.dModel * cfg.dModel + 4 * n * cfg.dModel * cfg.dFf + cfg.heads * att;
}

/** Work that sets how a method's time grows with n: FLOPs, or for dummy attention the 3·n·d floats it moves. */
export function methodWork(method: SpeedMethod, n: number, d: number, mp: number, cfg: LayerConfig): number {
  if (method === 'dummy') return 3 * n * d;
  if (method === 'exact' || method === 'performer-bidirectional' || method === 'performer-causal')
    return attentionFlops(method, n, d, mp);
  return layerFlops(method, n, cfg, mp);
}

export function methodFlops(method: SpeedMethod, n: number, d: number, mp: number, cfg: LayerConfig): number {
  return method === 'dummy' ? 0 : methodWork(method, n, d, mp, cfg);
}

/** GFLOP/s of a point (null without FLOPs or time). */
export function gflopsOf(flops: number, ms: number): number | null {
  return flops > 0 && ms > 0 ? flops / ms / 1e6 : null;
}

/** Time the FLOP model predicts at n, for a rate in GFLOP/s. */
export function modelMs(flops: number, gflops: number): number {
  return flops / gflops / 1e6;
}

/** FLOP-model crossover 4n²d = 8nm'd at equal rates; with rates, n = 2m'·R_exact/R_performer. */
export function predictedCrossover(mp: number, gflopsExact = 1, gflopsPerformer = 1): number {
  return (2 * mp * gflopsExact) / gflopsPerformer;
}

// ---- crossover ----------------------------------------------------------------------------------

export type Crossover =
  /** the curves cross between two measured n (interpolated in log-log) */
  | { kind: 'at'; n: number }
  /** the Performer is already faster at the smallest common n */
  | { kind: 'below'; n: number }
  /** the Performer is still slower at the largest common n */
  | { kind: 'above'; n: number }
  | { kind: 'none' };

/**
 * Where `fast` (the Performer: lower slope) becomes faster than `slow` (exact): the last sign change
 * of log t_slow − log t_fast over the n both measured, linearly interpolated in (log n, log t).
 * Points are (n, ms) in any order; n present in only one series are ignored.
 */
export function findCrossover(
  slow: readonly { n: number; ms: number }[],
  fast: readonly { n: number; ms: number }[],
): Crossover {
  const f = new Map(fast.map((p) => [p.n, p.ms]));
  const common = slow
    .filter((p) => f.has(p.n) && p.ms > 0 && f.get(p.n)! > 0)
    .map((p) => ({ n: p.n, g: Math.log(p.ms) - Math.log(f.get(p.n)!) }))
    .sort((a, b) => a.n - b.n);
  if (common.length === 0) return { kind: 'none' };
  const last = common[common.length - 1]!;
  if (last.g <= 0) return { kind: 'above', n: last.n };
  // walk back from the end while the Performer stays faster
  let i = common.length - 1;
  while (i > 0 && common[i - 1]!.g > 0) i--;
  if (i === 0) return { kind: 'below', n: common[0]!.n };
  const a = common[i - 1]!;
  const b = common[i]!;
  const t = a.g === b.g ? 0 : (0 - a.g) / (b.g - a.g);
  const logN = Math.log(a.n) + t * (Math.log(b.n) - Math.log(a.n));
  return { kind: 'at', n: Math.exp(logN) };
}

// ---- planner ------------------------------------------------------------------------------------

/** Sequence lengths of the sweep: 2^6 … 2^maxLog2. */
export function sweepLengths(maxLog2: number, minLog2 = 6): number[] {
  const out: number[] = [];
  for (let e = minLog2; e <= maxLog2; e++) out.push(2 ** e);
  return out;
}

/** Range and per-point cap of each backend: the CPU twins get a smaller range. */
export const SPEED_RANGE = {
  webgpu: { attentionMaxLog2: 17, layerMaxLog2: 15, pointCapMs: 8_000 },
  cpu: { attentionMaxLog2: 13, layerMaxLog2: 11, pointCapMs: 2_500 },
} as const;

/** Share of the budget that goes to the attention sweep when the layer view runs too. */
export const ATTENTION_SHARE = 0.6;

/** Timed runs at a point predicted to take `predictedMs`: up to 5, fewer when slow (at least 1). */
export function repeatsFor(predictedMs: number, pointShareMs: number): number {
  if (!(predictedMs > 0)) return 5;
  return Math.max(1, Math.min(5, Math.floor(pointShareMs / predictedMs)));
}

/** Prediction of the next point from the last measured one, scaled by the work model. */
export function predictNext(
  method: SpeedMethod,
  last: { n: number; ms: number },
  nextN: number,
  d: number,
  mp: number,
  cfg: LayerConfig,
): number {
  const w0 = methodWork(method, last.n, d, mp, cfg);
  const w1 = methodWork(method, nextN, d, mp, cfg);
  return w0 > 0 ? (last.ms * w1) / w0 : last.ms;
}

export interface PlannedPoint {
  method: SpeedMethod;
  n: number;
  predictedMs: number;
  repeats: number;
  /** predicted cost including the untimed warm-up run */
  costMs: number;
}

export interface SweepPlan {
  points: PlannedPoint[];
  /** predicted wall time of the plan, ms */
  totalMs: number;
  /** where each method is predicted to stop */
  stops: Partial<Record<SpeedMethod, SpeedStop>>;
}

/**
 * Which (method, n) fit: each method gets an equal share of `budgetMs`; from the calibration point
 * (time at n₀), the next n is taken while its predicted cost (warm-up + repeats) fits the method's
 * remaining share and one run stays under `pointCapMs`. The first n always runs. Used before a run
 * for the estimate, and (method by method, with measured times) while it runs.
 */
export function planSweep(o: {
  methods: readonly SpeedMethod[];
  ns: readonly number[];
  calibration: Partial<Record<SpeedMethod, { n: number; ms: number }>>;
  budgetMs: number;
  pointCapMs: number;
  d: number;
  mp: number;
  layer: LayerConfig;
}): SweepPlan {
  const share = o.budgetMs / Math.max(1, o.methods.length);
  const points: PlannedPoint[] = [];
  const stops: SweepPlan['stops'] = {};
  for (const method of o.methods) {
    const cal = o.calibration[method];
    let used = 0;
    for (let i = 0; i < o.ns.length; i++) {
      const n = o.ns[i]!;
      const predictedMs = cal ? predictNext(method, cal, n, o.d, o.mp, o.layer) : 0;
      const repeats = repeatsFor(predictedMs, share / 8);
      const costMs = predictedMs * (repeats + 1);
      if (i > 0 && (used + costMs > share || predictedMs > o.pointCapMs)) {
        stops[method] = { kind: 'budget', nextN: n, predictedMs };
        break;
      }
      used += costMs;
      points.push({ method, n, predictedMs, repeats, costMs });
      if (i === o.ns.length - 1) stops[method] = { kind: 'range', maxN: n };
    }
  }
  return { points, totalMs: points.reduce((s, p) => s + p.costMs, 0), stops };
}

/** The point of `method` at the largest n (null if none). */
export function largestPoint(points: readonly SpeedPoint[], method: SpeedMethod): SpeedPoint | null {
  let best: SpeedPoint | null = null;
  for (const p of points) if (p.method === method && (!best || p.n > best.n)) best = p;
  return best;
}
