import { describe, expect, it } from 'vitest';
import { createRng } from '../../rng';
import { grammarTokens, TEXT_VOCAB } from './text';
import { detokenize, GRAMMAR_WORDS, MIN_TOKENS, TEXT_MAX_CHARS, tokenize, type TokenizeResult } from './text-words';

const ids = (r: TokenizeResult) => (r.ok ? Array.from(r.ids) : r.problems);

describe('the grammar’s words', () => {
  it('name every token id once, plurals 8 ids after their singulars', () => {
    expect(GRAMMAR_WORDS).toHaveLength(TEXT_VOCAB);
    expect(new Set(GRAMMAR_WORDS).size).toBe(TEXT_VOCAB);
    expect([GRAMMAR_WORDS[2], GRAMMAR_WORDS[9], GRAMMAR_WORDS[18], GRAMMAR_WORDS[26]]).toEqual([
      '.',
      'the',
      'cat',
      'cats',
    ]);
    expect([GRAMMAR_WORDS[34], GRAMMAR_WORDS[42]]).toEqual(['sees', 'see']);
  });

  it('round trip: detokenize then tokenize gives back 2000 tokens of the generator’s stream, 64 at a time', () => {
    const stream = grammarTokens(createRng(11), 2048);
    for (let o = 0; o < stream.length; o += 64) {
      const chunk = stream.slice(o, o + 64);
      expect(ids(tokenize(detokenize(chunk), 64))).toEqual(chunk);
    }
  });

  it('writes text as a reader does: marks join their words', () => {
    // the cat ( a dog sees ) sees the birds .
    expect(detokenize([9, 18, 3, 10, 19, 34, 4, 34, 9, 28, 2])).toBe('the cat (a dog sees) sees the birds.');
    expect(detokenize([0, 1, 77])).toBe('<unused> <mask> <77>');
  });
});

describe('tokenize', () => {
  it('ignores case and spacing, splits marks off words, reads ! and ? as ., drops commas and quotes', () => {
    const r = tokenize('  The CAT\n(a  dog sees)sees,  “the birds”!Some mice see?', 64);
    expect(r.ok && r.ignored).toBe(3);
    expect(ids(r)).toEqual([9, 18, 3, 10, 19, 34, 4, 34, 9, 28, 2, 11, 31, 42, 2]);
  });

  it('lists every unknown word with its character offset, its token position and a near word', () => {
    const r = tokenize('the catt sees a dragon. a dog @', 64);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problems).toEqual([
      { kind: 'unknown', word: 'catt', at: 4, index: 1, suggestion: 'cat' },
      { kind: 'unknown', word: 'dragon', at: 16, index: 4 },
      { kind: 'unknown', word: '@', at: 30, index: 8 },
    ]);
    expect(r.count).toBe(9); // unknown words hold their positions
    expect(!r.ok && tokenize('<mask> a', 64).ok).toBe(false);
  });

  it('enforces the length: at most maxTokens, at least MIN_TOKENS, at most TEXT_MAX_CHARS characters', () => {
    expect(ids(tokenize('the cat. '.repeat(21) + 'a', 64))).toHaveLength(64);
    expect(ids(tokenize('the cat. '.repeat(22), 64))).toEqual([{ kind: 'too-many', count: 66, max: 64 }]);
    expect(ids(tokenize('  ', 64))).toEqual([{ kind: 'too-few', count: 0, min: MIN_TOKENS }]);
    expect(ids(tokenize('cat', 64))).toEqual([{ kind: 'too-few', count: 1, min: MIN_TOKENS }]);
    expect(ids(tokenize('x'.repeat(TEXT_MAX_CHARS + 1), 64))).toEqual([
      { kind: 'too-long', chars: TEXT_MAX_CHARS + 1, max: TEXT_MAX_CHARS },
    ]);
    // an unknown word and the length are reported together
    expect(ids(tokenize('zebra', 64))).toEqual([
      { kind: 'unknown', word: 'zebra', at: 0, index: 0 },
      { kind: 'too-few', count: 1, min: MIN_TOKENS },
    ]);
  });
});
