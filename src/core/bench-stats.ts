/**
 * Pure parts of the benchmark (`npm run bench`, e2e/bench.mjs): the interleaved visiting order,
 * the per-point statistics, the FLOP model, the numerical agreement measure, the measured
 * crossover and the speed targets (`BENCH_TARGETS`), and the JSON the bench writes. No timing happens here.
 */

/** Methods of the bench: ours (WGSL kernels) and the TensorFlow.js peers composed from tf ops. */
export type BenchMethod =
  'exact' | 'performer-bidirectional' | 'performer-causal' | 'dummy' | 'tfjs-exact' | 'tfjs-favor';
export const BENCH_METHODS: readonly BenchMethod[] = [
  'exact',
  'performer-bidirectional',
  'performer-causal',
  'dummy',
  'tfjs-exact',
  'tfjs-favor',
];

/**
 * The visiting order of round `round` (0-based) out of `rounds`: the same points, rotated so each
 * round starts at a different point and the starts spread evenly over the list. Every round
 * visits every point exactly once, so slow drifts of a shared machine hit all points alike.
 */
export function rotatedOrder<T>(items: readonly T[], round: number, rounds: number): T[] {
  const len = items.length;
  if (len === 0) return [];
  const step = Math.max(1, Math.floor(len / Math.max(1, rounds)));
  const start = (((round * step) % len) + len) % len;
  return [...items.slice(start), ...items.slice(0, start)];
}

export interface SampleStats {
  minMs: number;
  medianMs: number;
  count: number;
}

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

export function sampleStats(samples: readonly number[]): SampleStats {
  return { minMs: samples.length ? Math.min(...samples) : NaN, medianMs: median(samples), count: samples.length };
}

/** FLOP model: exact attention 4n²d (QKᵀ and AV), Performer 8nmd (both projections, φ(K)ᵀV, φ(Q)S); dummy none. */
export function flopModel(method: BenchMethod, n: number, d: number, m: number): number | null {
  switch (method) {
    case 'exact':
    case 'tfjs-exact':
      return 4 * n * n * d;
    case 'performer-bidirectional':
    case 'performer-causal':
    case 'tfjs-favor':
      return 8 * n * m * d;
    case 'dummy':
      return null;
  }
}

/** GFLOP/s of `flop` operations in `ms` milliseconds (null without a FLOP model or a time). */
export function gflops(flop: number | null, ms: number): number | null {
  return flop === null || !(ms > 0) ? null : flop / (ms * 1e6);
}

/**
 * Largest entrywise relative difference of `a` from the reference `ref`: max_i |a_i − ref_i| /
 * max(|ref_i|, floor · max_j |ref_j|). The floor (default 1e-3 of the largest entry) keeps entries
 * near zero from turning rounding into huge relative errors. NaN / ∞ anywhere gives ∞.
 */
export function maxRelDiff(a: ArrayLike<number>, ref: ArrayLike<number>, floor = 1e-3): number {
  if (a.length !== ref.length) throw new Error(`length mismatch: ${a.length} vs ${ref.length}`);
  let scale = 0;
  for (let i = 0; i < ref.length; i++) scale = Math.max(scale, Math.abs(ref[i]!));
  const lo = Math.max(scale * floor, Number.MIN_VALUE);
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = ref[i]!;
    if (!Number.isFinite(x) || !Number.isFinite(y)) return Infinity;
    worst = Math.max(worst, Math.abs(x - y) / Math.max(Math.abs(y), lo));
  }
  return worst;
}

export interface CrossoverPoint {
  n: number;
  exactMs: number;
  performerMs: number;
}

export type Crossover =
  /** Performer is faster from the first measured n on */
  | { kind: 'below'; n: number }
  /** the time ratio crosses 1 between two measured n: log-log interpolation */
  | { kind: 'measured'; n: number; between: [number, number] }
  /** Performer is slower at every measured n: exact ∝ n², Performer ∝ n extrapolated from the last n */
  | { kind: 'extrapolated'; n: number; from: number };

