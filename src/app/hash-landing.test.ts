import { describe, expect, it } from 'vitest';
import { fragmentTarget, landOn } from './hash-landing';

/** A window whose frames are run by hand and whose listeners can be fired. */
function fakeWindow() {
  const frames: (() => void)[] = [];
  const listeners = new Map<string, Set<() => void>>();
  const win = {
    requestAnimationFrame: (cb: () => void) => frames.push(cb),
    cancelAnimationFrame: () => frames.splice(0),
    addEventListener: (type: string, cb: () => void) => {
      if (!listeners.has(type)) listeners.set(type, new Set());
      listeners.get(type)!.add(cb);
    },
    removeEventListener: (type: string, cb: () => void) => listeners.get(type)?.delete(cb),
  };
  const frame = () => frames.splice(0).forEach((f) => f());
  const fire = (type: string) => [...(listeners.get(type) ?? [])].forEach((f) => f());
  const listening = () => [...listeners.values()].reduce((s, l) => s + l.size, 0);
  return { win: win as unknown as Window, frame, fire, listening, pending: () => frames.length };
}

/** A target at `top` px from the viewport's top; scrollIntoView puts it at 0. */
function fakeTarget(top: number) {
  const el = {
    top,
    scrolls: 0,
    isConnected: true,
    getBoundingClientRect: () => ({ top: el.top }),
    scrollIntoView: () => {
      el.scrolls++;
      el.top = 0;
    },
  };
  return el;
}

describe('landOn', () => {
  it('scrolls the target to the top at once and ends after it stayed there for stableFrames frames', () => {
    const w = fakeWindow();
    const el = fakeTarget(3000);
    landOn(el as unknown as HTMLElement, w.win, { stableFrames: 3 });
    expect(el.scrolls).toBe(1);
    for (let i = 0; i < 3; i++) w.frame();
    expect(w.pending()).toBe(0);
    expect(w.listening()).toBe(0);
  });

  it('scrolls again when the panels above render at other heights and move the target', () => {
    const w = fakeWindow();
    const el = fakeTarget(3000);
    landOn(el as unknown as HTMLElement, w.win, { stableFrames: 3 });
    w.frame();
    el.top = -708; // the panels above took their real heights
    w.frame();
    expect(el.scrolls).toBe(2);
    expect(el.top).toBe(0);
    for (let i = 0; i < 3; i++) w.frame();
    expect(w.pending()).toBe(0);
  });

  it('stops at the reader’s first wheel, touch, key or pointer press and never scrolls after it', () => {
    for (const input of ['wheel', 'touchstart', 'keydown', 'pointerdown']) {
      const w = fakeWindow();
      const el = fakeTarget(500);
      landOn(el as unknown as HTMLElement, w.win, { stableFrames: 5 });
      w.fire(input);
      el.top = 400; // the reader scrolled
      w.frame();
      expect(el.scrolls, input).toBe(1);
      expect(w.listening(), input).toBe(0);
    }
  });

  it('gives up after maxFrames when the target never settles, and the returned stop ends it early', () => {
    const w = fakeWindow();
    const el = fakeTarget(100);
    landOn(el as unknown as HTMLElement, w.win, { stableFrames: 3, maxFrames: 10 });
    for (let i = 0; i < 20; i++) {
      el.top = 50; // moved every frame
      w.frame();
    }
    expect(el.scrolls).toBe(10);
    expect(w.pending()).toBe(0);

    const w2 = fakeWindow();
    const stop = landOn(fakeTarget(100) as unknown as HTMLElement, w2.win);
    stop();
    expect(w2.pending()).toBe(0);
    expect(w2.listening()).toBe(0);
  });

  it('counts a target within the tolerance as landed and stops once it leaves the document', () => {
    const w = fakeWindow();
    const el = fakeTarget(1.5);
    landOn(el as unknown as HTMLElement, w.win, { tolerance: 2 });
    expect(el.scrolls).toBe(0);
    el.isConnected = false;
    w.frame();
    expect(w.pending()).toBe(0);
  });
});

describe('fragmentTarget', () => {
  const doc = { getElementById: (id: string) => (id === 'panel-rank' || id === 'é' ? ({ id } as HTMLElement) : null) };
  it('finds the element a fragment names, percent-encoded too; an empty, unknown or malformed one names nothing', () => {
    expect(fragmentTarget(doc as Document, '#panel-rank')?.id).toBe('panel-rank');
    expect(fragmentTarget(doc as Document, '#%C3%A9')?.id).toBe('é');
    expect(fragmentTarget(doc as Document, '')).toBeNull();
    expect(fragmentTarget(doc as Document, '#')).toBeNull();
    expect(fragmentTarget(doc as Document, '#nope')).toBeNull();
    expect(fragmentTarget(doc as Document, '#%E0%A4%A')).toBeNull();
  });
});
