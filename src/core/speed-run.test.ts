import { afterEach, describe, expect, it, vi } from 'vitest';
import { EngineError } from './errors';
import { LAYER_CPU, attentionFlops, type SpeedMethod } from './speed-model';
import { runSpeedSweep, type SpeedBackend } from './speed-run';
import { cpuAttention, cpuLayer } from './speed-cpu';
import { createRng } from './rng';
import { randomProjection } from './projections';
import type { Matrix } from './types';

/** A fake backend whose time is the FLOP model at 1 GFLOP/s (dummy: 1 µs per n). */
function fake(over: Partial<SpeedBackend> = {}): SpeedBackend & { calls: [SpeedMethod, number][] } {
  const calls: [SpeedMethod, number][] = [];
  return {
    kind: 'cpu',
    device: 'fake',
    timing: 'cpu',
    attentionMaxLog2: 14,
    layerMaxLog2: 10,
    pointCapMs: 1e9,
    layerConfig: LAYER_CPU,
    calls,
    async timePoint(method, n) {
      calls.push([method, n]);
      const ms =
        method === 'dummy' || method.startsWith('layer')
          ? n / 1000
          : attentionFlops(method as 'exact', n, 64, 64) / 1e6;
      return { medianMs: ms, minMs: ms, runs: 1, bytes: n * 100 };
    },
    ...over,
  };
}
const hooks = (cancelAfter = Infinity) => {
  let progress = 0;
  return {
    onProgress: () => void progress++,
    cancelled: () => progress > cancelAfter,
    breathe: () => Promise.resolve(),
  };
};

describe('speed run loop', () => {
  it('measures every method from n = 64 upward and stops the quadratic one first', async () => {
    const r = await runSpeedSweep({ d: 64, m: 64, budgetMs: 4000, layer: false }, fake(), hooks());
    for (const m of ['exact', 'performer-bidirectional', 'performer-causal', 'dummy'] as const) {
      expect(r.points.some((p) => p.method === m && p.n === 64)).toBe(true);
    }
    const maxN = (m: string) => Math.max(...r.points.filter((p) => p.method === m).map((p) => p.n));
    expect(maxN('exact')).toBeLessThan(maxN('performer-bidirectional'));
    expect(r.stops.exact?.kind).toBe('budget');
    expect(r.stops.dummy).toEqual({ kind: 'range', maxN: 16384 });
    const p = r.points.find((x) => x.method === 'exact' && x.n === 1024)!;
    expect(p.gflops).toBeCloseTo(1);
    expect(r.points.find((x) => x.method === 'dummy')!.gflops).toBeNull();
    expect(r.estimateMs).toBeGreaterThan(0);
  });

  it('adds the layer methods when asked', async () => {
    const r = await runSpeedSweep({ d: 64, m: 64, budgetMs: 1000, layer: true }, fake(), hooks());
    expect(new Set(r.points.map((p) => p.method))).toContain('layer-performer');
    expect(r.layerConfig).toEqual(LAYER_CPU);
  });

  it('records a failing method as stopped with its message and keeps the others going', async () => {
    const be = fake({
      async timePoint(method, n) {
        if (method === 'performer-causal' && n >= 512) throw new Error('buffer too large');
        return { medianMs: 0.01 * n, minMs: 0.01 * n, runs: 1, bytes: 1 };
      },
    });
    const r = await runSpeedSweep({ d: 64, m: 64, budgetMs: 1e6, layer: false }, be, hooks());
    expect(r.stops['performer-causal']).toEqual({ kind: 'error', n: 512, message: 'buffer too large' });
    expect(Math.max(...r.points.filter((p) => p.method === 'dummy').map((p) => p.n))).toBe(16384);
  });

  describe('on a virtual clock (each timed or warm-up run advances performance.now by its time)', () => {
    afterEach(() => vi.restoreAllMocks());
    /** A backend at 0.05 GFLOP/s whose first visit of each method also costs `compileMs` (pipeline compilation). */
    function clocked(compileMs: number) {
      let now = 0;
      vi.spyOn(performance, 'now').mockImplementation(() => now);
      const seen = new Set<SpeedMethod>();
      return fake({
        async timePoint(method, n, repeats, warmup) {
          const ms = method === 'dummy' ? n / 100 : attentionFlops(method as 'exact', n, 64, 64) / 5e4;
          now += ms * (repeats + (warmup ? 1 : 0)) + (seen.has(method) ? 0 : compileMs);
          seen.add(method);
          return { medianMs: ms, minMs: ms, runs: repeats, bytes: n };
        },
      });
    }

    it('the whole run, calibration included, stays within the budget', async () => {
      const r = await runSpeedSweep({ d: 64, m: 64, budgetMs: 10_000, layer: false }, clocked(1500), hooks());
      expect(r.elapsedMs).toBeLessThanOrEqual(10_000);
      // and the sweep used the budget: every method measured past its calibration point
      for (const m of ['exact', 'performer-bidirectional', 'performer-causal', 'dummy'] as const)
        expect(r.points.filter((p) => p.method === m).length).toBeGreaterThan(1);
    });

    it('when calibration alone takes the budget, only the calibration points are measured', async () => {
      const r = await runSpeedSweep({ d: 64, m: 64, budgetMs: 2000, layer: false }, clocked(1000), hooks());
      expect(r.points.every((p) => p.n === 64)).toBe(true);
      expect(r.stops.exact?.kind).toBe('budget');
    });
  });

  it('rejects with "cancelled" when cancelled mid-run', async () => {
    await expect(runSpeedSweep({ d: 64, m: 64, budgetMs: 4000, layer: false }, fake(), hooks(6))).rejects.toSatisfy(
      (e: unknown) => e instanceof EngineError && e.code === 'cancelled',
    );
  });
});

