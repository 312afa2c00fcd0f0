import { describe, expect, it } from 'vitest';
import { axisRoom, PAGE_ROOM } from './axis-room';

describe('axisRoom', () => {
  it('is the page layout at the page fonts (11 px ticks, 12 px titles) with y tick labels up to 32 px wide', () => {
    for (const w of [0, 18, 32]) expect(axisRoom(11, 12, w)).toEqual(PAGE_ROOM);
  });

  it('puts the x title below the tick labels at slide sizes: its top (baseline − ascent) under their bottom, margin below it', () => {
    for (const [tick, label] of [
      [16, 17],
      [20, 22],
      [26, 28],
    ] as const) {
      const r = axisRoom(tick, label, 20);
      const tickBottom = 9 + (0.71 + 0.25) * tick;
      expect(r.xLabelY - 0.97 * label, `${tick}/${label}`).toBeGreaterThanOrEqual(tickBottom + 2);
      expect(r.bottom).toBeGreaterThanOrEqual(r.xLabelY + 0.25 * label);
      expect(r.xLabelY).toBeGreaterThan(PAGE_ROOM.xLabelY); // the page's 34 px put it on the labels
    }
  });

  it('moves the y title left of the widest y tick label ("100,000" on a slide) and widens the margin to hold it', () => {
    const r = axisRoom(16, 17, 52);
    expect(-r.yLabelX - 0.25 * 17).toBeGreaterThanOrEqual(9 + 52 + 2); // its descent side clear of the labels
    expect(r.left).toBeGreaterThanOrEqual(-r.yLabelX + 0.97 * 17); // its ascent side inside the svg
    // the same on the page for a wide label (the page's fixed −46 px overlapped 40 px labels)
    expect(axisRoom(11, 12, 40).yLabelX).toBeLessThan(PAGE_ROOM.yLabelX);
  });

  it('never gives less room than the page, whatever it is told', () => {
    const r = axisRoom(1, 1, 0);
    expect(r).toEqual(PAGE_ROOM);
    for (const [tick, label, w] of [
      [0, 0, 0],
      [8, 9, 5],
      [11, 12, 80],
      [30, 6, 0],
      [6, 30, 200],
    ] as const) {
      const q = axisRoom(tick, label, w);
      expect(q.xLabelY).toBeGreaterThanOrEqual(PAGE_ROOM.xLabelY);
      expect(q.bottom).toBeGreaterThanOrEqual(PAGE_ROOM.bottom);
      expect(q.left).toBeGreaterThanOrEqual(PAGE_ROOM.left);
      expect(q.yLabelX).toBeLessThanOrEqual(PAGE_ROOM.yLabelX);
    }
  });
});

describe('axisRoom: a y title longer than the plot is tall', () => {
  it('gets the font size that fits it beside the plot (a 230 px title at 17 px on a 180 px plot: 13 px)', () => {
    const r = axisRoom(16, 17, 20, 230, 180);
    expect(r.yTitlePx).toBe(13);
    expect((230 * r.yTitlePx!) / 17).toBeLessThanOrEqual(180);
  });

  it('keeps its CSS size when it fits (and on the page, where nothing is measured long)', () => {
    expect(axisRoom(16, 17, 20, 170, 180).yTitlePx).toBeNull();
    expect(axisRoom(11, 12, 20).yTitlePx).toBeNull();
  });
});
