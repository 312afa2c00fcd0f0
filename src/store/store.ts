/**
 * The one store: a zustand vanilla store holding only plain, structured-cloneable data (parameters,
 * UI state, the latest engine result, analysis results, notices), so it can be exported, restored,
 * put in a URL or shared with an embedded panel. Actions live beside it (`createActions`), not in
 * it. Nothing here knows about React or the DOM; src/store/react.tsx is the thin binding.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { BackendInfo } from '../core/attention-job';
import type { EngineErrorCode } from '../core/errors';
import type { TokenizeProblem } from '../core/train/tasks/text-words';
import type { AttentionParams } from '../core/types';
import type { ComputeResult } from '../engine/protocol';
import type { AnalysisOpName, AnalysisResults } from '../engine/analysis';
import { DEFAULT_RANK_TOL, RANK_TOLERANCES } from '../core/rank';
import { coerceParam, DEFAULT_PARAMS, type ParamKey, type RejectReason } from './params';
import type { EmbedControlId, EmbedFigureId } from './embed';
import { EMPTY_UPLOAD, isUploadLocked, type UploadState } from './upload-state';
import { INITIAL_TRAINING, type TrainingState } from './training';

export const LANGS = ['en', 'zh'] as const;
export type Lang = (typeof LANGS)[number];
export const THEMES = ['auto', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];
export type ColorScale = 'linear' | 'log';

/** Panels that can be shown alone (`?embed=<panel>`) or hidden (`?hide=a,b`). */
export const PANEL_IDS = ['main', 'error', 'sparsity', 'rank', 'feature-maps', 'beyond', 'speed', 'training'] as const;
export type PanelId = (typeof PANEL_IDS)[number];

export interface UiState {
  /** query row whose full attention row is requested and charted (null: the default row) */
  pinnedRow: number | null;
  /** row under the pointer in a heatmap (not part of the compute request) */
  hoveredRow: number | null;
  lang: Lang;
  theme: Theme;
  colorScale: ColorScale;
  /** relative tolerance of the numerical rank */
  rankTol: number;
  embed: PanelId | null;
  hidden: PanelId[];
  /** embed: controls shown in the strip (`controls=`; null: the panel's defaults, []: none) */
  embedControls: EmbedControlId[] | null;
  /** embed: the frame's name in its messages (`embedId=`) */
  embedId: string | null;
  /** embed: one figure of the panel shown alone (`figure=`; null: the whole panel) */
  embedFigure: EmbedFigureId | null;
  /** `embed=` named no panel: the raw value, so the page can say so instead of falling back */
  embedUnknown: string | null;
  /** lecture mode (`?present`): full-viewport slides instead of the page */
  present: boolean;
  /** current slide of lecture mode, 1-based (1 … PRESENT_STEP_COUNT) */
  step: number;
}

/** Number of slides of lecture mode (src/present/story.ts holds one step per slide; a test keeps them equal). */
import { PRESENT_STEP_COUNT } from './present-steps';
export { PRESENT_STEP_COUNT };

export interface EngineErrorInfo {
  code: EngineErrorCode | string;
  message: string;
}

export interface ComputeState {
  status: 'idle' | 'computing' | 'ok' | 'error' | 'cancelled' | 'held';
  /** last error; the previous result stays on screen */
  error: EngineErrorInfo | null;
  result: ComputeResult | null;
  /** ms from the request that produced `result` to its arrival on the main thread */
  latencyMs: number | null;
  /** the run in progress (absent/null when none) */
  running?: RunningCompute | null;
  /** the run the user cancelled last (absent/null when none, or a newer run finished since) */
  cancelled?: CancelledCompute | null;
  /** a run predicted too long to start unasked (status 'held'): it waits for "Compute anyway" */
  held?: RunningCompute | null;
}

/** A compute on its way: what it computes, where, since when (Date.now() ms) and how long it should take. */
export interface RunningCompute {
  params: AttentionParams;
  backend: BackendInfo['kind'];
  startedAt: number;
  /** predicted wall time in ms (FLOP model × measured rate; src/engine/cost-model.ts) */
  estimateMs: number;
  /** the prediction is long enough to announce it with a Cancel button */
  long: boolean;
}

/** A cancelled run: its parameters; `reverted` when the controls went back to the shown result's. */
export interface CancelledCompute {
  params: AttentionParams;
  estimateMs: number;
  reverted: boolean;
}

