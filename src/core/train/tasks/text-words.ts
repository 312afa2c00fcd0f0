/**
 * The grammar's vocabulary as English words (tasks/text.ts generates the token ids; this module is
 * its dictionary), and a tokenizer for typed text: `tokenize` maps words to ids — or says exactly
 * what is wrong (each unknown word with its place, the length) — and `detokenize` writes ids back.
 *   0 <unused>, 1 <mask>, 2 '.', 3–8 ( ) [ ] { }, 9 the, 10 a, 11 some,
 *   12–17 adjectives   big small red old happy quiet,
 *   18–25 nouns        cat dog bird fox child mouse king teacher        (singular)
 *   26–33              cats dogs birds foxes children mice kings teachers (plural, same order)
 *   34–41 verbs        sees likes chases finds knows helps follows watches (singular)
 *   42–49              see like chase find know help follow watch         (plural, same order)
 * Tolerant as a reader expects: any case and spacing; '.' and brackets split off words ("dog." is
 * two tokens); '!' and '?' end a sentence as '.'; commas, semicolons, colons, quotes and dashes are
 * dropped (the grammar has none; `ignored` counts them). Tokens 0 and 1 have no word: the grammar
 * never emits them (a causal LM never sees [MASK]), so typed text cannot either.
 */

/** Token ids of the grammar (tasks/text.ts builds its sentences from these). */
export const DOT = 2;
/** Opening brackets ( [ { ; each closing one is its opening id + 1. */
export const OPEN = [3, 5, 7] as const;
export const THE = 9;
export const A = 10;
export const SOME = 11;
export const ADJ = 12;
export const NOUN_SG = 18;
export const NOUN_PL = 26;
export const VERB_SG = 34;
export const VERB_PL = 42;

const ADJECTIVES = ['big', 'small', 'red', 'old', 'happy', 'quiet'];
const NOUNS_SG = ['cat', 'dog', 'bird', 'fox', 'child', 'mouse', 'king', 'teacher'];
const NOUNS_PL = ['cats', 'dogs', 'birds', 'foxes', 'children', 'mice', 'kings', 'teachers'];
const VERBS_SG = ['sees', 'likes', 'chases', 'finds', 'knows', 'helps', 'follows', 'watches'];
const VERBS_PL = ['see', 'like', 'chase', 'find', 'know', 'help', 'follow', 'watch'];

/** The word of every token id 0 … 49 (index = id). */
export const GRAMMAR_WORDS: readonly string[] = [
  '<unused>',
  '<mask>',
  '.',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  'the',
  'a',
  'some',
  ...ADJECTIVES,
  ...NOUNS_SG,
  ...NOUNS_PL,
  ...VERBS_SG,
  ...VERBS_PL,
];

/** The words typed text may use, by kind (for the UI's vocabulary list). */
export const WORD_GROUPS = {
  determiners: ['the', 'a', 'some'],
  adjectives: ADJECTIVES,
  nouns: NOUNS_SG.map((w, i) => `${w}/${NOUNS_PL[i]}`),
  verbs: VERBS_SG.map((w, i) => `${w}/${VERBS_PL[i]}`),
  marks: ['.', '( )', '[ ]', '{ }'],
} as const;

const ID_OF = new Map<string, number>(GRAMMAR_WORDS.map((w, id) => [w, id] as const).filter(([, id]) => id >= DOT));

/** Fewest tokens typed text may have (one query attending to one earlier key). */
export const MIN_TOKENS = 2;
/** Longest typed text read at all, in characters (a URL value or a text box). */
export const TEXT_MAX_CHARS = 1000;

export type TokenizeProblem =
  /** `at`: character offset of the word in the text; `index`: its token position (0-based) */
  | { kind: 'unknown'; word: string; at: number; index: number; suggestion?: string }
  | { kind: 'too-many'; count: number; max: number }
  | { kind: 'too-few'; count: number; min: number }
  | { kind: 'too-long'; chars: number; max: number };

/** `count`: tokens read (unknown words included; 0 for text too long to read); `ignored`: marks dropped. */
export type TokenizeResult =
  | { ok: true; ids: Int32Array; count: number; ignored: number }
  | { ok: false; problems: TokenizeProblem[]; count: number; ignored: number };

// a word: letters, digits, apostrophes and inner hyphens; then the marks that are tokens; then the ignored ones
const PIECE = /([\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*)|([.()[\]{}!?])|([,;:"'`“”‘’«»\-–—…]+)|(\S)/gu;

function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** The closest vocabulary word within a small edit distance (1 for short words, 2 from 6 letters). */
function suggest(word: string): string | undefined {
  let best: string | undefined;
  let bestD = word.length >= 6 ? 3 : 2;
  for (const w of ID_OF.keys()) {
    if (w.length < 2) continue;
    const d = distance(word, w);
    if (d < bestD) [best, bestD] = [w, d];
  }
  return best;
}

/** Token ids of `text`, at most `maxTokens` (the model's sequence length) and at least MIN_TOKENS. */
export function tokenize(text: string, maxTokens: number): TokenizeResult {
  if (text.length > TEXT_MAX_CHARS)
    return {
      ok: false,
      problems: [{ kind: 'too-long', chars: text.length, max: TEXT_MAX_CHARS }],
      count: 0,
      ignored: 0,
    };
  const ids: number[] = [];
  const problems: TokenizeProblem[] = [];
  let ignored = 0;
  for (const m of text.matchAll(PIECE)) {
    if (m[3] !== undefined) {
      ignored += m[3].length;
      continue;
    }
    const piece = (m[1] ?? m[2] ?? m[4]!).toLowerCase();
    const id = piece === '!' || piece === '?' ? DOT : ID_OF.get(piece);
    if (id === undefined) {
      const suggestion = m[1] !== undefined ? suggest(piece) : undefined;
      problems.push({
        kind: 'unknown',
        word: m[0],
        at: m.index,
        index: ids.length,
        ...(suggestion ? { suggestion } : {}),
      });
    }
    ids.push(id ?? -1);
  }
  if (ids.length > maxTokens) problems.push({ kind: 'too-many', count: ids.length, max: maxTokens });
  if (ids.length < MIN_TOKENS) problems.push({ kind: 'too-few', count: ids.length, min: MIN_TOKENS });
  const count = ids.length;
  return problems.length
    ? { ok: false, problems, count, ignored }
    : { ok: true, ids: Int32Array.from(ids), count, ignored };
}

/**
 * The words of `ids`, spaced as text: '.' and a closing bracket join the word before, an opening
 * bracket the word after — "the cat (a dog sees) sees." — which `tokenize` reads back to `ids`.
 */
export function detokenize(ids: ArrayLike<number>): string {
  let out = '';
  let glue = true;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    const w = GRAMMAR_WORDS[id] ?? `<${id}>`;
    const closing = id === DOT || id === OPEN[0] + 1 || id === OPEN[1] + 1 || id === OPEN[2] + 1;
    out += glue || closing ? w : ` ${w}`;
    glue = (OPEN as readonly number[]).includes(id);
  }
  return out;
}
