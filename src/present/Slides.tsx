/**
 * Lecture mode (`?present`, or key P on the page): full-viewport slides, one step of the story
 * each — a title, one live figure filling the screen, a short caption, the formula, the sources
 * and a strip of the 1–3 controls that step is about. Entering a slide sets its scene through the
 * store's actions; the lecturer can then move the controls. The slide number lives in the store
 * (`ui.step`) and so in the URL (`step=N`). Keys: → / PageDown / Space, ← / PageUp, Home, End,
 * `?` (key list), Esc (back to the page). Each slide is a <main> with its own <h1>, which receives
 * focus on every change, and a polite live region announces "Slide k of N".
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useStrings } from '../ui/strings';
import { Formula } from '../ui/Formula';
import { PanelBoundary } from '../ui/PanelBoundary';
import { observeResize } from '../charts/useWidth';
import { useActions, useAppStore, useStore } from '../store/react';
import { ControlStrip } from './ControlStrip';
import { SlideFigure, type Box } from './figures';
import { focusKind, KEY_LIST, keyAction, targetStep } from './keys';
import { REFERENCES } from '../i18n/references';
import { applyStep, setUploadAside } from './scene';
import { STORY, stepAt } from './story';

/** Width and height of an element, kept current with a ResizeObserver. */
function useBox<T extends HTMLElement>(): [React.RefObject<T | null>, Box] {
  const ref = useRef<T>(null);
  const [box, setBox] = useState<Box>({ width: 800, height: 480 });
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const read = () => {
      const w = Math.floor(el.clientWidth);
      const h = Math.floor(el.clientHeight);
      if (w > 0 && h > 0) setBox((old) => (old.width === w && old.height === h ? old : { width: w, height: h }));
    };
    read();
    return observeResize([el], read);
  }, []);
  return [ref, box];
}

