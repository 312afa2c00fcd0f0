/**
 * Compute pipelines compiled once per (shader, entry point, override constants) and reused.
 * Kernels specialise on workgroup sizes and tile shapes through WGSL `override` constants, so one
 * shader source serves every shape.
 */
export class PipelineCache {
  private readonly modules = new Map<string, GPUShaderModule>();
  private readonly pipelines = new Map<string, GPUComputePipeline>();

  constructor(private readonly device: GPUDevice) {}

  module(label: string, code: string): GPUShaderModule {
    let mod = this.modules.get(label);
    if (!mod) {
      mod = this.device.createShaderModule({ label, code });
      this.modules.set(label, mod);
    }
    return mod;
  }

  pipeline(
    label: string,
    code: string,
    entryPoint: string,
    constants: Record<string, number> = {},
  ): GPUComputePipeline {
    const key = `${label}|${entryPoint}|${JSON.stringify(constants)}`;
    let p = this.pipelines.get(key);
    if (!p) {
      p = this.device.createComputePipeline({
        label: `${label}:${entryPoint}`,
        layout: 'auto',
        compute: { module: this.module(label, code), entryPoint, constants },
      });
      this.pipelines.set(key, p);
    }
    return p;
  }

  get size(): number {
    return this.pipelines.size;
  }
}

/**
 * One pipeline cache per device, shared by everything that runs on it (the live backend, a second
 * backend of the same device, the trainers): a pipeline compiles once per device — seconds each on
 * SwiftShader, and Dawn does not deduplicate pipelines created through separate calls.
 */
const deviceCaches = new WeakMap<GPUDevice, PipelineCache>();
export function pipelineCacheFor(device: GPUDevice): PipelineCache {
  let c = deviceCaches.get(device);
  if (!c) {
    c = new PipelineCache(device);
    deviceCaches.set(device, c);
  }
  return c;
}

/** Bind group 0 with `buffers` at bindings 0, 1, 2, … in order. */
export function bindBuffers(
  device: GPUDevice,
  pipeline: GPUComputePipeline,
  buffers: readonly GPUBuffer[],
  label?: string,
): GPUBindGroup {
  return device.createBindGroup({
    label,
    layout: pipeline.getBindGroupLayout(0),
    entries: buffers.map((buffer, binding) => ({ binding, resource: { buffer } })),
  });
}

/** Split a 1-D dispatch of `groups` workgroups over x and y so it stays under the per-dimension limit. */
export function dispatchGrid(groups: number, maxPerDim = 65_535): [number, number] {
  if (groups <= maxPerDim) return [Math.max(1, groups), 1];
  const y = Math.ceil(groups / maxPerDim);
  return [Math.ceil(groups / y), y];
}
