import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readUrl, writeUrl } from '../store/url';
import { initialState } from '../store/store';
import { buildSnippet, embedSrc, FIGURE_INITIAL_HEIGHT, fullAppHref, INITIAL_HEIGHT, SNIPPET_SCRIPT } from './snippet';

const PAGE = 'https://example.org/performer/index.html?n=64&embed=main#x';

/** Runs the snippet's script against fake frames; returns the message handler and the frames. */
function loadScript(frames: { src: string; id: string; win: object }[]) {
  const body = SNIPPET_SCRIPT.replace(/^<script>\n/, '').replace(/\n<\/script>$/, '');
  let handler: ((e: { data: unknown; origin: string; source: unknown }) => void) | null = null;
  const els = frames.map((f) => ({
    src: f.src,
    contentWindow: f.win,
    dataset: { performerEmbed: f.id },
    style: { height: '' },
  }));
  const doc = { querySelectorAll: (sel: string) => (sel === 'iframe[data-performer-embed]' ? els : []) };
  new Function('addEventListener', 'document', 'location', body)(
    (type: string, h: typeof handler) => type === 'message' && (handler = h),
    doc,
    { href: 'https://blog.example.com/post.html' },
  );
  if (!handler) throw new Error('the script registered no message handler');
  return { send: handler as (e: { data: unknown; origin: string; source: unknown }) => void, els };
}

