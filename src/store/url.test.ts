import { describe, expect, it } from 'vitest';
import { DEFAULT_PARAMS } from './params';
import { PRESENT_STEP_IDS } from './present-steps';
import { initialState, PRESENT_STEP_COUNT } from './store';
import { browserLang, readUrl, writeUrl } from './url';
import { defaultSetup, type TrainKind } from '../engine/training-setup';

describe('readUrl', () => {
  it('reads the stabilizer from stab= and rejects unknown values with a notice', () => {
    expect(readUrl('?stab=ref').params).toEqual({ stabilizer: 'ref' });
    const bad = readUrl('?stab=epsilon');
    expect(bad.params).toEqual({});
    expect(bad.notices.map((n) => (n.code === 'param-rejected' ? n.key : ''))).toEqual(['stab']);
  });

  it('reads every parameter', () => {
    const r = readUrl(
      '?n=1024&d=32&m=128&seed=7&fseed=9&map=trig&proj=iid&causal=1&input=local&scale=0.75&row=3&lang=en&theme=dark',
    );
    expect(r.notices).toEqual([]);
    expect(r.params).toEqual({
      n: 1024,
      d: 32,
      m: 128,
      seed: 7,
      featureSeed: 9,
      featureMap: 'trig',
      projection: 'iid',
      causal: true,
      input: 'local',
      scale: 0.75,
    });
    expect(r.ui).toEqual({ pinnedRow: 3, lang: 'en', theme: 'dark' });
  });

  it('rejects hostile and garbage values one by one, keeping the valid ones', () => {
    const r = readUrl(
      '?n=-1&d=abc&m=1e9&map=%3Cimg%20src%3Dx%3E&scale=NaN&causal=perhaps&row=99999999&theme=__proto__&embed=x&seed=12',
    );
    expect(r.params).toEqual({ seed: 12 });
    const keys = r.notices.map((n) => (n.code === 'param-rejected' ? n.key : ''));
    expect(keys).toEqual(['n', 'd', 'm', 'map', 'causal', 'scale', 'theme', 'row']);
    expect(r.notices.every((n) => n.level === 'error')).toBe(true);
    // an unknown embed panel is kept so the embed can say which panels exist (no silent fallback)
    expect(r.ui.embed).toBeUndefined();
    expect(r.ui.embedUnknown).toBe('x');
  });

  it('survives absurd input', () => {
    expect(readUrl('?' + 'x'.repeat(10_000)).params).toEqual({});
    expect(readUrl('%%%').params).toEqual({});
    expect(readUrl('?n=16&n=32').params).toEqual({ n: 16 });
  });

  it('checks the pinned row against n', () => {
    expect(readUrl('?n=64&row=63').ui.pinnedRow).toBe(63);
    expect(readUrl('?n=64&row=64').ui.pinnedRow).toBeUndefined();
  });
});

describe('writeUrl', () => {
  it('round-trips through readUrl and keeps keys it does not own', () => {
    const s = initialState(
      { n: 512, featureMap: 'hyperbolic', causal: true, scale: 1.25 },
      { pinnedRow: 5, theme: 'light' },
    );
    const q = writeUrl(s, '?backend=cpu&n=3');
    expect(q).toContain('backend=cpu');
    const back = readUrl(q);
    expect(back.notices).toEqual([]);
    expect(back.params).toEqual({ ...DEFAULT_PARAMS, n: 512, featureMap: 'hyperbolic', causal: true, scale: 1.25 });
    expect(back.ui.pinnedRow).toBe(5);
    expect(back.ui.theme).toBe('light');
  });
});

describe('language in the URL', () => {
  it('browserLang: the first supported language of navigator.languages, zh* → zh, else en', () => {
    expect(browserLang(['zh-CN', 'en-US'])).toBe('zh');
    expect(browserLang(['zh-Hans-CN'])).toBe('zh');
    expect(browserLang(['zh_TW'])).toBe('zh');
    expect(browserLang(['fr-FR', 'zh'])).toBe('zh');
    expect(browserLang(['en-GB', 'zh-CN'])).toBe('en');
    expect(browserLang(['de', 'fr'])).toBe('en');
    expect(browserLang([])).toBe('en');
  });

  it('lang=xx is rejected with a notice and leaves the language alone', () => {
    const r = readUrl('?lang=xx');
    expect(r.ui.lang).toBeUndefined();
    expect(r.notices).toEqual([
      { level: 'error', code: 'param-rejected', source: 'url', key: 'lang', raw: 'xx', reason: 'not-an-option' },
    ]);
    expect(readUrl('?lang=zh').ui.lang).toBe('zh');
  });

  it('writes lang only when it differs from the browser default or the URL already names one', () => {
    const zh = initialState({}, { lang: 'zh' });
    const en = initialState({}, { lang: 'en' });
    expect(new URLSearchParams(writeUrl(zh, '', 'zh')).has('lang')).toBe(false);
    expect(new URLSearchParams(writeUrl(zh, '', 'en')).get('lang')).toBe('zh');
    expect(new URLSearchParams(writeUrl(en, '', 'zh')).get('lang')).toBe('en');
    expect(new URLSearchParams(writeUrl(en, '', 'en')).has('lang')).toBe(false);
    // given explicitly: kept (and follows the current choice), even when it equals the default
    expect(new URLSearchParams(writeUrl(en, '?lang=en', 'en')).get('lang')).toBe('en');
    expect(new URLSearchParams(writeUrl(zh, '?lang=en', 'zh')).get('lang')).toBe('zh');
  });
});

