/**
 * The embed's side of the page it sits in:
 * - posts `{ type: 'performer-explainer:resize', id, height }` to window.parent on start and whenever
 *   the document's height changes (ResizeObserver on <html>, whose height is the content's: the
 *   embed's CSS leaves no margins and no inner scrolling);
 * - applies `{ type: 'performer-explainer:set', id, params }` from window.parent only, validated by
 *   parseSetMessage (src/store/embed.ts); every other message is ignored;
 * - reports whether the frame is on screen (IntersectionObserver against the top-level viewport,
 *   plus the tab's visibility), so the controller computes only while a reader can see it.
 */
import type { AttentionParams } from '../core/types';
import { parseSetMessage, resizeMessage } from '../store/embed';

export interface EmbedBridgeOptions {
  win: Window;
  /** element whose size is the document's (normally document.documentElement) */
  root: HTMLElement;
  id: string | null;
  onSet(params: Partial<AttentionParams>): void;
  onVisible(visible: boolean): void;
}

export function startEmbedBridge({ win, root, id, onSet, onVisible }: EmbedBridgeOptions): () => void {
  const inFrame = win.parent !== win;
  let lastHeight = -1;
  const post = () => {
    const height = Math.ceil(root.getBoundingClientRect().height);
    if (!inFrame || height === lastHeight) return;
    lastHeight = height;
    // '*': the height is not a secret, and the embedding page's origin is not known in advance
    win.parent.postMessage(resizeMessage(id, height), '*');
  };
  const resize = new ResizeObserver(post);
  resize.observe(root);
  post();

  const onMessage = (e: MessageEvent) => {
    if (!inFrame || e.source !== win.parent) return;
    const params = parseSetMessage(e.data, id);
    if (params) onSet(params);
  };
  win.addEventListener('message', onMessage);

  let intersecting = true;
  const doc = win.document;
  const update = () => onVisible(intersecting && doc.visibilityState !== 'hidden');
  let io: IntersectionObserver | null = null;
  if (typeof IntersectionObserver !== 'undefined') {
    io = new IntersectionObserver((entries) => {
      const last = entries[entries.length - 1];
      if (!last) return;
      intersecting = last.isIntersecting;
      update();
    });
    io.observe(root);
  } else update();
  doc.addEventListener('visibilitychange', update);

  return () => {
    resize.disconnect();
    io?.disconnect();
    win.removeEventListener('message', onMessage);
    doc.removeEventListener('visibilitychange', update);
  };
}
