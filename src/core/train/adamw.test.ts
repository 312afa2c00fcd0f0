import { describe, expect, it } from 'vitest';
import { adamwStep } from './adamw';
import type { OptimizerConfig } from './types';

const cfg: OptimizerConfig = { lr: 0.01, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.1, warmup: 0, clip: 0 };

describe('adamw', () => {
  it('the first step moves every parameter by lr·sign(g) (m̂/√v̂ = ±1) plus the decay', () => {
    const p = new Float32Array([1, -2, 0.5]);
    const g = new Float32Array([0.3, -0.001, 2]);
    const m = new Float32Array(3);
    const v = new Float32Array(3);
    adamwStep(p, g, m, v, 1, 0.01, cfg, false);
    expect(p[0]).toBeCloseTo(0.99, 6);
    expect(p[1]).toBeCloseTo(-1.99, 6);
    expect(p[2]).toBeCloseTo(0.49, 6);
    const q = new Float32Array([1]);
    adamwStep(q, new Float32Array([0.3]), new Float32Array(1), new Float32Array(1), 1, 0.01, cfg, true);
    expect(q[0]).toBeCloseTo(1 - 0.01 * (1 + 0.1), 6);
  });

  it('the second step follows the bias-corrected moments as written', () => {
    const p = new Float32Array([1]);
    const m = new Float32Array(1);
    const v = new Float32Array(1);
    adamwStep(p, new Float32Array([1]), m, v, 1, 0.01, cfg, false);
    adamwStep(p, new Float32Array([-1]), m, v, 2, 0.01, cfg, false);
    const m2 = 0.9 * 0.1 - 0.1;
    const v2 = 0.999 * 0.001 + 0.001;
    const upd = m2 / (1 - 0.81) / (Math.sqrt(v2 / (1 - 0.999 ** 2)) + 1e-8);
    expect(p[0]).toBeCloseTo(0.99 - 0.01 * upd, 6);
  });
});
