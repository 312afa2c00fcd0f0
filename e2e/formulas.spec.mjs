// The page's formulas are prerendered (src/i18n/formulas.ts): every formula of the English page,
// the Chinese page and every lecture slide is shown from that table — none rendered on the page,
// and the KaTeX chunk is never requested. A formula missing from the table would still show (KaTeX
// loads for it), so this is what keeps the table complete in practice. Run: node e2e/run.mjs formulas
import assert from 'node:assert/strict';
import { test } from './harness.mjs';

const STEPS = 13;

/** Formulas on the page: how many, and those not shown from the prerendered table or not rendered. */
async function formulas(page) {
  return page.evaluate(() => {
    const all = [...document.querySelectorAll('.formula:not(.formula-parts), .formula-part, .formula-inline')];
    return {
      count: all.length,
      lazy: all.filter((f) => f.hasAttribute('data-formula-lazy')).map((f) => f.textContent.slice(0, 40)),
      unrendered: all.filter((f) => !f.querySelector('.katex')).map((f) => f.textContent.slice(0, 40)),
    };
  });
}

function check(where, f) {
  assert.ok(f.count > 0, `${where}: formulas shown`);
  assert.deepEqual(f.lazy, [], `${where}: formulas rendered on the page instead of prerendered`);
  assert.deepEqual(f.unrendered, [], `${where}: formulas not rendered`);
}

test(
  'every formula of the English and Chinese page and of every slide is prerendered: none is rendered on the page, and KaTeX’s script is never loaded',
  async ({ page, appUrl, log }) => {
    const katexChunks = [];
    page.on('request', (r) => {
      if (/\/katex-[\w-]+\.js(\?|$)/.test(r.url())) katexChunks.push(r.url());
    });
    await page.goto(`${appUrl}/?backend=cpu`);
    // the last panel's table of inline formulas, and a display formula, are there
    await page.waitForSelector('[data-panel="beyond"] .formula-inline .katex', { timeout: 60_000 });
    await page.waitForSelector('[data-panel="main"] .formula-part .katex', { timeout: 60_000 });
    const en = await formulas(page);
    check('English page', en);

    await page.selectOption('[data-setting="lang"]', 'zh');
    await page.waitForFunction(() => document.documentElement.lang.startsWith('zh'), null, { timeout: 20_000 });
    await page.waitForFunction(() => /[\u4e00-\u9fff]/.test(document.querySelector('h1')?.textContent ?? ''));
    const zh = await formulas(page);
    check('Chinese page', zh);
    // a formula with Chinese text in it is shown (from the Chinese chunk's table)
    assert.ok(
      await page.evaluate(() =>
        [...document.querySelectorAll('.formula annotation')].some((a) => /[\u4e00-\u9fff]/.test(a.textContent)),
      ),
      'a Chinese formula is shown',
    );

    let slides = 0;
    await page.goto(`${appUrl}/?present&step=1&backend=cpu`);
    for (let k = 1; k <= STEPS; k++) {
      if (k > 1) await page.keyboard.press('ArrowRight');
      await page.waitForSelector(`.present[data-step="${k}"] .formula .katex`, { timeout: 20_000 });
      const f = await formulas(page);
      check(`slide ${k}`, f);
      slides += f.count;
    }
    log(
      `prerendered formulas shown: English page ${en.count}, Chinese page ${zh.count}, ${STEPS} slides ${slides}; KaTeX chunk requests: ${katexChunks.length}`,
    );
    assert.deepEqual(katexChunks, [], 'KaTeX’s script is not loaded');
  },
  { timeout: 180_000, webgpu: false },
);
