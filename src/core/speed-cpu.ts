/**
 * The speed run on the CPU fallback: times the CPU twins themselves (exactAttentionOutput, the
 * positive-feature Performer of linear-attention.ts, the identity for dummy attention, and a
 * Transformer layer on the matmul twin), by `performance.now()` around each call. Bytes are those
 * of the typed arrays each method allocates, counted from their shapes.
 */
import { exactAttentionOutput } from './exact-attention';
import { linearAttentionOutput, performerFeatures } from './linear-attention';
import { matmulInto } from './matmul';
import { randomProjection } from './projections';
import { createRng } from './rng';
import { median } from './speed-stats';
import { LAYER_CPU, SPEED_RANGE, type LayerConfig, type SpeedMethod } from './speed-model';
import type { PointTiming, SpeedBackend } from './speed-run';
import type { AttentionInputs, Matrix } from './types';

const F = 4;
/** a timed sample lasts at least this long: fast calls are repeated and averaged */
const MIN_SAMPLE_MS = 4;

function inputs(n: number, d: number, m: number, seed = 1): AttentionInputs {
  const rng = createRng(seed);
  const mat = (rows: number, cols: number, std: number): Matrix => ({
    rows,
    cols,
    data: rng.fillNormal(new Float32Array(rows * cols), std),
  });
  return { q: mat(n, d, 0.5), k: mat(n, d, 0.5), v: mat(n, d, 1), w: randomProjection('orthogonal-chi', m, d, rng) };
}

/** One attention head on the CPU twins; returns the output and the bytes it allocated. */
export function cpuAttention(
  method: 'exact' | 'performer-bidirectional' | 'performer-causal' | 'dummy',
  inp: AttentionInputs,
): { out: Matrix; bytes: number } {
  const n = inp.q.rows;
  const d = inp.q.cols;
  const m = inp.w.rows;
  switch (method) {
    case 'exact':
      return { out: exactAttentionOutput(inp.q, inp.k, inp.v, false), bytes: n * d * F + 8 * d };
    case 'dummy':
      return { out: { rows: n, cols: d, data: inp.v.data.slice() }, bytes: n * d * F };
    default: {
      const { qf, kf } = performerFeatures(inp, 'positive');
      // scaled copies of Q and K, φ(Q), φ(K), the f64 projections, the f64 state S and z, the output
      const bytes = 2 * n * d * F + 2 * n * m * F + 2 * n * m * 8 + m * (d + 1) * 8 + n * d * F;
      return { out: linearAttentionOutput(qf, kf, inp.v, method === 'performer-causal'), bytes };
    }
  }
}

interface LayerWeights {
  x: Float32Array;
  wq: Float32Array;
  wk: Float32Array;
  wv: Float32Array;
  wo: Float32Array;
  w1: Float32Array;
  w2: Float32Array;
  /** the random features of every head (m × d_head) */
  wf: Matrix;
}

function layerWeights(n: number, cfg: LayerConfig, m: number, seed = 2): LayerWeights {
  const rng = createRng(seed);
  const D = cfg.dModel;
  const g = (len: number, std: number) => rng.fillNormal(new Float32Array(len), std);
  return {
    x: g(n * D, 1),
    wq: g(D * D, 1 / Math.sqrt(D)),
    wk: g(D * D, 1 / Math.sqrt(D)),
    wv: g(D * D, 1 / Math.sqrt(D)),
    wo: g(D * D, 1 / Math.sqrt(D)),
    w1: g(D * cfg.dFf, 1 / Math.sqrt(D)),
    w2: g(cfg.dFf * D, 1 / Math.sqrt(cfg.dFf)),
    wf: randomProjection('orthogonal-chi', m, D / cfg.heads, rng),
  };
}

/**
 * One Transformer layer (no layer norm, no biases: O(n·D) each): Y = X + Σ_h Attn_h(X W_Q,h, X W_K,h,
 * X W_V,h) W_O,h, then Y += ReLU(Y W₁) W₂. Returns Y and the time of each component.
 */
