/**
 * Two-way URL sync for the browser: `loadFromUrl` applies a validated query string to the store
 * (rejections become notices), `startUrlSync` writes the parameters back with history.replaceState
 * (coalesced, so dragging a slider does not hammer the history API).
 */
import { readUrl, writeUrl } from './url';
import type { Actions, AppStore, Lang } from './store';
import { selectTrained } from './trained';

export function loadFromUrl(store: AppStore, actions: Actions, search: string): void {
  const { params, ui, notices, training, trained } = readUrl(search);
  const s = store.getState();
  store.setState({
    params: { ...s.params, ...params },
    ui: { ...s.ui, ...ui },
    training: training.setup ? { ...s.training, setup: training.setup } : s.training,
  });
  for (const n of notices) actions.notify(n);
  if (trained) selectTrained(store, actions, trained, 'url');
}

/** `defaultLang`: the browser's language, left out of the URL unless chosen explicitly (see writeUrl). */
export function startUrlSync(
  store: AppStore,
  win: Pick<Window, 'location' | 'history'> = window,
  delayMs = 150,
  defaultLang: Lang = 'en',
): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const write = () => {
    timer = null;
    const next = writeUrl(store.getState(), win.location.search, defaultLang);
    if (next !== win.location.search) {
      try {
        win.history.replaceState(win.history.state, '', `${win.location.pathname}${next}${win.location.hash}`);
      } catch {
        // replaceState can throw (e.g. too many calls in a sandboxed iframe); the URL is a convenience
      }
    }
  };
  write();
  const off = store.subscribe((s, prev) => {
    if (
      s.params === prev.params &&
      s.ui === prev.ui &&
      s.upload?.active === prev.upload?.active &&
      s.upload?.pendingTrained === prev.upload?.pendingTrained &&
      s.training?.setup === prev.training?.setup
    )
      return;
    if (timer === null) timer = setTimeout(write, delayMs);
  });
  return () => {
    off();
    if (timer !== null) clearTimeout(timer);
  };
}
