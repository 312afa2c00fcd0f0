import { describe, expect, it } from 'vitest';
import { EngineError } from '../core/errors';
import { bundledHeads, modelHeads } from '../core/trained/bundle-weights';
import { selectionText } from '../core/trained/sequence';
import type { HeadsRequest, HeadsResult } from '../engine/protocol';
import { buildRequest } from './compute-request';
import { createActions, createAppStore, type Notice, type NoticeInput } from './store';
import {
  cancelPendingTrained,
  DEFAULT_TRAINED,
  parseTrained,
  selectionTokens,
  selectTrained,
  setCpuHeads,
  setHeadsSource,
  validTrained,
} from './trained';
import { createUploadActions } from './upload';
import { loadFromUrl } from './url-sync';
import { readUrl, writeUrl } from './url';

// no engine here: selectTrained runs the CPU twin in place (the page always has the engine)
setCpuHeads(modelHeads);

function setup() {
  const store = createAppStore();
  return { store, actions: createActions(store), upload: createUploadActions(store) };
}

const rejectedKeys = (notices: readonly { code: string; key?: string }[]) =>
  notices.filter((n) => n.code === 'param-rejected').map((n) => n.key);

describe('input=trained locks what the head sets', () => {
  it('n, d and scale follow the head: changing one is refused with upload-locked marked as a trained head (its message names the head, not uploaded files)', () => {
    const { store, actions } = setup();
    selectTrained(store, actions, DEFAULT_TRAINED);
    for (const [key, v] of [
      ['n', 128],
      ['d', 32],
      ['scale', 0.5],
    ] as const) {
      expect(actions.setParam(key, v)).toBe(false);
      expect(store.getState().notices.at(-1)).toMatchObject({ code: 'upload-locked', key, trained: true });
    }
    expect(store.getState().params.n).toBe(64);
  });
});

describe('input=trained in the URL', () => {
  it('reads model, layer, head and example', () => {
    const r = readUrl('?input=trained&model=grammar&layer=1&head=1&example=3');
    expect(r.notices).toEqual([]);
    expect(r.trained).toEqual({ model: 'grammar', layer: 1, head: 1, example: 3 });
    expect(r.params.input).toBeUndefined();
  });

  it('defaults the missing keys to 0 and the model to mqar', () => {
    expect(readUrl('?input=trained').trained).toEqual(DEFAULT_TRAINED);
    expect(readUrl('?input=trained&model=grammar').trained).toEqual({ ...DEFAULT_TRAINED, model: 'grammar' });
  });

  it('rejects an unknown model with a notice and loads no head', () => {
    const r = readUrl('?input=trained&model=gpt2&layer=0');
    expect(r.trained).toBeUndefined();
    expect(rejectedKeys(r.notices)).toEqual(['model']);
  });

  it('rejects a layer, head or example outside the model (or not an integer) with a notice; that key stays 0', () => {
    const r = readUrl('?input=trained&model=mqar&layer=1&head=x&example=16');
    expect(r.trained).toEqual({ model: 'mqar', layer: 0, head: 0, example: 0 });
    expect(rejectedKeys(r.notices)).toEqual(['layer', 'head', 'example']);
    expect(parseTrained({ model: 'grammar', layer: '1', head: '2' }).problems.map((p) => p.reason)).toEqual([
      'out-of-range',
    ]);
  });

  it('writes the selection back (and drops the keys once the head is removed)', () => {
    const { store, actions, upload } = setup();
    expect(selectTrained(store, actions, { model: 'grammar', layer: 1, head: 0, example: 2 })).toBe(true);
    const q = new URLSearchParams(writeUrl(store.getState()));
    expect([q.get('input'), q.get('model'), q.get('layer'), q.get('head'), q.get('example')]).toEqual([
      'trained',
      'grammar',
      '1',
      '0',
      '2',
    ]);
    expect(readUrl(writeUrl(store.getState())).trained).toEqual({ model: 'grammar', layer: 1, head: 0, example: 2 });
    upload.remove();
    const after = new URLSearchParams(writeUrl(store.getState(), q.toString()));
    expect(['model', 'layer', 'head', 'example'].map((k) => after.has(k))).toEqual([false, false, false, false]);
    expect(after.get('input')).toBe('local');
  });

  it('loadFromUrl puts the head in force: n, d and causal follow the model', () => {
    const { store, actions } = setup();
    loadFromUrl(store, actions, '?input=trained&model=mqar&layer=0&head=1&example=4');
    const s = store.getState();
    expect(s.upload.active?.trained).toEqual({ model: 'mqar', layer: 0, head: 1, example: 4 });
    expect([s.params.n, s.params.d, s.params.causal, s.params.input]).toEqual([64, 16, true, 'gaussian']);
  });
});

