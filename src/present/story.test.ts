import katex from 'katex';
import { describe, expect, it } from 'vitest';
import { en } from '../i18n/en';
import { zh } from '../i18n/zh';
import { invalidKeys } from '../store/params';
import { createActions, createAppStore, initialState, PRESENT_STEP_COUNT } from '../store/store';
import { SLIDE_LIMITS, STORY, stepAt, type StepId } from './story';

describe('the lecture story', () => {
  it('has at least 8 steps, one per slide (PRESENT_STEP_COUNT), with unique ids', () => {
    expect(STORY.length).toBeGreaterThanOrEqual(8);
    expect(STORY.length).toBe(PRESENT_STEP_COUNT);
    expect(new Set(STORY.map((s) => s.id)).size).toBe(STORY.length);
  });

  it('follows the sources in order: quadratic cost → kernel → positive features → orthogonal → linear → causal → eˣ vs 1+elu → sparsity, rank → concentration, ends on the blog’s speed figure, then learning (training softmax vs linear attention)', () => {
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
    ];
    expect(STORY.map((s) => s.id)).toEqual(order);
  });

  it.each(STORY.map((s, i) => [i + 1, s] as const))(
    'step %i sets a complete, valid scene within the slide limits',
    (_, step) => {
      expect(invalidKeys({ ...step.params, seed: 1, featureSeed: 1 })).toEqual([]);
      expect(step.params.n).toBeLessThanOrEqual(SLIDE_LIMITS.nMax);
      expect(step.params.d).toBeLessThanOrEqual(SLIDE_LIMITS.dMax);
      expect(step.params.m).toBeLessThanOrEqual(SLIDE_LIMITS.mMax);
      expect(step.params.scale).toBeGreaterThanOrEqual(SLIDE_LIMITS.scaleMin);
      expect(step.params.scale).toBeLessThanOrEqual(SLIDE_LIMITS.scaleMax);
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
    const by = (id: StepId) => STORY.find((s) => s.id === id)!;
    expect(by('causal').params.causal).toBe(true);
    expect(by('features').params.projection).toBe('iid'); // plain random features first …
    expect(by('orthogonal').params.projection).toBe('orthogonal-chi'); // … then orthogonal ones
    expect(by('linear').params.n).toBeGreaterThan(2 * by('linear').params.m); // past the crossover n ≈ 2m
    expect(by('kernel').params.input).not.toBe('gaussian'); // structure to see
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

  it("applying a step's scene through setParams sets exactly its parameters and keeps the seeds", () => {
    const store = createAppStore(initialState({ seed: 7, featureSeed: 9 }));
    const actions = createActions(store);
    for (const step of STORY) {
      actions.setParams(step.params);
      expect(store.getState().params).toEqual({ ...step.params, seed: 7, featureSeed: 9 });
    }
    expect(store.getState().notices).toEqual([]);
  });
});
