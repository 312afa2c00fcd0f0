import { afterEach, describe, expect, it, vi } from 'vitest';
import { EngineError } from './errors';
import { LAYER_CPU, attentionFlops, type SpeedMethod } from './speed-model';
import { runSpeedSweep, type SpeedBackend } from './speed-run';
import { cpuAttention, cpuLayer } from './speed-cpu';
import { createRng } from './rng';
import { randomProjection } from './projections';

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
    const a = cpuLayer('layer-dummy', 5, cfg, 4);
    const b = cpuLayer('layer-exact', 5, cfg, 4);
    expect(a.y.length).toBe(40);
    expect(b.y.length).toBe(40);
    expect(a.y.every(Number.isFinite)).toBe(true);
    expect(a.parts.ffn).toBeGreaterThanOrEqual(0);
  });
});
