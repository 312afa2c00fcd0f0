/**
 * Every user-visible English string (a leaf module: no React, no store access). Components read
 * the current language's strings through `useStrings()` (src/app/strings.ts); interpolated strings
 * are functions. `zh.ts` beside it has the same shape (TypeScript lists anything missing).
 */
import type { RejectReason } from '../store/params';
import { PARAM_RULES, type ParamKey } from '../store/params';
import type { FeatureMapKind, InputKind, ProjectionKind } from '../core/types';
import { LANGS, PANEL_IDS, THEMES } from '../store/store';
import { RANK_TOLERANCES } from '../core/rank';
import { URL_KEYS } from '../store/url';
import { fmt, fmtInt } from '../charts/format';

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
};

const OTHER_RULES: Record<string, string> = {
  row: 'must be a query row index below n',
  lang: `must be one of ${LANGS.join(', ')}`,
  theme: `must be one of ${THEMES.join(', ')}`,
  tol: `must be one of ${RANK_TOLERANCES.map((x) => x.toExponential(0)).join(', ')}`,
  embed: `must be one of ${PANEL_IDS.join(', ')}`,
  hide: `must be a comma-separated list of ${PANEL_IDS.join(', ')}`,
  query: 'the query string is too long',
};

function ruleText(key: string): string {
  const pk = (Object.keys(URL_KEYS) as ParamKey[]).find((k) => k === key || URL_KEYS[k] === key);
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
};

const MAP_NAMES: Record<FeatureMapKind, string> = {
  positive: 'Positive (FAVOR+)',
  hyperbolic: 'Hyperbolic positive',
  trig: 'Trigonometric (sin, cos)',
  relu: 'ReLU (Performer-ReLU)',
  elu1: '1 + elu (linear transformer)',
  exp: 'eˣ without norm terms (seed 000)',
  'double-softmax': 'Double softmax (efficient attention)',
};

const MAP_SHORT: Record<FeatureMapKind, string> = {
  positive: 'positive',
  hyperbolic: 'hyperbolic',
  trig: 'trig',
  relu: 'ReLU',
  elu1: '1+elu',
  exp: 'eˣ',
  'double-softmax': 'double softmax',
};

const PROJ_NAMES: Record<ProjectionKind, string> = {
  'orthogonal-chi': 'Orthogonal, χ-distributed norms (paper default)',
  'orthogonal-sqrtd': 'Orthogonal, norms √d (regularized)',
  iid: 'iid Gaussian',
};

