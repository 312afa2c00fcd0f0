import katex from 'katex';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JS module shared with the browser test (no types)
import { gaussian, npy } from '../../e2e/upload-files.mjs';
import { bundledHeads, modelHeads } from '../core/trained/bundle-weights';
import { BUNDLES, bundleShape } from '../core/trained/bundles';
import { en } from '../i18n/en';
import { zh } from '../i18n/zh';
import { invalidKeys } from '../store/params';
import { createActions, createAppStore, initialState, PRESENT_STEP_COUNT } from '../store/store';
import { selectTrained, setCpuHeads, setHeadsSource } from '../store/trained';
import { createUploadActions } from '../store/upload';
import { loadFromUrl } from '../store/url-sync';
import { writeUrl } from '../store/url';
import { applyStep, setUploadAside } from './scene';
import { HEAD_PARAMS, SLIDE_LIMITS, STORY, stepAt, type Step, type StepId } from './story';

// no engine here: selectTrained runs the CPU twin in place (the page always has the engine)
setCpuHeads(modelHeads);

function setup(seeds = { seed: 7, featureSeed: 9 }) {
  const store = createAppStore(initialState(seeds));
  return { store, actions: createActions(store), upload: createUploadActions(store) };
}

/** The parameters in force once `step` is applied to a fresh store. */
function sceneOf(step: Step) {
  const { store, actions } = setup();
  applyStep(store, actions, step);
  return store.getState().params;
}

const byId = (id: StepId) => STORY.find((s) => s.id === id)!;
const bytes = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
const npyFile = (slot: 'q' | 'k', n: number, d: number, seed: number) => ({
  slot,
  name: `${slot}.npy`,
  buffer: bytes(npy({ values: gaussian(n, d, seed), shape: [n, d], descr: '<f4' })),
});

describe('the lecture story', () => {
  it('has at least 8 steps, one per slide (PRESENT_STEP_COUNT), with unique ids', () => {
    expect(STORY.length).toBeGreaterThanOrEqual(8);
    expect(STORY.length).toBe(PRESENT_STEP_COUNT);
    expect(new Set(STORY.map((s) => s.id)).size).toBe(STORY.length);
  });

  it('follows the sources in order: quadratic cost → kernel → positive features → orthogonal → linear → causal → eˣ vs 1+elu → sparsity, rank → concentration, the blog’s speed figure, learning (training softmax vs linear attention), and ends on a trained head', () => {
    const order: StepId[] = [
      'quadratic',
      'kernel',
      'features',
      'orthogonal',
      'linear',
      'causal',
      'maps',
      'sparsity',
      'rank',
      'concentration',
      'speed',
      'learning',
      'trained',
    ];
    expect(STORY.map((s) => s.id)).toEqual(order);
  });

  it.each(STORY.map((s, i) => [i + 1, s] as const))(
    'step %i sets a complete, valid scene within the slide limits',
    (_, step) => {
      const p = sceneOf(step);
      expect(invalidKeys({ ...p })).toEqual([]);
      expect(p.n).toBeLessThanOrEqual(SLIDE_LIMITS.nMax);
      expect(p.d).toBeLessThanOrEqual(SLIDE_LIMITS.dMax);
      expect(p.m).toBeLessThanOrEqual(SLIDE_LIMITS.mMax);
      expect(p.scale).toBeGreaterThanOrEqual(SLIDE_LIMITS.scaleMin);
      expect(p.scale).toBeLessThanOrEqual(SLIDE_LIMITS.scaleMax);
    },
  );

  it.each(STORY.map((s, i) => [i + 1, s] as const))(
    'step %i offers 1–3 distinct controls (the learning slide: its Train strip instead), cites a source and has a formula KaTeX renders',
    (_, step) => {
      expect(step.controls.length).toBeGreaterThanOrEqual(step.figure === 'training' ? 0 : 1);
      expect(step.controls.length).toBeLessThanOrEqual(3);
      expect(new Set(step.controls).size).toBe(step.controls.length);
      expect(step.sources.length).toBeGreaterThan(0);
      expect(() => katex.renderToString(step.tex, { throwOnError: true, displayMode: true })).not.toThrow();
    },
  );

  it('the steps that are about a control start where that control shows it', () => {
    expect(sceneOf(byId('causal')).causal).toBe(true);
    expect(byId('features').params.projection).toBe('iid'); // plain random features first …
    expect(byId('orthogonal').params.projection).toBe('orthogonal-chi'); // … then orthogonal ones
    expect(sceneOf(byId('linear')).n).toBeGreaterThan(2 * byId('linear').params.m); // past the crossover n ≈ 2m
    expect(sceneOf(byId('kernel')).input).not.toBe('gaussian'); // structure to see
    expect(byId('trained').params.m).toBeGreaterThanOrEqual(256); // FAVOR+ at a large m, where it still fails
  });

  it('only the trained step names a head; its params leave out exactly what the head sets', () => {
    expect(STORY.filter((s) => s.trained).map((s) => s.id)).toEqual(['trained']);
    const step = byId('trained');
    expect(step.trained).toEqual({ model: 'mqar', layer: 0, head: 0, example: 0 });
    for (const k of HEAD_PARAMS) expect(k in step.params).toBe(false);
    for (const s of STORY.filter((x) => !x.trained)) for (const k of HEAD_PARAMS) expect(k in s.params).toBe(true);
  });

  it('every step has an English and a Chinese title and caption, and the Chinese is a translation', () => {
    for (const step of STORY) {
      const e = en.present.steps[step.id];
      const z = zh.present.steps[step.id];
      expect(e.title.length).toBeGreaterThan(3);
      expect(e.caption.length).toBeGreaterThan(20);
      expect(z.title).not.toBe(e.title);
      expect(z.caption).not.toBe(e.caption);
      expect(z.caption).toMatch(/[\u4e00-\u9fff]/);
    }
    for (const src of new Set(STORY.flatMap((s) => s.sources))) expect(zh.present.sources[src]).toBeTruthy();
  });

  it('stepAt clamps to the story', () => {
    expect(stepAt(1)).toBe(STORY[0]);
    expect(stepAt(0)).toBe(STORY[0]);
    expect(stepAt(99)).toBe(STORY.at(-1));
    expect(stepAt(Number.NaN)).toBe(STORY[0]);
  });
});

