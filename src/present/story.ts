/**
 * The lecture: one step per slide, in the order of the two sources' argument — Choromanski &
 * Colwell's Google AI Blog post (the FAVOR+ mechanism) and Su Jianlin's Scientific Spaces article
 * (what linear attention gives up). Each step is pure data: the scene it sets through the store's
 * actions (a complete experiment, so a slide looks the same however it is reached), the figure
 * that shows it, the 1–3 controls the lecturer may move on the slide, the formula (KaTeX source;
 * math is the same in every language) and the sources it follows. The words live in
 * src/i18n (namespace `present.steps`, keyed by step id).
 */
import type { AttentionParams } from '../core/types';
import { DEFAULT_PARAMS } from '../store/params';
import { PRESENT_STEP_IDS, type StepId } from '../store/present-steps';
import type { TrainedSelection } from '../store/trained';
import { UPLOAD_LOCKED_PARAMS } from '../store/upload-state';
import type { ReferenceId } from '../i18n/references';

export type { StepId };

/** What the slide draws (src/present/figures.tsx). */
export type FigureKind =
  | 'exact' // exact A as one large heatmap
  | 'compare' // exact A beside Â on one colour scale
  | 'error-vs-m' // FAVOR+ error vs m, orthogonal vs iid, with the Lemma 2 curve
  | 'cost' // FLOP model of both, vs n, with the crossover, plus the measured kernel times
  | 'maps' // eˣ, 1 + elu and its tangent; one query row under softmax, FAVOR+ and 1 + elu
  | 'sparsity' // top-k attention mass of softmax, FAVOR+ and 1 + elu
  | 'spectra' // singular values of A, Â and QKᵀ
  | 'norm' // error vs norm scale beside entropy vs norm scale
  | 'head' // a trained head's exact A beside FAVOR+'s Â on one colour scale, with the head's measured concentration
  | 'speed' // the blog's time-vs-n figure, measured live on this machine when the lecturer presses Run
  | 'training'; // the training comparison (softmax vs linear attention on MQAR), trained live when the lecturer presses Train

/** Controls a slide may offer (a compact strip under the caption). */
export type SlideControl = 'n' | 'd' | 'm' | 'scale' | 'causal' | 'head';

/** The works a slide follows (src/i18n/references.ts). */
export type SourceId = Extract<ReferenceId, 'blog' | 'paper' | 'su' | 'katharopoulos' | 'based'>;

/** Every parameter but the seeds: a complete experiment on generated inputs. */
export type Scene = Omit<AttentionParams, 'seed' | 'featureSeed'>;
/** What a trained head sets itself (src/store/trained.ts `selectTrained`): n, d, the scale (their RMS), the input kind, and the model's causal mask. */
export const HEAD_PARAMS = [...UPLOAD_LOCKED_PARAMS, 'causal'] as const;
export type HeadParam = (typeof HEAD_PARAMS)[number];
/** The rest of a scene on a trained head. */
export type HeadScene = Omit<Scene, HeadParam>;

interface StepBase {
  id: StepId;
  figure: FigureKind;
  controls: readonly SlideControl[];
  /** KaTeX source of the step's formula */
  tex: string;
  sources: readonly SourceId[];
}

/** A step on generated inputs: `params` is the complete scene; no upload or trained head stays in force. */
export interface GeneratedStep extends StepBase {
  params: Scene;
  trained?: undefined;
}

/** A step on one head of a bundled trained model: the head sets n, d, scale, input and causal; `params` the rest. */
export interface TrainedStep extends StepBase {
  params: HeadScene;
  trained: TrainedSelection;
}

export type Step = GeneratedStep | TrainedStep;

/** Slider ranges on the slides: small enough that every figure is computed on any machine. */
export const SLIDE_LIMITS = { nMax: 1_024, dMax: 64, mMax: 512, scaleMin: 0.1, scaleMax: 2 } as const;

