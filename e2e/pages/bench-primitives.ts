// In-page driver for e2e/bench-primitives.mjs: what one dispatch, one barrier, one memory read and
// one FMA cost on this adapter (timestamp queries around a single pass), and how the Performer
// family's passes scale with n — to tell a kernel's fixed costs and memory traffic from its FLOPs
// before optimizing it (on SwiftShader a lane's indexed read costs several vec4 FMAs).
import { acquireGpu } from '../../src/gpu/device';
import { createWebGpuBackend } from '../../src/gpu/webgpu-backend';

/**
 * Each probe: 64 invocations per workgroup; `work` says what one invocation does. The workgroup-memory
 * probes never take their branch: what they cost is what every workgroup pays before the first
 * statement — WebGPU zero-fills the workgroup memory an entry point uses, then a barrier.
 */
const wgMemory = (vec4s: number): string => `@group(0) @binding(0) var<storage, read_write> o: array<f32>;
var<workgroup> a: array<vec4f, ${vec4s}>;
@compute @workgroup_size(64) fn main(@builtin(workgroup_id) id: vec3u, @builtin(local_invocation_index) l: u32) {
  if (o[0] > 1e30) { a[l] = vec4f(1.0); o[id.x] = a[(l + 1u) % 64u].x; }
}`;
const PROBES: { name: string; work: string; code: string }[] = [
  { name: 'empty', work: 'nothing', code: `@compute @workgroup_size(64) fn main() {}` },
  {
    name: 'barriers',
    work: '64 workgroupBarrier()',
    code: `@group(0) @binding(0) var<storage, read_write> o: array<f32>;
var<workgroup> s: array<f32, 64>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u, @builtin(local_invocation_index) l: u32) {
  var a = 0.0;
  for (var i = 0u; i < 32u; i++) { s[l] = a; workgroupBarrier(); a += s[(l + 1u) % 64u]; workgroupBarrier(); }
  o[g.x] = a;
}`,
  },
  {
    name: 'fma',
    work: '1024 vec4 FMA',
    code: `@group(0) @binding(0) var<storage, read_write> o: array<f32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) {
  var a = vec4f(f32(g.x)); let b = vec4f(1.0001);
  for (var i = 0u; i < 1024u; i++) { a = fma(a, b, vec4f(0.5)); }
  o[g.x] = a.x + a.y;
}`,
  },
  {
    name: 'storage reads',
    work: '512 f32 reads (indexed) + 256 FMA',
    code: `@group(0) @binding(0) var<storage, read_write> o: array<f32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u, @builtin(local_invocation_index) l: u32) {
  var a = 0.0;
  for (var i = 0u; i < 256u; i++) { a = fma(o[i * 64u + l], o[65536u + i * 64u + l], a); }
  o[200000u + g.x] = a;
}`,
  },
  {
    name: 'storage vec4 reads',
    work: '512 vec4 reads (indexed) + 256 vec4 FMA',
    code: `@group(0) @binding(0) var<storage, read_write> o: array<vec4f>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u, @builtin(local_invocation_index) l: u32) {
  var a = vec4f(0.0);
  for (var i = 0u; i < 256u; i++) { a = fma(o[i * 64u + l], o[16384u + i * 64u + l], a); }
  o[50000u + g.x] = a;
}`,
  },
  {
    name: 'workgroup reads',
    work: '512 f32 workgroup reads + 256 FMA (after 8 loads, 1 barrier)',
    code: `@group(0) @binding(0) var<storage, read_write> o: array<f32>;
var<workgroup> s: array<f32, 512>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u, @builtin(local_invocation_index) l: u32) {
  for (var e = l; e < 512u; e += 64u) { s[e] = o[e]; }
  workgroupBarrier();
  var a = 0.0;
  for (var i = 0u; i < 256u; i++) { a = fma(s[(i + l) % 512u], s[(i * 3u + l) % 512u], a); }
  o[200000u + g.x] = a;
}`,
  },
  { name: 'workgroup memory 1 KiB', work: 'nothing (1 KiB used)', code: wgMemory(64) },
  { name: 'workgroup memory 4 KiB', work: 'nothing (4 KiB used)', code: wgMemory(256) },
  { name: 'workgroup memory 16 KiB', work: 'nothing (16 KiB used)', code: wgMemory(1024) },
  {
    name: 'exp',
    work: '256 exp',
    code: `@group(0) @binding(0) var<storage, read_write> o: array<f32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) {
  var a = 0.0;
  for (var i = 0u; i < 256u; i++) { a += exp(f32(i) * 0.001 - f32(g.x) * 1e-4); }
  o[g.x] = a;
}`,
  },
];

