/**
 * English strings of the training panel (issue "Learning"), imported by en.ts as `en.training`;
 * training-zh.ts has the same shape (the i18n test compares them key by key).
 */
import { fmt, fmtInt } from '../charts/format';
import { SETUP_LIMITS, LR_RANGE, MAX_KINDS, MIN_KINDS, TRAIN_KINDS } from '../engine/training-setup';
import type { TrainTask } from '../engine/training-setup';

const duration = (ms: number) =>
  ms < 1000
    ? `${Math.round(ms)} ms`
    : ms < 60_000
      ? `${(ms / 1000).toFixed(1)} s`
      : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;

const RULES: Record<string, string> = {
  train: 'the training setup is too long',
  task: 'must be one of mqar, lm, mlm, local',
  kinds: `must be ${MIN_KINDS}–${MAX_KINDS} different kinds from ${TRAIN_KINDS.join(', ')}, separated by + (in the transfer experiment: 1–${MAX_KINDS} feature maps, no local window)`,
  lr: `must be auto or one learning rate per kind (${LR_RANGE[0]} to ${LR_RANGE[1]}), separated by +`,
  mlp: 'must be 1 or 0',
  sweep: 'must be 1 or 0 (and 0 in the transfer experiment)',
  transfer: 'must be 1 or 0',
  conv: 'must be one of none, shift, conv3',
  proj: 'must be one of orthogonal-chi, orthogonal-sqrtd, iid, simplex',
  h: 'must be a whole number of heads that divides d, from 1 to 8',
  pairs: 'must be a whole number from 1 to 128 with 3 · pairs ≤ L',
};
const FIELD_NAMES: Record<string, string> = { L: 'seqLen', d: 'dModel' };

