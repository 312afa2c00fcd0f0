/**
 * The bundled models by id: their configs, logs and tensor lists (what the page shows and checks
 * input against). Their weights are in bundle-weights.ts: only the engine worker (and the tests)
 * import those, so the page's own bundle does not carry ~110 kB of base64 it never decodes.
 */
import { BUNDLE as GRAMMAR } from './bundle-grammar';
import { BUNDLE as MQAR } from './bundle-mqar';
import type { TrainedBundle } from './bundle-format';
import type { TrainedModelId } from './configs';

export const BUNDLES: Readonly<Record<TrainedModelId, TrainedBundle>> = { mqar: MQAR, grammar: GRAMMAR };

/** Layers and heads of a bundled model, and its sequence length (the n of its heads) and head dim. */
export function bundleShape(id: TrainedModelId): { layers: number; heads: number; n: number; d: number } {
  const { model, task } = BUNDLES[id].config;
  return { layers: model.layers, heads: model.heads, n: task.seqLen, d: model.dModel / model.heads };
}

/** Why `tokens` cannot be fed to bundled model `id` (null when they can): 1 … L tokens, each in its vocabulary. */
export function tokensProblem(id: TrainedModelId, tokens: unknown): string | null {
  const { model } = BUNDLES[id].config;
  if (!(tokens instanceof Int32Array)) return 'the tokens are not an Int32Array';
  if (tokens.length < 1 || tokens.length > model.seqLen)
    return `${tokens.length} tokens: the model takes 1 … ${model.seqLen}`;
  const bad = tokens.findIndex((t) => t < 0 || t >= model.vocab);
  return bad < 0 ? null : `token ${bad} is ${tokens[bad]}: the vocabulary is 0 … ${model.vocab - 1}`;
}
