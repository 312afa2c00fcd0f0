// In-page driver for e2e/train-attention-kernels.spec.mjs: runs the trainer's attention kernels
// (src/gpu/train/softmax-attention.ts, feature-maps.ts, linear-attention.ts) on SwiftShader next to
// their CPU twins (src/core/train/softmax-attention.ts, feature-map-grad.ts,
// linear-attention-train.ts), forward and backward, and returns one error summary per output.
// The twins run in f64 on the f32 inputs the GPU gets; backward kernels get the twin's forward
// results (rounded to f32) as their saved tensors, so each comparison isolates one kernel.
// maxAbs = max |gpu − twin|; maxRel = maxAbs / max |twin|; ok = every entry within
// ATOL·max|twin| + RTOL·|twin| (f32 sums vs the twin's f64 sums; + LINEAR_DPHI_FLOOR for dφ).
// The pieces: train-attention-common.ts (tolerances, compare, buffer helpers),
// train-attention-checks.ts (softmax, feature, linear), train-attention-distill.ts (distill),
// train-attention-timing.ts (the timing aids behind window.trainAttentionTime / trainAttentionPasses).
import { feature, linear, softmax } from './train-attention-checks';
import { ctx } from './train-attention-common';
import { distill } from './train-attention-distill';
import { timeLayer, timePasses } from './train-attention-timing';

(window as unknown as { trainAttentionKernels: unknown }).trainAttentionKernels = {
  info: async () => ({ adapter: (await ctx()).adapter }),
  softmax,
  feature,
  linear,
  distill,
};

(window as unknown as { trainAttentionTime: unknown }).trainAttentionTime = timeLayer;

(window as unknown as { trainAttentionPasses: unknown }).trainAttentionPasses = timePasses;