describe('embed snippet', () => {
  const state = initialState({ n: 256, m: 32, scale: 1.5 }, { theme: 'dark' });
  const spec = {
    pageHref: PAGE,
    stateSearch: writeUrl(state, '?backend=cpu&hide=rank&present=1'),
    panel: 'error' as const,
    controls: ['m', 'scale'] as const,
    id: 'fig-err',
  };

  it('points the frame at the page with the current state, the panel, its controls and id', () => {
    const src = new URL(embedSrc({ ...spec, controls: [...spec.controls] }));
    expect(src.origin + src.pathname).toBe('https://example.org/performer/index.html');
    expect(src.hash).toBe('');
    const r = readUrl(src.search);
    expect(r.notices).toEqual([]);
    expect(r.params).toMatchObject({ n: 256, m: 32, scale: 1.5 });
    expect(r.ui).toMatchObject({ embed: 'error', embedControls: ['m', 'scale'], embedId: 'fig-err', theme: 'dark' });
    expect(src.searchParams.get('hide')).toBeNull(); // page modes are not part of a figure
    expect(src.searchParams.get('present')).toBeNull();
    expect(src.searchParams.get('backend')).toBe('cpu'); // keys the app does not own are kept
    expect(new URL(embedSrc({ ...spec, controls: null })).searchParams.get('controls')).toBeNull();
  });

  it('generates a lazy, titled, full-width iframe without scrolling and the sizing script', () => {
    const html = buildSnippet({ ...spec, controls: [...spec.controls] }, 'Error "figure" <1>');
    expect(html).toMatch(/<iframe [^>]*loading="lazy"/);
    expect(html).toContain('scrolling="no"');
    expect(html).toContain('width="100%"');
    expect(html).toContain('title="Error &quot;figure&quot; &lt;1&gt;"');
    expect(html).toContain('data-performer-embed="fig-err"');
    expect(html).toContain('&amp;embed=error');
    expect(html).toContain(SNIPPET_SCRIPT);
  });

  it('names one figure of the panel with figure= (none for the whole panel) and starts it at a figure’s height', () => {
    const src = new URL(embedSrc({ ...spec, figure: 'error-vs-d' }));
    expect(src.searchParams.get('figure')).toBe('error-vs-d');
    expect(readUrl(src.search).ui).toMatchObject({ embed: 'error', embedFigure: 'error-vs-d' });
    expect(new URL(embedSrc({ ...spec, figure: null })).searchParams.get('figure')).toBeNull();
    // a figure= of the embedded state (an embed's own link) does not leak into another panel's snippet
    const fromEmbed = { ...spec, stateSearch: '?embed=error&figure=error-vs-d', panel: 'rank' as const };
    expect(new URL(embedSrc(fromEmbed)).searchParams.get('figure')).toBeNull();
    expect(buildSnippet({ ...spec, figure: 'error-vs-d' }, 't')).toContain(`height="${FIGURE_INITIAL_HEIGHT}"`);
    expect(buildSnippet(spec, 't')).toContain(`height="${INITIAL_HEIGHT.error}"`);
    expect(FIGURE_INITIAL_HEIGHT).toBeLessThan(INITIAL_HEIGHT.error / 2);
  });

  it('keeps the script at 15 lines or fewer', () => {
    expect(SNIPPET_SCRIPT.split('\n').length).toBeLessThanOrEqual(15);
  });

  it('script: sizes the frame that sent a well-formed message from the frame origin, and nothing else', () => {
    const w1 = {};
    const w2 = {};
    const { send, els } = loadScript([
      { src: 'https://app.example.org/?embed=error&embedId=a', id: 'a', win: w1 },
      { src: 'https://app.example.org/?embed=rank&embedId=b', id: 'b', win: w2 },
    ]);
    const msg = (id: unknown, height: unknown) => ({ type: 'performer-explainer:resize', id, height });
    send({ data: msg('a', 812.4), origin: 'https://app.example.org', source: w1 });
    expect(els[0]!.style.height).toBe('813px');
    expect(els[1]!.style.height).toBe('');
    // wrong origin, wrong source, wrong id, wrong type, bad heights: all ignored
    send({ data: msg('b', 400), origin: 'https://evil.example', source: w2 });
    send({ data: msg('b', 400), origin: 'https://app.example.org', source: w1 });
    send({ data: msg('a', 400), origin: 'https://app.example.org', source: w2 });
    send({ data: { ...msg('b', 400), type: 'resize' }, origin: 'https://app.example.org', source: w2 });
    for (const h of ['400', -1, 0, 1e9, NaN, null])
      send({ data: msg('b', h), origin: 'https://app.example.org', source: w2 });
    send({ data: null, origin: 'https://app.example.org', source: w2 });
    send({ data: 'performer-explainer:resize', origin: 'https://app.example.org', source: w2 });
    expect(els[1]!.style.height).toBe('');
    expect(els[0]!.style.height).toBe('813px');
  });

  it('links the credit to the full app with the same state', () => {
    expect(fullAppHref('https://h.org/app/?n=64&embed=rank&controls=m&embedId=f&m=8#top')).toBe(
      'https://h.org/app/?n=64&m=8',
    );
    expect(fullAppHref('https://h.org/app/?embed=error&figure=error-vs-m&m=8')).toBe('https://h.org/app/?m=8');
    // landing on what the frame showed
    expect(fullAppHref('https://h.org/app/?embed=error&figure=error-vs-m&m=8#x', 'figure-error-vs-m')).toBe(
      'https://h.org/app/?m=8#figure-error-vs-m',
    );
  });
});

describe('public/embed-example.html', () => {
  const html = readFileSync(new URL('../../public/embed-example.html', import.meta.url), 'utf8');
  it('uses the same sizing script as the snippet, once', () => {
    const body = SNIPPET_SCRIPT.replace(/^<script>\n/, '').replace(/\n<\/script>$/, '');
    expect(html.split(body).length).toBe(2);
  });
  it('holds two lazy embeds, each with its own id in src and data-performer-embed', () => {
    const frames = [...html.matchAll(/<iframe src="([^"]+)" data-performer-embed="([^"]+)"[^>]*loading="lazy"/g)];
    expect(frames.length).toBe(2);
    for (const [, src, id] of frames) expect(new URLSearchParams(src!.split('?')[1]!).get('embedId')).toBe(id);
  });
});

describe('README', () => {
  it('documents the same snippet script', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(SNIPPET_SCRIPT);
  });
});
