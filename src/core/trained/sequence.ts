/**
 * The sequence a trained head is computed on: one of the bundled examples (generated task data),
 * or — for a model with a tokenizer, the grammar LM — typed text (tasks/text-words.ts). MQAR has no
 * words: its tokens are keys, values, blanks and queries of the task, shown as such.
 */
import { detokenize, tokenize, type TokenizeResult } from '../train/tasks/text-words';
import { BUNDLES, bundleShape } from './bundles';
import type { TrainedModelId, TrainedSelection } from './configs';
import { exampleTokens } from './heads';

/** Whether model `id` reads typed text (its task is the grammar's language). */
export function hasTokenizer(id: TrainedModelId): boolean {
  return BUNDLES[id].config.task.kind !== 'mqar';
}

/** `text` as model `id`'s tokens (at most its sequence length), or null when the model has no tokenizer. */
export function tokenizeFor(id: TrainedModelId, text: string): TokenizeResult | null {
  return hasTokenizer(id) ? tokenize(text, bundleShape(id).n) : null;
}

/** The tokens of a selection: its typed text when it has one, else its example. Throws on text the model cannot read. */
export function selectionTokens(sel: Pick<TrainedSelection, 'model' | 'example' | 'text'>): Int32Array {
  if (sel.text === undefined) return exampleTokens(BUNDLES[sel.model].config.task, sel.example);
  const r = tokenizeFor(sel.model, sel.text);
  if (!r) throw new RangeError(`trained: ${sel.model} has no tokenizer`);
  if (!r.ok) throw new RangeError(`trained: the text does not tokenize (${r.problems.map((p) => p.kind).join(', ')})`);
  return r.ids;
}

/** The selection's sequence written as its model's text (grammar), for a text box; null for MQAR. */
export function selectionText(sel: Pick<TrainedSelection, 'model' | 'example' | 'text'>): string | null {
  if (!hasTokenizer(sel.model)) return null;
  return sel.text ?? detokenize(selectionTokens(sel));
}

export type TokenRole = 'word' | 'mark' | 'key' | 'value' | 'query' | 'blank';

/**
 * One label per position of `tokens` for model `id`: the grammar's words (brackets and '.' as marks);
 * MQAR's tokens by their role — k7 (a key), v40 (its value), k7? (the key asked again), · (blank).
 */
export function tokenLabels(id: TrainedModelId, tokens: ArrayLike<number>): { label: string; role: TokenRole }[] {
  const task = BUNDLES[id].config.task;
  return Array.from(tokens, (t, i) => {
    if (task.kind !== 'mqar') {
      const label = detokenize([t]);
      return { label, role: /^\p{L}/u.test(label) ? 'word' : 'mark' };
    }
    if (i < 2 * task.pairs) return i % 2 === 0 ? { label: `k${t}`, role: 'key' } : { label: `v${t}`, role: 'value' };
    return t === 0 ? { label: '·', role: 'blank' } : { label: `k${t}?`, role: 'query' };
  });
}