const PROJ_SHORT: Record<ProjectionKind, string> = {
  'orthogonal-chi': 'orthogonal',
  'orthogonal-sqrtd': 'orthogonal √d',
  iid: 'iid',
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
  'double-softmax': String.raw`\phi_q(q)=\operatorname{softmax}_{\text{features}}(q),\ \ \phi_k(k)=\operatorname{softmax}_{\text{positions}}(k)`,
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
    footer:
      'Math follows Choromanski et al., “Rethinking Attention with Performers” (ICLR 2021) and Su Jianlin’s notes on Performer (seed 000). Everything runs locally; nothing is sent anywhere.',
    embedUnknown: 'Unknown panel.',
  },
  notices: {
    rejected: (source: 'url' | 'control', key: string, raw: string, reason: RejectReason) =>
      `${source === 'url' ? 'Ignored URL parameter' : 'Ignored value for'} ${key} = “${raw}”: ${REASONS[reason]} — ${ruleText(key)}. The previous value is kept.`,
    clamped: (key: ParamKey, raw: string, to: number) => `${PARAM_NAMES[key]} = ${raw} is outside the allowed range (${ruleText(key).replace(/^must be /, '')}); using ${fmt(to)}.`,
    backendChanged: (why: string) => `The compute backend changed: ${why}.`,
  },
  errors: {
    title: 'The last computation failed; the previous result stays on screen.',
    codes: {
      'non-finite-result':
        'The computation overflowed to non-finite values — typical of trigonometric features at large norms (exp(‖x‖²/2) explodes, row sums can reach 0).',
      'exceeds-limit': 'Too large for this device or backend.',
      'invalid-size': 'Invalid size.',
      'non-finite-input': 'The inputs contain NaN or infinity.',
      'shape-mismatch': 'Matrices of incompatible shapes.',
      'device-lost': 'The GPU device was lost; the engine is recovering.',
      'gpu-validation': 'The GPU rejected the work (validation or out of memory).',
      cancelled: 'Cancelled.',
      internal: 'Unexpected engine failure.',
    } as Record<string, string>,
    retry: 'Try again',
    panelCrashed: (panel: string) => `The “${panel}” panel hit an error while drawing. The rest of the page still works.`,
    analysisFailed: 'This analysis failed:',
  },
  controls: {
    heading: 'Experiment',
    n: 'Sequence length n',
    nHelp: 'log scale; type any n from 1 to 65,536',
    d: 'Head dimension d',
    m: 'Random features m',
    mHelp: (mp: string) => `feature dimension m′ = ${mp}`,
    typed: (what: string) => `${what} (type a value)`,
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
    structuredHint: (s: number) => `clustered and local inputs only give peaked attention once s is large enough (about ${s}); below that they look as uniform as Gaussian ones`,
    structuredAction: (s: number) => `use s = ${s}`,
    reset: 'Reset all',
    mapNames: MAP_NAMES,
    projNames: PROJ_NAMES,
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
    colour: 'attention weight (shared scale)',
    colourClipped: 'attention weight (shared scale; top 0.5% drawn in the top colour)',
    colourNegative: 'negative entry (trig features)',
    scaleLinear: 'linear colours',
    scaleLog: 'log colours (4 decades)',
    blockNote: (b: number, cells: number) => `n is above 512: each of the ${cells}×${cells} cells shows the mean of a ${b}×${b} block of entries (block means).`,
    fullRes: 'Full resolution: one cell per entry.',
    noView: (limit: string, backend: string) =>
      `Heatmaps and per-row statistics need the full n×n matrices, which are requested up to n = ${limit} on ${backend}. Above that only the outputs are compared (in linear time); the row chart below still shows one full row.`,
    rowTitle: (i: number, pinned: boolean) => `Query row i = ${fmtInt(i)}${pinned ? ' (pinned)' : ''}`,
    rowHint: 'Hover a heatmap row to preview it; click to pin (Enter with the keyboard). Click the pinned row again to unpin.',
    rowHover: (i: number, b: number) => `Previewing rows ${fmtInt(i)}–${fmtInt(i + b - 1)} (block means); click to pin and fetch the full row.`,
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
    formulaNote: 'Lemma 2 of the Performer paper, for one entry SM(x, y) = exp(x·y), with iid ω ~ N(0, I) and inputs x = q/⁴√d, y = k/⁴√d.',
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
    normEntropyTitle: 'Softmax entropy vs norm scale s',
    normNote: (m: number, seeds: number) =>
      `m = ${m}, ${seeds} seeds, current projection. Where FAVOR+ is accurate (small s), softmax is nearly uniform; once softmax concentrates, the estimator’s relative error explodes. Trig features overtake positive ones as s grows.`,
    xScale: 'norm scale s (std of q, k entries)',
    yEntropy: 'mean normalized row entropy',
    entropyExact: 'softmax A',
    entropyPerf: 'positive Â',
    dTitle: 'Error vs head dimension d',
    dNote: (s: number, m: number) => `Positive features, s = ${s}, m = ${m}: at a fixed entry scale, ‖x+y‖² ≈ 2√d·s² grows with d, and so does the error.`,
    xD: 'head dimension d',
    blowTitle: 'Per-entry relative error vs the exact entry',
    blowNote: 'Median (band 10–90%) of |Â_ij − A_ij| / A_ij in bins of A_ij. Positive features keep the relative error bounded as A_ij → 0; trig features do not.',
    blowSmallest: (trig: string, pos: string) => `At the smallest exact entries the median relative error is ${trig} for trig features and ${pos} for positive ones.`,
    xEntry: 'exact entry A_ij',
    yRel: '|Â_ij − A_ij| / A_ij',
    tableSweep: 'error vs m, mean and range over seeds',
    tableNorm: 'error vs norm scale',
    tableEntropy: 'entropy vs norm scale',
    tableD: 'error vs d',
    tableBlow: 'relative error by exact entry size',
  },
  sparsity: {
    title: '2 · Sparsity: softmax can focus, linear attention spreads out',
    lead: 'eˣ stretches score gaps, so softmax rows can concentrate on a few keys. A kernel φ(q)·φ(k) without that amplification gives dense rows that approach average pooling as n grows (seed 000). Normalized entropy H/log(#keys) measures it: 1 is average pooling, 0 a single key.',
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
    nNote: (rows: number) => `${rows} query rows per n (same seeds; Gaussian inputs are prefixes of one draw). Current n marked.`,
    xN: 'sequence length n',
    localTitle: 'Su’s experiment: truncate linear attention to a local window',
    localNote: (map: string) =>
      `Keep only |i − j| ≤ w of Â (${map}), renormalize each row, compare with exact A. Truncation makes it sparse — no longer linear-time, a demonstration only. The dotted curve truncates the exact A itself: what the window alone discards. Truncation helps when softmax is local (try Inputs: Local, s ≥ 1); on dense Gaussian inputs it can only hurt.`,
    xW: 'keys in the window: 2w + 1 (causal: w + 1)',
    yErrA: 'rel. error vs exact A',
    truncApprox: (map: string) => `truncated ${map} Â`,
    truncExact: 'truncated exact A',
    truncOut: (map: string) => `output error, truncated ${map}`,
    fullLine: 'no truncation',
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
    formula: String.raw`\begin{gathered}\operatorname{rank}(QK^\top)\le d,\qquad \operatorname{rank}\big(e^{QK^\top/\sqrt d}\big)\le n,\qquad \operatorname{rank}(\hat A)=\operatorname{rank}\big(D^{-1}\phi(Q)\phi(K)^\top\big)\le m' \\ r_{\text{eff}}=\exp\Big(-\sum_i p_i\log p_i\Big),\quad p_i=\frac{\sigma_i}{\sum_j\sigma_j}\end{gathered}`,
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
      `Spectra need an n×n singular value decomposition (O(n³), computed in f64 in the analysis worker); they are offered up to n = ${limit}. Current n = ${n}: lower n to see them.`,
    sizeNote: (n: number) =>
      `Computed in f64 on the full ${fmtInt(n)}×${fmtInt(n)} matrices (Â and QKᵀ through their low-rank factors). Singular values that are exactly zero — beyond m′ for Â, beyond d for QKᵀ — cannot appear on a log axis; values below 10⁻¹⁷ (f64 rounding) are drawn at 10⁻¹⁷.`,
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
    rowsNote: (m: number, proj: string) => `Same Q, K and the same W (m = ${m}, ${proj}) for every map that uses a projection.`,
    mapLegend: 'the map’s Â_i (colour of the map)',
    rowStats: (err: string, kl: string, h: string) => `error ${err} · KL ${kl} · entropy ${h}`,
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
  firstscreen: {
    badgeWarming: 'CPU (WebGPU starting…)',
    badgeWarmingTitle: 'WebGPU is compiling its pipelines; meanwhile the CPU computes the figures. They are recomputed on WebGPU as soon as it is ready.',
    backendName: { webgpu: 'WebGPU', cpu: 'the CPU' } as Record<'webgpu' | 'cpu', string>,
    computingOn: (backend: string) => `Computing on ${backend}…`,
    estimate: (est: string, elapsed: string) => `about ${est} predicted · ${elapsed} so far`,
    elapsed: (elapsed: string) => `${elapsed} so far`,
    longRun: (params: string, est: string, backend: string) =>
      `This run (${params}) is predicted to take about ${est} on ${backend}. The figures below stay as they are until it finishes; Cancel stops it.`,
    progressLabel: (est: string) => `elapsed time against the predicted ${est}`,
    cancel: 'Cancel',
    cancelledReverted: (params: string, est: string) =>
      `Cancelled the run for ${params} (predicted about ${est}). The controls are back at the parameters of the result shown.`,
    cancelledNothing: (params: string, est: string) => `Cancelled: nothing has been computed for ${params} (predicted about ${est}).`,
    computeAnyway: 'Compute anyway',
    held: (params: string, est: string, backend: string, shown: boolean) =>
      `Not started: this run (${params}) is predicted to take about ${est} on ${backend}. ${shown ? 'The figures below stay as they are.' : 'Nothing has been computed yet.'}`,
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
};

export type Strings = typeof en;
