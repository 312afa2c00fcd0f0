// What the specs that drive the app page share: reading its metrics and result ids, waiting for a
// result, typing a parameter, a settled box for pointer work, the screenshots folder.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export function shotsDir(artifacts) {
  const dir = join(artifacts, 'screenshots');
  mkdirSync(dir, { recursive: true });
  return dir;
}

export async function metric(page, name) {
  const v = await page.getAttribute(`[data-metric="${name}"]`, 'data-value');
  assert.ok(v !== null && v !== '', `metric ${name} has no value`);
  return Number(v);
}

export async function resultId(page) {
  return page.getAttribute('[data-metric="heatmap-exact"]', 'data-result-id');
}

/** Waits until the heatmaps show a result newer than `before` and the compute is idle. */
export async function waitForResult(page, before, timeout = 60_000) {
  await page.waitForFunction(
    (b) => {
      const fig = document.querySelector('[data-metric="heatmap-exact"]');
      const status = document.querySelector('.compute-status')?.getAttribute('data-status');
      return (
        fig && fig.getAttribute('data-result-id') && fig.getAttribute('data-result-id') !== b && status !== 'computing'
      );
    },
    before,
    { timeout },
  );
}

/** Waits until the compute is idle and its shown result has the given n (works without heatmaps). */
export async function waitForParams(page, text, timeout = 60_000) {
  await page.waitForFunction(
    (t) => {
      const p = document.querySelector('[data-result-params]')?.textContent ?? '';
      const status = document.querySelector('.compute-status')?.getAttribute('data-status');
      return p.includes(t) && status !== 'computing';
    },
    text,
    { timeout },
  );
}

/**
 * The box of an element scrolled on screen, once it holds still: a panel that was off screen is skipped
 * (content-visibility: auto), so a chart in it resizes to the viewport only in the frames after it
 * comes into view (its ResizeObserver does not fire while skipped), and the first box read would be
 * the one of the viewport size it was last drawn at.
 */
export async function settledBox(page, locator) {
  await locator.scrollIntoViewIfNeeded();
  let box = await locator.boundingBox();
  for (let i = 0; i < 20; i++) {
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const next = await locator.boundingBox();
    if (next.x === box.x && next.y === box.y && next.width === box.width && next.height === box.height) return next;
    box = next;
  }
  throw new Error('the element kept moving after it was scrolled into view');
}

/** The value the heatmap's tooltip shows for the cell at fractions (fx, fy) of its width and height. */
export async function heatmapCellText(page, metric, fx, fy) {
  const canvas = page.locator(`[data-metric="${metric}"] .heatmap-canvas`);
  const box = await settledBox(page, canvas);
  await canvas.hover({ position: { x: fx * box.width, y: fy * box.height }, force: true });
  return (await page.locator(`[data-metric="${metric}"] .tooltip strong`).textContent()).trim();
}

export async function typeParam(page, param, value) {
  const input = page.locator(`[data-param-input="${param}"]`);
  await input.fill(String(value));
  await input.press('Enter');
}

/**
 * The labels of the vertical marker lines in the charts under `scope` (a selector): per label its
 * text, whether a label box lies under it covering all of its text, the box's fill and opacity, and the
 * background the chart is drawn on (its nearest ancestor's with one).
 */
export async function markerLabelBoxes(page, scope) {
  return page.locator(`${scope} svg text.marker-label`).evaluateAll((all) =>
    all
      .filter((t) => {
        const line = t.parentElement.querySelector(':scope > line');
        return !!line && line.getAttribute('x1') === line.getAttribute('x2'); // a vertical marker's, not a level's
      })
      .map((t) => {
        const box = t.previousElementSibling?.matches('rect.marker-label-bg') ? t.previousElementSibling : null;
        const tb = t.getBBox();
        const bb = box?.getBBox();
        let bg = 'none';
        for (let el = t.closest('svg'); el; el = el.parentElement) {
          const c = getComputedStyle(el).backgroundColor;
          if (c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') {
            bg = c;
            break;
          }
        }
        const cs = box && getComputedStyle(box);
        return {
          text: t.textContent,
          covers:
            !!bb &&
            bb.x <= tb.x + 0.5 &&
            bb.y <= tb.y + 0.5 &&
            bb.x + bb.width >= tb.x + tb.width - 0.5 &&
            bb.y + bb.height >= tb.y + tb.height - 0.5,
          fill: cs?.fill ?? null,
          opacity: cs ? Number(cs.opacity) : 0,
          bg,
        };
      }),
  );
}
