// In-page driver for e2e/trained-heads.spec.mjs: Q, K, V of every head of a bundled model on one of
// its examples, from the GPU forward pass (src/gpu/train/trained-heads.ts) and from the CPU twin
// (src/core/trained/heads.ts), compared entry by entry.
import { bundledParams } from '../../src/core/trained/bundle-weights';
import { BUNDLES } from '../../src/core/trained/bundles';
import type { TrainedModelId } from '../../src/core/trained/configs';
import { exampleTokens, headInputs } from '../../src/core/trained/heads';
import { acquireGpu, type GpuContext } from '../../src/gpu/device';
import { gpuHeadInputs } from '../../src/gpu/train/trained-heads';

let gpuP: Promise<GpuContext> | null = null;
function gpu() {
  gpuP ??= acquireGpu().then((a) => {
    if (!a.ok) throw new Error(a.reason);
    return a.gpu;
  });
  return gpuP;
}

function diff(a: Float32Array, b: Float32Array): { maxAbs: number; scale: number } {
  let maxAbs = a.length === b.length ? 0 : Infinity;
  let scale = 0;
  for (let i = 0; i < b.length; i++) {
    maxAbs = Math.max(maxAbs, Math.abs(a[i]! - b[i]!));
    scale = Math.max(scale, Math.abs(b[i]!));
  }
  return { maxAbs, scale };
}

async function compare(model: TrainedModelId, example: number) {
  const g = await gpu();
  const { config } = BUNDLES[model];
  const params = bundledParams(model);
  const tokens = exampleTokens(config.task, example);
  const t0 = performance.now();
  const got = await gpuHeadInputs(g, params, config.model, tokens);
  const ms = performance.now() - t0;
  const want = headInputs(params, config.model, tokens);
  const rows = want.flatMap((row, layer) =>
    row.map((w, head) => {
      const o = got[layer]?.[head];
      const miss = { maxAbs: Infinity, scale: 0 };
      return {
        layer,
        head,
        shape: [w.q.rows, w.q.cols],
        gotShape: o ? [o.q.rows, o.q.cols] : null,
        q: o ? diff(o.q.data, w.q.data) : miss,
        k: o ? diff(o.k.data, w.k.data) : miss,
        v: o ? diff(o.v.data, w.v.data) : miss,
      };
    }),
  );
  return { ms, rows, layers: got.length };
}

(window as unknown as { trainedHeads: unknown }).trainedHeads = {
  compare,
  info: async () => ({ adapter: (await gpu()).adapterName }),
};