describe('lecture mode in the URL', () => {
  it('reads ?present and step=N (1-based)', () => {
    expect(readUrl('?present&step=3')).toMatchObject({ ui: { present: true, step: 3 }, notices: [] });
    expect(readUrl('?present=1').ui).toEqual({ present: true });
    expect(readUrl('?present=0').ui).toEqual({});
    expect(readUrl(`?present&step=${PRESENT_STEP_COUNT}`).ui.step).toBe(PRESENT_STEP_COUNT);
  });

  it('step= takes a slide by name too, at its place in the list (step=rank is the rank slide)', () => {
    PRESENT_STEP_IDS.forEach((id, i) => expect(readUrl(`?present&step=${id}`).ui.step, id).toBe(i + 1));
    expect(readUrl('?present&step=rank').ui.step).toBe(PRESENT_STEP_IDS.indexOf('rank') + 1);
    expect(readUrl('?present&step=trained').notices).toEqual([]);
  });

  it('a bad step is ignored with a notice (slide 1 stays): not a number or name, or out of range', () => {
    const reasons = { '0': 'out-of-range', '42': 'out-of-range', abc: 'not-a-step', Rank: 'not-a-step' };
    for (const [bad, reason] of Object.entries(reasons))
      expect(readUrl(`?present&step=${bad}`).notices, bad).toMatchObject([{ key: 'step', reason }]);
    for (const bad of ['0', String(PRESENT_STEP_COUNT + 1), '42', 'abc', '2.5', '-1', '', 'rank ']) {
      const r = readUrl(`?present&step=${encodeURIComponent(bad)}`);
      expect(r.ui.step, bad).toBeUndefined();
      expect(r.ui.present).toBe(true);
      expect(
        r.notices.map((n) => (n.code === 'param-rejected' ? n.key : '')),
        bad,
      ).toEqual(['step']);
    }
    expect(readUrl('?present=maybe').notices).toHaveLength(1);
  });

  it('writes present=1&step=N while presenting and drops both afterwards', () => {
    const on = writeUrl(initialState({}, { present: true, step: 4 }), '?present&step=1');
    expect(new URLSearchParams(on).get('present')).toBe('1');
    expect(new URLSearchParams(on).get('step')).toBe('4');
    expect(readUrl(on).ui).toMatchObject({ present: true, step: 4 });
    const off = writeUrl(initialState({}, { present: false, step: 4 }), on);
    expect(new URLSearchParams(off).has('present')).toBe(false);
    expect(new URLSearchParams(off).has('step')).toBe(false);
  });
});

describe('train= and run= in the URL', () => {
  it('round-trips the whole training setup and keeps run=1 as given', () => {
    const s = initialState();
    const setup = {
      ...defaultSetup('webgpu'),
      task: 'mlm' as const,
      kinds: ['softmax', 'elu1-local'] as TrainKind[],
      lr: [0.002, 'auto'] as (number | 'auto')[],
      steps: 50,
    };
    const q = writeUrl({ ...s, training: { setup } }, '?run=1&backend=cpu');
    expect(q).toContain('run=1');
    const back = readUrl(q);
    expect(back.notices).toEqual([]);
    expect(back.training).toEqual({ setup, run: true });
    // no configured setup: no train= (a caller without the slice keeps the current value)
    expect(writeUrl({ ...s, training: { setup: null } }, '?train=steps.5')).not.toContain('train=');
    expect(writeUrl({ params: s.params, ui: s.ui }, '?train=steps.5')).toContain('train=steps.5');
  });

  it('rejects bad training fields one by one with a notice, the valid ones apply', () => {
    const r = readUrl('?train=steps.abc_d.48_kinds.softmax+nope&run=maybe');
    const keys = r.notices.map((n) => (n.code === 'param-rejected' ? n.key : ''));
    expect(keys).toEqual(['train.steps', 'train.kinds', 'run']);
    expect(r.training.setup?.dModel).toBe(48);
    expect(r.training.setup?.steps).toBe(defaultSetup('webgpu').steps);
    expect(r.training.run).toBeUndefined();
  });
});
