/** The WebGPU analysis backend's interface, options and per-batch profile (analysis-backend.ts). */
import type { AnalysisBackend } from '../core/analysis-backend';

export type GpuLock = <T>(work: () => Promise<T>) => Promise<T>;

export interface GpuAnalysisBackend extends AnalysisBackend {
  dispose(): void;
}

export interface GpuAnalysisOptions {
  /**
   * Where φ of the maps attention-row-list-features.wgsl does not cover (hedgehog, and the exp maps
   * and oprf under the 'ref' stabilizer; every map outside it with `projection` or `direct` off) is
   * formed: 'gpu' (favor-features, the default) or 'cpu' (the twins'
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
   * default true), else as the other maps'. The engine keeps it on a software adapter too: with the
   * batch in at most two submissions, the projection beat the twins' φ in every op on SwiftShader
   * (n = 256, m = 64, 5 interleaved rounds, medians: errorVsM 2.29 s vs 2.89 s, normSweep 1.28 vs
   * 1.34 s, errorVsD 415 vs 508 ms, mapRows 16 vs 21 ms); `false` is the bench's `--twins-only` A/B.
   */
  projection?: boolean;
  /**
   * φ of trig, relu, elu1, cosformer, taylor2, double-softmax and oprf (under ε = 0) from the rows on the
   * GPU (rowFeaturesDirect in attention-row-list-features.wgsl: the R listed query rows and the n keys
   * only, written into the batch's packed buffer; default true, with `projection`), else from the
   * feature kernels or the twins as `features` says; `false` is the bench's `--without-direct` A/B.
   */
  direct?: boolean;
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
