/**
 * The embed contract, as plain data and pure functions (no DOM): which controls an embedded panel
 * can show (`controls=`), how a frame is named (`embedId=`), and the two postMessage formats.
 *
 * Frame → parent, on load and on every size change:
 *   { type: 'performer-explainer:resize', id, height }   (id: the embedId or null; height: CSS px)
 * Parent → frame, to change parameters (accepted only from window.parent, only when the frame has an
 * embedId, and only in exactly this shape; anything else is ignored):
 *   { type: 'performer-explainer:set', id, params }       (params: URL keys → values, e.g. { m: 64, scale: '1.5' })
 * Every value goes through the same strict rules as the URL (`parseParam`); one bad key or value
 * rejects the whole message, so a message never half-applies.
 */
import type { AttentionParams } from '../core/types';
import { parseParam, type ParamKey } from './params';
import type { PanelId } from './store';

export const RESIZE_MESSAGE = 'performer-explainer:resize';
export const SET_MESSAGE = 'performer-explainer:set';

/** Controls an embed can show, named by their URL keys. */
export const EMBED_CONTROL_IDS = ['n', 'd', 'm', 'scale', 'map', 'proj', 'input', 'causal', 'seed'] as const;
export type EmbedControlId = (typeof EMBED_CONTROL_IDS)[number];

/** The controls that matter for each panel, shown when the URL has no `controls=`. */
export const DEFAULT_EMBED_CONTROLS: { readonly [P in PanelId]: readonly EmbedControlId[] } = {
  main: ['n', 'm', 'scale', 'map'],
  error: ['m', 'scale', 'd', 'map'],
  sparsity: ['n', 'scale', 'input', 'map'],
  rank: ['n', 'm', 'scale', 'causal'],
  'feature-maps': ['m', 'scale', 'map'],
  speed: ['d', 'm'],
  beyond: ['n', 'm', 'scale', 'proj'],
  // the training panel carries its own configuration (task, kinds, sizes): no attention controls
  training: [],
};

/**
 * The figures an embed can show alone (`figure=`), per panel: a blog post that discusses one figure
 * embeds that figure — its title, status, chart and notes, with the controls — without the panel's
 * other figures and prose (an error embed is ~3,000 px tall; one of its figures ~500). Only the named
 * figure's analysis runs. The ids are the figures' export names (their PNG / SVG / CSV file names;
 * the main panel's: its three heatmaps together, and its query row).
 */
export const EMBED_FIGURES = {
  main: ['heatmaps', 'attention-row'],
  error: ['error-vs-m', 'error-vs-scale', 'entropy-vs-scale', 'error-vs-d', 'entry-error'],
  sparsity: ['entropy-histogram', 'top-k-mass', 'entropy-vs-n', 'local-truncation'],
  'feature-maps': ['feature-map-curves', 'map-rows'],
  beyond: ['beyond-error-vs-dim', 'beyond-error-vs-scale', 'beyond-error-vs-time'],
} as const satisfies Partial<Record<PanelId, readonly string[]>>;
export type EmbedFigurePanel = keyof typeof EMBED_FIGURES;
export type EmbedFigureId = (typeof EMBED_FIGURES)[EmbedFigurePanel][number];

/** The figures `panel` can show alone ([] for a panel of one figure). */
export function embedFiguresOf(panel: PanelId): readonly EmbedFigureId[] {
  return Object.prototype.hasOwnProperty.call(EMBED_FIGURES, panel) ? EMBED_FIGURES[panel as EmbedFigurePanel] : [];
}

/**
 * What draws the main comparison's result: these panels whole (the error panel quotes its numbers),
 * and these figures alone (error vs m's ring is the current result).
 */
const DRAWS_MAIN_RESULT: { panels: readonly PanelId[]; figures: readonly EmbedFigureId[] } = {
  panels: ['main', 'error'],
  figures: ['heatmaps', 'attention-row', 'error-vs-m'],
};

/**
 * Whether the page shows the main comparison's result: everywhere but in an embed of a panel or a
 * figure that never draws it. Such an embed computes its analyses only: the main comparison would be
 * work no reader sees (at the defaults 22 ms a step, against a rank embed's 5 ms of spectra).
 */
export function showsMainResult(panel: PanelId | null, figure: EmbedFigureId | null): boolean {
  if (panel === null) return true;
  return figure === null ? DRAWS_MAIN_RESULT.panels.includes(panel) : DRAWS_MAIN_RESULT.figures.includes(figure);
}

/** The panel a figure belongs to. */
export function panelOfFigure(figure: EmbedFigureId): EmbedFigurePanel {
  const panels = Object.keys(EMBED_FIGURES) as EmbedFigurePanel[];
  return panels.find((p) => (EMBED_FIGURES[p] as readonly string[]).includes(figure))!;
}

