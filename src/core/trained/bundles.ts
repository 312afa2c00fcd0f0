/**
 * The bundled models by id, decoded once on first use (the weights are base64 f16 in the
 * generated bundle-*.ts modules, so they ship inside the bundle, single-file build included).
 */
import { BUNDLE as GRAMMAR } from './bundle-grammar';
import { BUNDLE as MQAR } from './bundle-mqar';
import { decodeParams, type TrainedBundle } from './bundle-format';
import type { TrainedModelId } from './configs';
import { exampleTokens, headInputs, type HeadInputs } from './heads';
import type { ParamTensor } from '../train/types';

export const BUNDLES: Readonly<Record<TrainedModelId, TrainedBundle>> = { mqar: MQAR, grammar: GRAMMAR };

const decoded = new Map<TrainedModelId, ParamTensor[]>();

export function bundledParams(id: TrainedModelId): ParamTensor[] {
  let p = decoded.get(id);
  if (!p) {
    p = decodeParams(BUNDLES[id]);
    decoded.set(id, p);
  }
  return p;
}

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

/** [layer][head] Q, K, V of bundled model `id` on `tokens` (the CPU twin; check them with tokensProblem). */
export function modelHeads(id: TrainedModelId, tokens: Int32Array): HeadInputs[][] {
  return headInputs(bundledParams(id), BUNDLES[id].config.model, tokens);
}

/** [layer][head] Q, K, V of bundled model `id` on its example `example`. */
export function bundledHeads(id: TrainedModelId, example: number): HeadInputs[][] {
  return modelHeads(id, exampleTokens(BUNDLES[id].config.task, example));
}
