import { describe, expect, it } from 'vitest';
import {
  defaultEmbedControls,
  DEFAULT_EMBED_CONTROLS,
  EMBED_CONTROL_IDS,
  embedControlsFor,
  EMBED_FIGURES,
  embedFiguresOf,
  isEmbedId,
  parseEmbedControls,
  parseEmbedFigure,
  parseSetMessage,
  resizeMessage,
  SET_MESSAGE,
} from './embed';
import { PANEL_IDS } from './store';
import { initialState } from './store';
import { readUrl, writeUrl } from './url';

describe('figure= in the URL: one figure of the embedded panel alone', () => {
  it('reads a figure of the embedded panel, and writes it back', () => {
    expect(readUrl('?embed=error&figure=error-vs-d').ui).toEqual({ embed: 'error', embedFigure: 'error-vs-d' });
    const s = initialState({}, { embed: 'beyond', embedFigure: 'beyond-error-vs-time' });
    expect(readUrl(writeUrl(s)).ui).toMatchObject({ embed: 'beyond', embedFigure: 'beyond-error-vs-time' });
    // every listed figure of every panel round-trips
    for (const [panel, figures] of Object.entries(EMBED_FIGURES))
      for (const f of figures) expect(readUrl(`?embed=${panel}&figure=${f}`).ui.embedFigure, f).toBe(f);
  });

  it('rejects a figure of another panel, an unknown one and one without embed= with a notice (the whole panel stays)', () => {
    for (const q of [
      'embed=rank&figure=error-vs-m',
      'embed=error&figure=top-k-mass',
      'embed=error&figure=',
      'figure=error-vs-m',
      'embed=error&figure=__proto__',
      'embed=bogus&figure=error-vs-m',
    ]) {
      const r = readUrl(`?${q}`);
      expect(r.ui.embedFigure, q).toBeUndefined();
      expect(r.notices, q).toMatchObject([{ code: 'param-rejected', key: 'figure', reason: 'not-an-option' }]);
    }
  });

  it('lists figures only for panels of several, each id once across panels', () => {
    expect(embedFiguresOf('rank')).toEqual([]);
    expect(embedFiguresOf('speed')).toEqual([]);
    expect(embedFiguresOf('main')).toEqual(['heatmaps', 'attention-row']);
    const all = PANEL_IDS.flatMap((p) => embedFiguresOf(p));
    expect(new Set(all).size).toBe(all.length);
    expect(parseEmbedFigure(null, 'error-vs-m')).toBeNull();
    expect(parseEmbedFigure('error', 'error-vs-m')).toBe('error-vs-m');
    expect(parseEmbedFigure('sparsity', 'error-vs-m')).toBeNull();
  });

  it('shows a figure the controls that change it: its own where they differ from its panel’s, else the panel’s; controls= wins', () => {
    expect(defaultEmbedControls('feature-maps', 'feature-map-curves')).toEqual(['map']);
    expect(defaultEmbedControls('feature-maps', 'map-rows')).toEqual(['n', 'm', 'scale']);
    expect(defaultEmbedControls('feature-maps')).toEqual(DEFAULT_EMBED_CONTROLS['feature-maps']);
    expect(defaultEmbedControls('error', 'error-vs-d')).toEqual(DEFAULT_EMBED_CONTROLS.error);
    const ui = readUrl('?embed=feature-maps&figure=feature-map-curves').ui;
    expect(embedControlsFor(ui.embed!, ui.embedControls ?? null, ui.embedFigure)).toEqual(['map']);
    expect(embedControlsFor('feature-maps', ['seed'], 'feature-map-curves')).toEqual(['seed']);
  });

  it('writes no figure= without an embed (the full page has no figure focus)', () => {
    expect(writeUrl(initialState({}, { embedFigure: 'error-vs-m' }))).not.toContain('figure=');
  });
});

