// In-page driver for e2e/exact-kernels.spec.mjs: runs the exact-attention, dense-statistics and
// dummy kernels (and the whole WebGPU backend) on SwiftShader next to their CPU twins and returns
// plain-JSON error summaries. Error metrics: maxAbs = max |gpu − cpu|; maxRel = maxAbs / max |cpu|
// (normwise); `ok` = every entry within |gpu − cpu| ≤ ATOL + RTOL·|cpu|.
// The pieces: compare.ts (Err, worst), exact-common.ts (tolerance, compare, GPU contexts, inputs),
// exact-kernel-checks.ts (exact, dense, dummy), exact-backend-checks.ts (backendJob, reuse,
// cachedRuns, badInputs, deviceLimits), exact-causality.ts (lists, causality).
import { badInputs, backendJob, cachedRuns, deviceLimits, reuse } from './exact-backend-checks';
import { lists, causality } from './exact-causality';
import { gpu } from './exact-common';
import { dense, dummy, exact } from './exact-kernel-checks';

async function info() {
  const g = await gpu();
  const l = g.device.limits;
  return {
    adapter: g.adapterName,
    hasTimestamps: g.hasTimestamps,
    maxComputeWorkgroupStorageSize: l.maxComputeWorkgroupStorageSize,
    maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
    maxComputeInvocationsPerWorkgroup: l.maxComputeInvocationsPerWorkgroup,
  };
}

const driver = { info, exact, dense, dummy, backendJob, reuse, cachedRuns, badInputs, deviceLimits, lists, causality };
(window as unknown as { exactKernels: typeof driver }).exactKernels = driver;
