/**
 * `input=trained`: one head of a bundled trained model (src/core/trained) as the inputs of every
 * panel. Its Q, K, V come from the model's forward pass in the engine worker (`heads`: WGSL on
 * WebGPU, else the CPU twin; asynchronous, the latest selection wins) and enter the store exactly
 * as an upload does (`upload.active`, src/store/upload.ts):
 * n and d follow the model (sequence length, head dim), the norm scale shows their RMS, the causal
 * mask is the model's, a new id re-keys the analyses — so every op and the export see the head.
 * `upload.active.trained` names the selection, which the URL carries (model, layer, head, and
 * example — or, for the grammar model, `text`: typed words, src/core/trained/sequence.ts).
 * A selection that does not fit the model changes nothing and says why (a notice; text that does
 * not tokenize gets a `trained-text-rejected` notice, shown at the text box, naming each unknown word).
 */
import { isEngineError } from '../core/errors';
import { detokenize, TEXT_MAX_CHARS, type TokenizeProblem } from '../core/train/tasks/text-words';
import { BUNDLES, bundleShape } from '../core/trained/bundles';
import { isTrainedModelId, TRAINED_MODELS, type TrainedModelId, type TrainedSelection } from '../core/trained/configs';
import { EXAMPLE_COUNT, type HeadInputs } from '../core/trained/heads';
import { selectionTokens, tokenizeFor } from '../core/trained/sequence';
import { entryRms } from '../core/upload-check';
import type { Matrix } from '../core/types';
import type { HeadsRequest, HeadsResult } from '../engine/protocol';
import { SCALE_RANGE } from './params';
import type { Actions, AppStore, NoticeInput } from './store';
import type { StagedMatrix, TrainedRun, UploadedInputs, UploadState } from './upload-state';

export const DEFAULT_TRAINED: TrainedSelection = { model: 'mqar', layer: 0, head: 0, example: 0 };
export const TRAINED_URL_KEYS = ['model', 'layer', 'head', 'example', 'text'] as const;
export type TrainedUrlKey = (typeof TRAINED_URL_KEYS)[number];

export { TRAINED_MODELS, EXAMPLE_COUNT, type TrainedSelection };

/** The largest valid value of each index key for `model` (layer, head, example). */
export function trainedLimits(model: TrainedModelId): Record<'layer' | 'head' | 'example', number> {
  const s = bundleShape(model);
  return { layer: s.layers - 1, head: s.heads - 1, example: EXAMPLE_COUNT - 1 };
}

export type TrainedProblem = {
  key: TrainedUrlKey;
  raw: string;
  reason: 'not-an-option' | 'out-of-range' | 'not-an-integer';
  /** key `text`: why the text does not tokenize (absent: the model has no tokenizer) */
  tokens?: TokenizeProblem[];
};

/**
 * `text` for model `model`: its canonical form (the tokenizer's words written back), or the problem —
 * the model has no tokenizer (not-an-option), or the text does not tokenize (`tokens` says why).
 */
function readText(model: TrainedSelection['model'], text: string): { text: string } | { problem: TrainedProblem } {
  const r = tokenizeFor(model, text);
  if (!r) return { problem: { key: 'text', raw: text.slice(0, 40), reason: 'not-an-option' } };
  if (!r.ok) return { problem: { key: 'text', raw: text, reason: 'not-an-option', tokens: r.problems } };
  return { text: detokenize(r.ids) };
}

/** The notice of a problem (the text's own, with its words, for text that does not tokenize). */
export function trainedNotice(p: TrainedProblem, source: 'url' | 'control'): NoticeInput {
  if (p.tokens)
    return {
      level: 'error',
      code: 'trained-text-rejected',
      source,
      text: p.raw.slice(0, TEXT_MAX_CHARS),
      problems: p.tokens,
    };
  return { level: 'error', code: 'param-rejected', source, key: p.key, raw: p.raw.slice(0, 40), reason: p.reason };
}

/**
 * Strict reading of the selection's raw values (URL): a bad model rejects the whole selection; a bad
 * layer, head or example is reported and falls back to 0; `text` (instead of the example) is read by
 * the model's tokenizer, and bad text is reported and leaves the example in force.
 */
