import { describe, expect, it } from 'vitest';
import { bundledHeads, selectionHeads } from './bundle-weights';
import { BUNDLES } from './bundles';
import { EXAMPLE_COUNT, exampleTokens } from './heads';
import { hasTokenizer, selectionText, selectionTokens, tokenizeFor, tokenLabels } from './sequence';

const grammarTask = BUNDLES.grammar.config.task;

describe('the sequence of a trained head', () => {
  it('every grammar example written as text tokenizes back to the example’s exact tokens', () => {
    for (let e = 0; e < EXAMPLE_COUNT; e++) {
      const text = selectionText({ model: 'grammar', example: e })!;
      const r = tokenizeFor('grammar', text);
      expect(r?.ok && Array.from(r.ids), `example ${e}: ${text}`).toEqual(Array.from(exampleTokens(grammarTask, e)));
    }
  });

  it('typed text of an example gives that example’s heads bit for bit; a prefix gives the first rows (causal)', () => {
    const text = selectionText({ model: 'grammar', example: 5 })!;
    const typed = selectionHeads({ model: 'grammar', example: 0, text });
    const ex = bundledHeads('grammar', 5);
    expect(typed[1]![0]!.q.data).toEqual(ex[1]![0]!.q.data);
    expect(typed[0]![1]!.v.data).toEqual(ex[0]![1]!.v.data);
    const short = selectionHeads({ model: 'grammar', example: 0, text: 'the cat sees a dog.' });
    const long = selectionHeads({ model: 'grammar', example: 0, text: 'the cat sees a dog. some mice see the fox.' });
    expect([short[1]![1]!.k.rows, long[1]![1]!.k.rows]).toEqual([6, 12]);
    expect(short[1]![1]!.k.data).toEqual(long[1]![1]!.k.data.subarray(0, 6 * 16));
    expect(selectionTokens({ model: 'grammar', example: 0, text: 'The cat sees, a dog!' })).toEqual(
      Int32Array.from([9, 18, 34, 10, 19, 2]),
    );
  });

  it('mqar has no tokenizer: its text is refused, its sequence is the task’s keys, values, blanks and queries', () => {
    expect([hasTokenizer('grammar'), hasTokenizer('mqar')]).toEqual([true, false]);
    expect(tokenizeFor('mqar', 'the cat')).toBeNull();
    expect(selectionText({ model: 'mqar', example: 0 })).toBeNull();
    expect(() => selectionTokens({ model: 'mqar', example: 0, text: 'the cat' })).toThrow(RangeError);
    expect(() => selectionTokens({ model: 'grammar', example: 0, text: 'the zebra' })).toThrow(RangeError);
    const toks = exampleTokens(BUNDLES.mqar.config.task, 0);
    const labels = tokenLabels('mqar', toks);
    const K = BUNDLES.mqar.config.task.pairs;
    expect(labels.slice(0, 2)).toEqual([
      { label: `k${toks[0]}`, role: 'key' },
      { label: `v${toks[1]}`, role: 'value' },
    ]);
    const after = labels.slice(2 * K);
    expect(after.filter((l) => l.role === 'query')).toHaveLength(K);
    expect(after.filter((l) => l.role === 'blank').every((l) => l.label === '·')).toBe(true);
    expect(tokenLabels('grammar', [9, 3, 18, 2]).map((l) => `${l.label}:${l.role}`)).toEqual([
      'the:word',
      '(:mark',
      'cat:word',
      '.:mark',
    ]);
  });
});
