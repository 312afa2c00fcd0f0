/**
 * Every user-visible English string (a leaf module: no React, no store access). Components read
 * the current language's strings through `useStrings()` (src/ui/strings.ts); interpolated strings
 * are functions. `zh.ts` beside it has the same shape (TypeScript lists anything missing).
 */
import type { RejectReason } from '../store/params';
import { PARAM_RULES, type ParamKey } from '../store/params';
import type { FeatureMapKind, InputKind, ProjectionKind, Stabilizer } from '../core/types';
import type { ZeroNormalizerCause } from '../core/feature-maps';
import { LANGS, PANEL_IDS, PRESENT_STEP_COUNT, THEMES } from '../store/store';
import { PRESENT_STEP_IDS } from '../store/present-steps';
import { RANK_TOLERANCES } from '../core/rank';
import { URL_KEYS } from '../store/url';
import { EMBED_CONTROL_IDS, EMBED_FIGURES } from '../store/embed';
import { fmt, fmtInt } from '../charts/format';
import type { UploadNote, UploadProblem, UploadSlot } from '../core/upload-check';
import type { MapFamily } from '../core/estimators';
import { trainingEn } from './training-en';
import { trainedEn } from './trained-en';

/** The trained-head slide's measured line (src/present/compute-figures.tsx): numbers already formatted, m and the draws as numbers. */
export interface HeadStatFacts {
  entropy: string;
  uniform: string;
  error: string;
  m: number;
  errors: string;
  ms: string;
  draws: number;
}

/** What an exported figure's caption states: the parameters of its file name (src/export/filename.ts), the map by name. */
export interface ExportCaption {
  n: number;
  d: number;
  m: number;
  map: string;
  scale: number;
  causal: boolean;
}

const mib = (bytes: number) => `${(bytes / 1048576).toFixed(bytes < 1048576 ? 2 : 1)} MiB`;

const PARAM_NAMES: Record<ParamKey, string> = {
  n: 'n',
  d: 'd',
  m: 'm',
  seed: 'seed',
  featureSeed: 'feature seed',
  featureMap: 'feature map',
  projection: 'projection',
  causal: 'causal',
  input: 'inputs',
  scale: 'norm scale',
  stabilizer: 'stabilizer',
};

const OTHER_RULES: Record<string, string> = {
  row: 'must be a query row index below n',
  lang: `must be one of ${LANGS.join(', ')}`,
  theme: `must be one of ${THEMES.join(', ')}`,
  tol: `must be one of ${RANK_TOLERANCES.map((x) => x.toExponential(0)).join(', ')}`,
  embed: `must be one of ${PANEL_IDS.join(', ')}`,
  hide: `must be a comma-separated list of ${PANEL_IDS.join(', ')}`,
  controls: `must be none or a comma-separated list of ${EMBED_CONTROL_IDS.join(', ')}`,
  embedId: 'must be 1–64 letters, digits, - or _',
  figure: `must be, with embed=, one of that panel's figures (${Object.entries(EMBED_FIGURES)
    .map(([panel, figures]) => `${panel}: ${figures.join(', ')}`)
    .join('; ')}); showing the whole panel`,
  query: 'the query string is too long',
  present: 'must be present, 1 or 0',
  step: `must be a slide number from 1 to ${PRESENT_STEP_COUNT} or a slide name (${PRESENT_STEP_IDS.join(', ')}); showing slide 1`,
};

function ruleText(key: string): string {
  const pk = (Object.keys(URL_KEYS) as ParamKey[]).find((k) => k === key || URL_KEYS[k] === key);
  if (key.startsWith('train.')) return trainingEn.rule(key.slice('train.'.length));
  if (key === 'train') return trainingEn.rule('train');
  if (key === 'run') return trainingEn.run;
  if (key in trainedEn.rules) return trainedEn.rules[key]!;
  if (!pk) return OTHER_RULES[key] ?? 'not a recognised setting';
  const r = PARAM_RULES[pk];
  switch (r.kind) {
    case 'int':
      return `must be a whole number from ${fmtInt(r.min)} to ${fmtInt(r.max)}`;
    case 'real':
      return `must be a number from ${r.min} to ${r.max}`;
    case 'enum':
      return `must be one of ${r.options.join(', ')}`;
    case 'bool':
      return 'must be 1/0 or true/false';
  }
}

const REASONS: Record<RejectReason, string> = {
  'not-a-number': 'not a number',
  'not-an-integer': 'not a whole number',
  'out-of-range': 'out of range',
  'not-an-option': 'not one of the options',
  'not-a-boolean': 'not a yes/no value',
  'too-long': 'too long',
  'not-a-step': 'not a slide number or name',
};

const MAP_NAMES: Record<FeatureMapKind, string> = {
  positive: 'Positive (FAVOR+)',
  hyperbolic: 'Hyperbolic positive',
  trig: 'Trigonometric (sin, cos)',
  relu: 'ReLU (Performer-ReLU)',
  elu1: '1 + elu (linear transformer)',
  exp: 'eˣ without norm terms (Su Jianlin, kexue.fm/archives/8338)',
  'double-softmax': 'Double softmax (efficient attention)',
  oprf: 'FAVOR++: optimal positive RF (Likhosherstov et al. 2022)',
  taylor2: 'Second-order Taylor, 1 + x + x²/2 (Based, Arora et al. 2024)',
  cosformer: 'cosFormer: ReLU · cos re-weighting (Qin et al. 2022)',
  hedgehog: 'Hedgehog (learned, fitted in the browser)',
};

/**
 * The maps as the select lists them: a chosen option is drawn in the select's box, cut at its edge
 * (about 28 characters in the sidebar), so the full name, with its source, is shown under it.
 */
const MAP_CHOICES: Record<FeatureMapKind, string> = {
  positive: 'Positive (FAVOR+)',
  hyperbolic: 'Hyperbolic positive',
  trig: 'Trigonometric (sin, cos)',
  relu: 'ReLU (Performer-ReLU)',
  elu1: '1 + elu (linear transformer)',
  exp: 'eˣ without norm terms',
  'double-softmax': 'Double softmax',
  oprf: 'FAVOR++ (optimal positive)',
  taylor2: 'Second-order Taylor',
  cosformer: 'cosFormer (ReLU · cos)',
  hedgehog: 'Hedgehog (learned)',
};

const MAP_SHORT: Record<FeatureMapKind, string> = {
  positive: 'positive',
  hyperbolic: 'hyperbolic',
  trig: 'trig',
  relu: 'ReLU',
  elu1: '1+elu',
  exp: 'eˣ',
  'double-softmax': 'double softmax',
  oprf: 'FAVOR++',
  taylor2: 'Taylor-2',
  cosformer: 'cosFormer',
  hedgehog: 'Hedgehog',
};

const PROJ_NAMES: Record<ProjectionKind, string> = {
  'orthogonal-chi': 'Orthogonal, χ-distributed norms (paper default)',
  'orthogonal-sqrtd': 'Orthogonal, norms √d (regularized)',
  iid: 'iid Gaussian',
  simplex: 'Simplex, χ-distributed norms (Reid et al. 2023)',
};

/** The projections as the select lists them (as MAP_CHOICES: the full name under the select). */
const PROJ_CHOICES: Record<ProjectionKind, string> = {
  'orthogonal-chi': 'Orthogonal (paper default)',
  'orthogonal-sqrtd': 'Orthogonal, norms √d',
  iid: 'iid Gaussian',
  simplex: 'Simplex (Reid et al. 2023)',
};

const PROJ_SHORT: Record<ProjectionKind, string> = {
  'orthogonal-chi': 'orthogonal',
  'orthogonal-sqrtd': 'orthogonal √d',
  iid: 'iid',
  simplex: 'simplex',
};

const INPUT_NAMES: Record<InputKind, string> = {
  gaussian: 'Gaussian (dense attention)',
  clustered: 'Clustered (topics)',
  local: 'Local (positional band)',
};

/** LaTeX of φ for each map (x = q·d^{-1/4}). */
const MAP_TEX: Record<FeatureMapKind, string> = {
  positive: String.raw`\phi(x)=\tfrac{1}{\sqrt m}\,e^{-\|x\|^2/2}\big[e^{\omega_1^\top x},\dots,e^{\omega_m^\top x}\big]`,
  hyperbolic: String.raw`\phi(x)=\tfrac{1}{\sqrt{2m}}\,e^{-\|x\|^2/2}\big[e^{\omega_r^\top x},\,e^{-\omega_r^\top x}\big]_{r=1}^{m}`,
  trig: String.raw`\phi(x)=\tfrac{1}{\sqrt m}\,e^{\|x\|^2/2}\big[\sin\omega_r^\top x,\,\cos\omega_r^\top x\big]_{r=1}^{m}`,
  relu: String.raw`\phi(x)=\max\!\big(0,\tfrac{1}{\sqrt m}Wx\big)+10^{-3}`,
  elu1: String.raw`\phi(x)=\operatorname{elu}(x)+1\quad(\text{no projection, } d \text{ features})`,
  exp: String.raw`\phi(x)=e^{Wx}\quad(\text{no }\|x\|^2\text{ terms})`,
  'double-softmax': String.raw`\phi_q(q)=\operatorname{softmax}_{\text{features}}(q),\ \ \phi_k(k)=\operatorname{softmax}_{\text{positions}}(k)\ \ (\text{causal: }\phi_k(k)=e^{k})`,
  oprf: String.raw`\phi(x)=\tfrac{(1-4A)^{d/4}}{\sqrt m}\,e^{-\|x\|^2/2}\big[e^{A\|\omega_r\|^2+\sqrt{1-4A}\,\omega_r^\top x}\big]_{r=1}^{m},\ \ A=\tfrac{1}{16}\big(1-2\rho-\sqrt{(2\rho+1)^2+8\rho}\big),\ \ \rho=\tfrac{1}{n^2 d}\textstyle\sum_{i,j}\|x_i+y_j\|^2\ \ (\text{causal: }\rho=2/\sqrt d)`,
  taylor2: String.raw`\phi(x)=\big[1,\ x,\ \operatorname{vec}(xx^\top)/\sqrt2\big],\ \ \phi(x)^\top\phi(y)=1+x^\top y+\tfrac12(x^\top y)^2\quad(1+d+d^2\text{ features})`,
  cosformer: String.raw`\phi(x_i)=\big[\operatorname{relu}(x_i)\cos\tfrac{\pi i}{2n},\ \operatorname{relu}(x_i)\sin\tfrac{\pi i}{2n}\big],\ \ \phi(x_i)^\top\phi(y_j)=\operatorname{relu}(x_i)^\top\operatorname{relu}(y_j)\cos\tfrac{\pi(i-j)}{2n}`,
  hedgehog: String.raw`\phi(x)=\big[\operatorname{softmax}(Wx)\,\|\,\operatorname{softmax}(-Wx)\big],\qquad W\in\mathbb{R}^{m\times d}\ \text{fitted}`,
};