describe('CPU twins of the speed run', () => {
  it('dummy attention returns V and the Performer output is finite and close to exact attention at small norms', () => {
    const rng = createRng(5);
    const n = 32;
    const d = 8;
    const mat = (std: number) => ({ rows: n, cols: d, data: rng.fillNormal(new Float32Array(n * d), std) });
    const inp = { q: mat(0.2), k: mat(0.2), v: mat(1), w: randomProjection('orthogonal-chi', 256, d, rng) };
    expect(Array.from(cpuAttention('dummy', inp).out.data)).toEqual(Array.from(inp.v.data));
    const ex = cpuAttention('exact', inp).out.data;
    const pf = cpuAttention('performer-bidirectional', inp).out.data;
    let err = 0;
    let ref = 0;
    for (let i = 0; i < ex.length; i++) {
      err += (ex[i]! - pf[i]!) ** 2;
      ref += ex[i]! ** 2;
    }
    expect(Math.sqrt(err / ref)).toBeLessThan(0.2);
  });

  it('a layer with dummy attention is X + Σ_h V_h W_O,h + FFN, and all three layers have the same shape', () => {
    const cfg = { dModel: 8, heads: 2, dFf: 16 };
    const n = 5;
    const m = 4;
    const D = cfg.dModel;
    const dh = D / cfg.heads;
    const rng = createRng(11);
    const g = (len: number) => rng.fillNormal(new Float32Array(len), 0.5);
    const w = {
      x: g(n * D),
      wq: g(D * D),
      wk: g(D * D),
      wv: g(D * D),
      wo: g(D * D),
      w1: g(D * cfg.dFf),
      w2: g(cfg.dFf * D),
      wf: randomProjection('orthogonal-chi', m, dh, rng),
    };
    /** X·B[:, c0 … c0 + cols) for a row-major B with `ldb` columns, in f64 */
    const times = (
      a: ArrayLike<number>,
      rows: number,
      k: number,
      b: Float32Array,
      ldb: number,
      c0: number,
      cols: number,
    ) =>
      Float64Array.from({ length: rows * cols }, (_, idx) => {
        const i = Math.floor(idx / cols);
        const j = idx % cols;
        let acc = 0;
        for (let t = 0; t < k; t++) acc += a[i * k + t]! * b[t * ldb + c0 + j]!;
        return acc;
      });
    type Head = (q: Matrix, k: Matrix, v: Matrix) => ArrayLike<number>;
    // written out with plain loops: Y = X + Σ_h head(X W_Q,h, X W_K,h, X W_V,h) W_O,h, then Y += ReLU(Y W₁) W₂
    const reference = (head: Head): Float64Array => {
      const y = Float64Array.from(w.x);
      for (let h = 0; h < cfg.heads; h++) {
        const mat = (wt: Float32Array): Matrix => ({
          rows: n,
          cols: dh,
          data: Float32Array.from(times(w.x, n, D, wt, D, h * dh, dh)),
        });
        const o = head(mat(w.wq), mat(w.wk), mat(w.wv));
        const woRows = w.wo.subarray(h * dh * D, (h + 1) * dh * D);
        const add = times(o, n, dh, woRows, D, 0, D);
        for (let i = 0; i < y.length; i++) y[i]! += add[i]!;
      }
      const hidden = times(y, n, D, w.w1, cfg.dFf, 0, cfg.dFf).map((x) => Math.max(0, x));
      const ffn = times(hidden, n, cfg.dFf, w.w2, D, 0, D);
      return y.map((x, i) => x + ffn[i]!);
    };
    const softmaxHead: Head = (q, k, v) => {
      const out = new Float64Array(n * dh);
      for (let i = 0; i < n; i++) {
        const s = Array.from({ length: n }, (_, j) => {
          let dot = 0;
          for (let c = 0; c < dh; c++) dot += q.data[i * dh + c]! * k.data[j * dh + c]!;
          return dot / Math.sqrt(dh);
        });
        const mx = Math.max(...s);
        const e = s.map((x) => Math.exp(x - mx));
        const z = e.reduce((a, b) => a + b, 0);
        for (let j = 0; j < n; j++) for (let c = 0; c < dh; c++) out[i * dh + c]! += (e[j]! / z) * v.data[j * dh + c]!;
      }
      return out;
    };
    const heads: Record<'layer-dummy' | 'layer-exact' | 'layer-performer', Head> = {
      'layer-dummy': (_q, _k, v) => v.data,
      'layer-exact': softmaxHead,
      'layer-performer': (q, k, v) => cpuAttention('performer-bidirectional', { q, k, v, w: w.wf }).out.data,
    };
    // a clock that advances 1 ms per reading: every lap of the layer is attributed to one component
    let clock = 0;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => clock++);
    for (const [method, head] of Object.entries(heads) as [keyof typeof heads, Head][]) {
      clock = 0;
      const r = cpuLayer(method, n, cfg, m, w);
      const want = reference(head);
      expect(r.y.length, method).toBe(n * D);
      const scale = Math.max(...want.map(Math.abs));
      const worst = Math.max(...want.map((x, i) => Math.abs(x - r.y[i]!)));
      expect(worst, `${method}: Y vs the layer written out`).toBeLessThan(1e-5 * scale);
      // projections, attention and FFN each got their laps, and together the whole call
      expect(r.parts.ffn, method).toBeGreaterThan(0);
      expect(r.parts.attention, method).toBeGreaterThan(0);
      expect(r.parts.projections, method).toBeGreaterThan(0);
      expect(r.parts.projections + r.parts.attention + r.parts.ffn, method).toBe(clock - 1);
    }
    now.mockRestore();
    // the dummy layer is not the identity nor the exact one: the FFN and the heads' sums contribute
    const dummy = cpuLayer('layer-dummy', n, cfg, m, w).y;
    const exact = cpuLayer('layer-exact', n, cfg, m, w).y;
    expect(Math.max(...dummy.map((x, i) => Math.abs(x - w.x[i]!)))).toBeGreaterThan(0.1);
    expect(Math.max(...dummy.map((x, i) => Math.abs(x - exact[i]!)))).toBeGreaterThan(1e-3);
  });
});