async function setup() {
  const acq = await acquireGpu();
  if (!acq.ok) throw new Error(acq.reason);
  const backend = createWebGpuBackend(acq.gpu);
  const adapter = await navigator.gpu.requestAdapter();
  if (!adapter?.features.has('timestamp-query')) throw new Error('this adapter has no timestamp queries');
  const device = await adapter.requestDevice({ requiredFeatures: ['timestamp-query'] });
  const out = device.createBuffer({ size: 1 << 20, usage: GPUBufferUsage.STORAGE });
  const qs = device.createQuerySet({ type: 'timestamp', count: 2 });
  const resolved = device.createBuffer({ size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
  const staging = device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const pipelines = await Promise.all(
    PROBES.map((p) =>
      device.createComputePipelineAsync({
        layout: 'auto',
        compute: { module: device.createShaderModule({ code: p.code, label: p.name }), entryPoint: 'main' },
      }),
    ),
  );
  /** GPU ms of one pass with `dispatches` dispatches of `groups` workgroups of probe `i`. */
  async function timePass(i: number, groups: number, dispatches: number): Promise<number> {
    const pipeline = pipelines[i]!;
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass({
      timestampWrites: { querySet: qs, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 },
    });
    pass.setPipeline(pipeline);
    if (i > 0)
      pass.setBindGroup(
        0,
        device.createBindGroup({
          layout: pipeline.getBindGroupLayout(0),
          entries: [{ binding: 0, resource: { buffer: out } }],
        }),
      );
    for (let k = 0; k < dispatches; k++) pass.dispatchWorkgroups(groups);
    pass.end();
    enc.resolveQuerySet(qs, 0, 2, resolved, 0);
    enc.copyBufferToBuffer(resolved, 0, staging, 0, 16);
    device.queue.submit([enc.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const t = new BigUint64Array(staging.getMappedRange().slice(0));
    staging.unmap();
    return Number(t[1]! - t[0]!) / 1e6;
  }
  return { backend, timePass, adapter: acq.gpu.adapterName };
}

const ready = setup();

declare global {
  interface Window {
    primitives: {
      adapter(): Promise<string>;
      probes(): { name: string; work: string }[];
      /** one GPU time (ms) of probe i: `groups` workgroups per dispatch, `dispatches` in one pass */
      probe(i: number, groups: number, dispatches: number): Promise<number>;
      /** the Performer family at (n, m), d = 16, positive: median and per pass (timeKernel) */
      performer(n: number, m: number): Promise<{ total: number; passes: { label: string; ms: number }[] }>;
    };
  }
}

window.primitives = {
  adapter: async () => (await ready).adapter,
  probes: () => PROBES.map(({ name, work }) => ({ name, work })),
  probe: async (i, groups, dispatches) => (await ready).timePass(i, groups, dispatches),
  performer: async (n, m) => {
    const r = await (
      await ready
    ).backend.timeKernel({
      kernel: 'performer-bidirectional',
      n,
      d: 16,
      m,
      featureMap: 'positive',
      repeats: 5,
    });
    return { total: r.medianMs, passes: r.passes.map((p) => ({ label: p.label, ms: p.medianMs })) };
  },
};