export function parseTrained(raw: Partial<Record<TrainedUrlKey, string | null>>): {
  selection: TrainedSelection | null;
  problems: TrainedProblem[];
} {
  const problems: TrainedProblem[] = [];
  const m = raw.model ?? DEFAULT_TRAINED.model;
  if (!isTrainedModelId(m))
    return { selection: null, problems: [{ key: 'model', raw: m.slice(0, 40), reason: 'not-an-option' }] };
  const lim = trainedLimits(m);
  const sel: TrainedSelection = { ...DEFAULT_TRAINED, model: m };
  for (const key of ['layer', 'head', 'example'] as const) {
    const v = raw[key];
    if (v === null || v === undefined) continue;
    if (!/^\d{1,4}$/.test(v)) problems.push({ key, raw: v.slice(0, 40), reason: 'not-an-integer' });
    else if (Number(v) > lim[key]) problems.push({ key, raw: v, reason: 'out-of-range' });
    else sel[key] = Number(v);
  }
  if (raw.text !== null && raw.text !== undefined) {
    const r = readText(m, raw.text);
    if ('problem' in r) problems.push(r.problem);
    else Object.assign(sel, { example: 0, text: r.text });
  }
  return { selection: sel, problems };
}

/** Whether `sel` names a head of its model (for selections from the UI and tests). */
export function validTrained(sel: TrainedSelection): TrainedProblem | null {
  if (!isTrainedModelId(sel.model)) return { key: 'model', raw: String(sel.model), reason: 'not-an-option' };
  const lim = trainedLimits(sel.model);
  for (const key of ['layer', 'head', 'example'] as const) {
    const v = sel[key];
    if (!Number.isInteger(v)) return { key, raw: String(v), reason: 'not-an-integer' };
    if (v < 0 || v > lim[key]) return { key, raw: String(v), reason: 'out-of-range' };
  }
  if (sel.text !== undefined) {
    const r = typeof sel.text === 'string' ? readText(sel.model, sel.text) : null;
    if (!r) return { key: 'text', raw: String(sel.text), reason: 'not-an-option' };
    if ('problem' in r) return r.problem;
  }
  return null;
}

/** The URL value of each selection key (null: the key is absent — `example` while text is in force). */
export function trainedUrlValue(sel: TrainedSelection, key: TrainedUrlKey): string | null {
  if (key === 'text') return sel.text ?? null;
  if (key === 'example' && sel.text !== undefined) return null;
  return String(sel[key]);
}

function staged(name: string, matrix: Matrix): StagedMatrix {
  return {
    matrix,
    file: {
      name,
      bytes: matrix.data.byteLength,
      format: 'npy',
      dtype: 'float32',
      notes: [],
      rows: matrix.rows,
      cols: matrix.cols,
    },
  };
}

let trainedCounter = 0;
let requestSeq = 0;

/** The engine's forward pass (EngineClient.heads); absent where no engine is wired (then the CPU twin runs here). */
export type HeadsSource = (req: HeadsRequest) => Promise<HeadsResult>;
const sources = new WeakMap<AppStore, HeadsSource>();

/** The controller wires the engine's `heads` for `store` (null: unwire). */
export function setHeadsSource(store: AppStore, source: HeadsSource | null): void {
  if (source) sources.set(store, source);
  else sources.delete(store);
}

/**
 * The CPU twin that runs here, synchronously, for a store with no engine wired (unit tests:
 * `setCpuHeads(modelHeads)` from core/trained/bundle-weights.ts). Injected rather than imported: the
 * page always has the engine, and importing the twin would put the models' weights in its bundle.
 */
let cpuHeads: ((model: TrainedModelId, tokens: Int32Array) => HeadInputs[][]) | null = null;
export function setCpuHeads(fn: typeof cpuHeads): void {
  cpuHeads = fn;
}

/** The tokens selection `sel` runs its model on (its typed text, else its example). */
export { selectionTokens };

const sameTokens = (a: Int32Array, b: Int32Array) => a.length === b.length && a.every((t, i) => t === b[i]);

/**
 * Puts the head `sel` in force, or posts a notice and changes nothing (false). Its Q, K, V come
 * from the engine's forward pass (WGSL on WebGPU, else the CPU twin in the worker): the head in
 * force stays until the answer arrives, an answer for an older selection is dropped (the latest
 * wins), a failure posts a notice and keeps the head in force. A head of the forward pass already
 * in force (same model and tokens) applies at once; without an engine (unit tests) the CPU twin
 * given to `setCpuHeads` runs here, and without that the selection is refused with a notice. The
 * state of before — generated inputs or an upload's `before` — is kept, so removing the head
 * restores it.
 */
