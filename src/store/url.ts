/**
 * The URL as a view of the store: `?n=…&d=…&m=…&seed=…&fseed=…&map=…&proj=…&causal=…&input=…&scale=…&stab=…`
 * plus `lang`, `theme`, `row` (pinned row), `embed=<panel>` and `hide=a,b`. Reading is strict: a
 * value that does not parse exactly is ignored with a notice (the default stays); nothing in a URL
 * can crash the page or reach the engine unvalidated. Lecture mode: `present` (or `present=1`) and
 * `step=N` (1-based slide; a bad value → notice, slide 1). Writing keeps keys we do not own (`backend`).
 */
import type { AttentionParams } from '../core/types';
import { RANK_TOLERANCES } from '../core/rank';
import { DEFAULT_PARAMS, parseParam, type ParamKey } from './params';
import { parseStep } from './present-steps';
import { isEmbedId, parseEmbedControls, parseEmbedFigure, writeEmbedControls } from './embed';
import { defaultSetup, type TrainingSetup } from '../engine/training-setup';
import { parseSetup, writeSetup } from '../engine/training-setup-url';
import type { TrainingState } from './training';
import { parseTrained, TRAINED_URL_KEYS, trainedNotice, trainedUrlValue, type TrainedSelection } from './trained';
import {
  LANGS,
  PANEL_IDS,
  THEMES,
  type AppState,
  type Lang,
  type NoticeInput,
  type PanelId,
  type UiState,
} from './store';

/** URL key of each parameter. */
export const URL_KEYS: { readonly [K in ParamKey]: string } = {
  n: 'n',
  d: 'd',
  m: 'm',
  seed: 'seed',
  featureSeed: 'fseed',
  featureMap: 'map',
  projection: 'proj',
  causal: 'causal',
  input: 'input',
  scale: 'scale',
  stabilizer: 'stab',
};

const MAX_QUERY_LENGTH = 2_000;

/** `input=uploaded`: the page computed on uploaded files (which a link cannot carry). */
export const UPLOADED_INPUT = 'uploaded';
/** `input=trained` (+ model, layer, head, example or text): a head of a bundled trained model (src/store/trained.ts). */
export const TRAINED_INPUT = 'trained';

export interface UrlState {
  params: Partial<AttentionParams>;
  ui: Partial<UiState>;
  notices: NoticeInput[];
  /** `train=` (the whole comparison, src/engine/training-setup.ts) and `run=1` (start it on load) */
  training: { setup?: TrainingSetup; run?: boolean };
  /** `input=trained`: the head to load (validated; absent when the link names none or a bad model) */
  trained?: TrainedSelection;
}

function reject(
  key: string,
  raw: string,
  reason: 'not-an-option' | 'out-of-range' | 'too-long' | 'not-an-integer' | 'not-a-number' | 'not-a-step',
): NoticeInput {
  return { level: 'error', code: 'param-rejected', source: 'url', key, raw: raw.slice(0, 40), reason };
}

export function readUrl(search: string): UrlState {
  const out: UrlState = { params: {}, ui: {}, notices: [], training: {} };
  if (search.length > MAX_QUERY_LENGTH) {
    out.notices.push(reject('query', search.slice(0, 40), 'too-long'));
    return out;
  }
  let q: URLSearchParams;
  try {
    q = new URLSearchParams(search);
  } catch {
    return out;
  }
  for (const key of Object.keys(URL_KEYS) as ParamKey[]) {
    const raw = q.get(URL_KEYS[key]);
    if (raw === null) continue;
    if (key === 'input' && raw === UPLOADED_INPUT) {
      // the files themselves never travel in a link: say so and keep the generated inputs
      out.notices.push({ level: 'warning', code: 'upload-not-in-link' });
      continue;
    }
    if (key === 'input' && raw === TRAINED_INPUT) {
      const { selection, problems } = parseTrained(Object.fromEntries(TRAINED_URL_KEYS.map((k) => [k, q.get(k)])));
      for (const p of problems) out.notices.push(trainedNotice(p, 'url'));
      if (selection) out.trained = selection;
      continue;
    }
    const r = parseParam(key, raw);
    if (r.ok) (out.params as Record<string, unknown>)[key] = r.value;
    else
      out.notices.push({
        level: 'error',
        code: 'param-rejected',
        source: 'url',
        key: URL_KEYS[key],
        raw: raw.slice(0, 40),
        reason: r.reason,
      });
  }
  const lang = q.get('lang');
  if (lang !== null) {
    if ((LANGS as readonly string[]).includes(lang)) out.ui.lang = lang as UiState['lang'];
    else out.notices.push(reject('lang', lang, 'not-an-option'));
  }
  const theme = q.get('theme');
  if (theme !== null) {
    if ((THEMES as readonly string[]).includes(theme)) out.ui.theme = theme as UiState['theme'];
    else out.notices.push(reject('theme', theme, 'not-an-option'));
  }
  const row = q.get('row');
  if (row !== null) {
    const n = out.params.n ?? DEFAULT_PARAMS.n;
    if (!/^\d{1,6}$/.test(row)) out.notices.push(reject('row', row, 'not-an-integer'));
    else if (Number(row) >= n) out.notices.push(reject('row', row, 'out-of-range'));
    else out.ui.pinnedRow = Number(row);
  }
  const tol = q.get('tol');
  if (tol !== null) {
    const v = Number(tol);
    if ((RANK_TOLERANCES as readonly number[]).includes(v) && /^[0-9.e-]{1,8}$/i.test(tol)) out.ui.rankTol = v;
    else out.notices.push(reject('tol', tol, 'not-an-option'));
  }
  const embed = q.get('embed');
  if (embed !== null) {
    if ((PANEL_IDS as readonly string[]).includes(embed)) out.ui.embed = embed as PanelId;
    else out.ui.embedUnknown = embed.slice(0, 40); // the embed shell names the valid panels
  }
  const controls = q.get('controls');
  if (controls !== null) {
    const ids = parseEmbedControls(controls);
    if (ids) out.ui.embedControls = ids;
    else out.notices.push(reject('controls', controls, 'not-an-option'));
  }
  const embedId = q.get('embedId');
  if (embedId !== null) {
    if (isEmbedId(embedId)) out.ui.embedId = embedId;
    else out.notices.push(reject('embedId', embedId, 'not-an-option'));
  }
  const figure = q.get('figure');
  if (figure !== null) {
    // one figure of the embedded panel; anything else (no embed, a figure of another panel) shows the whole panel and says why
    const id = parseEmbedFigure(out.ui.embed ?? null, figure);
    if (id) out.ui.embedFigure = id;
    else out.notices.push(reject('figure', figure, 'not-an-option'));
  }
  const hide = q.get('hide');
  if (hide !== null) {
    const ids = hide.split(',').filter(Boolean);
    const ok = ids.filter((id): id is PanelId => (PANEL_IDS as readonly string[]).includes(id));
    if (ok.length !== ids.length) out.notices.push(reject('hide', hide, 'not-an-option'));
    out.ui.hidden = [...new Set(ok)];
  }
  const present = q.get('present');
  if (present !== null) {
    if (['', '1', 'true', 'yes', 'on'].includes(present)) out.ui.present = true;
    else if (!['0', 'false', 'no', 'off'].includes(present))
      out.notices.push(reject('present', present, 'not-an-option'));
  }
  const step = q.get('step');
  if (step !== null) {
    // a number or a slide's name; a bad step opens slide 1 (the default) and says why
    const r = parseStep(step);
    if (r.ok) out.ui.step = r.step;
    else out.notices.push(reject('step', step, r.reason));
  }
  const train = q.get('train');
  if (train !== null) {
    // field by field: a bad field is reported and keeps the default, the good ones apply
    const { setup, problems } = parseSetup(train, defaultSetup('webgpu'));
    for (const p of problems)
      out.notices.push(reject(p.field === 'train' ? 'train' : `train.${p.field}`, p.raw, p.reason));
    out.training.setup = setup;
  }
  const run = q.get('run');
  if (run !== null) {
    if (['1', 'true', 'yes', 'on'].includes(run)) out.training.run = true;
    else if (!['0', 'false', 'no', 'off'].includes(run)) out.notices.push(reject('run', run, 'not-an-option'));
  }
  return out;
}

