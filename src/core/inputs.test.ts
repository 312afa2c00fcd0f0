import { describe, expect, it } from 'vitest';
import { exactAttentionMatrix } from './exact-attention';
import { EngineError } from './errors';
import { clusterLabels, generateInputs, positionCodes, projectionFor, queriesAndKeys, valuesFor } from './inputs';
import { matrix } from './matrix';
import { INPUT_KINDS, type AttentionParams, type Matrix } from './types';
import { DEFAULT_PARAMS } from './default-params';

const base: AttentionParams = {
  n: 64,
  d: 16,
  m: 20,
  seed: 3,
  featureSeed: 4,
  featureMap: 'positive',
  projection: 'orthogonal-chi',
  causal: false,
  input: 'gaussian',
  scale: 0.5,
  stabilizer: 'shift',
};

const same = (a: Matrix, b: Matrix): boolean =>
  a.rows === b.rows && a.cols === b.cols && a.data.every((x, i) => x === b.data[i]);
const meanSq = (m: Matrix): number => m.data.reduce((s, x) => s + x * x, 0) / m.data.length;

describe('generateInputs', () => {
  it('shapes: Q, K, V n×d; W m×d (0×d for maps without projection)', () => {
    const ins = generateInputs(base);
    for (const x of [ins.q, ins.k, ins.v]) expect([x.rows, x.cols]).toEqual([64, 16]);
    expect([ins.w.rows, ins.w.cols]).toEqual([20, 16]);
    const e = generateInputs({ ...base, featureMap: 'elu1' });
    expect([e.w.rows, e.w.cols]).toEqual([0, 16]);
  });

  it('same parameters ⇒ identical arrays; a different seed ⇒ different Q, K, V', () => {
    for (const input of ['gaussian', 'clustered', 'local'] as const) {
      const a = generateInputs({ ...base, input });
      const b = generateInputs({ ...base, input });
      const c = generateInputs({ ...base, input, seed: 5 });
      for (const key of ['q', 'k', 'v', 'w'] as const) expect(same(a[key], b[key])).toBe(true);
      for (const key of ['q', 'k', 'v'] as const) expect(same(a[key], c[key])).toBe(false);
    }
  });

  it('featureSeed changes only W; seed changes only Q, K, V', () => {
    const a = generateInputs(base);
    const f = generateInputs({ ...base, featureSeed: 99 });
    const s = generateInputs({ ...base, seed: 99 });
    expect(same(a.q, f.q) && same(a.k, f.k) && same(a.v, f.v)).toBe(true);
    expect(same(a.w, f.w)).toBe(false);
    expect(same(a.w, s.w)).toBe(true);
  });

  it('Q and K come from independent substreams (Q ≠ K)', () => {
    const a = generateInputs(base);
    expect(same(a.q, a.k)).toBe(false);
  });

  it('every input kind has E q_ic² ≈ scale² (the scale knob means the same thing), V ~ N(0, 1)', () => {
    for (const input of ['gaussian', 'clustered', 'local'] as const) {
      const ins = generateInputs({ ...base, n: 512, input, scale: 0.7 });
      expect(meanSq(ins.q) / 0.49).toBeGreaterThan(0.75);
      expect(meanSq(ins.q) / 0.49).toBeLessThan(1.25);
      expect(Math.abs(meanSq(ins.v) - 1)).toBeLessThan(0.1);
    }
  });

  it('works at the edges: n = 1, d = 1, m = 1, m not a multiple of d', () => {
    for (const input of ['gaussian', 'clustered', 'local'] as const) {
      const ins = generateInputs({ ...base, n: 1, d: 1, m: 1, input });
      expect(ins.q.data.every(Number.isFinite)).toBe(true);
      const odd = generateInputs({ ...base, d: 5, m: 13, input });
      expect([odd.w.rows, odd.w.cols]).toEqual([13, 5]);
    }
  });

  it('validates its parameters', () => {
    expect(() => generateInputs({ ...base, n: 0 })).toThrow(EngineError);
  });
});

/** Mean over queries of Σ_j A_ij·f(i, j). */
function attentionWeighted(a: Matrix, f: (i: number, j: number) => number): number {
  let s = 0;
  for (let i = 0; i < a.rows; i++) for (let j = 0; j < a.cols; j++) s += a.data[i * a.cols + j]! * f(i, j);
  return s / a.rows;
}

describe('structured inputs produce the attention patterns they promise', () => {
  const n = 128;
  const p = { ...base, n, scale: 1.2 };

  it("'clustered': each query puts most of its exact attention on keys of its own cluster", () => {
    const ins = generateInputs({ ...p, input: 'clustered' });
    const labels = clusterLabels(n, p.seed);
    const a = exactAttentionMatrix(ins.q, ins.k, false);
    const sameCluster = attentionWeighted(a, (i, j) => (labels[i] === labels[j] ? 1 : 0));
    expect(sameCluster).toBeGreaterThan(0.6); // uniform attention would give ≈ 1/8
  });

  it("'local': exact attention concentrates near the diagonal (much closer than for gaussian inputs)", () => {
    const dist = (input: 'local' | 'gaussian'): number => {
      const ins = generateInputs({ ...p, input, scale: 2 });
      return attentionWeighted(exactAttentionMatrix(ins.q, ins.k, false), (i, j) => Math.abs(i - j));
    };
    // uniform rows would give ≈ n/3 ≈ 43; the band is ~√n wide
    expect(dist('gaussian')).toBeGreaterThan(30);
    expect(dist('local')).toBeLessThan(Math.sqrt(n));
  });

  it('positionCodes: code·code peaks at equal positions', () => {
    const pe = positionCodes(32, 8);
    const dotAt = (i: number, j: number): number => {
      let s = 0;
      for (let c = 0; c < 8; c++) s += pe[i * 8 + c]! * pe[j * 8 + c]!;
      return s;
    };
    expect(dotAt(10, 10)).toBeCloseTo(8, 9);
    for (const j of [0, 5, 9, 11, 20, 31]) expect(dotAt(10, j)).toBeLessThan(dotAt(10, 10));
    expect(matrix(32, 8, pe).data.length).toBe(256);
  });
});

describe('projectionFor and valuesFor (what bring-your-own Q/K still needs)', () => {
  it('draw exactly the W and V that generateInputs draws', () => {
    const p = { ...DEFAULT_PARAMS, n: 33, d: 5, m: 7 };
    const all = generateInputs(p);
    expect(projectionFor(p)).toEqual(all.w);
    expect(valuesFor(p)).toEqual(all.v);
    expect(projectionFor({ ...p, featureMap: 'elu1' }).rows).toBe(0);
  });

  it('queriesAndKeys draws exactly the Q and K of generateInputs, for every input kind', () => {
    for (const input of INPUT_KINDS) {
      const p = { ...DEFAULT_PARAMS, n: 37, d: 6, input };
      const all = generateInputs(p);
      const { q, k } = queriesAndKeys(p);
      expect(q).toEqual(all.q);
      expect(k).toEqual(all.k);
    }
  });
});