describe('controls= and embedId= in the URL', () => {
  it('reads a chosen list, none, and the panel default when absent', () => {
    expect(readUrl('?embed=error&controls=m,scale').ui).toEqual({ embed: 'error', embedControls: ['m', 'scale'] });
    expect(readUrl('?embed=error&controls=none').ui.embedControls).toEqual([]);
    expect(readUrl('?embed=error').ui.embedControls).toBeUndefined();
    expect(readUrl('?controls=m,m,n').ui.embedControls).toEqual(['m', 'n']);
    expect(readUrl(`?controls=${EMBED_CONTROL_IDS.join(',')}`).notices).toEqual([]);
  });

  it('rejects unknown, empty and mixed control lists with a notice', () => {
    for (const bad of ['m,bogus', '', 'none,m', 'M', ',', 'm,', '__proto__', 'm'.repeat(50)]) {
      const r = readUrl(`?controls=${encodeURIComponent(bad)}`);
      expect(r.ui.embedControls, bad).toBeUndefined();
      expect(r.notices, bad).toMatchObject([{ code: 'param-rejected', key: 'controls', reason: 'not-an-option' }]);
    }
  });

  it('accepts embed ids of 1–64 letters, digits, - and _ only', () => {
    expect(readUrl('?embedId=fig-1_a').ui.embedId).toBe('fig-1_a');
    for (const bad of ['', 'a b', '<x>', 'a'.repeat(65), 'fig"1', 'é']) {
      const r = readUrl(`?embedId=${encodeURIComponent(bad)}`);
      expect(r.ui.embedId, bad).toBeUndefined();
      expect(r.notices, bad).toMatchObject([{ key: 'embedId' }]);
    }
    expect(isEmbedId('a'.repeat(64))).toBe(true);
    expect(isEmbedId(42)).toBe(false);
  });

  it('writes them back so the URL round-trips (and keeps an unknown embed value)', () => {
    const s = initialState({}, { embed: 'rank', embedControls: ['n', 'causal'], embedId: 'f2' });
    expect(readUrl(writeUrl(s)).ui).toMatchObject({ embed: 'rank', embedControls: ['n', 'causal'], embedId: 'f2' });
    expect(readUrl(writeUrl(initialState({}, { embed: 'main', embedControls: [] }))).ui.embedControls).toEqual([]);
    expect(writeUrl(initialState({}, { embedUnknown: 'nope' }))).toContain('embed=nope');
    expect(parseEmbedControls('none')).toEqual([]);
  });
});

describe('messages', () => {
  const ok = (params: unknown, id: unknown = 'fig1') => ({ type: SET_MESSAGE, id, params });

  it('posts resize messages of the documented shape (whole pixels, never negative)', () => {
    expect(resizeMessage('fig1', 480.2)).toEqual({ type: 'performer-explainer:resize', id: 'fig1', height: 481 });
    expect(resizeMessage(null, -3)).toEqual({ type: 'performer-explainer:resize', id: null, height: 0 });
  });

  it('accepts exactly { type, id, params } for this frame, validated by the URL rules', () => {
    expect(parseSetMessage(ok({ m: 64, scale: '1.5', map: 'relu', causal: true, fseed: 3 }), 'fig1')).toEqual({
      m: 64,
      scale: 1.5,
      featureMap: 'relu',
      causal: true,
      featureSeed: 3,
    });
  });

  it('ignores everything else', () => {
    const bad: unknown[] = [
      null,
      'performer-explainer:set',
      [SET_MESSAGE, 'fig1', { m: 64 }],
      { type: 'performer-explainer:resize', id: 'fig1', height: 5 },
      { type: SET_MESSAGE, id: 'fig1' },
      { ...ok({ m: 64 }), extra: 1 },
      ok({ m: 64 }, 'other'),
      ok({ m: 64 }, null),
      ok({}),
      ok(null),
      ok([64]),
      ok({ m: 64.5 }),
      ok({ m: 5000 }),
      ok({ m: '64', n: 'lots' }), // one bad value rejects the whole message
      ok({ featureMap: 'relu' }), // parameter names are the URL keys
      ok({ embed: 'rank' }),
      ok({ __proto__: { m: 4 } }),
      ok({ m: NaN }),
      ok({ m: { valueOf: () => 64 } }),
      ok({ scale: Infinity }),
    ];
    for (const b of bad) expect(parseSetMessage(b, 'fig1'), JSON.stringify(b)).toBeNull();
    expect(parseSetMessage(ok({ m: 64 }), null)).toBeNull(); // a frame without embedId accepts no messages
    expect(parseSetMessage(Object.assign(Object.create({ inherited: 1 }), ok({ m: 64 })), 'fig1')).toBeNull();
  });
});
