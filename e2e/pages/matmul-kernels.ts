// In-page driver for e2e/matmul-kernels.spec.mjs: runs src/shaders/matmul.wgsl (via src/gpu/matmul.ts)
// on SwiftShader next to its CPU twin core/matmul.ts `matmulInto` and returns error summaries.
// maxAbs = max |gpu − cpu|; maxRel = maxAbs / max |cpu|; ok = every entry within ATOL + RTOL·|cpu|
// with ATOL scaled by √k (float32 sums of k unit-variance terms vs the twin's f64 sums).
import { matmulExtents, matmulInto, type MatmulShape } from '../../src/core/matmul';
import { createRng } from '../../src/core/rng';
import { acquireGpu } from '../../src/gpu/device';
import type { KernelContext } from '../../src/gpu/kernel-context';
import { encodeMatmul } from '../../src/gpu/matmul';
import { readFloats } from '../../src/gpu/readback';
import { untimedKernelContext } from '../../src/gpu/kernel-context';

export const ATOL = 1e-4;
export const RTOL = 1e-4;

let ctxP: Promise<KernelContext & { adapter: string }> | null = null;
function ctx() {
  ctxP ??= acquireGpu().then((a) => {
    if (!a.ok) throw new Error(a.reason);
    const device = a.gpu.device;
    return { ...untimedKernelContext(device), adapter: a.gpu.adapterName ?? '' };
  });
  return ctxP;
}

async function run(shape: MatmulShape & { seed?: number }) {
  const c = await ctx();
  const rng = createRng(shape.seed ?? 1);
  const ext = matmulExtents(shape);
  // buffers a little longer than needed, filled everywhere, so reads or writes outside the view show up
  const a = rng.fillNormal(new Float32Array(ext.a + 3), 1);
  const b = rng.fillNormal(new Float32Array(ext.b + 3), 1);
  const c0 = rng.fillNormal(new Float32Array(ext.c + 3), 1);
  const want = matmulInto(shape, a, b, c0.slice());
  const ga = c.alloc.upload('t.a', a);
  const gb = c.alloc.upload('t.b', b);
  const gc = c.alloc.upload('t.c', c0);
  const enc = c.device.createCommandEncoder();
  encodeMatmul(c, enc, { ...shape, a: ga, b: gb, c: gc });
  c.device.queue.submit([enc.finish()]);
  const got = await readFloats(c.device, gc, c0.length);
  let maxAbs = 0;
  let maxRef = 0;
  let ok = true;
  for (let i = 0; i < want.length; i++) {
    const e = Math.abs(got[i]! - want[i]!);
    if (!(e <= ATOL * Math.sqrt(Math.max(1, shape.k)) + RTOL * Math.abs(want[i]!))) ok = false;
    if (!(e <= maxAbs)) maxAbs = e;
    maxRef = Math.max(maxRef, Math.abs(want[i]!));
  }
  return { maxAbs, maxRel: maxRef > 0 ? maxAbs / maxRef : maxAbs, ok, n: want.length };
}

(window as unknown as { matmulKernels: unknown }).matmulKernels = {
  info: async () => ({ adapter: (await ctx()).adapter }),
  run,
};