export const trainingEn = {
  title: 'Learning: a tiny transformer trained in your browser',
  lead: 'Every other figure looks at one attention matrix. Here the attention is learned: a small transformer is trained with exact softmax attention and with linear attention (several feature maps) side by side, on the same data and seeds, and the curves show whether each can learn the task.',
  rule: (field: string) => {
    const f = FIELD_NAMES[field] ?? field;
    if (RULES[field]) return RULES[field];
    const lim = (SETUP_LIMITS as Record<string, readonly [number, number]>)[f];
    return lim
      ? `must be a whole number from ${fmtInt(lim[0])} to ${fmtInt(lim[1])}`
      : 'not a recognised training setting';
  },
  run: 'must be 1 or 0',
  tasks: {
    mqar: 'Associative recall (MQAR)',
    lm: 'Language model (next token, causal)',
    mlm: 'Masked language model (bidirectional)',
    local: 'Local truncation (Su): windowed vs full linear',
  } as Record<TrainTask, string>,
  taskHelp: {
    mqar: 'Key–value pairs, then queries: predict the value stored with each queried key (Zoology, Arora et al. 2023). Vocabulary 64, not Zoology’s 8192, which learns too slowly in a browser. Accuracy is on the queried values only.',
    lm: 'Next-token prediction on a small seeded corpus, causal attention (Su Jianlin: linear attention is nearly as good as softmax here).',
    mlm: 'Masked tokens predicted from both sides, bidirectional attention (Su Jianlin: here linear attention loses noticeably).',
    local:
      'The masked-LM data with linear attention whose matrix is kept only near the diagonal (|i − j| < window) vs the full linear one (Su Jianlin: the local one is better).',
  } as Record<TrainTask, string>,
  task: 'Task',
  kinds: 'Attention kinds to compare',
  kindsHelp: `${MIN_KINDS}–${MAX_KINDS} kinds, trained on the same batches with the same seeds`,
  addKind: 'Add a kind',
  removeKind: (name: string) => `Remove ${name}`,
  kind: (i: number) => `Kind ${i + 1}`,
  softmax: 'softmax (exact)',
  local: (name: string) => `${name}, local window`,
  sizes: 'Model',
  pairs: 'key–value pairs',
  seqLen: 'sequence length L',
  dModel: 'width d_model',
  heads: 'heads',
  layers: 'layers',
  mlp: 'MLP after attention',
  shortConv: 'Before attention',
  convs: { none: 'nothing', shift: 'token shift (h + w ⊙ h₋₁)', conv3: 'short causal conv (width 3)' } as Record<
    string,
    string
  >,
  shortConvHelp:
    'Zoology and Based add a previous-token step before linear attention: much of its failure on short recall is that missing step, the rest is capacity (state size vs pairs).',
  m: 'features m (FAVOR+, Hedgehog)',
  proj: 'FAVOR+ projection',
  window: 'local window',
  steps: 'steps',
  batch: 'batch',
  seeds: 'seeds',
  seed: 'first seed',
  lr: 'learning rate',
  lrAuto: 'auto',
  lrHelp: 'learning rate of this kind; empty: auto (the tuned default of the kind)',
  lrOf: (name: string) => `learning rate of ${name}`,
  sweep: 'LR sweep (lr/3, lr, 3·lr; each kind’s best is shown)',
  start: 'Train',
  restart: 'Train again',
  pause: 'Pause',
  resume: 'Resume',
  cancel: 'Cancel',
  idle: 'Press Train to start the comparison. A link to this page with run=1 starts it on load.',
  starting: 'Starting the trainer…',
  running: 'Training',
  paused: 'Paused',
  done: (ms: string) => `Done in ${ms}.`,
  cancelled: 'Cancelled. The curves show the steps trained so far.',
  failed: (msg: string) => `Training failed: ${msg}`,
  progress: (done: number, total: number) => `${fmtInt(done)} of ${fmtInt(total)} steps (all runs)`,
  eta: (ms: number | null) => (ms === null ? 'estimating the time left…' : `about ${duration(ms)} left`),
  rate: (gflops: number | null) => (gflops === null ? '' : `${fmt(gflops)} GFLOP/s`),
  duration,
  onGpu: (device: string) => `Trained on WebGPU (${device}).`,
  onCpu: 'Trained on the CPU twins.',
  reduced:
    'The CPU twins train a smaller default comparison (batches of 16, at most 300 steps, 2 seeds), so it finishes in a minute or two; its numbers are less settled than the WebGPU default’s.',
  runsNote: (runs: number, kinds: number, seeds: number) =>
    `${fmtInt(runs)} runs: ${kinds} kinds × ${seeds} seed${seeds === 1 ? '' : 's'}, stepped in turn.`,
  lossChart: 'Training loss vs step',
  accChart: 'Training accuracy vs step',
  evalChart: 'Held-out accuracy vs step',
  step: 'step',
  loss: 'loss (cross-entropy, nats)',
  accuracy: 'accuracy',
  /** the accuracy charts' chance line (MQAR: one value token in `values`) */
  chance: (values: number) => `chance: a random value, 1/${values}`,
  band: 'band: seeds’ min to max',
  metricLoss: (name: string) => `${name}: loss`,
  metricAcc: (name: string) => `${name}: accuracy`,
  metricEval: (name: string) => `${name}: held-out accuracy`,
  atStep: (step: number) => `at step ${fmtInt(step)}`,
  results: 'Final held-out numbers (mean ± spread over seeds)',
  colKind: 'attention',
  colLr: 'learning rate',
  colAcc: 'held-out accuracy',
  colLoss: 'held-out loss',
  colSeeds: 'seeds',
  best: 'best',
  mapsTitle: 'What each run learned to attend to',
  mapsLead:
    'Attention maps of each kind’s first run on one held-out example, layer and head chosen below (for linear attention: Â = φ(Q)φ(K)ᵀ row-normalized, the matrix it actually uses).',
  layer: 'layer',
  head: 'head',
  mapTitle: (name: string, layer: number, head: number) => `${name}, layer ${layer + 1}, head ${head + 1}`,
  weights: (name: string) => `Weights of ${name} (JSON)`,
  weightsFailed: (msg: string) => `Could not read the weights: ${msg}`,
  csv: 'Curves (CSV)',
  why: {
    mqar: (best: string, bestAcc: string, worst: string, worstAcc: string) =>
      `${best} recalls ${bestAcc} of the queried values, ${worst} ${worstAcc}. Recall needs a row that puts nearly all its weight on the one earlier key equal to the query: softmax’s exp sharpens a score gap into such a peak (the sparsity panel), while linear attention’s matrix has rank at most m′ (the rank panel) and dense rows, so its fixed-size state (m′ × d) must hold every pair at once — it fails once the pairs outgrow it. Try the token shift, a wider d or m.`,
    lm: (best: string, bestAcc: string, worst: string, worstAcc: string) =>
      `Next-token accuracy: ${best} ${bestAcc}, ${worst} ${worstAcc}. A causal language model mostly needs the recent tokens, which dense linear-attention rows still weight enough: the gap is small, as Su Jianlin reports. Compare the masked model (task MLM).`,
    mlm: (best: string, bestAcc: string, worst: string, worstAcc: string) =>
      `Masked-token accuracy: ${best} ${bestAcc}, ${worst} ${worstAcc}. Bidirectionally every row sees the whole sequence, and linear attention’s low-rank, dense rows (the rank and sparsity panels) blur it into an average: the gap is larger than in the causal LM, as Su Jianlin reports.`,
    local: (best: string, bestAcc: string, worst: string, worstAcc: string) =>
      `${best} ${bestAcc}, ${worst} ${worstAcc}. Truncating linear attention to a local window makes its rows sparse by construction (the sparsity panel): the model cannot spread its weight over the whole sequence, which is what Su Jianlin found helps — at the price of no longer being linear-time.`,
  } as Record<TrainTask, (best: string, bestAcc: string, worst: string, worstAcc: string) => string>,
  whyClose: (best: string, bestAcc: string, worst: string, worstAcc: string) =>
    `The kinds end within a few points of each other (${best} ${bestAcc}, ${worst} ${worstAcc}): at this size and number of steps the task does not separate them. More pairs or a longer sequence (MQAR), fewer features, or more steps make the gap appear; the token shift alone can close much of it.`,
  whyOther: (best: string, bestAcc: string, worst: string, worstAcc: string) =>
    `Here ${best} (${bestAcc}) beats ${worst} (${worstAcc}), unlike the papers’ finding: a short run at one learning rate can favour either kind. Train longer, add seeds or turn on the LR sweep before reading the gap.`,
  seriesTitle: 'Sweeps and the LM / MLM gap',
  seriesLead:
    'A series trains the comparison above several times, changing one thing, and keeps each one’s final held-out accuracy.',
  seriesPairs: 'Sweep pairs (2, 4, 8, 16)',
  seriesM: 'Sweep m (8, 16, 32, 64)',
  seriesLmMlm: 'LM, then MLM (Su Jianlin’s claim)',
  seriesProgress: (k: number, n: number) => `Comparison ${k} of ${n} of the series.`,
  pairsChart: 'Held-out accuracy vs number of key–value pairs',
  mChart: 'Held-out accuracy vs features m',
  pairsAxis: 'key–value pairs',
  mAxis: 'features m',
  gapTable: 'Held-out accuracy per task (the gap to softmax in brackets)',
  colTask: 'task',
  rankLink: 'rank panel',
  sparsityLink: 'sparsity panel',
  transfer: {
    field: 'Transfer experiment (train softmax, swap to a feature map, fine-tune)',
    fieldHelp:
      'Train with exact softmax, swap every layer’s attention to each map below keeping all the weights, then fine-tune — beside the same map trained from scratch.',
    kinds: 'Feature maps to swap softmax for',
    kindsHelp: '1–4 maps; each is fine-tuned from the trained softmax model and trained from scratch',
    steps: 'softmax steps',
    tune: 'fine-tune steps',
    fit: 'Hedgehog fit steps',
    button: 'Transfer: softmax → FAVOR+ / Hedgehog',
    title: 'Transfer: a trained softmax model swapped to linear attention',
    lead: 'The Performer blog’s experiment in miniature: a Transformer trained with exact softmax has its attention replaced by a feature map with the same weights. Its accuracy drops at once (step 0); fine-tuning recovers it far faster than training the linear model from scratch. Hedgehog can first fit its feature maps to each head’s softmax attention (Zhang et al. 2024), and starts much closer.',
    phase: (phase: 1 | 2): string =>
      phase === 1
        ? 'Phase 1: training softmax.'
        : 'Phase 2: fine-tuning the swapped models beside the from-scratch ones.',
    fitOn: (backend: 'cpu' | 'webgpu' | null): string =>
      `The Hedgehog fit trains only Wh and bh${backend === 'webgpu' ? ', on WebGPU' : backend === 'cpu' ? ', on the CPU twins' : ''}, like the rest of the run.`,
    chart: (map: string) => `${map}: held-out accuracy after the swap vs from scratch`,
    roles: {
      softmax: 'softmax (trained)',
      finetune: 'swapped, fine-tuned',
      scratch: 'from scratch',
      fitted: 'fitted, then fine-tuned',
    },
    roles0: { softmax: 'softmax (trained)', finetune: 'swapped', scratch: 'at its init', fitted: 'swapped and fitted' },
    step0Dot: (role: string) => `${role}, step 0`,
    softmaxLine: (acc: string) => `softmax ${acc}`,
    table: 'Held-out accuracy: at the swap (step 0) and after fine-tuning (mean ± half the seeds’ spread)',
    colMap: 'map',
    colRole: 'run',
    colStep0: 'step 0',
    colFinal: (steps: number) => `after ${steps} steps`,
    softmaxFinal: (acc: string, steps: number) => `Softmax after ${steps} steps: ${acc} held-out accuracy.`,
    heads: 'Concentration of the trained softmax heads (held-out set, mean over seeds):',
    head: (layer: number, head: number, entropy: string, uniform: string, top: string) =>
      `layer ${layer} head ${head}: entropy ${entropy} nats of a uniform row’s ${uniform}, largest weight ${top}`,
    favorM: 'FAVOR+ swapped in without fine-tuning, by number of features m:',
    favorMItem: (m: number, acc: string) => `m = ${m}: ${acc}`,
    fitDone: (map: string, steps: number, before: string, after: string) =>
      `${map} fit (${steps} steps): KL(softmax ‖ ${map}) per row ${before} → ${after} nats.`,
    why: 'Why FAVOR+ fails at step 0: the trained head puts most of each row on a few keys (low entropy, a large top weight). FAVOR+ estimates exp(q·k) with positive random features; its relative error grows with ‖q‖‖k‖, i.e. with how sharp the head is, so the swapped rows are blurred and more features help slowly. Hedgehog’s fitted maps are trained to reproduce exactly those rows.',
    mapsAt0: 'Attention at the swap (step 0), first seed, one held-out example',
    mapsAfter: (steps: number) => `Attention after ${steps} fine-tune steps`,
    mapsLead:
      'The trained softmax head beside the same weights read through each feature map: where softmax puts a row on a few keys, FAVOR+ spreads it; Hedgehog fitted to the head reproduces it. Click a row to compare it across the maps.',
    csv: 'Transfer curves (CSV)',
  },
  slideTitle: 'Learning: can linear attention learn recall?',
  slideNote:
    'Softmax attention and two linear attentions trained side by side on associative recall, live in the browser.',
};