export function selectTrained(
  store: AppStore,
  actions: Pick<Actions, 'notify'>,
  wanted: TrainedSelection,
  source: 'url' | 'control' = 'control',
): boolean {
  const bad = validTrained(wanted);
  if (bad) {
    actions.notify(trainedNotice(bad, source));
    return false;
  }
  const typed = wanted.text === undefined ? null : readText(wanted.model, wanted.text);
  // typed text is in force as the tokenizer reads it back (canonical words), with no example
  const sel = typed && 'text' in typed ? { ...wanted, example: 0, text: typed.text } : wanted;
  const tokens = selectionTokens(sel);
  const run = store.getState().upload.active?.heads;
  if (run && run.model === sel.model && sameTokens(run.tokens, tokens)) {
    applyHead(store, sel, run, source);
    return true;
  }
  const pending = store.getState().upload.pendingTrained;
  if (pending && JSON.stringify(pending.selection) === JSON.stringify(sel)) return true; // already on its way
  const heads = sources.get(store);
  if (!heads) {
    if (!cpuHeads) {
      actions.notify({
        level: 'error',
        code: 'trained-failed',
        message: 'no engine to run the trained model',
        errorCode: 'internal',
      });
      return false;
    }
    const t0 = performance.now();
    const cpu = cpuHeads(sel.model, tokens);
    applyHead(
      store,
      sel,
      {
        model: sel.model,
        tokens,
        heads: cpu,
        backend: 'cpu',
        adapter: '',
        ms: performance.now() - t0,
      },
      source,
    );
    return true;
  }
  const seq = ++requestSeq;
  setPending(store, { selection: sel, seq });
  const stillLatest = () => store.getState().upload.pendingTrained?.seq === seq;
  const ask = (retry: boolean): void => {
    heads({ model: sel.model, tokens }).then(
      (result) => {
        if (!stillLatest()) return;
        try {
          applyHead(store, sel, { ...result, tokens }, source);
        } catch (e) {
          fail(e);
        }
      },
      (e: unknown) => {
        if (!stillLatest()) return;
        // a worker replaced under the request (a cancelled CPU compute) answers 'cancelled': ask once more
        if (retry && isEngineError(e) && e.code === 'cancelled') ask(false);
        else fail(e);
      },
    );
  };
  const fail = (e: unknown) => {
    setPending(store, null);
    actions.notify({
      level: 'error',
      code: 'trained-failed',
      message: e instanceof Error ? e.message : String(e),
      // the engine's code, which the page words in its language (the message is the engine's English)
      errorCode: isEngineError(e) ? e.code : 'internal',
    });
  };
  ask(true);
  return true;
}

/** Gives up the selection still on its way (its answer is dropped when it comes); the head in force stays. */
export function cancelPendingTrained(store: AppStore): boolean {
  if (!store.getState().upload.pendingTrained) return false;
  setPending(store, null);
  return true;
}

function setPending(store: AppStore, pending: UploadState['pendingTrained']): void {
  const s = store.getState();
  store.setState({ upload: { ...s.upload, pendingTrained: pending } });
}

/** Puts head (sel.layer, sel.head) of `run` in force (as an upload is); throws if `run` has no such head. */
function applyHead(store: AppStore, sel: TrainedSelection, run: TrainedRun, source: 'url' | 'control'): void {
  const head = run.heads[sel.layer]?.[sel.head];
  const L = run.tokens.length;
  if (!head || head.q.rows !== L || head.k.rows !== L || head.v.rows !== L || head.q.cols !== head.k.cols)
    throw new Error(`the forward pass returned no ${L}-row head ${sel.layer}, ${sel.head}`);
  const s = store.getState();
  const n = head.q.rows;
  const d = head.q.cols;
  const rms = entryRms(head.q, head.k);
  const seq = sel.text === undefined ? `#${sel.example}` : 'text';
  const tag = `${sel.model} L${sel.layer} H${sel.head} ${seq}`;
  const active: UploadedInputs = {
    id: `t${++trainedCounter}-${sel.model}-${sel.layer}-${sel.head}-${sel.text === undefined ? sel.example : 'text'}`,
    n,
    d,
    q: staged(`${tag} Q`, head.q),
    k: staged(`${tag} K`, head.k),
    v: staged(`${tag} V`, head.v),
    rms,
    trained: sel,
    heads: run,
    before: s.upload.active?.before ?? {
      n: s.params.n,
      d: s.params.d,
      scale: s.params.scale,
      input: s.params.input,
      causal: s.params.causal,
    },
  };
  const scale = Math.min(SCALE_RANGE.max, Math.max(SCALE_RANGE.min, Number(rms.toPrecision(3))));
  const pinned = s.ui.pinnedRow !== null && s.ui.pinnedRow >= n ? null : s.ui.pinnedRow;
  store.setState({
    // a head now in force from the text box answers its earlier refusals there
    notices: source === 'control' ? s.notices.filter((x) => x.code !== 'trained-text-rejected') : s.notices,
    upload: { active, staged: {}, error: null, pendingTrained: null },
    // the head's A is the softmax the model computed: causal for a causal model
    params: { ...s.params, n, d, scale, input: 'gaussian', causal: BUNDLES[sel.model].config.model.causal },
    ui: pinned === s.ui.pinnedRow ? s.ui : { ...s.ui, pinnedRow: pinned, hoveredRow: null },
  });
}
