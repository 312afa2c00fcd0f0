/**
 * English strings of the trained heads (`input=trained`, the head picker), imported by en.ts as
 * `en.trained`; trained-zh.ts has the same shape (the i18n test compares them key by key).
 */
import { fmt, fmtInt } from '../charts/format';
import type { TokenizeProblem } from '../core/train/tasks/text-words';

const range = (lo: number, hi: number) => (fmt(lo, 2) === fmt(hi, 2) ? fmt(lo, 2) : `${fmt(lo, 2)}–${fmt(hi, 2)}`);

export interface TrainedSummary {
  heads: number;
  entropy: [number, number];
  entropyUniform: number;
  rank: [number, number];
  favor: [number, number];
  gauss: { entropy: number; rank: number; favor: number };
  m: number;
}

const wordList = (xs: string[]) =>
  xs.length > 6 ? `${xs.slice(0, 6).join(', ')} and ${xs.length - 6} more` : xs.join(', ');

/** Every problem of a text, in one sentence each (shared by the notice and the text box). */
function textProblemsEn(problems: readonly TokenizeProblem[]): string {
  const unknown = problems.flatMap((p) =>
    p.kind === 'unknown'
      ? [`“${p.word}” (token ${p.index}${p.suggestion ? `; did you mean “${p.suggestion}”?` : ''})`]
      : [],
  );
  const out: string[] = [];
  if (unknown.length)
    out.push(
      `${unknown.length === 1 ? 'a word the model does not know' : 'words the model does not know'}: ${wordList(unknown)}`,
    );
  for (const p of problems) {
    if (p.kind === 'too-many') out.push(`${fmtInt(p.count)} tokens, more than the model’s ${fmtInt(p.max)}`);
    if (p.kind === 'too-few') out.push(`${fmtInt(p.count)} token${p.count === 1 ? '' : 's'}, at least ${p.min} needed`);
    if (p.kind === 'too-long') out.push(`${fmtInt(p.chars)} characters, at most ${fmtInt(p.max)}`);
  }
  return out.join('; ');
}

export const trainedEn = {
  inputOption: 'Trained head (bundled)',
  heading: 'Trained heads',
  model: 'Model',
  example: 'Sequence',
  exampleName: (i: number) => `example ${i + 1}`,
  typedOption: 'your text',
  textLabel: 'Your text (the grammar’s words)',
  textApply: 'Load',
  textCount: (count: number, max: number, ignored: number, ready: boolean) =>
    `${fmtInt(count)} of at most ${fmtInt(max)} tokens${ignored ? ` (${fmtInt(ignored)} punctuation mark${ignored === 1 ? '' : 's'} dropped: the grammar has none)` : ''}${ready ? ' · Enter or Load computes every head on it.' : ''}`,
  textRejected: (source: 'url' | 'control', problems: readonly TokenizeProblem[]) =>
    `${source === 'url' ? 'The link’s text was not loaded' : 'Not loaded'} — ${textProblemsEn(problems)}. ${source === 'url' ? 'The example is shown instead.' : 'The head in use is unchanged.'}`,
  vocabulary: 'Words the grammar model knows',
  wordGroups: {
    determiners: 'determiners',
    adjectives: 'adjectives',
    nouns: 'nouns (singular/plural)',
    verbs: 'verbs (singular/plural — agreeing with the subject)',
    marks: 'marks',
  } as Record<string, string>,
  tokensHeading: (n: number) =>
    `The sequence: ${fmtInt(n)} tokens, one per query row i (and key column j) of the heatmaps — click a token to pin its row`,
  tokenAria: (i: number, label: string) => `token ${i}: ${label}`,
  mqarNote:
    'MQAR reads no text: its sequences are generated task data — keys k, each followed by its value v, then blanks · and queries k? (a key asked again; the model must answer its value).',
  modelName: (id: string, layers: number, heads: number) =>
    `${id === 'mqar' ? 'MQAR recall' : 'Grammar LM'} (${layers} layer${layers > 1 ? 's' : ''} × ${heads} heads)`,
  intro: (params: string, loss: string, acc: string) =>
    `Q, K, V of one head of a small model trained by this page’s own trainer (npm run train:bundled; ${params} parameters, held-out loss ${loss}, accuracy ${acc}), on one sequence of its task, computed by the model’s forward pass. Every panel computes on the chosen head. Click a head to choose it.`,
  headTitle: (layer: number, head: number) => `Layer ${layer + 1}, head ${head + 1}`,
  headLine: (entropy: string, rank: string, errors: string, ms: string) =>
    `H ${entropy} nats · eff. rank ${rank} · FAVOR+ error ${errors} (m ${ms})`,
  pick: (layer: number, head: number) => `Use layer ${layer + 1}, head ${head + 1}`,
  selected: 'in use',
  forwardPass: (backend: 'webgpu' | 'cpu', adapter: string, ms: string) =>
    `Forward pass: ${backend === 'webgpu' ? `WebGPU (WGSL${adapter ? `, ${adapter}` : ''})` : 'CPU (the TypeScript twin)'}, ${ms} ms, in the engine worker.`,
  computing: 'Running the model’s forward pass on this sequence…',
  cancelPending: 'Keep the head in use',
  failed: (what: string, detail: string) =>
    `The trained model’s forward pass failed: ${what} (${detail}) The head in use stays.`,
  summary: (s: TrainedSummary) => {
    const cmp = (r: [number, number], g: number, below: string, above: string, mixed: string) =>
      r[1] < g ? below : r[0] > g ? above : mixed;
    const rows = cmp(s.entropy, s.gauss.entropy, 'sharper', 'flatter', 'some sharper, some flatter');
    const rank = cmp(s.rank, s.gauss.rank, 'lower', 'higher', 'both lower and higher');
    const favor = cmp(s.favor, s.gauss.favor, 'lower', 'higher', 'on both sides of it');
    return `Measured on this sequence: the ${fmtInt(s.heads)} heads’ mean row entropy is ${range(...s.entropy)} nats (uniform rows ${fmt(s.entropyUniform, 2)}; Gaussian Q, K of the same n, d and RMS as the chosen head ${fmt(s.gauss.entropy, 2)}), their effective rank ${range(...s.rank)} (Gaussian ${fmt(s.gauss.rank, 2)}), FAVOR+’s error at m = ${s.m} ${range(...s.favor)} (Gaussian ${fmt(s.gauss.favor, 2)}). What synthetic inputs do not show: at the same size of entries, the trained heads’ rows are ${rows} and their rank ${rank} than the Gaussian ones — the queries pick keys by content (MQAR: the matching key; the grammar: the words a prediction depends on) — and FAVOR+’s error is ${favor} than the Gaussian one, set by the geometry of the learned queries and keys, not by the size of their entries.`;
  },
  rules: {
    model: 'must be one of mqar, grammar',
    layer: 'must be a layer index of the model (0-based)',
    head: 'must be a head index of the model (0-based)',
    example: 'must be an example index from 0 to 15',
    text: 'must be left out: only the grammar model reads typed text (MQAR’s sequences are generated task data)',
  } as Record<string, string>,
};

export type TrainedStrings = typeof trainedEn;