/**
 * The n from which Performer beats exact attention, from median times at increasing n: the first
 * sign change of log(performer / exact), interpolated linearly in log n; before the first point
 * 'below'; past the last, extrapolated with the FLOP model's powers (n·t_P/t_E from the last point).
 */
export function findCrossover(points: readonly CrossoverPoint[]): Crossover | null {
  const pts = points.filter((p) => p.exactMs > 0 && p.performerMs > 0).sort((a, b) => a.n - b.n);
  if (pts.length === 0) return null;
  const r = pts.map((p) => Math.log(p.performerMs / p.exactMs));
  if (r[0]! <= 0) return { kind: 'below', n: pts[0]!.n };
  for (let i = 1; i < pts.length; i++) {
    if (r[i]! <= 0) {
      const a = pts[i - 1]!;
      const b = pts[i]!;
      const t = r[i - 1]! / (r[i - 1]! - r[i]!);
      const n = Math.exp(Math.log(a.n) + t * (Math.log(b.n) - Math.log(a.n)));
      return { kind: 'measured', n, between: [a.n, b.n] };
    }
  }
  const last = pts.at(-1)!;
  return { kind: 'extrapolated', n: (last.n * last.performerMs) / last.exactMs, from: last.n };
}

export interface BenchPoint {
  method: BenchMethod;
  n: number;
  medianMs: number;
  minMs: number;
  gflops: number | null;
  bytes: number;
  /** per-pass median GPU ms, when the timing hook reports passes */
  passes?: Record<string, number>;
}

export interface BenchJson {
  adapter: string;
  d: number;
  m: number;
  points: BenchPoint[];
}

export interface PointSamples {
  method: BenchMethod;
  n: number;
  samples: number[];
  bytes: number;
  /** samples per pass name */
  passes?: Record<string, number[]>;
}

/** The bench's JSON (`--json FILE`): one point per method and n with samples, GFLOP/s on the median. */
export function benchJson(adapter: string, d: number, m: number, measured: readonly PointSamples[]): BenchJson {
  const points = measured
    .filter((p) => p.samples.length > 0)
    .map((p): BenchPoint => {
      const st = sampleStats(p.samples);
      const point: BenchPoint = {
        method: p.method,
        n: p.n,
        medianMs: st.medianMs,
        minMs: st.minMs,
        gflops: gflops(flopModel(p.method, p.n, d, m), st.medianMs),
        bytes: p.bytes,
      };
      if (p.passes && Object.keys(p.passes).length > 0) {
        point.passes = Object.fromEntries(Object.entries(p.passes).map(([k, xs]) => [k, median(xs)]));
      }
      return point;
    });
  return { adapter, d, m, points };
}

/**
 * Pass times of one timing call in whatever shape the hook gives them — `[{ kernel | name | label,
 * ms }]` or `{ name: ms }` — as `{ name: ms }` (several entries of one name are summed).
 */
export function normalizePasses(raw: unknown): Record<string, number> | null {
  if (!raw || typeof raw !== 'object') return null;
  const out: Record<string, number> = {};
  const add = (name: unknown, ms: unknown): void => {
    if (typeof name === 'string' && typeof ms === 'number' && Number.isFinite(ms)) out[name] = (out[name] ?? 0) + ms;
  };
  if (Array.isArray(raw)) {
    for (const e of raw)
      if (e && typeof e === 'object') add(e.kernel ?? e.name ?? e.label ?? e.pass, e.ms ?? e.medianMs);
  } else {
    for (const [name, ms] of Object.entries(raw)) add(name, ms);
  }
  return Object.keys(out).length ? out : null;
}

export interface Target {
  name: string;
  /** measured value (null when the run did not measure it) */
  value: number | null;
  goal: string;
  met: boolean | null;
  detail: string;
}

/**
 * The speed targets the bench reports a verdict on, from medians at n = `atN`. The first two say
 * the Performer kernels are not just fewer FLOPs but FLOPs run well; the crossover says the win
 * arrives at sequence lengths people use; the last two say the fused WGSL kernels are worth having
 * over the same math composed from TensorFlow.js ops on the same device.
 */
