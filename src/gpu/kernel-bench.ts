/**
 * Timing hook of the benchmark (`npm run bench`, the speed panel): runs one kernel family on
 * random inputs of a given shape several times and reports the median GPU time — from timestamp
 * queries when the device has them (sum of the family's compute passes, and each pass's own
 * median and minimum in `passes`), else wall time from submit to `onSubmittedWorkDone` — plus the
 * bytes of the buffers that family allocates.
 */
import { createRng } from '../core/rng';
import { featureMapParam } from '../core/feature-maps';
import { randomProjection } from '../core/projections';
import type { FeatureMapKind } from '../core/types';
import { encodeDummyAttention } from './dummy-attention';
import { encodeExactAttention } from './exact-attention';
import type { KernelContext } from './kernel-context';
import { JobAllocator } from './job-plan';
import { encodePerformerBidirectional } from './performer-bidirectional';
import { encodePerformerCausal } from './performer-causal';

export type BenchKernel = 'exact' | 'exact-causal' | 'performer-bidirectional' | 'performer-causal' | 'dummy';

export interface KernelBenchOptions {
  kernel: BenchKernel;
  n: number;
  d: number;
  /** random features (default 256) */
  m?: number;
  featureMap?: FeatureMapKind;
  /** timed runs after one untimed warm-up run (default 5) */
  repeats?: number;
  /** false skips the warm-up: for points so slow that compilation is noise and one run is all we can afford */
  warmup?: boolean;
  seed?: number;
  /** true runs the Performer on the generic on-the-fly path even for the exp maps (before/after comparisons) */
  generic?: boolean;
}

export interface KernelBenchResult {
  kernel: BenchKernel;
  n: number;
  d: number;
  m: number;
  medianMs: number;
  samples: number[];
  source: 'timestamp' | 'wall';
  /** bytes of the GPU buffers this kernel family used (inputs included) */
  bytes: number;
  /**
   * Per compute pass (timer label, in encoding order): median GPU ms over the timed runs, and the
   * minimum. Empty without timestamp queries (wall time covers the whole family only).
   */
  passes: BenchPass[];
}

export interface BenchPass {
  label: string;
  medianMs: number;
  minMs: number;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
}

export async function timeKernel(ctx: KernelContext, o: KernelBenchOptions): Promise<KernelBenchResult> {
  const { alloc, timer } = ctx;
  const { kernel, n, d } = o;
  const m = o.m ?? 256;
  const featureMap = o.featureMap ?? 'positive';
  const repeats = Math.max(1, o.repeats ?? 5);
  const rng = createRng(o.seed ?? 1);
  const tracking = alloc instanceof JobAllocator ? alloc : null;
  tracking?.beginJob();

  const qData = rng.fillNormal(new Float32Array(n * d), 0.5);
  const kData = rng.fillNormal(new Float32Array(n * d), 0.5);
  const q = alloc.upload('bench.q', qData);
  const k = alloc.upload('bench.k', kData);
  const mapParam = featureMapParam(featureMap, { rows: n, cols: d, data: qData }, { rows: n, cols: d, data: kData });
  const v = alloc.upload('bench.v', rng.fillNormal(new Float32Array(n * d), 1));
  const usesW = kernel.startsWith('performer');
  const w = usesW ? alloc.upload('bench.w', randomProjection('orthogonal-chi', m, d, rng).data) : null;

  const encode = (enc: GPUCommandEncoder): void => {
    const performer = {
      n,
      d,
      m,
      featureMap,
      stabilizer: 'shift' as const,
      q,
      k,
      w: w!,
      v,
      generic: o.generic,
      mapParam,
    };
    switch (kernel) {
      case 'exact':
      case 'exact-causal':
        encodeExactAttention(ctx, enc, { n, d, causal: kernel === 'exact-causal', q, k, v });
        break;
      case 'performer-bidirectional':
        encodePerformerBidirectional(ctx, enc, performer);
        break;
      case 'performer-causal':
        encodePerformerCausal(ctx, enc, performer);
        break;
      case 'dummy':
        encodeDummyAttention(ctx, enc, { n, d, q, k, v });
        break;
    }
  };

  const perPass = new Map<string, number[]>();
  let recordPasses = false;
  const once = async (): Promise<number> => {
    const { ms, passes } = await timer.submitTimed(`bench:${kernel}`, encode);
    if (recordPasses) {
      for (const t of passes) {
        const xs = perPass.get(t.kernel) ?? [];
        xs.push(t.ms);
        perPass.set(t.kernel, xs);
      }
    }
    return ms;
  };

  if (o.warmup !== false) await once(); // compiles pipelines, creates buffers
  const samples: number[] = [];
  recordPasses = true;
  for (let r = 0; r < repeats; r++) samples.push(await once());
  const bytes = tracking ? tracking.jobBytes() : alloc.stats().liveBytes;
  return {
    kernel,
    n,
    d,
    m,
    medianMs: median(samples),
    samples,
    source: timer.useTimestamps ? 'timestamp' : 'wall',
    bytes,
    passes: [...perPass].map(([label, xs]) => ({ label, medianMs: median(xs), minMs: Math.min(...xs) })),
  };
}
