// axe-core on the whole page (the embeds and the slides have their own checks in embed.spec and
// present.spec): every panel rendered with its analyses done, in English and in Chinese, light and
// dark, on the CPU path. Run: node e2e/run.mjs a11y
import assert from 'node:assert/strict';
import { injectAxe } from './axe.mjs';
import { test } from './harness.mjs';

const SMALL = 'n=128&d=16&m=32';

async function violations(page) {
  await injectAxe(page);
  return page.evaluate(async () =>
    (await window.axe.run(document, { resultTypes: ['violations'] })).violations.map(
      (v) => `${v.id} (${v.nodes.length}): ${v.nodes[0]?.target}`,
    ),
  );
}

test(
  'axe: the full page has no violations (English light, Chinese dark), with every panel drawn',
  async ({ page, appUrl, log }) => {
    for (const extra of ['lang=en', 'lang=zh&theme=dark']) {
      await page.goto(`${appUrl}/?${SMALL}&${extra}`);
      await page.waitForSelector('[data-metric="heatmap-exact"][data-result-id]:not([data-result-id=""])', {
        timeout: 60_000,
      });
      // bring every panel on screen once so lazily started analyses render their figures
      for (const id of ['error', 'sparsity', 'rank', 'feature-maps', 'beyond', 'speed']) {
        await page.locator(`#panel-${id}`).scrollIntoViewIfNeeded();
      }
      await page.waitForSelector('[data-analysis="spectra"][data-status="done"]', { timeout: 120_000 });
      const v = await violations(page);
      log(`axe, full page (${extra}): ${v.length} violations${v.length ? ': ' + v.join('; ') : ''}`);
      assert.deepEqual(v, [], `axe on the full page (${extra})`);
    }
  },
  { webgpu: false, timeout: 300_000 },
);
