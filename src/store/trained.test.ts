import { describe, expect, it } from 'vitest';
import { bundledHeads } from '../core/trained/bundles';
import { buildRequest } from './compute-request';
import { createActions, createAppStore } from './store';
import { DEFAULT_TRAINED, parseTrained, selectTrained } from './trained';
import { createUploadActions } from './upload';
import { loadFromUrl } from './url-sync';
import { readUrl, writeUrl } from './url';

function setup() {
  const store = createAppStore();
  return { store, actions: createActions(store), upload: createUploadActions(store) };
}

const rejectedKeys = (notices: readonly { code: string; key?: string }[]) =>
  notices.filter((n) => n.code === 'param-rejected').map((n) => n.key);

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
