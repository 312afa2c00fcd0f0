/**
 * What a blogger pastes: the <iframe> for one panel in the current state, and the script that sizes
 * it. Pure string functions (no DOM), so the dialog, the README and the tests share one source.
 * The script trusts a message only if it comes from the frame's own window (event.source), from the
 * origin of the frame's src (event.origin), and has exactly the documented shape.
 */
import { writeEmbedControls, type EmbedControlId, type EmbedFigureId } from '../store/embed';
import type { PanelId } from '../store/store';

/** URL keys that belong to the embed (or to other page modes), not to the experiment's state. */
const EMBED_KEYS = ['embed', 'controls', 'embedId', 'figure'] as const;
const PAGE_MODE_KEYS = ['hide', 'present', 'step'] as const;

/**
 * The full app with the same state: `href` without embed, controls, embedId and figure, landing on
 * `anchor` (the embedded panel's or figure's heading id) where given.
 */
export function fullAppHref(href: string, anchor?: string): string {
  const url = new URL(href);
  for (const k of EMBED_KEYS) url.searchParams.delete(k);
  url.hash = anchor ? `#${anchor}` : '';
  return url.toString();
}

export interface EmbedSpec {
  /** the app page's address (any query is replaced) */
  pageHref: string;
  /** the query string of the state to embed (as written by writeUrl) */
  stateSearch: string;
  panel: PanelId;
  /** null: the panel's default controls */
  controls: readonly EmbedControlId[] | null;
  id: string;
  /** one figure of the panel alone (null or absent: the whole panel) */
  figure?: EmbedFigureId | null;
}

export function embedSrc(spec: EmbedSpec): string {
  const url = new URL(spec.pageHref);
  const q = new URLSearchParams(spec.stateSearch);
  for (const k of [...EMBED_KEYS, ...PAGE_MODE_KEYS]) q.delete(k);
  q.set('embed', spec.panel);
  if (spec.controls !== null) q.set('controls', writeEmbedControls(spec.controls));
  q.set('embedId', spec.id);
  if (spec.figure) q.set('figure', spec.figure);
  url.search = q.toString();
  url.hash = '';
  return url.toString();
}

/** Height before the first resize message arrives (about the panel's height in a 700 px column). */
export const INITIAL_HEIGHT: { readonly [P in PanelId]: number } = {
  main: 2200,
  error: 2700,
  sparsity: 2300,
  rank: 1200,
  'feature-maps': 1500,
  speed: 2600,
  beyond: 2600,
  training: 1900,
};

/** Height before the first resize message of a one-figure embed (a figure, its notes and the controls). */
export const FIGURE_INITIAL_HEIGHT = 900;

const ESCAPES: Record<string, string> = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;', "'": '&#39;' };
export function escapeAttr(s: string): string {
  return s.replace(/[&"<>']/g, (c) => ESCAPES[c]!);
}

/** The sizing script (one copy per page is enough; a second copy is harmless). */
export const SNIPPET_SCRIPT = `<script>
// Performer, up close: size each embedded figure to its content.
addEventListener('message', (e) => {
  const m = e.data;
  if (!m || m.type !== 'performer-explainer:resize' || typeof m.id !== 'string') return;
  if (typeof m.height !== 'number' || !(m.height > 0 && m.height < 20000)) return;
  for (const f of document.querySelectorAll('iframe[data-performer-embed]')) {
    if (f.contentWindow !== e.source || f.dataset.performerEmbed !== m.id) continue;
    if (new URL(f.src, location.href).origin === e.origin) f.style.height = Math.ceil(m.height) + 'px';
  }
});
</script>`;

export function iframeHtml(src: string, id: string, title: string, height: number): string {
  return (
    `<iframe src="${escapeAttr(src)}" data-performer-embed="${escapeAttr(id)}" title="${escapeAttr(title)}"\n` +
    `  loading="lazy" scrolling="no" width="100%" height="${Math.round(height)}"\n` +
    `  style="display:block;width:100%;height:${Math.round(height)}px;border:0;overflow:hidden"></iframe>`
  );
}

export function buildSnippet(spec: EmbedSpec, title: string): string {
  const height = spec.figure ? FIGURE_INITIAL_HEIGHT : INITIAL_HEIGHT[spec.panel];
  return `${iframeHtml(embedSrc(spec), spec.id, title, height)}\n${SNIPPET_SCRIPT}\n`;
}