export const BENCH_TARGETS = {
  /** where the ratios are taken: large enough that per-dispatch overhead no longer dominates */
  atN: 4096,
  /** Performer bidirectional GFLOP/s ≥ this share of exact's: its GEMM-shaped passes run near the dense rate */
  bidirectionalGflopsShare: 0.5,
  /** causal ≥ this share: the chunked prefix sums carry a state from chunk to chunk, so a lower bar */
  causalGflopsShare: 0.35,
  /** the measured crossover (Performer bidirectional faster than exact) at or below this n; the FLOP model puts it near 2m′ */
  crossoverMaxN: 1024,
  /** tfjs FAVOR+ time ≥ this many times ours */
  speedupOverTfjsFavor: 3,
  /** tfjs exact attention time ≥ this many times ours */
  speedupOverTfjsExact: 4,
} as const;

/**
 * The targets (`BENCH_TARGETS`) from one run's points (medians): Performer bidirectional and causal
 * GFLOP/s as shares of exact's, the crossover, and the speed-ups over tfjs, each at n = `at`.
 */
export function targets(points: readonly BenchPoint[], at: number = BENCH_TARGETS.atN): Target[] {
  const get = (method: BenchMethod, n = at): BenchPoint | undefined =>
    points.find((p) => p.method === method && p.n === n);
  const ratio = (num: number | null | undefined, den: number | null | undefined): number | null =>
    num != null && den != null && den > 0 ? num / den : null;
  const out: Target[] = [];
  const exact = get('exact');
  for (const [method, goal] of [
    ['performer-bidirectional', BENCH_TARGETS.bidirectionalGflopsShare],
    ['performer-causal', BENCH_TARGETS.causalGflopsShare],
  ] as const) {
    const p = get(method);
    const v = ratio(p?.gflops, exact?.gflops);
    out.push({
      name: `${method} GFLOP/s / exact GFLOP/s at n = ${at}`,
      value: v,
      goal: `≥ ${goal}`,
      met: v === null ? null : v >= goal,
      detail: v === null ? 'not measured' : `${p!.gflops!.toFixed(3)} / ${exact!.gflops!.toFixed(3)} GFLOP/s`,
    });
  }
  const ns = [...new Set(points.map((p) => p.n))].sort((a, b) => a - b);
  const cross = findCrossover(
    ns.flatMap((n) => {
      const e = get('exact', n);
      const p = get('performer-bidirectional', n);
      return e && p ? [{ n, exactMs: e.medianMs, performerMs: p.medianMs }] : [];
    }),
  );
  const maxN = BENCH_TARGETS.crossoverMaxN;
  out.push({
    name: 'measured crossover n (Performer bidirectional faster than exact)',
    value: cross?.n ?? null,
    goal: `≤ ${maxN}`,
    // An extrapolated crossover is no measurement: slower at every measured n ≥ the target is a
    // miss, slower at every measured n below it leaves the target unmeasured.
    met: cross === null ? null : cross.kind !== 'extrapolated' ? cross.n <= maxN : cross.from >= maxN ? false : null,
    detail:
      cross === null
        ? 'not measured'
        : cross.kind === 'below'
          ? `faster already at the smallest n = ${cross.n}`
          : cross.kind === 'measured'
            ? `between n = ${cross.between[0]} and ${cross.between[1]} (log-log interpolation)`
            : `slower at every measured n; extrapolated from n = ${cross.from} (exact ∝ n², Performer ∝ n)`,
  });
  for (const [ours, peer, goal] of [
    ['performer-bidirectional', 'tfjs-favor', BENCH_TARGETS.speedupOverTfjsFavor],
    ['exact', 'tfjs-exact', BENCH_TARGETS.speedupOverTfjsExact],
  ] as const) {
    const o = get(ours);
    const p = get(peer);
    const v = ratio(p?.medianMs, o?.medianMs);
    out.push({
      name: `${peer} time / ${ours} time at n = ${at}`,
      value: v,
      goal: `≥ ${goal}`,
      met: v === null ? null : v >= goal,
      detail: v === null ? 'not measured' : `${p!.medianMs.toFixed(1)} ms / ${o!.medianMs.toFixed(1)} ms`,
    });
  }
  return out;
}
