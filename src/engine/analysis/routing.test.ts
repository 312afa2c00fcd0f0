import { describe, expect, it } from 'vitest';
import { GPU_ANALYSIS_OPS, runsOnGpu } from './types';
import type { BackendInfo } from '../../core/attention-job';

const gpu = (adapter: string): BackendInfo => ({ kind: 'webgpu', adapter, features: [] });

describe('runsOnGpu (which analyses the client sends to the engine worker’s GPU backend)', () => {
  it('every GPU op on a hardware adapter; none on the CPU backend or before one is settled', () => {
    for (const op of GPU_ANALYSIS_OPS) {
      expect(runsOnGpu(op, gpu('nvidia h200'))).toBe(true);
      expect(runsOnGpu(op, { kind: 'cpu', reason: 'no WebGPU' })).toBe(false);
      expect(runsOnGpu(op, null)).toBe(false);
    }
    expect(runsOnGpu('hedgehogFit', gpu('nvidia h200'))).toBe(false);
  });

  it('on a software adapter every analysis stays on the CPU pool, unless the client asks for the GPU there', () => {
    for (const op of GPU_ANALYSIS_OPS) {
      expect(runsOnGpu(op, gpu('google swiftshader'))).toBe(false);
      expect(runsOnGpu(op, gpu('google swiftshader'), true)).toBe(true);
      expect(runsOnGpu(op, gpu('nvidia h200'), true)).toBe(true);
    }
    expect(runsOnGpu('hedgehogFit', gpu('google swiftshader'), true)).toBe(false);
  });
});