function KeyList({ onClose }: { onClose: () => void }) {
  const t = useStrings().present;
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  return (
    <div
      className="present-keys"
      role="dialog"
      aria-modal="true"
      aria-labelledby="present-keys-title"
      data-keys-dialog=""
      onKeyDown={(e) => {
        // the dialog's only control keeps the focus while it is open (Esc or the button closes it)
        if (e.key === 'Tab') {
          e.preventDefault();
          close.current?.focus();
        }
      }}
    >
      <h2 id="present-keys-title">{t.keysTitle}</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">{t.keyCol}</th>
            <th scope="col">{t.actionCol}</th>
          </tr>
        </thead>
        <tbody>
          {KEY_LIST.map((k) => (
            <tr key={k.action}>
              <td>
                {k.keys.map((key) => (
                  <kbd key={key}>{key}</kbd>
                ))}
              </td>
              <td>{t.keyActions[k.action]}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>{t.keysNote}</p>
      <button type="button" ref={close} onClick={onClose}>
        {t.keysClose}
      </button>
    </div>
  );
}

/** `notices`: the page's message list (e.g. "step=42 is out of range"), shown above the slide. */
export function Presentation({ notices }: { notices?: ReactNode }) {
  const t = useStrings();
  const p = t.present;
  const actions = useActions();
  const store = useAppStore();
  const k = useStore((s) => s.ui.step);
  const step = stepAt(k);
  const count = STORY.length;
  const words = p.steps[step.id];
  const [help, setHelp] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const keysButton = useRef<HTMLButtonElement>(null);
  const [figRef, box] = useBox<HTMLDivElement>();

  // a file upload is no slide's scene: set aside for the lecture, back when it ends (before the first scene)
  useEffect(() => setUploadAside(store), [store]);

  // entering a slide sets its scene, inputs included (a slide looks the same however it is reached)
  useEffect(() => applyStep(store, actions, step), [store, actions, step]);

  // leaving lecture mode hands focus back to the page's Present button
  useEffect(
    () => () => {
      returnFocus = true;
    },
    [],
  );

  // every slide change moves focus to its heading, so a screen reader starts there
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, [k]);

  const go = useCallback((to: number) => actions.setStep(to), [actions]);
  const closeHelp = useCallback(() => {
    setHelp(false);
    keysButton.current?.focus();
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const action = keyAction(e, true, focusKind(document.activeElement));
      if (!action) return;
      e.preventDefault();
      if (action === 'help') {
        if (help) closeHelp();
        else setHelp(true);
      } else if (action === 'exit') {
        if (help) closeHelp();
        else actions.setPresent(false);
      } else {
        const to = targetStep(action, k, count);
        if (to !== null) go(to);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [actions, k, count, go, help, closeHelp]);

  return (
    <div
      className="present"
      data-step={k}
      data-step-id={step.id}
      data-scene={JSON.stringify(step.params)}
      data-scene-trained={step.trained ? JSON.stringify(step.trained) : undefined}
    >
      <header className="present-bar">
        <p className="present-deck">{p.deck}</p>
        <nav aria-label={p.nav} className="present-nav">
          <button type="button" onClick={() => go(k - 1)} disabled={k <= 1} aria-label={p.prev} data-action="prev">
            ←
          </button>
          <span className="present-counter" aria-hidden="true">
            {p.counter(k, count)}
          </span>
          <button type="button" onClick={() => go(k + 1)} disabled={k >= count} aria-label={p.next} data-action="next">
            →
          </button>
          <button
            type="button"
            ref={keysButton}
            onClick={() => setHelp((h) => !h)}
            aria-expanded={help}
            data-action="keys"
          >
            {p.keysButton}
          </button>
          <button type="button" onClick={() => actions.setPresent(false)} title={p.exit} data-action="exit">
            {p.exitShort} <span aria-hidden="true">✕</span>
          </button>
        </nav>
      </header>
      <main className="slide" aria-labelledby="slide-title" data-slide={step.id}>
        {notices}
        <h1 id="slide-title" tabIndex={-1} ref={heading}>
          {words.title}
        </h1>
        <div className="slide-figure" ref={figRef}>
          <PanelBoundary name={words.title}>
            <SlideFigure step={step} box={box} />
          </PanelBoundary>
        </div>
        <div className="slide-text">
          <p className="slide-caption">{words.caption}</p>
          {/* focusable so that a formula wider than a small screen can be scrolled with the keyboard */}
          <div className="slide-formula" tabIndex={0}>
            <Formula tex={step.tex} />
          </div>
          <ControlStrip controls={step.controls} />
          <p className="slide-sources">
            {p.sourcesLabel}:{' '}
            {step.sources.map((s, i) => (
              <span key={s}>
                {i > 0 && '; '}
                <a href={REFERENCES[s].href} target="_blank" rel="noopener noreferrer">
                  {p.sources[s]}
                </a>
              </span>
            ))}
          </p>
        </div>
        <div className="sr-only" aria-live="polite" aria-atomic="true" data-announce="">
          {p.announce(k, count, words.title)}
        </div>
        {help && <KeyList onClose={closeHelp} />}
      </main>
    </div>
  );
}

/** Set when the slides unmount, so the page's Present button takes the focus back. */
let returnFocus = false;

/** The page's "Present" button (header). */
export function PresentButton() {
  const p = useStrings().present;
  const actions = useActions();
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!returnFocus) return;
    returnFocus = false;
    ref.current?.focus();
  }, []);
  return (
    <button
      type="button"
      ref={ref}
      className="present-button"
      onClick={() => actions.setPresent(true)}
      title={p.enterHint}
      data-action="present"
    >
      {p.enter}
    </button>
  );
}

/** Key P on the page enters lecture mode (not while typing; `enabled` false in embeds and while presenting). */
export function usePresentShortcut(enabled: boolean): void {
  const actions = useActions();
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (keyAction(e, false, focusKind(document.activeElement)) !== 'enter') return;
      e.preventDefault();
      actions.setPresent(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [actions, enabled]);
}