/** Why a row of Â has an all-zero normalizer under a map, and what avoids it (stab.zeroRows). */
const ZERO_ROWS: Record<ZeroNormalizerCause, { why: string; fix: string }> = {
  relu: {
    why: 'cosFormer’s ReLU maps every query with no positive coordinate to φ(q_i) = 0 (at small d a coordinate is ≤ 0 half the time, so this is common).',
    fix: 'Raise d, or choose another map.',
  },
  'underflow-eps': {
    why: 'every product φ(q_i)·φ(k_j) underflowed float32 (extreme norms, no ε).',
    fix: 'Lower s or d, or choose the stabilizer “shift + ε”.',
  },
  underflow: {
    why: 'every product φ(q_i)·φ(k_j) underflowed float32 (extreme norms).',
    fix: 'Lower s or d.',
  },
};

export const en = {
  app: {
    title: 'Performer, up close',
    subtitle: 'Exact softmax attention next to Performer (FAVOR+) linear attention, computed live in your browser.',
    backendPending: 'Starting engine…',
    backendWebgpu: (adapter: string) => `WebGPU: ${adapter}`,
    backendCpu: (reason: string) => `CPU fallback: ${reason}`,
    backendLabel: 'Compute backend',
    computing: 'computing…',
    computedIn: (ms: string) => `updated in ${ms}`,
    theme: 'Theme',
    themes: { auto: 'auto', light: 'light', dark: 'dark' },
    notices: 'Messages',
    dismiss: 'Dismiss',
    skip: 'Skip to the comparison',
    footer: 'Everything is computed locally in your browser; nothing is sent anywhere.',
    language: 'Language',
    documentTitle: 'Performer, up close — softmax vs FAVOR+ linear attention',
    embedUnknown: 'Unknown panel.',
  },
  cite: {
    heading: 'Sources',
    intro: 'The math and the experiments follow these texts:',
    sep: ', ',
    aboutSep: ' — ',
    end: '.',
    items: {
      su: {
        who: 'Su Jianlin (苏剑林)',
        where: 'Scientific Spaces (科学空间)',
        about: 'on Performer and linear attention: eˣ vs 1 + elu, low rank, sparsity, the local-truncation experiment',
      },
      blog: {
        who: 'Krzysztof Choromanski and Lucy Colwell',
        where: 'Google AI Blog, October 2020',
        about: 'the FAVOR+ mechanism, positive orthogonal random features, prefix sums for causal attention',
      },
      paper: {
        who: 'Krzysztof Choromanski et al.',
        where: 'ICLR 2021',
        about: 'the paper; Lemma 2 gives the error of positive and trigonometric features',
      },
      katharopoulos: {
        who: 'Angelos Katharopoulos et al.',
        where: 'ICML 2020',
        about: 'linear attention with the 1 + elu feature map',
      },
      shen: {
        who: 'Zhuoran Shen et al.',
        where: 'WACV 2021',
        about: 'efficient attention, the double softmax',
      },
      oprf: {
        who: 'Valerii Likhosherstov et al.',
        where: 'NeurIPS 2022',
        about: 'FAVOR++: optimal positive random features, positive and bounded, with the variance-minimizing A',
      },
      simplex: {
        who: 'Isaac Reid et al.',
        where: 'ICML 2023',
        about: 'simplex random features: directions coupled as a rotated simplex',
      },
      based: {
        who: 'Simran Arora et al.',
        where: 'ICML 2024',
        about: 'Based: the second-order Taylor feature map 1 + x + x²/2',
      },
      cosformer: {
        who: 'Zhen Qin et al.',
        where: 'ICLR 2022',
        about: 'cosFormer: ReLU features re-weighted by cos(π(i − j)/2M)',
      },
      hedgehog: {
        who: 'Michael Zhang et al.',
        where: 'ICLR 2024',
        about: 'Hedgehog: a learned feature map [softmax(Wx) | softmax(−Wx)] fitted to mimic softmax attention',
      },
    },
  },
  notices: {
    rejected: (source: 'url' | 'control', key: string, raw: string, reason: RejectReason) =>
      `${source === 'url' ? 'Ignored URL parameter' : 'Ignored value for'} ${key} = “${raw}”: ${REASONS[reason]} — ${ruleText(key)}. The previous value is kept.`,
    clamped: (key: ParamKey, raw: string, to: number) =>
      `${PARAM_NAMES[key]} = ${raw} is outside the allowed range (${ruleText(key).replace(/^must be /, '')}); using ${fmt(to)}.`,
    backendChanged: (why: string) => `The compute backend changed: ${why}.`,
    langUnavailable: (name: string) =>
      `${name} could not be loaded (is the page offline?); the page stays in the language it had.`,
  },
  errors: {
    title: 'The last computation failed; the previous result stays on screen.',
    codes: {
      'non-finite-result':
        'The computation overflowed to non-finite values — typical of trigonometric features at large norms (exp(‖x‖²/2) explodes, row sums can reach 0).',
      'exceeds-limit': 'Too large: past a limit of this app or of this device.',
      'invalid-size': 'Invalid size.',
      'non-finite-input': 'The inputs contain NaN or infinity.',
      'shape-mismatch': 'Matrices of incompatible shapes.',
      'device-lost': 'The GPU device was lost; the engine is recovering.',
      'gpu-validation': 'The GPU rejected the work (validation or out of memory).',
      cancelled: 'Cancelled.',
      internal: 'Unexpected engine failure.',
      'hedgehog-not-fitted':
        'The Hedgehog map has no fitted W (its training was cancelled or failed): press “Train” in the feature-map panel.',
    } as Record<string, string>,
    retry: 'Try again',
    panelCrashed: (panel: string) =>
      `The “${panel}” panel hit an error while drawing. The rest of the page still works.`,
    analysisFailed: 'This analysis failed:',
    analysisNotComputed: 'Not computed for these parameters:',
  },
  controls: {
    heading: 'Experiment',
    n: 'Sequence length n',
    nHelp: 'log scale; type any n from 1 to 65,536',
    d: 'Head dimension d',
    m: 'Random features m',
    mHelp: (mp: string) => `feature dimension m′ = ${mp}`,
    typed: (what: string) => `${what} (type a value)`,
    typedRange: (what: string, min: number, max: number) => `${what} (${min}–${max}, type a value)`,
    featureMap: 'Feature map φ',
    projection: 'Projection W',
    causal: 'Causal (decoder) mask',
    seed: 'Input seed',
    featureSeed: (s: number) => `feature seed ${s}`,
    redraw: 'Redraw features',
    redrawHelp: 'new random projection W; Q, K, V stay',
    input: 'Inputs',
    scale: 'q/k norm scale s',
    scaleHelp: 'std of q, k entries; large s concentrates softmax and breaks FAVOR+',
    structuredHint: (s: number) =>
      `clustered and local inputs only give peaked attention once s is large enough (about ${s}); below that they look as uniform as Gaussian ones`,
    structuredAction: (s: number) => `use s = ${s}`,
    reset: 'Reset all',
    mapNames: MAP_NAMES,
    mapChoices: MAP_CHOICES,
    projNames: PROJ_NAMES,
    projChoices: PROJ_CHOICES,
    inputNames: INPUT_NAMES,
    noProjection: 'no projection for this map',
  },
  names: { maps: MAP_SHORT, projections: PROJ_SHORT, exact: 'softmax (exact)', mapTex: MAP_TEX },
  charts: {
    tableSummary: (what: string) => `Data table: ${what}`,
    tableTruncated: (shown: number, total: number) => `Showing ${fmtInt(shown)} of ${fmtInt(total)} rows.`,
    series: 'series',
    low: 'low',
    high: 'high',
    bin: 'bin',
    keyAxis: 'key j',
    queryAxis: 'query i',
    queryRows: 'query rows i',
    keyCols: 'key columns j',
    meanValue: 'mean value',
    blockMean: (b: number) => `(mean of a ${b}×${b} block)`,
    heatmapAria: (title: string, n: number, cells: number, block: number) =>
      `${title}: ${fmtInt(n)}×${fmtInt(n)} attention matrix shown as ${cells}×${cells} cells${block > 1 ? `, each the mean of ${block}×${block} entries` : ''}. Arrow keys move the highlighted query row, Enter pins it.`,
    heatmapTable: (title: string) => `${title}, block means (at most 16×16)`,
    scaleModes: { linear: 'linear scale', log: 'log scale' },
  },
  analysis: {
    running: (label?: string) => `Computing${label ? ` (${label})` : ''}…`,
    cancel: 'Cancel',
    run: 'Run',
    rerun: 'Run again',
    cancelled: 'Cancelled. The chart shows the last finished run, if any.',
    stale: 'Parameters changed; showing the previous run until the new one finishes.',
    waiting: 'Waiting for the first result…',
    took: (ms: string) => `took ${ms}`,
    refining: (label?: string) => `Preview on fewer samples; refining${label ? ` (${label})` : ''}…`,
    coarseOnly: 'The chart shows a preview on fewer samples, not the full analysis.',
    computedOn: (backend: 'cpu' | 'webgpu'): string => (backend === 'webgpu' ? 'on WebGPU' : 'on the CPU'),
  },
  metrics: {
    relErrorA: 'error of A',
    relErrorAHint: '‖Â − A‖_F / ‖A‖_F',
    relErrorOut: 'error of output',
    relErrorOutHint: '‖out − out_exact‖ / ‖out_exact‖',
    meanKL: 'mean row KL',
    meanKLHint: 'mean over rows of KL(A_i ‖ Â_i), nats',
    entropyExact: 'entropy, softmax',
    entropyPerformer: 'entropy, linear',
    entropyPerformerOf: (map: string) => `entropy, linear (${map})`,
    entropyHint: 'mean normalized row entropy H/log(#keys); 1 = average pooling',
    backend: 'backend',
    time: 'compute time',
  },
  main: {
    title: 'Exact softmax attention vs its linear approximation',
    lead: 'Both matrices are computed from the same Q, K, V. The Performer never forms Â: it multiplies φ(Q)(φ(K)ᵀV) in O(n·m′·d). Here Â is built explicitly only to show it.',
    formula: String.raw`A=\operatorname{softmax}\!\Big(\tfrac{QK^\top}{\sqrt d}\Big),\qquad \hat A_{ij}=\frac{\phi(q_i)^\top\phi(k_j)}{\sum_{l}\phi(q_i)^\top\phi(k_l)},\qquad \widehat{\text{out}} = D^{-1}\phi(Q)\big(\phi(K)^\top V\big)`,
    exact: 'Exact A (softmax)',
    approx: (map: string) => `Â (${map})`,
    diff: '|A − Â|',
    heatmapsTitle: (exact: string, approx: string, diff: string) => `${exact}, ${approx} and ${diff}`,
    colour: 'attention weight (shared scale)',
    colourClipped: 'attention weight (shared scale; top 0.5% drawn in the top colour)',
    colourNegative: 'negative entry (trig features)',
    scaleLinear: 'linear colours',
    scaleLog: 'log colours (4 decades)',
    blockNote: (b: number, cells: number) =>
      `n is above 512: each of the ${cells}×${cells} cells shows the mean of a ${b}×${b} block of entries (block means).`,
    fullRes: 'Full resolution: one cell per entry.',
    noView: (limit: string, backend: string) =>
      `Heatmaps and per-row statistics need the full n×n matrices, which are requested up to n = ${limit} on ${backend}. Above that only the outputs are compared (in linear time); the row chart below still shows one full row.`,
    rowTitle: (i: number, pinned: boolean) => `Query row i = ${fmtInt(i)}${pinned ? ' (pinned)' : ''}`,
    rowCausal: 'j = i: the mask drops every key after it',
    rowCausalShort: 'j = i',
    rowHint:
      'Hover a heatmap row to preview it; click to pin (Enter with the keyboard). Click the pinned row again to unpin.',
    rowHover: (i: number, b: number) =>
      `Previewing rows ${fmtInt(i)}–${fmtInt(i + b - 1)} (block means); click to pin and fetch the full row.`,
    unpin: 'Unpin',
    rowX: 'key j',
    rowY: 'attention weight',
    rowExact: 'softmax A_i',
    rowApprox: (map: string) => `${map} Â_i`,
    rowTable: (i: number) => `attention row ${i}`,
    rowDecimated: (k: number) => `Long row: each point is the maximum of ${fmtInt(k)} consecutive keys.`,
    waiting: 'Waiting for the engine…',
    onWebgpu: 'WebGPU',
    onCpu: 'the CPU fallback',
    resultParams: (n: number, d: number, m: number, map: string, s: number, causal: boolean) =>
      `n = ${fmtInt(n)}, d = ${d}, m = ${m}, φ = ${map}, s = ${s}${causal ? ', causal' : ''}`,
  },
  error: {
    title: '1 · How large is the error, and what drives it?',
    lead: 'FAVOR+ is unbiased for every entry of exp(QKᵀ/√d), but its variance grows like exp(‖x+y‖²): with the norms of q and k, and hence with d for Gaussian inputs — not with n. Orthogonal projections lower it; trig features, whose weights can be negative, blow up where the exact entries are tiny.',
    formula: String.raw`\begin{gathered}\operatorname{MSE}_{+}=\tfrac1m\,e^{\|x+y\|^2}\,\mathrm{SM}^2(x,y)\big(1-e^{-\|x+y\|^2}\big) \\ \operatorname{MSE}_{\mathrm{trig}}=\tfrac{1}{2m}\,e^{\|x+y\|^2}\,\mathrm{SM}^{-2}(x,y)\big(1-e^{-\|x-y\|^2}\big)^2\end{gathered}`,
    formulaNote:
      'Lemma 2 of the Performer paper, for one entry SM(x, y) = exp(x·y), with iid ω ~ N(0, I) and inputs x = q/⁴√d, y = k/⁴√d.',
    resultOf: (params: string) =>
      `The first three numbers are of the last result computed (${params}), not of the current parameters: their computation has not run (its status is shown above).`,
    resultNone: 'The first three numbers are not computed for the current parameters (the status is shown above).',
    sweepTitle: 'Error of A vs number of features m',
    sweepNote: (seeds: number, rows: number, n: number) =>
      `Mean over ${seeds} feature seeds (band: min–max), ${rows} query rows against n′ = ${fmtInt(n)} keys; dashed lines are iid projections. Dotted: Lemma 2’s second moments carried through the row normalization to first order (iid features) — an RMS over draws, so heavy tails keep it above the typical run when errors are large. Ring: the current computation.`,
    xM: 'random features m',
    show: 'Show',
    showBoth: 'both',
    showOrth: 'orthogonal',
    showIid: 'iid',
    yErr: 'rel. Frobenius error of A',
    current: 'current',
    theory: (map: string) => `${map}, theory (iid)`,
    series: (map: string, proj: string) => `${map}, ${proj}`,
    normTitle: 'Error vs norm scale s',
    normEntropyTitle: 'Entropy of A and of the Performer’s Â vs norm scale s',
    normNote: (m: number, seeds: number) =>
      `m = ${m}, ${seeds} seeds, current projection. Where FAVOR+ is accurate (small s), softmax is nearly uniform; once softmax concentrates, the estimator’s relative error explodes. Trig features overtake positive ones as s grows.`,
    xScale: 'norm scale s (std of q, k entries)',
    yEntropy: 'mean normalized row entropy',
    entropyExact: 'softmax A',
    entropyPerf: 'positive Â',
    dTitle: 'Error vs head dimension d',
    dNote: (s: number, m: number) =>
      `Positive features, s = ${s}, m = ${m}: at a fixed entry scale, ‖x+y‖² ≈ 2√d·s² grows with d, and so does the error — until Â misses A altogether and the error levels off near 1.`,
    guidesOff: (names: readonly string[]) => `Off the chart (their values are in the data table): ${names.join('; ')}.`,
    saturatedM: (s: number, lo: string, hi: string, canLower: boolean) =>
      `At s = ${s} the positive features’ error stays between ${lo} and ${hi} at every m: here the norms set it, not m (Lemma 2’s factor exp(‖x+y‖²)).` +
      (canLower ? ' Lower s to about 0.5 to see it fall like 1/√m.' : ''),
    saturatedD: (s: number, first: string, d0: number, canLower: boolean) =>
      `At s = ${s} the error is already ${first} at d = ${d0} and stays near 1: saturated.` +
      (canLower ? ' Lower s to about 0.5 to see it grow with d.' : ''),
    xD: 'head dimension d',
    blowTitle: 'Per-entry relative error vs the exact entry',
    blowNote:
      'Median (band 10–90%) of |Â_ij − A_ij| / A_ij in bins of A_ij. Positive features keep the relative error bounded as A_ij → 0; trig features do not.',
    blowSmallest: (trig: string, pos: string) =>
      `At the smallest exact entries the median relative error is ${trig} for trig features and ${pos} for positive ones.`,
    xEntry: 'exact entry A_ij',
    yRel: '|Â_ij − A_ij| / A_ij',
    tableSweep: 'error vs m, mean and range over seeds',
    tableNorm: 'error vs norm scale',
    tableEntropy: 'entropy vs norm scale',
    tableD: 'error vs d',
    tableBlow: 'relative error by exact entry size',
  },
  sparsity: {
    title: '2 · Sparsity: softmax can focus; 1 + elu spreads out',
    lead: 'eˣ stretches score gaps, so softmax rows can concentrate on a few keys. 1 + elu, eˣ’s first-order expansion, lacks that amplification: its rows stay close to average pooling and approach it as n grows (Su Jianlin, “Performer: linearizing attention complexity with random projections”, Scientific Spaces, kexue.fm/archives/8338). The Performer’s positive features estimate eˣ itself, so its Â follows softmax’s concentration — blurred by sampling noise, not flattened — unless a stabilizer constant floods it (see below). Normalized entropy H/log(#keys) measures it: 1 is average pooling, 0 a single key.',
    formula: String.raw`\bar H=\frac1n\sum_i\frac{-\sum_j A_{ij}\log A_{ij}}{\log(\#\text{keys of } i)},\qquad \text{top-}k\text{ mass}_i=\sum_{j\in\text{top }k}A_{ij}`,
    histTitle: 'Row entropy distribution',
    histNote: (rows: number, n: number) => `${fmtInt(rows)} evenly spaced query rows of n = ${fmtInt(n)}.`,
    histZoom: (lo: number) => `The axis starts at ${lo}: every row is at least that flat.`,
    xEntropy: 'normalized row entropy',
    yShare: 'share of rows',
    topTitle: 'Top-k mass (mean over rows)',
    xK: 'k keys',
    yMass: 'attention mass on the top k keys',
    nTitle: 'Mean normalized entropy vs n',
    nNote: (rows: number) =>
      `${rows} query rows per n (same seeds; Gaussian inputs are prefixes of one draw). Current n marked.`,
    xN: 'sequence length n',
    localTitle: 'Su’s experiment: truncate linear attention to a local window',
    localNote: (map: string) =>
      `Keep only |i − j| ≤ w of Â (${map}), renormalize each row, compare with exact A. Truncation makes it sparse — no longer linear-time, a demonstration only. The dotted curve truncates the exact A itself: what the window alone discards. Truncation helps a map that spreads out where softmax is local — 1 + elu on Local inputs, Su’s case — but hardly the Performer’s positive features, which already follow softmax’s locality; on dense Gaussian inputs it can only hurt.`,
    xW: 'keys in the window: 2w + 1 (causal: w + 1)',
    yErrA: 'rel. error vs exact A',
    truncApprox: (map: string) => `truncated ${map} Â`,
    truncExact: 'truncated exact A',
    truncOut: (map: string) => `output error, truncated ${map}`,
    fullLine: 'no truncation',
    exactFull: 'At the full window the truncated exact A is A itself: its error is 0, below any log axis.',
    localLimit: (limit: string) => `The local-truncation experiment needs the dense n×n matrices: n ≤ ${limit}.`,
    tableHist: 'normalized entropy histogram',
    tableTop: 'top-k mass',
    tableN: 'entropy vs n',
    tableLocal: 'error vs window',
    exact: 'softmax (exact)',
    topMass: (k: number, who: string) => `top-${k} mass, ${who}`,
    trigNote:
      'Trig features make Â partly negative, so its rows are not probability distributions: “entropy” counts only positive entries and top-k mass can exceed 1. That instability is the point of the comparison.',
    perf: (map: string) => `${map} (current)`,
    elu: '1+elu',
    entropyElu: 'entropy, 1+elu',
  },
  rank: {
    title: '3 · Rank: what a low-rank factorization cannot hold',
    lead: 'QKᵀ has rank ≤ d, yet exponentiating it entrywise can raise the rank of A up to n. Â = D⁻¹φ(Q)φ(K)ᵀ has rank ≤ m′ whatever n is — so linear attention needs m′ larger than d (Performer used m = 4d). Causal masking changes the picture: a lower-triangular matrix with a nonzero diagonal is invertible, for A and Â alike.',
    formula: String.raw`\operatorname{rank}(QK^\top)\le d,\qquad \operatorname{rank}\big(e^{QK^\top/\sqrt d}\big)\le n,\qquad \operatorname{rank}(\hat A)=\operatorname{rank}\big(D^{-1}\phi(Q)\phi(K)^\top\big)\le m',\qquad r_{\text{eff}}=\exp\Big(-\sum_i p_i\log p_i\Big),\quad p_i=\frac{\sigma_i}{\sum_j\sigma_j}`,
    spectrumTitle: 'Singular values (normalized by σ₁)',
    xIndex: 'index i',
    ySigma: 'σ_i / σ₁',
    exact: 'exact A',
    approx: (map: string) => `Â (${map})`,
    scores: 'QKᵀ/√d (unmasked)',
    lineD: (d: number) => `d = ${d}`,
    lineM: (m: number) => `m′ = ${m}`,
    tol: 'Tolerance τ',
    tolHelp: 'numerical rank = #{σ_i > τ·σ₁}; f32 resolves ≈ 6·10⁻⁸, f64 ≈ 10⁻¹⁶',
    rankExact: 'numerical rank of A',
    rankApprox: 'numerical rank of Â',
    rankScores: 'numerical rank of QKᵀ',
    effExact: 'effective rank of A',
    effApprox: 'effective rank of Â',
    triangular: (a: string, b: string) =>
      `Causal: A and Â are lower triangular with smallest diagonal entries ${a} and ${b} > 0, so both are invertible (full rank) in exact arithmetic; their smallest singular values can still fall below τ.`,
    limit: (limit: string, n: string) =>
      `Spectra need an n×n singular value decomposition (O(n³), computed in f64 on the CPU); they are offered up to n = ${limit}. Current n = ${n}: lower n to see them.`,
    sizeNote: (n: number) =>
      `Computed in f64 on the full ${fmtInt(n)}×${fmtInt(n)} matrices (Â and QKᵀ through their low-rank factors; on a GPU, A and Â are formed there in f32, which moves σ by ≲ 10⁻⁶·σ₁). Singular values that are exactly zero — beyond m′ for Â, beyond d for QKᵀ — cannot appear on a log axis; values below 10⁻¹⁷ (f64 rounding) are drawn at 10⁻¹⁷.`,
    causalToggle: 'Causal mask (same switch as in the controls)',
    tableSpectra: 'singular values',
  },
  features: {
    title: '4 · Feature maps: why eˣ, and what the Performer really adds',
    lead: 'Linear attention replaces exp(q·k) by φ(q)·φ(k). 1 + elu(x) is eˣ’s first-order Taylor expansion at 0 (kept positive), ReLU is a different kernel altogether, and FAVOR+ is an unbiased random-feature estimate of exp(q·k) itself.',
    curvesTitle: 'The scalar curves',
    xX: 'x',
    yF: 'f(x)',
    tangent: 'tangent of eˣ at 0: 1 + x',
    rowsTitle: (i: number) => `Query row i = ${fmtInt(i)} under every map, against softmax`,
    rowsNote: (m: number, proj: string) =>
      `Same Q, K and the same W (m = ${m}, ${proj}) for every map that uses a projection.`,
    mapLegend: 'the map’s Â_i (colour of the map)',
    rowStats: (err: string, kl: string, h: string) => `error ${err} · KL ${kl} · entropy ${h}`,
    rowOwnScale: 'Own y-axis: this Â leaves [0, 1].',
    lambdaTitle: 'λ-invariance: a per-query factor cancels',
    lambdaText:
      'Multiplying φ(q_i) by any λ(q_i) > 0 leaves Â unchanged, because the same factor appears in the numerator and the row sum. So FAVOR+’s factor exp(−‖q‖²/2) can be dropped for queries — exactly. The exp(−‖k‖²/2) of keys only drops approximately, when key norms barely vary.',
    lambdaFormula: String.raw`\hat A_{ij}=\frac{\big(\lambda(q_i)\,\phi(q_i)\big)^{\!\top}\phi(k_j)}{\sum_l\big(\lambda(q_i)\,\phi(q_i)\big)^{\!\top}\phi(k_l)}=\frac{\phi(q_i)^\top\phi(k_j)}{\sum_l\phi(q_i)^\top\phi(k_l)}`,
    lambdaMeasured: (q: string, both: string, spread: string) =>
      `Measured on this row: dropping the query factor changes Â_i by ${q} (rounding); dropping both factors (the eˣ map) changes it by ${both}, with key norms ‖y_j‖² varying by ${spread} (coefficient of variation).`,
    foldTitle: 'Folding W into the projection',
    foldText:
      'With the query factor gone, φ(q) = exp(Wq): a d→m linear map followed by the activation eˣ. The q, k projections of a transformer are linear layers already, so W can be folded into them — widen the key size from d to m and use eˣ as the activation. Then W is learned rather than random: a larger space than the Performer’s, with the same rank limit m.',
    foldFormula: String.raw`\tilde q=e^{W\,W_q h}=e^{W' h},\qquad W'=W\,W_q\in\mathbb R^{m\times d_{\text{model}}}`,
    tableCurves: 'scalar curves',
    tableRows: 'attention rows by map',
  },
  embed: {
    poweredBy: 'Performer, up close',
  },
  embedding: {
    open: 'Embed',
    openHint: (panel: string) => `Embed “${panel}” in a web page`,
    openHintAll: 'Embed a figure of this page in a web page',
    dialogTitle: 'Embed a figure in your page',
    dialogLead:
      'Paste this HTML into your page. The frame loads when a reader scrolls near it, computes only while it is on screen, and sizes itself to its content; the script accepts size messages only from the explainer’s origin. The figure starts with the settings you see now.',
    panel: 'Panel',
    figure: 'Figure',
    wholePanel: 'The whole panel (every figure, with its text)',
    figureHint: 'One figure alone: without the panel’s text and other figures; only its analysis runs.',
    controls: 'Controls shown with the figure',
    controlsHint: 'none ticked: the figure alone',
    frameId: 'Frame id',
    frameIdHint: 'names the frame in its messages; 1–64 letters, digits, - or _',
    frameIdInvalid: 'A frame id is 1–64 letters, digits, - or _; the snippet below still uses the last valid one.',
    snippet: 'HTML to paste',
    copy: 'Copy',
    copied: 'Copied to the clipboard.',
    copyFallback: 'The snippet is selected: press Ctrl+C (⌘C on a Mac) to copy it.',
    preview: 'Open this embed on its own',
    close: 'Close',
    controlNames: {
      n: 'sequence length n',
      d: 'head dimension d',
      m: 'random features m',
      scale: 'norm scale s',
      map: 'feature map φ',
      proj: 'projection W',
      input: 'inputs',
      causal: 'causal mask',
      seed: 'input seed',
    } as Record<string, string>,
    panelNames: {
      main: 'Exact vs linear attention',
      error: 'Approximation error',
      sparsity: 'Sparsity',
      rank: 'Rank',
      'feature-maps': 'Feature maps',
      speed: 'Speed',
      beyond: 'Beyond the Performer',
      training: 'Learning: train a tiny transformer',
    } as Record<string, string>,
    frameTitle: (panel: string) => `Performer, up close: ${panel} (interactive figure)`,
    strip: 'Figure controls',
    scaleShort: 's',
    credit: 'Performer, up close',
    openFull: 'open the full explainer with these settings',
    paused: 'Paused while off screen.',
    computing: 'computing…',
    unknownTitle: 'No such figure',
    unknown: (raw: string, valid: string) => `There is no panel “${raw}” to embed. The panels are: ${valid}.`,
    unknownPick: 'Show one of them:',
    allHidden: (list: string) => `Every panel is hidden by the address (hide=${list}), so there is nothing to show.`,
    showAll: 'Show all panels',
  },
  export: {
    png: 'PNG',
    svg: 'SVG',
    csv: 'CSV',
    toolbar: (title: string) => `Download ${title}`,
    pngAria: (title: string) => `Download PNG of ${title}`,
    svgAria: (title: string) => `Download SVG of ${title}`,
    csvAria: (title: string) => `Download CSV of the data of ${title}`,
    failed: (message: string) => `Export failed: ${message}`,
    caption: (p: ExportCaption) =>
      `Performer, up close · n = ${fmtInt(p.n)}, d = ${fmtInt(p.d)}, m = ${fmtInt(p.m)}, φ: ${p.map}, s = ${fmt(p.scale)}${p.causal ? ', causal' : ''}`,
    json: 'Download state (JSON)',
    jsonBusy: 'Preparing JSON…',
    jsonHint: 'Parameters, Q, K, V, W, exact A, Â, both outputs and the numbers above, as one JSON file.',
    jsonWaiting: 'Available once the first result is on screen.',
    jsonLimit: (limit: string, n: string) =>
      `The JSON holds dense n×n matrices, so it is offered for n ≤ ${limit} (n is ${n}); lower n to export.`,
  },
  upload: {
    heading: 'Your own Q and K',
    intro:
      'Load Q and K (and optionally V) as .npy (float32 or float64, C order, shape [n, d]) or CSV. Every panel then computes on them; nothing leaves your browser.',
    drop: 'Drop .npy or CSV files here (name them q, k, v — or drop them one by one on their slot)',
    dropActive: 'Release to load',
    slotNames: { q: 'Q', k: 'K', v: 'V (optional)' } as Record<UploadSlot, string>,
    choose: (slot: string) => `Choose ${slot}…`,
    chooseAria: (slot: string) => `Choose a .npy or CSV file for ${slot}`,
    empty: 'no file',
    vDefault: 'seeded Gaussian (from the input seed)',
    fileInfo: (name: string, rows: number, cols: number, kind: string) =>
      `${name} · ${fmtInt(rows)} × ${fmtInt(cols)} · ${kind}`,
    kinds: { float32: '.npy float32', float64: '.npy float64 (rounded to float32)', text: 'text' } as Record<
      'float32' | 'float64' | 'text',
      string
    >,
    notes: {
      bom: 'byte-order mark ignored',
      'header-row': 'header row skipped',
      comments: '# comment lines skipped',
      float64: 'float64 rounded to float32',
    } as Record<UploadNote, string>,
    waiting: (slots: string) =>
      `Waiting for ${slots}: the panels keep computing on the current inputs until it is there.`,
    active: (n: number, d: number, rms: string) =>
      `In use: your Q, K with n = ${fmtInt(n)}, d = ${fmtInt(d)} (RMS of the entries ${rms}).`,
    remove: 'Remove uploaded data',
    rejected: (file: string, why: string) => `Not loaded: ${file} — ${why}. Everything on the page is unchanged.`,
    dismiss: 'Dismiss',
    tooMany: 'Drop at most three files (Q, K and V).',
    lockedHelp: 'follows the uploaded files (remove them to change it)',
    lockedHelpTrained:
      'follows the trained head: the model’s sequence length and head dimension (choose another input to change it)',
    scaleLocked: (rms: string) => `the uploaded Q, K are used as they are; their entries’ RMS is ${rms}`,
    scaleLockedTrained: (rms: string) =>
      `the head’s Q, K are used as the model computed them; their entries’ RMS is ${rms}`,
    notInLink:
      'This link was made with uploaded Q and K, and uploaded data is never part of a link. Showing the generated inputs instead — load the files again to see them.',
    locked: (key: string, trained = false) =>
      trained
        ? `${PARAM_NAMES[key as ParamKey] ?? key} follows the trained head; choose another input to change it.`
        : `${PARAM_NAMES[key as ParamKey] ?? key} follows the uploaded files; remove the uploaded data to change it.`,
    problem: (p: UploadProblem): string => {
      switch (p.code) {
        case 'empty':
          return 'the file is empty (no numbers in it)';
        case 'file-too-large':
          return `the file is ${mib(p.bytes)}, more than the ${mib(p.max)} allowed`;
        case 'bad-magic':
          return `this is not an .npy file: it should start with “\\x93NUMPY” but starts with “${p.found}”${p.found.startsWith('PK') ? ' (an .npz archive? save one array per file with np.save)' : ''}`;
        case 'truncated-header':
          return `the .npy header is cut off: the file has ${fmtInt(p.bytes)} bytes, the header needs ${fmtInt(p.needed)} (truncated download?)`;
        case 'bad-header':
          return `the .npy header cannot be read: ${p.detail}`;
        case 'unsupported-version':
          return `.npy format version ${p.version} is not supported (1.0, 2.0 and 3.0 are)`;
        case 'unsupported-dtype':
          return `the data type ${p.dtype} is not supported: use float32 or float64 (e.g. np.save(f, x.astype(np.float32)))`;
        case 'big-endian':
          return `the data is big-endian (${p.dtype}): save it little-endian, e.g. x.astype('<f4')`;
        case 'fortran-order':
          return 'the array is in Fortran (column-major) order: save np.ascontiguousarray(x) instead';
        case 'unaligned':
          return `the data starts at byte ${fmtInt(p.offset)}, not aligned to its element size (the header is not padded as np.save pads it)`;
        case 'not-2d':
          return `the array has shape (${p.shape.join(', ')}), but Q, K and V must be 2-D: [n, d]`;
        case 'zero-size':
          return `the array has shape (${p.shape.join(', ')}): n and d must be at least 1`;
        case 'data-size-mismatch':
          return `the header says shape (${p.shape.join(', ')}), which needs ${fmtInt(p.expectedBytes)} data bytes, but the file has ${fmtInt(p.actualBytes)} (truncated, or the shape is wrong)`;
        case 'too-many-rows':
          return `n = ${fmtInt(p.n)} rows is more than the ${fmtInt(p.max)} allowed`;
        case 'too-many-cols':
          return `d = ${fmtInt(p.d)} columns is more than the ${fmtInt(p.max)} allowed`;
        case 'too-many-elements':
          return `n × d = ${fmtInt(p.count)} entries is more than the ${fmtInt(p.max)} allowed`;
        case 'non-finite':
          return `entry [${p.row}, ${p.col}] is ${p.value}: every entry must be a finite number`;
        case 'float32-overflow':
          return `entry [${p.row}, ${p.col}] is too large for float32 (|x| > 3.4e38)`;
        case 'not-text':
          return 'this is neither an .npy file nor UTF-8 text (CSV)';
        case 'csv-ragged':
          return `line ${fmtInt(p.line)} has ${p.got} values, but the rows before it have ${p.expected}`;
        case 'csv-non-numeric':
          return `line ${fmtInt(p.line)}, column ${p.col}: “${p.cell}” is not a number${p.cell === '' ? ' (empty cell)' : ''}`;
        case 'qk-shape-mismatch':
          return `Q is ${p.q[0]} × ${p.q[1]} but K is ${p.k[0]} × ${p.k[1]}: they must have the same n and d`;
        case 'v-shape-mismatch':
          return `V is ${p.v[0]} × ${p.v[1]} but must be n × d = ${p.expected[0]} × ${p.expected[1]}`;
        case 'read-failed':
          return `the file could not be read (${p.detail})`;
      }
    },
  },
  stab: {
    label: 'Stabilizer of the eˣ features',
    names: { shift: 'max shift (exact estimator)', ref: 'shift + ε = 10⁻⁶ (reference)' } as Record<Stabilizer, string>,
    help: 'Subtracting a maximum cancels in Â. Adding ε = 10⁻⁶ after it, as the reference implementation does, does not: at large norms it floods the tiny true features and flattens Â.',
    zeroRows: (k: number, n: number, cause: ZeroNormalizerCause) =>
      `${fmtInt(k)} of ${fmtInt(n)} query rows have an all-zero normalizer: ${ZERO_ROWS[cause].why} Those rows of Â and of the output are shown as 0, not as a distribution. ${ZERO_ROWS[cause].fix}`,
    figureTitle: 'Entropy of the Performer’s Â vs norm scale: with and without ε',
    elsewhere:
      'How the reference code’s ε = 10⁻⁶ floods the Performer’s Â at large norms — the entropy of Â against s with and without ε — is drawn in panel 1, beside the error against s: ',
    elsewhereEnd: '.',
    flattenNote:
      'The reference code adds ε = 10⁻⁶ to every positive feature after the max shift; at large norms the true key features (≈ e⁻²⁴ at s = 2, d = 16) fall far below ε, so ε outweighs them all and Â drifts to average pooling (dashed), while the estimator itself (solid) keeps concentrating with softmax.',
    seriesShift: 'positive Â, max shift (the estimator)',
    seriesRef: 'positive Â, + ε = 10⁻⁶ (reference code)',
    errorRef: 'positive, + ε = 10⁻⁶ (reference code)',
    errorShift: 'positive, max shift (the estimator)',
    table: 'entropy of Â vs norm scale, by stabilizer',
    causalNote:
      'Causal mode with shift + ε: the reference code subtracts the maximum over all keys, future ones included, before adding ε; ε does not cancel, so that maximum would let later keys change earlier rows. Here the causal key shift is key 0’s maximum, the one key every row sees.',
  },
  present: {
    deck: 'Performer, up close — a lecture',
    counter: (k: number, n: number) => `${k} / ${n}`,
    announce: (k: number, n: number, title: string) => `Slide ${k} of ${n}: ${title}`,
    nav: 'Slides',
    prev: 'Previous slide',
    next: 'Next slide',
    exit: 'Leave lecture mode',
    exitShort: 'Exit',
    keysButton: 'Keys (?)',
    keysTitle: 'Keys in lecture mode',
    keysClose: 'Close',
    keyCol: 'Key',
    actionCol: 'Action',
    keyActions: {
      next: 'next slide',
      prev: 'previous slide',
      first: 'first slide',
      last: 'last slide',
      help: 'show or hide this list',
      exit: 'leave lecture mode (back to the page)',
      enter: 'enter lecture mode (on the page)',
    },
    keysNote: 'Keys do nothing while you type in a field; on a slider the arrows, Home and End move the slider.',
    enter: 'Present',
    enterHint: 'Lecture mode: full-screen slides (key P)',
    controls: 'Controls of this slide',
    controlNames: {
      n: 'sequence length n',
      d: 'head dimension d',
      m: 'random features m',
      scale: 'norm scale s',
      causal: 'causal (decoder) mask',
      head: 'trained head',
    },
    sourcesLabel: 'Follows',
    sources: {
      blog: 'Choromanski & Colwell, “Rethinking Attention with Performers”, Google AI Blog, Oct 2020',
      paper: 'Choromanski et al., ICLR 2021, arXiv:2009.14794',
      su: 'Su Jianlin (苏剑林), Scientific Spaces (科学空间), kexue.fm/archives/8338',
      katharopoulos: 'Katharopoulos et al., “Transformers are RNNs”, ICML 2020',
      based: 'Arora et al., ICML 2024 (MQAR)',
    },
    waiting: 'Computing…',
    exactTitle: 'Exact attention A (softmax)',
    approxTitle: (map: string) => `Performer Â (${map})`,
    colour: 'attention weight',
    statScores: (n: string, n2: string) => `n = ${n}: ${n2} scores, every one computed and stored`,
    statEntropy: (h: string) => `mean row entropy / log n = ${h} (1 = uniform)`,
    statEntropies: (items: string) => `mean row entropy / log n: ${items}`,
    statError: (e: string, m: number) => `error ‖Â − A‖ / ‖A‖ = ${e} with m = ${m} features`,
    statCausal: (e: string) => `causal: both matrices are lower-triangular; error ${e}`,
    costExact: 'exact: 4n²d',
    costPerformer: 'Performer: 8nmd',
    costX: 'sequence length n',
    costY: 'FLOPs (model)',
    costTable: 'FLOP model vs n',
    costCrossover: (n: string) => `n* ≈ 2m = ${n}`,
    speedRun: (budget: string) => `Run (${budget})`,
    speedRerun: (budget: string) => `Run again (${budget})`,
    speedIdle:
      'The FLOPs, counted: equal at n = 2m′. Press Run to time exact, Performer and dummy attention on this machine, n = 64 and up.',
    speedStat: (cross: string, exact: string, perf: string, backend: string) =>
      `measured crossover ${cross}; exact ${exact} GFLOP/s, Performer ${perf} GFLOP/s at their largest n (${backend})`,
    speedStale: 'd or m changed: run again for these values.',
    costMeasured: (exact: string, perf: string, backend: string) =>
      `measured now at this n (${backend}): exact ${exact}, Performer ${perf}`,
    orthSeries: (proj: string) => `FAVOR+, ${proj}`,
    orthStat: (seeds: number, rows: number, n: number) =>
      `mean over ${seeds} draws of W (band: min–max), ${rows} query rows, n = ${n}`,
    theoryIid: 'theory (Lemma 2, iid)',
    curvesTitle: 'eˣ and its first-order Taylor expansion',
    rowTitle: (i: number) => `Query row i = ${i}`,
    mapStat: (map: string, h: string) => `${map}: entropy ${h}`,
    spectraStat: (rA: string, rHat: string, tol: string) => `numerical rank (τ = ${tol}): A ${rA}, Â ${rHat}`,
    normStat: (m: number, seeds: number) =>
      `m = ${m}, ${seeds} draws of W per point (band: their spread); exact entropy from the same rows`,
    normErrorTitle: 'Error of FAVOR+ vs norm scale s',
    normEntropyTitle: 'Softmax entropy vs norm scale s',
    headOption: (model: string, layer: number, head: number) =>
      `${model === 'mqar' ? 'MQAR recall' : 'Grammar LM'}: layer ${layer + 1}, head ${head + 1}`,
    headStat: (f: HeadStatFacts) =>
      `H(A) = ${f.entropy} nats (uniform: ${f.uniform}) · error at m = ${f.m}: ${f.error} · mean of ${f.draws} draws at m = ${f.ms}: ${f.errors}`,
    steps: {
      quadratic: {
        title: 'Attention compares every query with every key',
        caption:
          'n tokens make n² scores: double the sequence and time and memory grow fourfold. Move n and watch the matrix grow.',
      },
      kernel: {
        title: 'Softmax attention is a kernel',
        caption:
          'Each weight is exp(q·k/√d), normalized over its row: a kernel between scaled queries and keys. Here q and k encode position; raise the norm scale s and every query concentrates on its neighbours.',
      },
      features: {
        title: 'Positive random features',
        caption:
          'FAVOR+ writes the kernel as an average over random directions ω and keeps m of them. Every feature is positive, so Â stays a proper distribution. More features, less noise.',
      },
      orthogonal: {
        title: 'Orthogonal features: same cost, lower error',
        caption:
          'Drawing the ω mutually orthogonal (with Gaussian lengths) keeps the estimate unbiased and lowers its variance for every d. Solid: orthogonal; dashed: iid; dotted: theory.',
      },
      linear: {
        title: 'Associativity makes it linear',
        caption:
          'Multiply φ(K)ᵀV first: an m×d summary of all keys that every query reuses. The cost grows with n, not n²; beyond n ≈ 2m the Performer needs fewer operations.',
      },
      causal: {
        title: 'Causal attention with prefix sums',
        caption:
          'A decoder may only look back. Running sums of φ(k_j)v_jᵀ and φ(k_j) over the keys seen so far give every output with one update per token — still linear.',
      },
      maps: {
        title: 'eˣ versus 1 + elu',
        caption:
          '1 + elu(x) is eˣ’s first-order Taylor expansion. It cannot turn large score gaps into large weights, so its rows stay flat; FAVOR+ estimates eˣ itself and can follow a peaked row.',
      },
      sparsity: {
        title: 'Softmax can focus, 1 + elu spreads out',
        caption:
          'Share of a row’s attention held by its k largest weights. Softmax puts most of it on a few keys; 1 + elu spreads it thin, towards average pooling.',
      },
      rank: {
        title: 'Low rank: at most m for linear attention, up to n for softmax',
        caption:
          'QKᵀ has rank ≤ d and φ(Q)φ(K)ᵀ rank ≤ m, but the elementwise exponential can lift softmax attention to full rank. The singular values show where each spectrum falls off.',
      },
      concentration: {
        title: 'The price of concentration',
        caption:
          'As s grows, softmax concentrates (right: entropy falls) while FAVOR+’s error explodes (left). Where the estimator is accurate, attention is nearly uniform.',
      },
      trained: {
        title: 'A trained head: sharp rows, and more features barely help',
        caption:
          'A head trained on associative recall (MQAR): each query finds its paired key, so its rows are sharp. FAVOR+ on the same Q, K: more features barely lower the error.',
      },
      speed: {
        title: 'What linear attention buys: the blog’s figure, live',
        caption:
          'Time per attention head vs n on this machine, log-log. Exact attention grows as n², the Performer as n, and dummy attention (which just returns V) is the floor any attention pays. Past the crossover the Performer is faster, and the gap widens with every doubling.',
      },
      learning: {
        title: 'What linear attention gives up, learned: associative recall',
        caption:
          'Press Train: a tiny transformer learns key–value recall with softmax attention and with linear attention, same data and seeds. Softmax reaches near-perfect recall; linear attention’s fixed m′ × d state cannot hold every pair, and it stalls.',
      },
    },
  },
  hedgehog: {
    title: 'A learned feature map, fitted here: Hedgehog',
    lead: 'Instead of drawing W at random, learn it: φ(x) = [softmax(Wx) ‖ softmax(−Wx)] (m′ = 2m features, positive and bounded) with W trained so that Â mimics this head’s softmax attention — minimizing the cross-entropy between the rows of A and Â by gradient descent, in your browser.',
    cite: 'M. Zhang, K. Bhatia, H. Kumbong, C. Ré, “The Hedgehog & the Porcupine: Expressive Linear Attentions with Softmax Mimicry”, ICLR 2024',
    lossFormula: String.raw`\mathcal L(W)=-\frac1n\sum_i\sum_j A_{ij}\log\hat A_{ij},\qquad \hat A_{ij}=\frac{\phi(x_i)^\top\phi(y_j)}{\sum_{j'}\phi(x_i)^\top\phi(y_{j'})}`,
    recipe: (steps: number, positions: number) =>
      `Recipe (fixed, so a link reproduces the same W): start from the feature seed’s random projection, ${steps} Adam steps with a cosine learning-rate schedule, on the first ${positions} positions; hand-derived gradients, written out in`,
    recipeEnd: '.',
    train: 'Train',
    retrain: 'Train again',
    cancel: 'Cancel',
    training: (step: number, steps: number) => `Training: step ${step} of ${steps}`,
    evaluating: 'Measuring the fitted map on the fitted and held-out sequences…',
    cancelled: 'Training cancelled. The map stays unfitted until you train it.',
    failed: 'Training failed:',
    idle: 'Not trained for these parameters yet. Select the map “Hedgehog” to train automatically, or press Train.',
    done: (ms: string, steps: number) => `Trained in ${ms} (${steps} steps).`,
    autoNote: 'With map = Hedgehog the comparison above waits for this fit and then shows Â of the fitted map.',
    lossTitle: 'Training loss (cross-entropy of Â against A)',
    lossX: 'step',
    lossY: 'loss',
    lossSeries: 'loss',
    lossTable: 'training loss per step',
    lossFloor: 'floor: mean H(A_i)',
    lossFloorNote: (floor: string, gap: string) =>
      `The loss cannot go below the mean row entropy of A (${floor}); what remains above it is the mean KL(A_i ‖ Â_i) = ${gap} — what one shared W with m′ = 2m features cannot express.`,
    tableTitle: (mp: number) => `Error of A at equal feature dimension m′ = ${mp}`,
    colMap: 'feature map',
    colFitted: (positions: number) => `fitted sequence (${positions} positions)`,
    colHeldOut: 'held-out sequence',
    colKl: 'mean KL, fitted sequence',
    rowHedgehog: 'Hedgehog, fitted W',
    rowInit: 'Hedgehog, initial (random) W',
    rowRandom: (seeds: number) => `FAVOR+ positive random features (mean ± sd over ${seeds} seeds)`,
    heldOutSeed: (seed: number) =>
      `Held-out: a new sequence from the same distribution (same input kind, scale, n, d; input seed ${seed}). It is reported, not promised: a map fitted to one head’s sequence may or may not transfer.`,
    heldOutTail: 'Held-out: the next positions of your uploaded sequence.',
    heldOutNone: 'Held-out: your uploaded sequence is too short to hold out positions beyond the fitted ones.',
    metricFitted: 'rel. error of A, fitted (Hedgehog)',
    metricHeldOut: 'rel. error of A, held-out (Hedgehog)',
    metricRandom: 'rel. error of A, fitted (FAVOR+, same m′)',
    metricLoss: 'final loss',
    metricHint: '‖Â − A‖_F / ‖A‖_F over the fitted positions',
  },
  estimators: {
    oprfNote: (rho: string, a: string) =>
      `FAVOR++ (Likhosherstov et al. 2022) keeps FAVOR+’s positivity and adds A‖ω‖² with A ≤ 0, which bounds every feature; A is chosen to minimize the variance averaged over all query–key pairs. For the current Q, K: ρ = mean ‖x_i + y_j‖²/d = ${rho}, so A = ${a} (A = 0 is FAVOR+). It lowers the mean squared error of each entry, which for FAVOR+ is dominated by rare huge estimates; a single draw of W usually contains none, so at large norms the error of Â need not fall with it.`,
    oprfCausalNote: (rho: string, a: string) =>
      `Causal mode: ρ above averages over all query–key pairs, so A — and with it every feature — would depend on keys after each position, and earlier rows would see the future. The causal variant fixes A before the sequence: ρ = E‖x + y‖²/d = 2/√d for unit-variance q, k (here ${rho}), so A = ${a}. FAVOR++ stays unbiased for every A < 1/4; this A minimizes the variance for unit-variance inputs, not for the current Q, K.`,
    dsCausalNote:
      'Causal mode: the key softmax normalizes each coordinate over all n positions, future ones included, and per-coordinate normalizers do not cancel in Â. The causal variant drops them: key features exp(k_c), with one shift common to all keys and coordinates (it cancels), as performer-pytorch does for causal attention.',
    cosformerNote:
      'cosFormer (Qin et al. 2022) builds the idea of Su’s local-truncation experiment (sparsity panel) into the kernel: instead of cutting Â to a window |i − j| ≤ w, which is no longer linear-time, it multiplies every ReLU score by cos(π(i − j)/2M). By cos(a − b) = cos a cos b + sin a sin b that splits into two linear attentions, with features relu(x_i)·cos θ_i and relu(x_i)·sin θ_i, θ_i = πi/2M — in both modes. With M = n, the paper’s choice, the weight decays smoothly from 1 at i = j to almost 0 at |i − j| = n − 1: a locality prior, not a window.',
    taylorNote:
      '1 + x + x²/2 is eˣ’s second-order Taylor expansion, the next step after 1 + elu: it is positive for every x (its minimum is ½ at x = −1) and, as a kernel 1 + x·y + (x·y)²/2, it has an exact feature map [1, x, vec(x xᵀ)/√2] with 1 + d + d² features (the Based map: Arora et al. 2024).',
    taylorDim: (mp: string) => `second-order Taylor map: 1 + d + d² = ${mp} features`,
    taylorTooLarge: (d: number, mp: string, max: string, dMax: number) =>
      `d = ${d} is too large for the second-order Taylor map: 1 + d + d² = ${mp} features, the limit is ${max} (d ≤ ${dMax}). Lower d or choose another map.`,
  },
  firstscreen: {
    badgeWarming: 'CPU (WebGPU starting…)',
    badgeWarmingTitle:
      'WebGPU is compiling its pipelines; meanwhile the CPU computes the figures. They are recomputed on WebGPU as soon as it is ready.',
    backendName: { webgpu: 'WebGPU', cpu: 'the CPU' } as Record<'webgpu' | 'cpu', string>,
    computingOn: (backend: string) => `Computing on ${backend}…`,
    estimate: (est: string, elapsed: string) => `about ${est} predicted · ${elapsed} so far`,
    elapsed: (elapsed: string) => `${elapsed} so far`,
    longRun: (params: string, est: string, backend: string) =>
      `This run (${params}) is predicted to take about ${est} on ${backend}. The last result stays on screen until it finishes; Cancel stops it.`,
    progressLabel: (est: string) => `elapsed time against the predicted ${est}`,
    cancel: 'Cancel',
    cancelledReverted: (params: string, est: string) =>
      `Cancelled the run for ${params} (predicted about ${est}). The controls are back at the parameters of the result shown.`,
    cancelledNothing: (params: string, est: string) =>
      `Cancelled: nothing has been computed for ${params} (predicted about ${est}).`,
    computeAnyway: 'Compute anyway',
    held: (params: string, est: string, backend: string, shown: boolean) =>
      `Not started: this run (${params}) is predicted to take about ${est} on ${backend}. ${shown ? 'The last result stays on screen.' : 'Nothing has been computed yet.'}`,
    computedOn: (backend: string, ms: string) => `computed on ${backend} in ${ms}`,
    firstFailed: 'The first computation failed, so there is nothing to show yet.',
    fixHint: 'Change a parameter (a smaller scale s, a smaller d or another feature map) or try again.',
    duration: (ms: number) => {
      if (ms < 1_000) return '< 1 s';
      if (ms < 60_000) return `${Math.round(ms / 1_000)} s`;
      if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
      if (ms < 86_400_000) return `${(ms / 3_600_000).toFixed(1)} h`;
      return `${Math.round(ms / 86_400_000)} days`;
    },
  },
  speed: {
    title: 'Speed: time vs sequence length',
    lead: 'The headline figure of Choromanski and Colwell’s Google AI Blog post (“Rethinking Attention with Performers”, October 2020) plots time against sequence length on log-log axes: regular attention grows quadratically and stops where memory runs out, while the Performer stays close to “dummy” attention, which just returns V and marks the best any attention can do. Here the same figure is measured live on your machine, with this page’s own kernels.',
    formula: String.raw`\underbrace{4n^2d}_{\text{exact}}\quad\text{vs}\quad \underbrace{8\,n\,m'd}_{\text{Performer}}\qquad\Rightarrow\qquad n_\times = 2m'\cdot\frac{R_{\text{exact}}}{R_{\text{Performer}}}`,
    formulaNote:
      'FLOP model (a multiply-add counts 2): exact attention forms Q Kᵀ and A V; the Performer projects Q and K onto m′ features, forms φ(K)ᵀ V and φ(Q) S. At equal speed per FLOP they cost the same at n = 2m′; R is each method’s measured GFLOP/s.',
    citePrefix: 'The figure this panel measures live is the speed figure of',
    blogCite: 'Choromanski & Colwell, Google AI Blog, 2020',
    run: 'Run',
    rerun: 'Run again',
    cancel: 'Cancel',
    budget: 'Time budget',
    budgetOption: (s: number) => (s < 60 ? `${s} s` : `${s / 60} min`),
    budgetHelp:
      'The budget covers the whole run. After each method’s first point (n = 64, which also compiles its kernels), the rest is shared equally; a method stops when its next (doubled) n is predicted to overrun its share.',
    layerToggle: 'also time one Transformer layer',
    heavy: 'Timing is heavy for the machine: it runs only when you press Run.',
    idle: 'No measurements yet. Press Run to time exact attention, the Performer and dummy attention from n = 64 upward on this device.',
    calibrating: (what: string) => `Calibrating: ${what}…`,
    measuring: (what: string, n: number) => `Measuring ${what} at n = ${fmtInt(n)}…`,
    estimate: (ms: string) => `Estimated time: ${ms} (from the FLOP model and one calibration point per method).`,
    elapsed: (done: string, total: string) => `${done} of about ${total}`,
    cancelled: 'Cancelled; the previous result (if any) is still shown.',
    failed: (msg: string) => `The speed run failed: ${msg}. The previous result (if any) is still shown.`,
    took: (ms: string, budget: string) => `Measured in ${ms} (budget ${budget}).`,
    timing: {
      timestamp: (adapter: string) =>
        `Timed on the GPU (${adapter}) with GPU timestamp queries: the sum of each method’s compute passes, median of up to 5 runs after a warm-up run.`,
      wall: (adapter: string) =>
        `Timed on the GPU (${adapter}) by wall-clock time from submit to onSubmittedWorkDone (this device has no timestamp queries), median of up to 5 runs after a warm-up run.`,
      cpu: (reason: string) =>
        `CPU fallback (${reason}): these are the CPU twins of the kernels timed in the engine worker, over a smaller range of n — not GPU numbers.`,
    },
    methods: {
      exact: 'exact (fused softmax)',
      'performer-bidirectional': 'Performer, bidirectional',
      'performer-causal': 'Performer, causal (prefix sums)',
      dummy: 'dummy attention (returns V)',
      'layer-exact': 'layer with exact attention',
      'layer-performer': 'layer with Performer attention',
      'layer-dummy': 'layer with dummy attention',
    } as Record<string, string>,
    flopTitle: 'Before a run: the FLOP model',
    yFlops: 'FLOPs per head',
    flopExact: 'exact, 4n²d',
    flopPerformer: 'Performer, 8nm′d',
    markEqual: (n: string) => `equal FLOPs: n = 2m′ = ${n}`,
    flopNote: (d: number, m: number) =>
      `Counted, not measured: one head at d = ${d}, m′ = ${m} (a multiply-add counts 2). Exact attention’s FLOPs grow as n², the Performer’s as n, and they are equal at n = 2m′. Run times both on this device: the measured crossover moves with each method’s speed per FLOP.`,
    tableFlops: 'FLOPs per method and n',
    modelExact: 'FLOP model, exact (4n²d at its measured rate)',
    modelPerformer: 'FLOP model, Performer (8nm′d at its measured rate)',
    timeTitle: 'Time per attention head vs sequence length n (log-log)',
    bytesTitle: 'GPU memory allocated vs n (log-log)',
    bytesTitleCpu: 'Memory of the CPU twins’ arrays vs n (log-log)',
    gflopsTitle: 'Throughput vs n: GFLOP/s of the FLOP model',
    xN: 'sequence length n',
    yMs: 'time (ms)',
    yBytes: 'bytes',
    yGflops: 'GFLOP/s',
    tableTime: 'median time per method and n',
    tableBytes: 'bytes allocated per method and n',
    tableGflops: 'GFLOP/s per method and n',
    markMeasured: (n: string) => `measured crossover ≈ ${n}`,
    markModel: (n: string) => `FLOP model ≈ ${n}`,
    crossover: 'measured crossover n (Performer faster than exact)',
    crossoverModel: 'FLOP-model crossover (2m′ · R_exact / R_Performer)',
    crossoverBelow: (n: string) => `< ${n}`,
    crossoverAbove: (n: string) => `> ${n}`,
    gflopsExact: 'GFLOP/s, exact (largest n)',
    gflopsPerformer: 'GFLOP/s, Performer bidirectional (largest n)',
    gflopsCausal: 'GFLOP/s, Performer causal (largest n)',
    maxN: (what: string) => `largest n, ${what}`,
    sweepNote: (d: number, m: number) =>
      `One attention head, d = ${d}, m = ${m} positive random features (m′ = m), random Gaussian inputs; the same kernels as the rest of the page.`,
    stops: 'Where each method stopped',
    stopBudget: (what: string, n: string, ms: string) =>
      `${what}: n = ${n} was predicted to take ${ms} per run, past its share of the budget.`,
    stopRange: (what: string, n: string) => `${what}: reached the end of the range, n = ${n}.`,
    stopError: (what: string, n: string, msg: string) => `${what}: failed at n = ${n} — ${msg}`,
    downloadAll: 'Download all results (CSV)',
    liveNote: 'Measuring — points appear as they are timed.',
    layerTitle: 'One Transformer layer',
    layerLead: (D: number, h: number, f: number) =>
      `The blog’s timings are for whole models. This view times one layer as in that setting — Q, K, V and O projections (d_model = ${D}, ${h} heads), attention per head, and a feed-forward block (d_ff = ${f}, ReLU) — on this page’s tiled WGSL matrix-product kernel, with exact, Performer or dummy attention. Layer norm and biases are left out (O(n·d_model) each). Past the crossover the Performer layer approaches the dummy layer: attention stops being the cost.`,
    layerCpu: (D: number, h: number, f: number) =>
      `On the CPU fallback the layer is smaller: d_model = ${D}, ${h} heads, d_ff = ${f}.`,
    layerTimeTitle: 'Time of one Transformer layer vs n (log-log)',
    layerRatioTitle: 'Layer time ÷ dummy-layer time (1 = attention costs nothing)',
    yRatio: 'time ÷ dummy layer',
    tableLayer: 'layer time per attention kind and n',
    tableRatio: 'layer time relative to the dummy layer',
    partsTitle: 'Where a layer’s time goes (largest n measured by all three)',
    parts: { projections: 'Q, K, V, O projections', attention: 'attention', ffn: 'feed-forward' },
    partsTable: 'time per layer component',
    partsNone:
      'The split into components needs GPU timestamps (or the CPU path); this device reports the layer’s total only.',
    component: 'component',
    layerExactMetric: (n: string) => `exact layer ÷ dummy layer (n = ${n})`,
    layerPerformerMetric: (n: string) => `Performer layer ÷ dummy layer (n = ${n})`,
    layerHalfMetric: 'n where exact attention costs as much as the rest of the layer (model)',
    layerHalfMarker: (n: string) => `model: exact attention = rest of layer, n ≈ ${n}`,
    modelLayerExact: 'model, layer with exact attention (a·n + c·n², measured rates)',
    modelLayerPerformer: 'model, layer with Performer attention (a·n + c·n, measured rates)',
    layerModelNote:
      'Dotted: the layer extrapolated at the rates this run measured — projections and feed-forward linear in n, at the dummy layer’s largest point; exact (quadratic) and Performer (linear) attention for the layer’s heads, at the GFLOP/s the attention sweep above reached at its largest n. It extends the measured points; it does not replace them.',
    notRun: 'The layer was not timed in this run (tick the box above and run again).',
  },
  beyond: {
    title: 'Beyond the Performer',
    learnedNote:
      'The learned Hedgehog map is not in these sweeps: its W must first be fitted to the head. Its fit, and its error on the fitted and on a held-out sequence beside random features at the same m′, are in the feature-map panel (choose φ = Hedgehog).',
    lead: 'Every feature map of this explainer, and positive random features under every projection, on the same Q and K: the error of A against the feature dimension m′ (the memory and compute each estimator pays), against the norm scale s (which estimators survive when softmax concentrates), and against the time its kernels take on this machine’s backend at the current n — the trade-off a practitioner actually chooses on.',
    mapsTitle: 'The estimators compared',
    colMap: 'estimator',
    colKind: 'kind',
    colFormula: 'feature map φ',
    colDim: 'm′',
    colSource: 'source',
    family: { random: 'random (over seeds)', deterministic: 'deterministic', learned: 'learned (fitted W)' } as Record<
      MapFamily,
      string
    >,
    variant: (map: string, proj: string) => `${map}, ${proj}`,
    projectionRow: (proj: string) => `W with ${proj} rows`,
    dimTitle: 'Error of A vs feature dimension m′',
    xDim: 'feature dimension m′ (log)',
    yErr: 'relative error ‖Â − A‖_F / ‖A‖_F',
    dimNote: (seeds: number, rows: number, n: number) =>
      `Random estimators: mean over ${seeds} feature seeds, band from the smallest to the largest draw; deterministic maps have no W and are one point each (m′ = d). ${rows} evenly spaced query rows over the first ${fmtInt(n)} keys.`,
    tableDim: 'error of A vs m′, per estimator',
    scaleTitle: 'Error of A vs norm scale s: which estimators survive concentration',
    xScale: 'norm scale s (std of the q, k entries)',
    scaleNote: (m: number, seeds: number) =>
      `At m = ${m}; random estimators: mean and range over ${seeds} feature seeds. As s grows softmax concentrates on a few keys; an estimator whose error stays flat keeps up, one whose error climbs (trigonometric features first: their variance grows like exp(‖x‖²)) does not.`,
    tableScale: 'error of A vs norm scale, per estimator',
    timeTitle: (n: number) => `Error vs measured time at n = ${fmtInt(n)}`,
    xTime: 'time of the estimator’s kernels, ms (median, log)',
    yErrFull: 'relative error of A at the full n (one draw)',
    timeNote: (backend: string, source: string, repeats: number) =>
      `Measured on ${backend}: after one warm-up run per estimator, the median of ${repeats} timed runs of its feature and linear-attention kernels (${source}). The error is that of the warm-up run, over all n rows. Times depend on this machine and this browser; compare the estimators with each other, not with other machines.`,
    backendGpu: (adapter: string) => `WebGPU (${adapter}), the WGSL kernels`,
    backendCpu: 'the CPU twins in the engine worker (no WebGPU here)',
    sourceTimestamp: 'GPU timestamp queries',
    sourceWall: 'wall clock around each kernel',
    exactLine: (ms: string) => `exact softmax: ${ms}`,
    tableTime: 'error of A and time per estimator',
    noErrorA: (n: number) =>
      `Above n = ${fmtInt(n)} the error is that of the output (the dense row statistics are skipped).`,
    best: (name: string, m: number) => `lowest error of A at m = ${m}: ${name}`,
    errorAt: (name: string) => `${name}, error of A`,
    timeOf: (name: string) => `${name}, ms`,
    fastest: 'fastest estimator, ms',
    refsHeading: 'Sources of the estimators',
    offChart: (names: string, cap: number) => `Above ${cap}, off the chart (values in the data table): ${names}.`,
  },
  training: trainingEn,
  trained: trainedEn,
};

export type Strings = typeof en;