describe('selectTrained', () => {
  it('the compute request carries exactly the head’s Q, K, V (as an upload does)', () => {
    const { store, actions } = setup();
    selectTrained(store, actions, { model: 'grammar', layer: 1, head: 1, example: 0 });
    const head = bundledHeads('grammar', 0)[1]![1]!;
    const req = buildRequest(store.getState());
    expect(req.external?.q.data).toEqual(head.q.data);
    expect(req.external?.k.data).toEqual(head.k.data);
    expect(req.external?.v?.data).toEqual(head.v.data);
    expect(req.params.n).toBe(head.q.rows);
    expect(req.params.d).toBe(head.q.cols);
  });

  it('with neither an engine nor a CPU twin given, a selection is refused with a notice and changes nothing', () => {
    const { store, actions } = setup();
    const before = store.getState();
    setCpuHeads(null);
    try {
      expect(selectTrained(store, actions, DEFAULT_TRAINED)).toBe(false);
    } finally {
      setCpuHeads(modelHeads);
    }
    const s = store.getState();
    expect(s.upload).toBe(before.upload);
    expect(s.params).toBe(before.params);
    expect(s.notices.map((n) => n.code)).toEqual(['trained-failed']);
  });

  it('a selection outside the model posts a notice and changes nothing', () => {
    const { store, actions } = setup();
    selectTrained(store, actions, DEFAULT_TRAINED);
    const before = store.getState();
    expect(selectTrained(store, actions, { model: 'mqar', layer: 0, head: 5, example: 0 })).toBe(false);
    const s = store.getState();
    expect(s.upload).toBe(before.upload);
    expect(s.params).toBe(before.params);
    expect(rejectedKeys(s.notices)).toEqual(['head']);
  });

  it('removing the head restores n, d, scale, input and causal of before', () => {
    const { store, actions, upload } = setup();
    const p0 = store.getState().params;
    selectTrained(store, actions, DEFAULT_TRAINED);
    selectTrained(store, actions, { ...DEFAULT_TRAINED, head: 1 });
    upload.remove();
    const p = store.getState().params;
    expect([p.n, p.d, p.scale, p.input, p.causal]).toEqual([p0.n, p0.d, p0.scale, p0.input, p0.causal]);
  });
});