/**
 * The query string for `state`, keeping any keys of `current` that the store does not own.
 * `lang` is written only when it differs from `defaultLang` (the browser's language) or `current`
 * already names one (given explicitly): a link without `lang` opens in each reader's language, a link
 * that names one keeps it.
 */
export function writeUrl(
  state: Pick<AppState, 'params' | 'ui'> & { upload?: AppState['upload']; training?: Pick<TrainingState, 'setup'> },
  current = '',
  defaultLang: Lang = 'en',
): string {
  const q = new URLSearchParams(current.length <= MAX_QUERY_LENGTH ? current : '');
  const p = state.params;
  for (const key of Object.keys(URL_KEYS) as ParamKey[]) {
    const v = p[key];
    q.set(URL_KEYS[key], typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
  }
  // the head in force, else (nothing in force yet) the one whose forward pass is on its way
  const active = state.upload?.active;
  const trained = active ? active.trained : state.upload?.pendingTrained?.selection;
  if (active || trained) q.set(URL_KEYS.input, trained ? TRAINED_INPUT : UPLOADED_INPUT);
  for (const k of TRAINED_URL_KEYS) {
    const v = trained ? trainedUrlValue(trained, k) : null;
    if (v === null) q.delete(k);
    else q.set(k, v);
  }
  const ui = state.ui;
  const setOrDelete = (k: string, v: string | null) => (v === null ? q.delete(k) : q.set(k, v));
  setOrDelete('lang', ui.lang === defaultLang && !q.has('lang') ? null : ui.lang);
  setOrDelete('theme', ui.theme === 'auto' ? null : ui.theme);
  setOrDelete('row', ui.pinnedRow === null ? null : String(ui.pinnedRow));
  setOrDelete('tol', ui.rankTol === 1e-6 ? null : String(ui.rankTol));
  setOrDelete('embed', ui.embed ?? ui.embedUnknown);
  setOrDelete('controls', ui.embedControls === null ? null : writeEmbedControls(ui.embedControls));
  setOrDelete('embedId', ui.embedId);
  setOrDelete('figure', ui.embed ? ui.embedFigure : null);
  setOrDelete('hide', ui.hidden.length ? ui.hidden.join(',') : null);
  setOrDelete('present', ui.present ? '1' : null);
  setOrDelete('step', ui.present ? String(ui.step) : null);
  // `run` is the link's instruction, not state: kept as given. `train` only when the store's
  // training slice is passed (a caller without it keeps the current value).
  if (state.training) setOrDelete('train', state.training.setup ? writeSetup(state.training.setup) : null);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/**
 * The app language for a browser's preferred languages (`navigator.languages`, best first): the first
 * one we have — any zh* (zh-CN, zh-Hans, zh-TW, …) gives zh, any en* gives en — else English.
 */
export function browserLang(languages: readonly string[]): Lang {
  for (const tag of languages) {
    const primary = tag.toLowerCase().split(/[-_]/)[0];
    if (primary === 'zh') return 'zh';
    if (primary === 'en') return 'en';
  }
  return 'en';
}
