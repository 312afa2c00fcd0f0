import { describe, expect, it } from 'vitest';
import { DEFAULT_PARAMS } from './params';
import { holdsPanels, nextShown, PANEL_HOLD_MS } from './panel-params';
import type { RunningCompute } from './store';

const a = { ...DEFAULT_PARAMS };
const b = { ...DEFAULT_PARAMS, m: 96 };
const running = (estimateMs: number, long = false): RunningCompute => ({
  params: b,
  backend: 'webgpu',
  startedAt: 0,
  estimateMs,
  long,
});

describe('panel bodies wait for a short main compute', () => {
  it('a compute in flight holds them unless it is announced as long, whatever its estimate', () => {
    expect(holdsPanels({ status: 'computing', running: running(30) })).toBe(true);
    expect(holdsPanels({ status: 'computing', running: running(10 * PANEL_HOLD_MS) })).toBe(true);
    expect(holdsPanels({ status: 'computing', running: running(5000, true) })).toBe(false);
    expect(holdsPanels({ status: 'computing', running: null })).toBe(false);
    for (const status of ['idle', 'ok', 'error', 'cancelled', 'held'] as const)
      expect(holdsPanels({ status, running: running(30) })).toBe(false);
  });

  it('a body follows at once when nothing holds it, and keeps its object when nothing changed', () => {
    const shown = { params: a, resultId: 1 };
    expect(nextShown(shown, b, { resultId: 1, holding: false, expired: false })).toEqual({ params: b, resultId: 1 });
    expect(nextShown(shown, a, { resultId: 1, holding: true, expired: true })).toBe(shown);
  });

  it('while held, a body follows when a newer result arrives or the wait expires, not before', () => {
    const shown = { params: a, resultId: 1 };
    expect(nextShown(shown, b, { resultId: 1, holding: true, expired: false })).toBe(shown);
    expect(nextShown(shown, b, { resultId: 2, holding: true, expired: false })).toEqual({ params: b, resultId: 2 });
    expect(nextShown(shown, b, { resultId: 1, holding: true, expired: true })).toEqual({ params: b, resultId: 1 });
  });

  it('a result that arrives while the parameters stand still is seen, so only a later one releases a hold', () => {
    // the body mounted before the page's first result and the parameters did not change since
    let shown = nextShown({ params: a, resultId: null }, a, { resultId: 3, holding: false, expired: false });
    expect(shown).toEqual({ params: a, resultId: 3 });
    shown = nextShown(shown, b, { resultId: 3, holding: true, expired: false });
    expect(shown.params).toBe(a);
    expect(nextShown(shown, b, { resultId: 4, holding: true, expired: false }).params).toBe(b);
  });
});