describe('lecture-mode actions', () => {
  it('setStep moves within 1 … N and ignores non-integers; setPresent toggles', () => {
    const store = createAppStore(initialState());
    const actions = createActions(store);
    expect(store.getState().ui).toMatchObject({ present: false, step: 1 });
    actions.setPresent(true);
    actions.setStep(4);
    expect(store.getState().ui).toMatchObject({ present: true, step: 4 });
    actions.setStep(2.5);
    expect(store.getState().ui.step).toBe(4);
    actions.setStep(PRESENT_STEP_COUNT + 5);
    expect(store.getState().ui.step).toBe(PRESENT_STEP_COUNT);
    actions.setStep(-3);
    expect(store.getState().ui.step).toBe(1);
    actions.setPresent(false);
    expect(store.getState().ui.present).toBe(false);
  });

  it('applying each step in turn, forwards then backwards, sets exactly its scene and keeps the seeds; only the trained step has a head in force, and no notice is posted', () => {
    const { store, actions } = setup();
    const order = [...STORY, ...[...STORY].reverse()];
    for (const step of order) {
      applyStep(store, actions, step);
      const s = store.getState();
      if (step.trained) {
        const shape = bundleShape(step.trained.model);
        expect(s.upload.active?.trained).toEqual(step.trained);
        expect(s.params).toMatchObject({ ...step.params, seed: 7, featureSeed: 9 });
        expect([s.params.n, s.params.d, s.params.causal, s.params.input]).toEqual([
          shape.n,
          shape.d,
          BUNDLES[step.trained.model].config.model.causal,
          'gaussian',
        ]);
      } else {
        expect(s.upload.active, `${step.id}: generated inputs`).toBeNull();
        expect(s.params).toEqual({ ...step.params, seed: 7, featureSeed: 9 });
      }
    }
    expect(store.getState().notices).toEqual([]);
  });
});

