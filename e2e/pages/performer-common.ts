// Shared pieces of the performer-kernels driver (e2e/pages/performer-kernels.ts): the case shape,
// the page's kernel context, the case's inputs and their upload (as the backend passes them), and
// one submission with its readback inside error scopes.
import { acquireGpu } from '../../src/gpu/device';
import { readFloats } from '../../src/gpu/readback';
import { withErrorScopes } from '../../src/gpu/error-scope';
import type { KernelContext } from '../../src/gpu/kernel-context';
import type { FavorProblem } from '../../src/gpu/favor-features';
import { generateInputs } from '../../src/core/inputs';
import { featureMapParam } from '../../src/core/feature-maps';
import { untimedKernelContext } from '../../src/gpu/kernel-context';
import type { AttentionInputs, FeatureMapKind, InputKind, ProjectionKind, Stabilizer } from '../../src/core/types';

export interface Case {
  n: number;
  d: number;
  m: number;
  map: FeatureMapKind;
  seed?: number;
  scale?: number;
  input?: InputKind;
  projection?: ProjectionKind;
  /** stabilizer of the exponential maps (default 'shift') */
  stab?: Stabilizer;
  /** force the generic on-the-fly path for an exp-of-projection map (default: the dispatchers' choice) */
  generic?: boolean;
  /** fast path: force projection row blocks of this many rows (a multiple of 64; default: all n rows when they fit) */
  block?: number;
  /**
   * form φ(Q), φ(K) first (as the live backend does for its dense statistics) and hand them to the
   * dispatchers: a map off the exp path then runs the GEMMs on them (takesMaterializedPath)
   */
  materialized?: boolean;
}

let ctxP: Promise<KernelContext & { adapter: string }> | null = null;
export function ctx(): Promise<KernelContext & { adapter: string }> {
  ctxP ??= (async () => {
    const a = await acquireGpu();
    if (!a.ok) throw new Error(a.reason);
    const device = a.gpu.device;
    return { ...untimedKernelContext(device), adapter: a.gpu.adapterName };
  })();
  return ctxP;
}

export function inputsOf(c: Case): AttentionInputs {
  return generateInputs({
    n: c.n,
    d: c.d,
    m: c.m,
    seed: c.seed ?? 1,
    featureSeed: (c.seed ?? 1) + 100,
    featureMap: c.map,
    projection: c.projection ?? 'orthogonal-chi',
    causal: false,
    input: c.input ?? 'gaussian',
    scale: c.scale ?? 0.5,
    stabilizer: c.stab ?? 'shift',
  });
}

export function upload(
  k: KernelContext,
  inp: AttentionInputs,
  c: Case,
  causal = false,
): FavorProblem & { v: GPUBuffer } {
  return {
    n: c.n,
    d: c.d,
    m: c.m,
    featureMap: c.map,
    stabilizer: c.stab ?? 'shift',
    q: k.alloc.upload('t.q', inp.q.data),
    k: k.alloc.upload('t.k', inp.k.data),
    v: k.alloc.upload('t.v', inp.v.data),
    w: k.alloc.upload('t.w', inp.w.data),
    mapParam: featureMapParam(c.map, inp.q, inp.k, causal), // OPRF's A, as webgpu-backend.ts passes it
    causal,
  };
}

export async function submitAndRead(
  k: KernelContext,
  label: string,
  encode: (enc: GPUCommandEncoder) => GPUBuffer[],
  floats: number[],
) {
  return withErrorScopes(k.device, label, async () => {
    const enc = k.device.createCommandEncoder({ label });
    const bufs = encode(enc);
    const t0 = performance.now();
    k.device.queue.submit([enc.finish()]);
    await k.device.queue.onSubmittedWorkDone();
    const ms = performance.now() - t0;
    const data = await Promise.all(bufs.map((b, i) => readFloats(k.device, b, floats[i]!)));
    return { data, ms };
  });
}
