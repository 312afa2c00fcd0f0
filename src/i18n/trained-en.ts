/**
 * English strings of the trained heads (`input=trained`, the head picker), imported by en.ts as
 * `en.trained`; trained-zh.ts has the same shape (the i18n test compares them key by key).
 */
import { fmt, fmtInt } from '../charts/format';

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

export const trainedEn = {
  inputOption: 'Trained head (a bundled model)',
  heading: 'Trained heads',
  model: 'Model',
  example: 'Sequence',
  exampleName: (i: number) => `example ${i + 1}`,
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
  failed: (why: string) => `The trained model’s forward pass failed (${why}); the head in use stays.`,
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
  } as Record<string, string>,
};

export type TrainedStrings = typeof trainedEn;
