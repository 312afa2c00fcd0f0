import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { M_STOPS } from './params';
import { createActions, createAppStore } from './store';
import { startUrlSync } from './url-sync';

function fakeWindow() {
  const calls: string[] = [];
  const win = {
    location: { search: '', pathname: '/', hash: '' },
    history: {
      state: null,
      replaceState(_s: unknown, _t: string, url: string) {
        calls.push(url);
        win.location.search = url.slice(url.indexOf('?') >= 0 ? url.indexOf('?') : url.length);
      },
      pushState() {
        throw new Error('pushState during a drag');
      },
    },
  };
  return { win: win as unknown as Pick<Window, 'location' | 'history'>, calls };
}

describe('startUrlSync during a drag', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('writes the URL with replaceState at most once per delay, with the newest parameters', () => {
    const store = createAppStore();
    const actions = createActions(store);
    const { win, calls } = fakeWindow();
    const stop = startUrlSync(store, win, 150);
    const initial = calls.length;
    // a drag: a new m every 16 ms for 20 frames (320 ms)
    for (let k = 0; k < 20; k++) {
      actions.setParam('m', M_STOPS[k % M_STOPS.length]!);
      vi.advanceTimersByTime(16);
    }
    vi.advanceTimersByTime(200);
    const writes = calls.length - initial;
    expect(writes).toBeGreaterThanOrEqual(1);
    expect(writes).toBeLessThanOrEqual(3);
    expect(calls.at(-1)).toContain(`m=${store.getState().params.m}`);
    stop();
  });
});