/** `figure=` for an embed of `panel`: the figure's id if that panel has it, else null. */
export function parseEmbedFigure(panel: PanelId | null, raw: string): EmbedFigureId | null {
  if (panel === null) return null;
  return embedFiguresOf(panel).find((f) => f === raw) ?? null;
}

/**
 * Figures whose parameters differ from their panel's: the scalar curves are fixed functions (only
 * the map's notes change), and the per-map rows show every map at once. Their defaults are the
 * controls that change them, so no slider of an embed moves nothing.
 */
const FIGURE_CONTROLS: Partial<Record<EmbedFigureId, readonly EmbedControlId[]>> = {
  'feature-map-curves': ['map'],
  'map-rows': ['n', 'm', 'scale'],
};

/** The controls shown when the URL has no `controls=`: the figure's where it has its own, else the panel's. */
export function defaultEmbedControls(panel: PanelId, figure: EmbedFigureId | null = null): readonly EmbedControlId[] {
  return (figure && FIGURE_CONTROLS[figure]) || DEFAULT_EMBED_CONTROLS[panel];
}

export function embedControlsFor(
  panel: PanelId,
  chosen: readonly EmbedControlId[] | null,
  figure: EmbedFigureId | null = null,
): readonly EmbedControlId[] {
  return chosen ?? defaultEmbedControls(panel, figure);
}

/** `controls=none` → []; `controls=m,scale` → ['m', 'scale'] (deduplicated, in the given order); else null. */
export function parseEmbedControls(raw: string): EmbedControlId[] | null {
  if (raw === 'none') return [];
  const ids = raw.split(',');
  if (
    ids.length > EMBED_CONTROL_IDS.length * 2 ||
    !ids.every((id) => (EMBED_CONTROL_IDS as readonly string[]).includes(id))
  )
    return null;
  return [...new Set(ids as EmbedControlId[])];
}

export function writeEmbedControls(ids: readonly EmbedControlId[]): string {
  return ids.length ? ids.join(',') : 'none';
}

/** 1–64 letters, digits, '-' or '_' (safe in attributes, selectors and logs). */
const EMBED_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;
export function isEmbedId(raw: unknown): raw is string {
  return typeof raw === 'string' && EMBED_ID_RE.test(raw);
}

export interface ResizeMessage {
  type: typeof RESIZE_MESSAGE;
  id: string | null;
  height: number;
}

export function resizeMessage(id: string | null, height: number): ResizeMessage {
  return { type: RESIZE_MESSAGE, id, height: Math.max(0, Math.ceil(height)) };
}

/** URL key → parameter, for the keys a set message may carry (the same keys as the URL). */
const SETTABLE: Readonly<Record<string, ParamKey>> = {
  n: 'n',
  d: 'd',
  m: 'm',
  seed: 'seed',
  fseed: 'featureSeed',
  map: 'featureMap',
  proj: 'projection',
  causal: 'causal',
  input: 'input',
  scale: 'scale',
};

function isPlainObject(x: unknown): x is Record<string, unknown> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return false;
  const proto = Object.getPrototypeOf(x) as unknown;
  return proto === Object.prototype || proto === null;
}

function hasExactly(o: Record<string, unknown>, keys: readonly string[]): boolean {
  const own = Object.keys(o);
  return own.length === keys.length && keys.every((k) => Object.prototype.hasOwnProperty.call(o, k));
}

/**
 * Validates a received message for the frame named `frameId`. Returns the parameters to apply, or
 * null when the message is not exactly a set message for this frame with valid values.
 */
export function parseSetMessage(data: unknown, frameId: string | null): Partial<AttentionParams> | null {
  if (frameId === null || !isPlainObject(data) || !hasExactly(data, ['type', 'id', 'params'])) return null;
  if (data.type !== SET_MESSAGE || data.id !== frameId || !isPlainObject(data.params)) return null;
  const entries = Object.entries(data.params);
  if (entries.length === 0 || entries.length > Object.keys(SETTABLE).length) return null;
  const out: Partial<AttentionParams> = {};
  for (const [urlKey, value] of entries) {
    if (!Object.prototype.hasOwnProperty.call(SETTABLE, urlKey)) return null;
    if (
      typeof value !== 'string' &&
      typeof value !== 'boolean' &&
      !(typeof value === 'number' && Number.isFinite(value))
    )
      return null;
    const key = SETTABLE[urlKey]!;
    const r = parseParam(key, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
    if (!r.ok) return null;
    (out as Record<string, unknown>)[key] = r.value;
  }
  return out;
}
