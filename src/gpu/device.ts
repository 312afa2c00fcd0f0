/**
 * The single WebGPU capability check. Everything GPU-side starts from `acquireGpu`, which either
 * returns a ready device (with the optional features we know how to use) or a human-readable reason
 * why the CPU fallback must run instead. Works in a window and in a dedicated worker.
 */

export interface GpuContext {
  device: GPUDevice;
  /** "vendor architecture (description)" as reported by the adapter, for the UI */
  adapterName: string;
  features: ReadonlySet<string>;
  hasTimestamps: boolean;
  /** resolves when the device is lost (destroyed or crashed) */
  lost: Promise<GPUDeviceLostInfo>;
}

export type GpuAcquisition = { ok: true; gpu: GpuContext } | { ok: false; reason: string };

/** Limits our kernels may need beyond the defaults; each is requested only up to what the adapter offers. */
const WANTED_LIMITS = {
  // Feature matrices (n × m') and the block-state buffers of the causal scan can exceed the 128 MiB default.
  maxStorageBufferBindingSize: 1 << 30,
  maxBufferSize: 1 << 30,
  maxStorageBuffersPerShaderStage: 10,
  // 32 KiB lets the fused exact kernel keep a larger key tile in workgroup memory.
  maxComputeWorkgroupStorageSize: 32 * 1024,
  maxComputeInvocationsPerWorkgroup: 256,
  maxComputeWorkgroupSizeX: 256,
} as const;

export function describeAdapter(info: GPUAdapterInfo | undefined): string {
  if (!info) return 'unknown adapter';
  const parts = [info.vendor, info.architecture].filter((s) => s && s.length > 0);
  const head = parts.join(' ') || 'unknown vendor';
  return info.description ? `${head} (${info.description})` : head;
}

export async function acquireGpu(options: { powerPreference?: GPUPowerPreference } = {}): Promise<GpuAcquisition> {
  const nav = (globalThis as { navigator?: Navigator }).navigator;
  if (!nav || !('gpu' in nav) || !nav.gpu) {
    return { ok: false, reason: 'this browser exposes no WebGPU (navigator.gpu is missing)' };
  }
  let adapter: GPUAdapter | null;
  try {
    adapter = await nav.gpu.requestAdapter({ powerPreference: options.powerPreference ?? 'high-performance' });
  } catch (e) {
    return { ok: false, reason: `requestAdapter failed: ${(e as Error).message}` };
  }
  if (!adapter) return { ok: false, reason: 'WebGPU is present but no GPU adapter is available' };

  const requiredFeatures: GPUFeatureName[] = [];
  if (adapter.features.has('timestamp-query')) requiredFeatures.push('timestamp-query');

  const requiredLimits: Record<string, number> = {};
  for (const [name, wanted] of Object.entries(WANTED_LIMITS)) {
    const offered = (adapter.limits as unknown as Record<string, number>)[name];
    if (typeof offered === 'number') requiredLimits[name] = Math.min(wanted, offered);
  }

  let device: GPUDevice;
  try {
    device = await adapter.requestDevice({ requiredFeatures, requiredLimits });
  } catch (e) {
    return { ok: false, reason: `requestDevice failed: ${(e as Error).message}` };
  }
  const features = new Set<string>();
  device.features.forEach((f) => features.add(f));
  return {
    ok: true,
    gpu: {
      device,
      adapterName: describeAdapter(adapter.info),
      features,
      hasTimestamps: features.has('timestamp-query'),
      lost: device.lost,
    },
  };
}
