/**
 * Deep links land on their target: `…/#panel-rank` (a blog post's link, a lecture note) scrolls to the
 * rank panel once the app has rendered it, and stays there while the page around it settles.
 *
 * Why the browser alone does not: at its fragment scroll the panels do not exist yet (React renders
 * them later), and off-screen panels are skipped (content-visibility: auto) at a guessed height, so a
 * jump is computed against guesses; the panels that then render near the target take their real
 * heights and move it. So the target is scrolled to its top again, every frame, until it has stayed
 * there for `stableFrames` frames (or `maxFrames` passed), and never against the reader: a wheel,
 * touch, key or pointer press ends it. A reload or a history navigation keeps the browser's restored
 * position (no landing then).
 */
import { useEffect } from 'react';

export interface LandingOptions {
  /** Frames the target must stay at the top before landing ends. */
  stableFrames?: number;
  /** Frames after which landing ends anyway (≈ 3 s at 60 Hz). */
  maxFrames?: number;
  /** Distance from the top, in px, counted as landed (borders, rounding). */
  tolerance?: number;
}

const USER_INPUT = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/** The element a fragment names (`#panel-rank`, percent-encoded ids too), or null. */
export function fragmentTarget(doc: Document, hash: string): HTMLElement | null {
  if (hash.length < 2) return null;
  let id: string;
  try {
    id = decodeURIComponent(hash.slice(1));
  } catch {
    return null; // a malformed escape names nothing
  }
  return doc.getElementById(id);
}

/**
 * Scrolls `el` to the viewport's top until it stays there; returns a function that stops early.
 * `win` is the window whose frames and input are watched.
 */
export function landOn(el: HTMLElement, win: Window, opts: LandingOptions = {}): () => void {
  const stableFrames = opts.stableFrames ?? 12;
  const maxFrames = opts.maxFrames ?? 180;
  const tolerance = opts.tolerance ?? 2;
  let frames = 0;
  let stable = 0;
  let raf = 0;
  let done = false;
  const stop = () => {
    if (done) return;
    done = true;
    win.cancelAnimationFrame(raf);
    for (const type of USER_INPUT) win.removeEventListener(type, stop, true);
  };
  const tick = () => {
    if (done) return;
    if (!el.isConnected) return stop();
    if (Math.abs(el.getBoundingClientRect().top) > tolerance) {
      el.scrollIntoView({ block: 'start' });
      stable = 0;
    } else if (++stable >= stableFrames) return stop();
    if (++frames >= maxFrames) return stop();
    raf = win.requestAnimationFrame(tick);
  };
  for (const type of USER_INPUT) win.addEventListener(type, stop, { capture: true, passive: true });
  tick();
  return stop;
}

function restoredNavigation(win: Window): boolean {
  const nav = win.performance?.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  return nav?.type === 'reload' || nav?.type === 'back_forward';
}

/**
 * Lands on the URL's fragment once the page has rendered (not on a reload or a history navigation),
 * and again whenever the fragment changes (an in-page link: the browser's jump is computed against
 * the skipped panels' guesses too).
 */
export function useHashLanding(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    let stop: (() => void) | null = null;
    const land = () => {
      stop?.();
      const el = fragmentTarget(document, window.location.hash);
      stop = el ? landOn(el, window) : null;
    };
    if (!restoredNavigation(window)) land();
    window.addEventListener('hashchange', land);
    return () => {
      window.removeEventListener('hashchange', land);
      stop?.();
    };
  }, [enabled]);
}