const BASE: Scene = {
  n: 256,
  d: DEFAULT_PARAMS.d,
  m: 64,
  featureMap: 'positive',
  projection: 'orthogonal-chi',
  causal: false,
  input: 'gaussian',
  scale: 0.5,
  stabilizer: 'shift',
};
const scene = (over: Partial<Scene>): Scene => ({ ...BASE, ...over });
/** `scene(over)` less what the head sets. */
function headScene(over: Partial<HeadScene>): HeadScene {
  const s: Partial<Scene> = scene(over);
  for (const k of HEAD_PARAMS) delete s[k];
  return s as HeadScene;
}

const tex = String.raw;

export const STORY: readonly Step[] = [
  {
    id: 'quadratic',
    figure: 'exact',
    params: scene({ input: 'local', scale: 1.5 }),
    controls: ['n'],
    tex: tex`A=\operatorname{softmax}\!\Big(\frac{QK^\top}{\sqrt d}\Big)\in\mathbb R^{n\times n},\quad \text{out}=AV:\ O(n^2 d)`,
    sources: ['blog'],
  },
  {
    id: 'kernel',
    figure: 'exact',
    params: scene({ input: 'local', scale: 1 }),
    controls: ['scale'],
    tex: tex`A_{ij}=\frac{\operatorname{SM}(x_i,y_j)}{\sum_{l}\operatorname{SM}(x_i,y_l)},\quad \operatorname{SM}(x,y)=e^{x^\top y},\ \ x=\frac{q}{d^{1/4}},\ y=\frac{k}{d^{1/4}}`,
    sources: ['paper', 'su'],
  },
  {
    id: 'features',
    figure: 'compare',
    params: scene({ input: 'clustered', scale: 0.75, m: 256, projection: 'iid' }),
    controls: ['m'],
    tex: tex`e^{x^\top y}=\mathbb E_{\omega\sim\mathcal N(0,I_d)}\big[e^{\omega^\top x-\|x\|^2/2}\,e^{\omega^\top y-\|y\|^2/2}\big]\approx\phi(x)^\top\phi(y)`,
    sources: ['blog', 'paper'],
  },
  {
    id: 'orthogonal',
    figure: 'error-vs-m',
    params: scene({ input: 'gaussian', scale: 0.5, m: 64 }),
    controls: ['m', 'd'],
    tex: tex`\omega_r\perp\omega_s,\ \|\omega_r\|\sim\chi_d:\quad \operatorname{MSE}_{\perp}<\operatorname{MSE}_{\text{iid}}=\tfrac{\operatorname{SM}^2}{m}\big(e^{\|x+y\|^2}-1\big)`,
    sources: ['blog', 'paper'],
  },
  {
    id: 'linear',
    figure: 'cost',
    params: scene({ n: 1_024, m: 64 }),
    controls: ['n', 'm'],
    tex: tex`\underbrace{\big(\phi(Q)\,\phi(K)^\top\big)}_{n\times n}V=\phi(Q)\underbrace{\big(\phi(K)^\top V\big)}_{m\times d}:\qquad O(n^2 d)\ \to\ O(n\,m\,d)`,
    sources: ['blog', 'su'],
  },
  {
    id: 'causal',
    figure: 'compare',
    params: scene({ input: 'local', scale: 1, m: 256, causal: true }),
    controls: ['m', 'causal'],
    tex: tex`S_i=S_{i-1}+\phi(k_i)\,v_i^\top,\ \ z_i=z_{i-1}+\phi(k_i),\quad \text{out}_i=\frac{\phi(q_i)^\top S_i}{\phi(q_i)^\top z_i}`,
    sources: ['blog'],
  },
  {
    id: 'maps',
    figure: 'maps',
    params: scene({ input: 'clustered', scale: 1.25, m: 128 }),
    controls: ['scale', 'm'],
    tex: tex`e^{x}=1+x+\tfrac{x^2}{2}+\dots,\qquad 1+\operatorname{elu}(x)=\begin{cases}1+x & x\ge 0\\ e^{x} & x<0\end{cases}`,
    sources: ['su', 'katharopoulos'],
  },
  {
    id: 'sparsity',
    figure: 'sparsity',
    params: scene({ input: 'clustered', scale: 1.5, m: 128 }),
    controls: ['scale', 'n'],
    tex: tex`\frac{H(A_i)}{\log n}=-\frac{1}{\log n}\sum_j A_{ij}\log A_{ij}\in[0,1],\qquad 1\iff A_{ij}=\tfrac1n`,
    sources: ['su'],
  },
  {
    id: 'rank',
    figure: 'spectra',
    params: scene({ input: 'local', scale: 1.5, m: 64 }),
    controls: ['m', 'causal'],
    tex: tex`\operatorname{rank}(QK^\top)\le d,\ \ \operatorname{rank}\big(\phi(Q)\phi(K)^\top\big)\le m,\ \ \operatorname{rank}\big(e^{QK^\top\!/\sqrt d}\big)\le n`,
    sources: ['su'],
  },
  {
    id: 'concentration',
    figure: 'norm',
    params: scene({ input: 'gaussian', scale: 1, m: 64 }),
    controls: ['scale', 'm', 'd'],
    tex: tex`\frac{\operatorname{MSE}\big(\widehat{\operatorname{SM}}(x,y)\big)}{\operatorname{SM}(x,y)^2}=\frac{e^{\|x+y\|^2}-1}{m},\qquad \|x+y\|^2\approx 2\sqrt d\,s^2`,
    sources: ['paper', 'su'],
  },
  {
    id: 'speed',
    figure: 'speed',
    // the bench's head: d = 64, m = 256 (the sweep generates its own inputs; the scene sets d and m)
    params: scene({ d: 64, m: 256 }),
    controls: ['d', 'm'],
    tex: tex`T_{\text{exact}}\propto n^2 d,\qquad T_{\text{Performer}}\propto n\,m\,d,\qquad n_\times=2m\cdot\frac{R_{\text{exact}}}{R_{\text{Performer}}}`,
    sources: ['blog'],
  },
  {
    id: 'learning',
    figure: 'training',
    // the comparison has its own configuration (the training slice); the scene only keeps the page small
    params: scene({ n: 128 }),
    controls: [],
    tex: tex`S_i=\textstyle\sum_{j\le i}\phi(k_j)\,v_j^\top\in\mathbb{R}^{m'\times d},\qquad \operatorname{rank}(\hat A)\le m'`,
    sources: ['su'],
  },
  {
    // the concentration slide's point measured on a real head: a head trained on associative recall
    // is sharp, and FAVOR+'s error on it barely falls with m (docs/trained-heads-measured.md). Last,
    // after learning (it is such a trained model's head), so the older slides' numbers stay put.
    id: 'trained',
    figure: 'head',
    trained: { model: 'mqar', layer: 0, head: 0, example: 0 },
    params: headScene({ m: 256 }),
    controls: ['m', 'head'],
    tex: tex`\bar H(A)=-\tfrac1n\sum_i\sum_{j\le i}A_{ij}\log A_{ij}\ \ \text{vs}\ \ \bar H(U)=\tfrac1n\sum_i\log(i+1)`,
    sources: ['paper', 'based'],
  },
];

// the slides follow the store's list (URL `step=` numbers and names): a mismatch is a bug
if (STORY.map((s) => s.id).join() !== PRESENT_STEP_IDS.join()) {
  throw new Error(`story steps ${STORY.map((s) => s.id).join()} ≠ PRESENT_STEP_IDS ${PRESENT_STEP_IDS.join()}`);
}

/** The step shown as slide `k` (1-based; out-of-range k is clamped). */
export function stepAt(k: number): Step {
  const i = Math.max(1, Math.min(STORY.length, Math.round(k) || 1)) - 1;
  return STORY[i]!;
}
