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

/** [layer][head] Q, K, V of bundled model `id` on its example `example`. */
export function bundledHeads(id: TrainedModelId, example: number): HeadInputs[][] {
  return bundledHeadsOn(id, exampleTokens(BUNDLES[id].config.task, example));
}

/** [layer][head] Q, K, V of bundled model `id` on `tokens` (an example's, or typed text's: src/core/trained/sequence.ts). */
export function bundledHeadsOn(id: TrainedModelId, tokens: Int32Array): HeadInputs[][] {
  return headInputs(bundledParams(id), BUNDLES[id].config.model, tokens);
}