describe('the trained-head step', () => {
  const step = byId('trained');
  const at = STORY.indexOf(step);

  it('is the last step, right after learning (older slide links keep their numbers)', () => {
    expect(STORY[at - 1]!.id).toBe('learning');
    expect(at).toBe(STORY.length - 1);
  });

  it('applying it selects the MQAR head through selectTrained: the inputs are that head’s Q, K, V', () => {
    const { store, actions } = setup();
    applyStep(store, actions, STORY[at - 1]!);
    applyStep(store, actions, step);
    const head = bundledHeads('mqar', 0)[0]![0]!;
    const active = store.getState().upload.active!;
    expect(active.q.matrix.data).toEqual(head.q.data);
    expect(active.k.matrix.data).toEqual(head.k.data);
    expect(active.v?.matrix.data).toEqual(head.v.data);
    expect(store.getState().params.m).toBe(step.params.m);
  });

  it('returning to it with its head in force keeps that head (same upload id, so the analyses keep their keys); a head switched on the slide gives way to the step’s', () => {
    const { store, actions } = setup();
    applyStep(store, actions, step);
    const id = store.getState().upload.active!.id;
    applyStep(store, actions, step);
    expect(store.getState().upload.active!.id).toBe(id);
    selectTrained(store, actions, { model: 'grammar', layer: 1, head: 1, example: 0 });
    applyStep(store, actions, step);
    expect(store.getState().upload.active!.trained).toEqual(step.trained);
  });

  it.each([
    ['the previous', at - 1],
    ['the first', 0],
    ['the concentration', STORY.findIndex((s) => s.id === 'concentration')],
  ])('leaving it for %s slide restores generated inputs, with that slide’s scene exactly', (_, to) => {
    const { store, actions } = setup();
    applyStep(store, actions, STORY[at - 1]!);
    applyStep(store, actions, step);
    selectTrained(store, actions, { model: 'grammar', layer: 0, head: 1, example: 2 }); // the lecturer switched heads
    applyStep(store, actions, STORY[to]!);
    const s = store.getState();
    expect(s.upload.active).toBeNull();
    expect(s.params).toEqual({ ...STORY[to]!.params, seed: 7, featureSeed: 9 });
  });

  it('its link (the URL written while it is shown: step= and the head) reopens it with that head, which the scene keeps', () => {
    const { store, actions } = setup();
    actions.setPresent(true);
    actions.setStep(at + 1);
    applyStep(store, actions, step);
    const link = writeUrl(store.getState());
    expect(new URLSearchParams(link).get('step')).toBe(String(at + 1));
    const b = setup();
    loadFromUrl(b.store, b.actions, link);
    expect(b.store.getState().notices).toEqual([]);
    expect(stepAt(b.store.getState().ui.step)).toBe(step);
    const id = b.store.getState().upload.active?.id;
    expect(id).toBeTruthy();
    applyStep(b.store, b.actions, stepAt(b.store.getState().ui.step));
    expect(b.store.getState().upload.active?.id).toBe(id);
    expect(b.store.getState().upload.active?.trained).toEqual(step.trained);
  });

  it('leaving it before its head has arrived (the engine still computing) keeps the next slide on generated inputs when the head comes', async () => {
    const { store, actions } = setup();
    let answer: () => void = () => {};
    setHeadsSource(
      store,
      (req) =>
        new Promise((resolve) => {
          answer = () =>
            resolve({ model: req.model, heads: modelHeads(req.model, req.tokens), backend: 'cpu', adapter: '', ms: 1 });
        }),
    );
    applyStep(store, actions, STORY[at - 1]!);
    applyStep(store, actions, step);
    expect(store.getState().upload.pendingTrained).not.toBeNull();
    applyStep(store, actions, STORY[at - 1]!);
    answer();
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getState().upload.active).toBeNull();
    expect(store.getState().params).toEqual({ ...STORY[at - 1]!.params, seed: 7, featureSeed: 9 });
  });

  it('a trained head in force when the lecture begins (e.g. from the page) is replaced by each slide’s scene', () => {
    const { store, actions } = setup();
    selectTrained(store, actions, { model: 'grammar', layer: 1, head: 0, example: 3 });
    applyStep(store, actions, STORY[0]!);
    expect(store.getState().upload.active).toBeNull();
    expect(store.getState().params).toEqual({ ...STORY[0]!.params, seed: 7, featureSeed: 9 });
  });
});

describe('a file upload and the lecture', () => {
  it('is set aside when the lecture begins (every slide, the trained one included, has its own inputs) and comes back when it ends, with its n, d and scale', () => {
    const { store, actions, upload } = setup();
    expect(upload.addFiles([npyFile('q', 40, 8, 1), npyFile('k', 40, 8, 2)]).kind).toBe('applied');
    const files = store.getState().upload;
    const kept = store.getState().params;
    const restore = setUploadAside(store);
    expect(store.getState().upload.active).toBeNull();
    for (const st of STORY) {
      applyStep(store, actions, st);
      const s = store.getState();
      if (st.trained) expect(s.upload.active?.trained).toEqual(st.trained);
      else {
        expect(s.upload.active).toBeNull();
        expect(s.params).toEqual({ ...st.params, seed: 7, featureSeed: 9 });
      }
    }
    applyStep(store, actions, byId('trained')); // leave the lecture from the trained slide
    restore();
    const s = store.getState();
    expect(s.upload).toBe(files);
    expect([s.params.n, s.params.d, s.params.scale, s.params.input]).toEqual([kept.n, kept.d, kept.scale, kept.input]);
    expect(s.params.m).toBe(byId('trained').params.m); // the last slide's other parameters stay, as on any exit
    expect(s.notices).toEqual([]);
  });

  it('setting aside without an upload (or with a trained head, a scene like any other) changes nothing', () => {
    const { store, actions } = setup();
    const before = store.getState();
    setUploadAside(store)();
    expect(store.getState()).toBe(before);
    selectTrained(store, actions, { model: 'mqar', layer: 0, head: 1, example: 0 });
    const withHead = store.getState();
    const restore = setUploadAside(store);
    expect(store.getState()).toBe(withHead);
    restore();
    expect(store.getState()).toBe(withHead);
  });
});