export interface AnalysisEntry<T = unknown> {
  op: string;
  /** dependency key of the run in progress (or last finished) */
  key: string;
  status: 'running' | 'done' | 'error' | 'cancelled';
  progress: { done: number; total: number; label?: string; detail?: unknown } | null;
  /** latest finished value and the key it was computed for (kept while a newer run is going) */
  value: T | null;
  valueKey: string | null;
  /**
   * false while `value` is a coarse stage (smaller budgets, src/store/analyses.ts `coarse`) whose
   * refinement for the same key is still to come; a coarse value is never the final one
   */
  refined: boolean;
  /**
   * How the run of `key` was sent: 2 with a coarse stage first, 1 the full run only (an op with one
   * stage, or a coarse stage left out because the op's last full run was fast: analysis-runs.ts)
   */
  stages: 1 | 2;
  error: EngineErrorInfo | null;
  elapsedMs: number | null;
}

/** The store's analyses: op name → the entry of that op (its value typed by the op's result). */
export type AnalysisEntries = { [K in AnalysisOpName]?: AnalysisEntry<AnalysisResults[K]> };

export type Notice =
  | {
      id: number;
      level: 'error';
      code: 'param-rejected';
      source: 'url' | 'control';
      key: string;
      raw: string;
      reason: RejectReason;
    }
  | { id: number; level: 'warning'; code: 'param-clamped'; key: ParamKey; raw: string; to: number }
  | { id: number; level: 'warning'; code: 'backend-changed'; why: string }
  | { id: number; level: 'warning'; code: 'upload-not-in-link' }
  /** a language's strings could not be loaded (offline, a blocked chunk): the page keeps its language */
  | { id: number; level: 'error'; code: 'lang-unavailable'; lang: Lang }
  /** input=trained: the forward pass of a selection failed (the head in force stays) */
  | { id: number; level: 'error'; code: 'trained-failed'; message: string; errorCode: string }
  /** `trained`: what is in force is a trained head (input=trained), not uploaded files */
  | { id: number; level: 'warning'; code: 'upload-locked'; key: ParamKey; trained?: boolean }
  /** typed text for a trained head that does not tokenize (src/store/trained.ts): the text and why */
  | {
      id: number;
      level: 'error';
      code: 'trained-text-rejected';
      source: 'url' | 'control';
      text: string;
      problems: TokenizeProblem[];
    };

export type NoticeInput = Notice extends infer N ? (N extends Notice ? Omit<N, 'id'> : never) : never;

export interface AppState {
  params: AttentionParams;
  ui: UiState;
  compute: ComputeState;
  /** `warming`: the CPU stand-in computes while WebGPU compiles its pipelines */
  backend: { info: BackendInfo | null; why: string | null; warming?: boolean };
  /** one entry per analysis op, typed by the op's result */
  analyses: AnalysisEntries;
  notices: Notice[];
  /** bring-your-own Q, K (V): see src/store/upload.ts */
  upload: UploadState;
  /** the training comparison (src/store/training.ts) */
  training: TrainingState;
}

export type AppStore = StoreApi<AppState>;

export function initialState(params: Partial<AttentionParams> = {}, ui: Partial<UiState> = {}): AppState {
  return {
    params: { ...DEFAULT_PARAMS, ...params },
    ui: {
      pinnedRow: null,
      hoveredRow: null,
      lang: 'en',
      theme: 'auto',
      colorScale: 'linear',
      rankTol: DEFAULT_RANK_TOL,
      embed: null,
      hidden: [],
      embedControls: null,
      embedId: null,
      embedFigure: null,
      embedUnknown: null,
      present: false,
      step: 1,
      ...ui,
    },
    compute: { status: 'idle', error: null, result: null, latencyMs: null },
    backend: { info: null, why: null },
    analyses: {},
    notices: [],
    upload: EMPTY_UPLOAD,
    training: INITIAL_TRAINING,
  };
}

export function createAppStore(init: AppState = initialState()): AppStore {
  return createStore<AppState>()(() => init);
}

/** The query row the main comparison charts when none is pinned. */
export function defaultRow(n: number): number {
  return Math.max(0, Math.floor(n / 2));
}

let noticeId = 1;
const MAX_NOTICES = 12;

