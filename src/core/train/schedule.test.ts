import { describe, expect, it } from 'vitest';
import { clipGrads, globalNorm } from './clip';
import { trainStepFlops } from './flops';
import { lrAt } from './schedule';
import type { ModelConfig, OptimizerConfig } from './types';

const opt: OptimizerConfig = { lr: 1e-3, beta1: 0.9, beta2: 0.99, eps: 1e-8, weightDecay: 0, warmup: 10, clip: 1 };

describe('schedule', () => {
  it('warms up linearly, peaks at lr, then decays by a cosine to 10% of lr at the last step', () => {
    expect(lrAt(opt, 0, 100)).toBeCloseTo(1e-4, 12);
    expect(lrAt(opt, 9, 100)).toBeCloseTo(1e-3, 12);
    expect(lrAt(opt, 10, 100)).toBeCloseTo(1e-3, 12);
    expect(lrAt(opt, 99, 100)).toBeCloseTo(1e-4, 12);
    expect(lrAt(opt, 50, 100)).toBeLessThan(1e-3);
    expect(lrAt(opt, 50, 100)).toBeGreaterThan(1e-4);
  });
});

describe('clip', () => {
  it('scales all tensors by one factor to the max norm, and leaves small gradients alone', () => {
    const g = [new Float32Array([3, 0]), new Float32Array([4])];
    expect(globalNorm(g)).toBe(5);
    const r = clipGrads(g, 1);
    expect(r.norm).toBe(5);
    expect(globalNorm(g)).toBeCloseTo(1, 6);
    expect(g[0][0] / g[1][0]).toBeCloseTo(0.75, 6);
    const h = [new Float32Array([0.1])];
    expect(clipGrads(h, 1).scale).toBe(1);
    expect(clipGrads([new Float32Array([10])], 0).scale).toBe(1);
  });
});

describe('flops', () => {
  const base: ModelConfig = {
    vocab: 256,
    seqLen: 64,
    dModel: 64,
    heads: 1,
    layers: 2,
    mlp: false,
    tied: true,
    causal: true,
    attention: { kind: 'softmax' },
    shortConv: 'none',
  };
  it('softmax attention grows quadratically in L, linear attention linearly', () => {
    const lin: ModelConfig = {
      ...base,
      attention: { kind: 'linear', map: 'elu1', m: 0, proj: 'iid', redraw: 0, window: 0 },
    };
    const attn = (c: ModelConfig, L: number) =>
      trainStepFlops(c, { batch: 1, seqLen: L }) - 2 * trainStepFlops(c, { batch: 1, seqLen: L / 2 });
    // what's left after removing the linear terms is the quadratic part: > 0 for softmax, 0 for linear
    expect(attn(base, 512)).toBeGreaterThan(0);
    expect(Math.abs(attn(lin, 512))).toBeLessThan(1e-6);
  });
});
