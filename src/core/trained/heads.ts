/**
 * Q, K, V of every head of a bundled trained model on one sequence: the model's own forward pass
 * (src/core/train/model.ts, batch of one), read out after layer l's layer norm and projections —
 * exactly the n×dh blocks that layer's attention sees (head h owns columns h·dh … of Q, K, V).
 * The model's softmax is softmax(q·k/√dh) with the causal mask, the explainer's exact attention on
 * (Q, K) with d = dh, so a head drops into every panel as an uploaded (Q, K, V) would.
 */
import { modelForward } from '../train/model';
import { headDim } from '../train/model-params';
import { makeBatch } from '../train/tasks/index';
import type { ModelConfig, ParamTensor, TaskConfig } from '../train/types';
import type { Matrix } from '../types';

export interface HeadInputs {
  q: Matrix;
  k: Matrix;
  v: Matrix;
}

/** Seed of the examples (not a training seed: the bundled runs use seed 15, their held-out sets 15 ^ 0x5eed). */
export const EXAMPLE_SEED = 0xe4a;
/** Examples offered per model (`example=` 0 … EXAMPLE_COUNT − 1). */
export const EXAMPLE_COUNT = 16;

/** Example `index`: one sequence of the model's task, generated from EXAMPLE_SEED (unseen in training). */
export function exampleTokens(task: TaskConfig, index: number): Int32Array {
  if (!Number.isInteger(index) || index < 0 || index >= EXAMPLE_COUNT)
    throw new RangeError(`trained: example ${index} is not in 0 … ${EXAMPLE_COUNT - 1}`);
  return makeBatch(task, 1, EXAMPLE_SEED, index).tokens;
}

function cols(x: Float32Array, rows: number, width: number, from: number, count: number): Matrix {
  const data = new Float32Array(rows * count);
  for (let r = 0; r < rows; r++) data.set(x.subarray(r * width + from, r * width + from + count), r * count);
  return { rows, cols: count, data };
}

/** [layer][head] → Q, K, V (L×dh) of the model on `tokens` (softmax models; linear ones have no FAVOR+ draw here). */
export function headInputs(params: readonly ParamTensor[], cfg: ModelConfig, tokens: Int32Array): HeadInputs[][] {
  if (cfg.attention.kind !== 'softmax') throw new RangeError('trained: the bundled models use softmax attention');
  const L = tokens.length;
  const batch = { batch: 1, seqLen: L, tokens, targets: new Int32Array(L), mask: new Uint8Array(L) };
  const fwd = modelForward(params, cfg, batch, null);
  const D = cfg.dModel;
  const dh = headDim(cfg);
  return fwd.cache.layers.map((c) =>
    Array.from({ length: cfg.heads }, (_, h) => ({
      q: cols(c.q as Float32Array, L, D, h * dh, dh),
      k: cols(c.k as Float32Array, L, D, h * dh, dh),
      v: cols(c.v as Float32Array, L, D, h * dh, dh),
    })),
  );
}
