/** The WebGPU analysis backend's interface, options and per-batch profile (analysis-backend.ts). */
import type { AnalysisBackend } from '../core/analysis-backend';

export type GpuLock = <T>(work: () => Promise<T>) => Promise<T>;

export interface GpuAnalysisBackend extends AnalysisBackend {
  dispose(): void;
}

export interface GpuAnalysisOptions {
  /**
   * Where φ of the maps the projection kernel does not cover (every map but positive, hyperbolic and
   * exp under 'shift') is formed: 'gpu' (favor-features, the default) or 'cpu' (the twins'
   * keyFeatures of all n keys and queryFeatures of the listed rows, uploaded). A software adapter
   * (SwiftShader) runs favor-features' statistics and feature passes slowly — at n = 256, m = 64 the
   * bench's entropyVsN took 116 s with them against 1.9 s with the twins' φ — so there the rest of φ
   * comes from the CPU.
   */
  features?: 'gpu' | 'cpu';
  /** Called after every batch with its wall-time split and, where the device has timestamps, every pass's GPU time (the bench's `--profile`). */
  profile?: (p: BatchProfile) => void;
  /**
   * φ of the exp maps under ε = 0 from their projection on the GPU (attention-row-list-features.wgsl;
   * default true), else as the other maps'. On SwiftShader the twins are as fast or faster (n = 256,
   * m = 64, interleaved medians: errorVsM 4.3 s with the twins' φ vs 5.0 s, normSweep 1.7 vs 1.9 s,
   * entropyVsN 1.0 vs 1.0 s), so the engine turns it off on a software adapter.
   */
  projection?: boolean;
}

/** Where one batch's time went (ms). */
export interface BatchProfile {
  variants: number;
  rows: number;
  n: number;
  d: number;
  /** φ formed by the twins (features 'cpu'), while the GPU forms its own */
  cpuFeaturesMs: number;
  /** recording the passes, the uploads and the uniform writes (φ on the CPU excluded) */
  encodeMs: number;
  /** the last submission to the mapped readback */
  waitMs: number;
  /** the whole batch */
  wallMs: number;
  passes: { kernel: string; ms: number }[];
}