export interface Actions {
  /** Validated/clamped update of one parameter; returns false (and posts a notice) if rejected. */
  setParam<K extends ParamKey>(key: K, value: unknown): boolean;
  /** Several parameters at once (all validated; rejected ones are skipped with a notice). */
  setParams(values: Partial<Record<ParamKey, unknown>>): void;
  /** New random projection W: featureSeed + 1. */
  redrawFeatures(): void;
  resetParams(): void;
  pinRow(row: number | null): void;
  hoverRow(row: number | null): void;
  setUi<K extends 'lang' | 'theme' | 'colorScale' | 'rankTol'>(key: K, value: UiState[K]): void;
  notify(n: NoticeInput): void;
  dismissNotice(id: number): void;
  clearNotices(): void;
  /** Enter or leave lecture mode. */
  setPresent(on: boolean): void;
  /** Go to slide `step` (1-based; clamped to 1 … PRESENT_STEP_COUNT, non-integers ignored). */
  setStep(step: number): void;
}

export function createActions(store: AppStore): Actions {
  // the same notice again (a value typed and refused five times) moves to the end instead of stacking
  // a copy: the list says each thing once, the latest last
  const notify = (n: NoticeInput): void => {
    const notice = { ...n, id: noticeId++ } as Notice;
    const same = JSON.stringify(n);
    store.setState((s) => ({
      notices: [...s.notices.filter(({ id: _, ...rest }) => JSON.stringify(rest) !== same), notice].slice(-MAX_NOTICES),
    }));
  };

  function apply(values: Partial<Record<ParamKey, unknown>>): Partial<AttentionParams> {
    const next: Partial<AttentionParams> = {};
    for (const key of Object.keys(values) as ParamKey[]) {
      const raw = values[key];
      const active = store.getState().upload.active;
      if (isUploadLocked(key) && active) {
        notify({ level: 'warning', code: 'upload-locked', key, ...(active.trained ? { trained: true } : {}) });
        continue;
      }
      const r = coerceParam(key, raw);
      if (!r.ok) {
        notify({
          level: 'error',
          code: 'param-rejected',
          source: 'control',
          key,
          raw: String(raw).slice(0, 40),
          reason: r.reason,
        });
        continue;
      }
      if (r.clampedFrom !== undefined) {
        notify({ level: 'warning', code: 'param-clamped', key, raw: String(raw).slice(0, 40), to: r.value as number });
      }
      (next as Record<string, unknown>)[key] = r.value;
    }
    return next;
  }

  function commit(next: Partial<AttentionParams>): void {
    const s = store.getState();
    const changed = (Object.keys(next) as ParamKey[]).some((k) => next[k] !== s.params[k]);
    if (!changed) return;
    const params = { ...s.params, ...next };
    const up = s.upload.active;
    if (up) Object.assign(params, { n: up.n, d: up.d, scale: s.params.scale, input: s.params.input }); // they follow the files
    const ui = { ...s.ui };
    if (ui.pinnedRow !== null && ui.pinnedRow >= params.n) ui.pinnedRow = null;
    if (ui.hoveredRow !== null && ui.hoveredRow >= params.n) ui.hoveredRow = null;
    store.setState({ params, ui });
  }

  return {
    setParam(key, value) {
      const next = apply({ [key]: value } as Partial<Record<ParamKey, unknown>>);
      commit(next);
      return key in next;
    },
    setParams(values) {
      commit(apply(values));
    },
    redrawFeatures() {
      const { featureSeed } = store.getState().params;
      commit({ featureSeed: featureSeed >= 4_294_967_295 ? 0 : featureSeed + 1 });
    },
    resetParams() {
      commit({ ...DEFAULT_PARAMS });
    },
    pinRow(row) {
      const { params, ui } = store.getState();
      const v = row === null || !Number.isInteger(row) || row < 0 || row >= params.n ? null : row;
      if (v !== ui.pinnedRow) store.setState({ ui: { ...ui, pinnedRow: v } });
    },
    hoverRow(row) {
      const { ui } = store.getState();
      if (row !== ui.hoveredRow) store.setState({ ui: { ...ui, hoveredRow: row } });
    },
    setUi(key, value) {
      const { ui } = store.getState();
      if (key === 'rankTol' && !(RANK_TOLERANCES as readonly number[]).includes(value as number)) return;
      if (ui[key] !== value) store.setState({ ui: { ...ui, [key]: value } });
    },
    notify,
    dismissNotice(id) {
      store.setState((s) => ({ notices: s.notices.filter((n) => n.id !== id) }));
    },
    clearNotices() {
      store.setState({ notices: [] });
    },
    setPresent(on) {
      const { ui } = store.getState();
      if (ui.present !== on) store.setState({ ui: { ...ui, present: on } });
    },
    setStep(step) {
      if (!Number.isInteger(step)) return;
      const { ui } = store.getState();
      const v = Math.max(1, Math.min(PRESENT_STEP_COUNT, step));
      if (ui.step !== v) store.setState({ ui: { ...ui, step: v } });
    },
  };
}
