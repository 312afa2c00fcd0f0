/**
 * Entry point: one store, read from the URL (validated), one engine client (WebGPU or CPU in a
 * worker; `?backend=cpu` forces the CPU path), one controller between them, and the React tree.
 */
import 'katex/dist/katex.min.css';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createEngineClient } from '../engine/engine-client';
import { createLazyEngine, onFirstOnScreen } from '../embed/lazy-engine';
import { createController } from '../store/controller';
import { createTrainingClient } from '../engine/training-client';
import { createTrainingController } from '../store/training-controller';
import { StoreProvider } from '../store/react';
import { createActions, createAppStore, initialState } from '../store/store';
import { browserLang, readUrl } from '../store/url';
import { loadFromUrl, startUrlSync } from '../store/url-sync';
import { panelBodyRenders, panelsBehind } from '../panels/common';
import { App } from './App';
import { languageReady } from './LanguageSwitch';

// Language: `?lang=` if given, else the browser's (navigator.languages: zh* → zh, else en).
const defaultLang = browserLang(navigator.languages?.length ? navigator.languages : [navigator.language ?? 'en']);
const store = createAppStore(initialState({}, { lang: defaultLang }));
const actions = createActions(store);
const forceCpu = new URLSearchParams(window.location.search).get('backend') === 'cpu';
// an embed starts its engine the first time it is on screen, and computes only while it is (src/embed)
const lazy = readUrl(window.location.search).ui.embed ? createLazyEngine(() => createEngineClient({ forceCpu })) : null;
const engine = lazy ?? createEngineClient({ forceCpu });
const controller = createController(store, engine);
// after the controller: an input=trained link's head is computed by the engine's forward pass
loadFromUrl(store, actions, window.location.search);
if (lazy) {
  controller.setActive(false);
  onFirstOnScreen(document.documentElement, lazy.start);
}
// Training runs in its own worker, started with the first comparison; `run=1` starts the configured one
// on load (in an embed: when the frame first comes on screen).
// `?trainer=webgpu`: train on WebGPU even on a software adapter (tests, benches)
const forceGpu = new URLSearchParams(window.location.search).get('trainer') === 'webgpu';
const training = createTrainingController(store, actions, createTrainingClient(), { forceCpu, forceGpu });
if (readUrl(window.location.search).training.run) {
  if (lazy) onFirstOnScreen(document.documentElement, () => training.start());
  else training.start();
}
startUrlSync(store, window, undefined, defaultLang);

// Read-only handle for debugging, the browser tests and the benches (state is plain data; subscribe
// only observes; panelsBehind: panel bodies still to render the current parameters; panelBodyRenders:
// how often each panel body rendered).
(
  window as unknown as {
    __performer: Pick<typeof store, 'getState' | 'subscribe'> & {
      panelsBehind(): number;
      panelBodyRenders(): Readonly<Record<string, number>>;
    };
  }
).__performer = {
  getState: store.getState,
  subscribe: store.subscribe,
  panelsBehind,
  panelBodyRenders,
};

// The first render waits for its language (languageReady: strings and bundled faces): text is laid
// out and measured once, in the words and face it keeps. Strings that cannot load: English, with a notice.
const lang = store.getState().ui.lang;
void languageReady(lang)
  .catch(() => {
    actions.setUi('lang', 'en');
    actions.notify({ level: 'error', code: 'lang-unavailable', lang });
    return languageReady('en');
  })
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <StoreProvider value={{ store, actions, controller, training }}>
          <App />
        </StoreProvider>
      </StrictMode>,
    ),
  );