/** An engine stand-in whose answers (the CPU twin's heads) the test releases, in any order, or fails. */
function deferredEngine() {
  const calls: { req: HeadsRequest; resolve: () => void; reject: (e: unknown) => void }[] = [];
  const source = (req: HeadsRequest) =>
    new Promise<HeadsResult>((res, rej) =>
      calls.push({
        req,
        resolve: () =>
          res({
            model: req.model,
            heads: modelHeads(req.model, req.tokens),
            backend: 'webgpu',
            adapter: 'test',
            ms: 1,
          }),
        reject: rej,
      }),
    );
  return { calls, source };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('selectTrained through the engine (asynchronous)', () => {
  it('asks the engine for the selection’s tokens; the head arrives with the backend that computed it', async () => {
    const { store, actions } = setup();
    const eng = deferredEngine();
    setHeadsSource(store, eng.source);
    const sel = { model: 'grammar' as const, layer: 1, head: 0, example: 5 };
    expect(selectTrained(store, actions, sel)).toBe(true);
    expect(eng.calls.map((c) => c.req.model)).toEqual(['grammar']);
    expect(eng.calls[0]!.req.tokens).toEqual(selectionTokens(sel));
    expect(store.getState().upload.active).toBeNull();
    eng.calls[0]!.resolve();
    await flush();
    const a = store.getState().upload.active!;
    expect(a.trained).toEqual(sel);
    expect(a.heads?.backend).toBe('webgpu');
    expect(a.q.matrix.data).toEqual(bundledHeads('grammar', 5)[1]![0]!.q.data);
    expect(store.getState().upload.pendingTrained).toBeNull();
    // another head of the same forward pass applies at once, without asking the engine again
    selectTrained(store, actions, { ...sel, head: 1 });
    expect(eng.calls).toHaveLength(1);
    expect(store.getState().upload.active?.v?.matrix.data).toEqual(bundledHeads('grammar', 5)[1]![1]!.v.data);
  });

  it('drops a stale answer: the latest selection wins, and the head in force stays until its answer arrives', async () => {
    const { store, actions } = setup();
    selectTrained(store, actions, DEFAULT_TRAINED); // no engine yet: the CPU twin here
    const first = store.getState().upload.active;
    const eng = deferredEngine();
    setHeadsSource(store, eng.source);
    selectTrained(store, actions, { ...DEFAULT_TRAINED, example: 1 });
    selectTrained(store, actions, { ...DEFAULT_TRAINED, example: 2, head: 1 });
    selectTrained(store, actions, { ...DEFAULT_TRAINED, example: 2, head: 1 }); // the same again: already asked
    expect(eng.calls).toHaveLength(2);
    expect(store.getState().upload.active).toBe(first);
    eng.calls[1]!.resolve();
    await flush();
    const latest = store.getState().upload.active;
    expect(latest?.trained).toEqual({ ...DEFAULT_TRAINED, example: 2, head: 1 });
    eng.calls[0]!.resolve(); // the older answer comes last
    await flush();
    expect(store.getState().upload.active).toBe(latest);
    expect(store.getState().notices).toEqual([]);
  });

  it('a selection still on its way can be given up: the head in force stays and its late answer is dropped', async () => {
    const { store, actions } = setup();
    selectTrained(store, actions, DEFAULT_TRAINED);
    const first = store.getState().upload.active;
    const eng = deferredEngine();
    setHeadsSource(store, eng.source);
    selectTrained(store, actions, { ...DEFAULT_TRAINED, example: 3 });
    expect(store.getState().upload.pendingTrained).not.toBeNull();
    expect(cancelPendingTrained(store)).toBe(true);
    expect(store.getState().upload.pendingTrained).toBeNull();
    eng.calls[0]!.resolve();
    await flush();
    expect(store.getState().upload.active).toBe(first);
    expect(cancelPendingTrained(store)).toBe(false);
  });

  it('a failure (e.g. a lost device) posts a notice and keeps the head, parameters and URL in force', async () => {
    const { store, actions } = setup();
    selectTrained(store, actions, { ...DEFAULT_TRAINED, head: 1 });
    const before = store.getState();
    const url = writeUrl(before);
    const eng = deferredEngine();
    setHeadsSource(store, eng.source);
    selectTrained(store, actions, { ...DEFAULT_TRAINED, example: 7 });
    expect(writeUrl(store.getState(), url)).toBe(url);
    eng.calls[0]!.reject(new EngineError('device-lost', 'GPU device lost (destroyed)'));
    await flush();
    const s = store.getState();
    expect(s.upload.active).toBe(before.upload.active);
    expect(s.params).toBe(before.params);
    expect(s.upload.pendingTrained).toBeNull();
    expect(s.notices.map((n) => n.code)).toEqual(['trained-failed']);
    expect(s.notices[0]).toMatchObject({ message: 'GPU device lost (destroyed)', errorCode: 'device-lost' });
    expect(writeUrl(s, url)).toBe(url);
  });

  it('a cancelled answer (its worker replaced) is asked for once more', async () => {
    const { store, actions } = setup();
    const eng = deferredEngine();
    setHeadsSource(store, eng.source);
    selectTrained(store, actions, DEFAULT_TRAINED);
    eng.calls[0]!.reject(new EngineError('cancelled', 'cancelled'));
    await flush();
    expect(eng.calls).toHaveLength(2);
    eng.calls[1]!.resolve();
    await flush();
    expect(store.getState().upload.active?.trained).toEqual(DEFAULT_TRAINED);
    expect(store.getState().notices).toEqual([]);
  });

  it('an input=trained link keeps its URL while the head is on its way, and after it arrives', async () => {
    const { store, actions } = setup();
    const eng = deferredEngine();
    setHeadsSource(store, eng.source);
    const search = '?input=trained&model=grammar&layer=1&head=1&example=3';
    loadFromUrl(store, actions, search);
    const keys = (q: string) => {
      const u = new URLSearchParams(q);
      return ['input', 'model', 'layer', 'head', 'example'].map((k) => u.get(k));
    };
    const want = ['trained', 'grammar', '1', '1', '3'];
    expect(store.getState().upload.active).toBeNull();
    expect(keys(writeUrl(store.getState(), search))).toEqual(want);
    eng.calls[0]!.resolve();
    await flush();
    expect(store.getState().upload.active?.trained).toEqual({ model: 'grammar', layer: 1, head: 1, example: 3 });
    expect(keys(writeUrl(store.getState(), search))).toEqual(want);
  });

  it('choosing generated inputs while a head is on its way drops it', async () => {
    const { store, actions, upload } = setup();
    const eng = deferredEngine();
    setHeadsSource(store, eng.source);
    selectTrained(store, actions, DEFAULT_TRAINED);
    upload.remove();
    eng.calls[0]!.resolve();
    await flush();
    expect(store.getState().upload.active).toBeNull();
  });
});

describe('typed text (text=, the grammar model)', () => {
  const textNotices = (notices: readonly (Notice | NoticeInput)[]) =>
    notices.flatMap((n) => (n.code === 'trained-text-rejected' ? [n] : []));

  it('reads text= instead of example=: tolerant of case and marks, kept as the tokenizer writes it', () => {
    const r = readUrl('?input=trained&model=grammar&layer=1&head=0&text=The+CAT+(a+dog+sees)+sees!');
    expect(r.notices).toEqual([]);
    expect(r.trained).toEqual({ model: 'grammar', layer: 1, head: 0, example: 0, text: 'the cat (a dog sees) sees.' });
    // text wins over an example given too
    expect(readUrl('?input=trained&model=grammar&example=4&text=a+cat+sees').trained?.text).toBe('a cat sees');
  });

  it('text that does not tokenize: a notice naming each unknown word and its token, the example stays in force', () => {
    const r = readUrl('?input=trained&model=grammar&example=3&text=the+catt+sees+a+zebra');
    expect(r.trained).toEqual({ model: 'grammar', layer: 0, head: 0, example: 3 });
    const [n] = textNotices(r.notices);
    expect(n?.source).toBe('url');
    expect(n?.text).toBe('the catt sees a zebra');
    expect(n?.problems).toEqual([
      { kind: 'unknown', word: 'catt', at: 4, index: 1, suggestion: 'cat' },
      { kind: 'unknown', word: 'zebra', at: 16, index: 4 },
    ]);
    const long = readUrl(`?input=trained&model=grammar&text=${'a+cat+sees.+'.repeat(17)}`);
    expect(textNotices(long.notices)[0]?.problems).toEqual([{ kind: 'too-many', count: 68, max: 64 }]);
  });

  it('mqar reads no text: text= is refused with a notice (its rule says why), the example stays', () => {
    const r = readUrl('?input=trained&model=mqar&example=2&text=the+cat+sees');
    expect(r.trained).toEqual({ model: 'mqar', layer: 0, head: 0, example: 2 });
    expect(rejectedKeys(r.notices)).toEqual(['text']);
    expect(validTrained({ model: 'mqar', layer: 0, head: 0, example: 0, text: 'the cat' })?.key).toBe('text');
  });

  it('URL round trip: text= (encoded) replaces example=; choosing an example again brings example= back', () => {
    const { store, actions } = setup();
    const text = 'the happy children (some mice follow the king) know a fox. ';
    expect(selectTrained(store, actions, { model: 'grammar', layer: 0, head: 1, example: 7, text })).toBe(true);
    const url = writeUrl(store.getState());
    const q = new URLSearchParams(url);
    expect([q.get('text'), q.has('example')]).toEqual([
      'the happy children (some mice follow the king) know a fox.',
      false,
    ]);
    expect(url).toContain('text=the+happy+children+%28some');
    expect(readUrl(url).trained).toEqual(store.getState().upload.active?.trained);
    selectTrained(store, actions, { model: 'grammar', layer: 0, head: 1, example: 7 });
    const back = new URLSearchParams(writeUrl(store.getState(), url));
    expect([back.has('text'), back.get('example')]).toEqual([false, '7']);
    // the longest text (64 tokens of the longest word) fits the URL's length limit
    const longest = Array.from({ length: 64 }, () => 'teachers').join(' ');
    expect(selectTrained(store, actions, { model: 'grammar', layer: 0, head: 0, example: 0, text: longest })).toBe(
      true,
    );
    expect(readUrl(writeUrl(store.getState())).trained?.text).toBe(longest);
  });

  it('the head in force is the model’s forward pass on the typed tokens (n = their count), as an example’s is', () => {
    const { store, actions } = setup();
    loadFromUrl(store, actions, '?input=trained&model=grammar&layer=1&head=1&text=the+cat+sees+some+dogs.+a+bird+sees');
    const s = store.getState();
    const head = modelHeads('grammar', Int32Array.from([9, 18, 34, 11, 27, 2, 10, 20, 34]))[1]![1]!;
    const req = buildRequest(s);
    expect(req.params.n).toBe(9);
    expect(req.external?.q.data).toEqual(head.q.data);
    expect(req.external?.k.data).toEqual(head.k.data);
    expect(req.external?.v?.data).toEqual(head.v.data);
    // an example's own words give exactly that example's head
    selectTrained(store, actions, {
      model: 'grammar',
      layer: 0,
      head: 0,
      example: 0,
      text: selectionText({ model: 'grammar', example: 9 })!,
    });
    expect(buildRequest(store.getState()).external?.q.data).toEqual(bundledHeads('grammar', 9)[0]![0]!.q.data);
  });

  it('bad typed text changes nothing and says why; a head then loaded from the box clears the refusal', () => {
    const { store, actions } = setup();
    selectTrained(store, actions, { model: 'grammar', layer: 1, head: 0, example: 2 });
    const before = store.getState();
    expect(selectTrained(store, actions, { ...before.upload.active!.trained!, text: 'the cat eats' })).toBe(false);
    const s = store.getState();
    expect(s.upload).toBe(before.upload);
    expect(s.params).toBe(before.params);
    const [n] = textNotices(s.notices);
    expect([n?.source, n?.problems]).toEqual([
      'control',
      [{ kind: 'unknown', word: 'eats', at: 8, index: 2, suggestion: 'cats' }],
    ]);
    expect(
      selectTrained(store, actions, { model: 'grammar', layer: 1, head: 0, example: 0, text: 'the cat sees' }),
    ).toBe(true);
    expect(textNotices(store.getState().notices)).toEqual([]);
    expect(store.getState().params.n).toBe(3);
  });

  it('loadFromUrl with bad text: the example loads and the refusal stays on screen', () => {
    const { store, actions } = setup();
    loadFromUrl(store, actions, '?input=trained&model=grammar&example=5&text=hello+world');
    const s = store.getState();
    expect(s.upload.active?.trained).toEqual({ model: 'grammar', layer: 0, head: 0, example: 5 });
    expect(textNotices(s.notices).map((n) => n.problems.length)).toEqual([2]);
  });
});