export function cpuLayer(
  method: 'layer-exact' | 'layer-performer' | 'layer-dummy',
  n: number,
  cfg: LayerConfig,
  m: number,
  w: LayerWeights = layerWeights(n, cfg, m),
): { y: Float32Array; parts: { projections: number; attention: number; ffn: number }; bytes: number } {
  const D = cfg.dModel;
  const dh = D / cfg.heads;
  const parts = { projections: 0, attention: 0, ffn: 0 };
  let t = performance.now();
  const lap = (k: keyof typeof parts) => {
    const now = performance.now();
    parts[k] += now - t;
    t = now;
  };
  const y = w.x.slice();
  const qh = new Float32Array(n * dh);
  const kh = new Float32Array(n * dh);
  const vh = new Float32Array(n * dh);
  const W = w.wf;
  const attMethod =
    method === 'layer-exact' ? 'exact' : method === 'layer-performer' ? 'performer-bidirectional' : 'dummy';
  let attBytes = 0;
  lap('projections');
  for (let h = 0; h < cfg.heads; h++) {
    for (const [dst, wt] of [
      [qh, w.wq],
      [kh, w.wk],
      [vh, w.wv],
    ] as const) {
      matmulInto({ m: n, n: dh, k: D, ldb: D, offB: h * dh }, w.x, wt, dst);
    }
    lap('projections');
    const m3 = (data: Float32Array): Matrix => ({ rows: n, cols: dh, data });
    const a = cpuAttention(attMethod, { q: m3(qh), k: m3(kh), v: m3(vh), w: W });
    attBytes = Math.max(attBytes, a.bytes);
    lap('attention');
    matmulInto({ m: n, n: D, k: dh, offB: h * dh * D, accumulate: true }, a.out.data, w.wo, y);
    lap('projections');
  }
  const hidden = new Float32Array(n * cfg.dFf);
  matmulInto({ m: n, n: cfg.dFf, k: D, relu: true }, y, w.w1, hidden);
  matmulInto({ m: n, n: D, k: cfg.dFf, accumulate: true }, hidden, w.w2, y);
  lap('ffn');
  const weights = (4 * D * D + 2 * D * cfg.dFf) * F;
  const bytes = weights + 2 * n * D * F + 3 * n * dh * F + n * cfg.dFf * F + attBytes;
  return { y, parts, bytes };
}

/** The CPU runner: the twins timed in this thread (the engine worker). */
export function createCpuSpeedBackend(reason: string, d: number, m: number): SpeedBackend {
  const cache = new Map<string, AttentionInputs>();
  const layerCache = new Map<number, LayerWeights>();
  return {
    kind: 'cpu',
    device: reason,
    timing: 'cpu',
    attentionMaxLog2: SPEED_RANGE.cpu.attentionMaxLog2,
    layerMaxLog2: SPEED_RANGE.cpu.layerMaxLog2,
    pointCapMs: SPEED_RANGE.cpu.pointCapMs,
    layerConfig: LAYER_CPU,
    async timePoint(method: SpeedMethod, n: number, repeats: number, warmup: boolean): Promise<PointTiming> {
      const samples: number[] = [];
      let bytes = 0;
      const partSamples: { projections: number; attention: number; ffn: number }[] = [];
      const isLayer = method.startsWith('layer-');
      let inp: AttentionInputs | undefined;
      let lw: LayerWeights | undefined;
      if (isLayer) {
        lw = layerCache.get(n) ?? layerWeights(n, LAYER_CPU, m);
        layerCache.clear();
        layerCache.set(n, lw);
      } else {
        const key = `${n}`;
        inp = cache.get(key) ?? inputs(n, d, m);
        cache.clear();
        cache.set(key, inp);
      }
      for (let r = 0; r < repeats + (warmup ? 1 : 0); r++) {
        // fast calls are repeated until MIN_SAMPLE_MS has passed (the clock's resolution is coarse)
        const t0 = performance.now();
        let calls = 0;
        const sum = { projections: 0, attention: 0, ffn: 0 };
        do {
          if (isLayer) {
            const out = cpuLayer(method as 'layer-exact', n, LAYER_CPU, m, lw);
            bytes = out.bytes;
            sum.projections += out.parts.projections;
            sum.attention += out.parts.attention;
            sum.ffn += out.parts.ffn;
          } else {
            bytes = cpuAttention(method as 'exact', inp!).bytes;
          }
          calls++;
        } while (performance.now() - t0 < MIN_SAMPLE_MS);
        const ms = (performance.now() - t0) / calls;
        if (!(warmup && r === 0)) {
          samples.push(ms);
          if (isLayer)
            partSamples.push({
              projections: sum.projections / calls,
              attention: sum.attention / calls,
              ffn: sum.ffn / calls,
            });
        }
        await new Promise((res) => setTimeout(res, 0));
      }
      const med = median(samples);
      const out: PointTiming = { medianMs: med, minMs: Math.min(...samples), runs: samples.length, bytes };
      if (isLayer) {
        out.parts = {
          projections: median(partSamples.map((p) => p.projections)),
          attention: median(partSamples.map((p) => p.attention)),
          ffn: median(partSamples.map((p) => p.ffn)),
        };
      }
      return out;
    },
  };
}
