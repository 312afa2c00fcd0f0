/**
 * The bundled models' weights, decoded once on first use (base64 f16 in the generated bundle-*.ts
 * modules' WEIGHTS, so they ship inside the bundle, single-file build included), and the CPU twin of
 * their forward pass to each head's Q, K, V. The engine worker imports this; the page does not.
 */
import { WEIGHTS as GRAMMAR } from './bundle-grammar';
import { WEIGHTS as MQAR } from './bundle-mqar';
import { decodeParams } from './bundle-format';
import { BUNDLES } from './bundles';
import type { TrainedModelId, TrainedSelection } from './configs';
import { exampleTokens, headInputs, type HeadInputs } from './heads';
import { selectionTokens } from './sequence';
import type { ParamTensor } from '../train/types';

const WEIGHTS: Readonly<Record<TrainedModelId, string>> = { mqar: MQAR, grammar: GRAMMAR };

const decoded = new Map<TrainedModelId, ParamTensor[]>();

export function bundledParams(id: TrainedModelId): ParamTensor[] {
  let p = decoded.get(id);
  if (!p) {
    p = decodeParams({ tensors: BUNDLES[id].tensors, data: WEIGHTS[id] });
    decoded.set(id, p);
  }
  return p;
}

/** [layer][head] Q, K, V of bundled model `id` on `tokens` (the CPU twin; check them with tokensProblem). */
export function modelHeads(id: TrainedModelId, tokens: Int32Array): HeadInputs[][] {
  return headInputs(bundledParams(id), BUNDLES[id].config.model, tokens);
}

/** [layer][head] Q, K, V of bundled model `id` on its example `example`. */
export function bundledHeads(id: TrainedModelId, example: number): HeadInputs[][] {
  return modelHeads(id, exampleTokens(BUNDLES[id].config.task, example));
}

/** [layer][head] Q, K, V of the selection's model on the selection's sequence. */
export function selectionHeads(sel: Pick<TrainedSelection, 'model' | 'example' | 'text'>): HeadInputs[][] {
  return modelHeads(sel.model, selectionTokens(sel));
}
