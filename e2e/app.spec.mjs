// The explainer end to end in Chromium: controls drive the engine, and the page answers as the
// product promises — the WebGPU path with its badge and CSP, the CPU fallback, bad URL parameters,
// structured inputs, deep links. WebGPU on SwiftShader pays ~15 s of pipeline compilation per page
// load (and per new pipeline variant: another map, causal), so the WebGPU test keeps to what needs the
// GPU path (backend badge, m, d and causal → heatmaps); the rest runs on the CPU path
// (`?backend=cpu`), which computes the same numbers faster (the kernels' numbers on every map are the
// kernel specs' job). The analyses' behaviour on the page: analyses.spec.mjs. Run: node e2e/run.mjs app
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { waitForAnalysis } from './app-analyses.mjs';
import { heatmapCellText, metric, resultId, shotsDir, typeParam, waitForParams, waitForResult } from './app-page.mjs';
import { watchCsp } from './csp-watch.mjs';
import { test } from './harness.mjs';

test(
  "WebGPU: badge, no CSP violation under the served build's policy (WGSL needs no eval), the defaults have structure, and the heatmaps respond to m, d and causal on the GPU path (the causal row chart marks where the mask cuts the row)",
  async ({ page, context, appUrl, artifacts, log }) => {
    // the served production build carries its strict CSP meta (offline.spec.mjs checks the policy)
    const csp = await watchCsp(page, context);
    await page.goto(`${appUrl}/`);
    await page.waitForSelector('[data-metric="backend"][data-value="webgpu"]', { timeout: 60_000 });
    const badge = await page.textContent('[data-metric="backend"]');
    assert.match(badge, /^WebGPU: /);
    await waitForResult(page, null, 90_000);
    const dir = shotsDir(artifacts);
    await page.screenshot({ path: join(dir, 'webgpu-1280-top.png') });

    // defaults (local inputs, s = 1.5): exact A has structure and the Performer's Â visibly differs
    const hA = await metric(page, 'entropy-exact');
    const errDefault = await metric(page, 'rel-error-A');
    log(
      `defaults on WebGPU: entropy of A ${hA.toFixed(3)}, of Â ${(await metric(page, 'entropy-performer')).toFixed(3)}, rel. error of A ${errDefault.toFixed(3)}`,
    );
    assert.ok(hA <= 0.9, `entropy of A at defaults ${hA}`);
    assert.ok(errDefault > 0.3, `rel-error-A at defaults ${errDefault}`);

    // the rest of this test checks the theory where FAVOR+ converges: Gaussian inputs at s = 0.5
    let before = await resultId(page);
    await page.selectOption('[data-param="input"]', 'gaussian');
    await waitForResult(page, before);
    before = await resultId(page);
    await typeParam(page, 'scale', 0.5);
    await waitForResult(page, before);
    const err64 = await metric(page, 'rel-error-A');
    assert.ok(err64 > 0.05 && err64 < 0.6, `rel-error-A at Gaussian s = 0.5: ${err64}`);
    assert.ok((await metric(page, 'entropy-exact')) > 0.97);

    // m: more features, smaller error (same W seed family; 16 → 512 is a 32× budget)
    before = await resultId(page);
    await typeParam(page, 'm', 16);
    await waitForResult(page, before);
    const err16 = await metric(page, 'rel-error-A');
    before = await resultId(page);
    await typeParam(page, 'm', 512);
    await waitForResult(page, before);
    const err512 = await metric(page, 'rel-error-A');
    log(`rel. error of A: m = 16 → ${err16.toFixed(3)}, m = 512 → ${err512.toFixed(3)}`);
    assert.ok(err512 < err16 / 2, `error should fall with m: ${err16} → ${err512}`);

    // d: at a fixed entry scale ‖x+y‖² grows like √d, and the error with it
    before = await resultId(page);
    await typeParam(page, 'm', 64);
    await waitForResult(page, before);
    before = await resultId(page);
    await typeParam(page, 'd', 4);
    await waitForResult(page, before);
    const errD4 = await metric(page, 'rel-error-A');
    before = await resultId(page);
    await typeParam(page, 'd', 64);
    await waitForResult(page, before);
    const errD64 = await metric(page, 'rel-error-A');
    log(`rel. error of A: d = 4 → ${errD4.toFixed(3)}, d = 64 → ${errD64.toFixed(3)}`);
    assert.ok(errD64 > errD4, `error should grow with d: ${errD4} → ${errD64}`);
    before = await resultId(page);
    await typeParam(page, 'd', 16);
    await waitForResult(page, before);

    // causal: the upper triangle of A is masked
    const causalMark = page.locator('.row-chart .marker-label', { hasText: 'j = i' });
    assert.equal(await causalMark.count(), 0, 'no mask marker on the row chart without the mask');
    await page.check('[data-param="causal"]');
    await waitForParams(page, 's = 0.5, causal');
    // the row chart marks where the mask cuts the row: its line at key j = i (row 128 of 256: between the ticks 100 and 150)
    await causalMark.waitFor();
    const markX = Number(
      await causalMark.locator('xpath=preceding-sibling::*[local-name()="line"]').getAttribute('x1'),
    );
    const tickX = async (v) =>
      (
        await page
          .locator('.row-chart .axis .tick', { hasText: new RegExp(`^${v}$`) })
          .first()
          .getAttribute('transform')
      ).match(/translate\(([-\d.]+)/)[1];
    const [x100, x150] = [Number(await tickX(100)), Number(await tickX(150))];
    assert.ok(
      Math.abs(markX - (x100 + (x150 - x100) * 0.56)) < 2,
      `the mask marker at j = 128 (x ${markX}; ticks 100 at ${x100}, 150 at ${x150})`,
    );
    for (const which of ['exact', 'approx']) {
      const upper = await heatmapCellText(page, `heatmap-${which}`, 0.98, 0.02); // query 0, last keys: masked
      const lower = await heatmapCellText(page, `heatmap-${which}`, 0.02, 0.98); // last queries, first keys: allowed
      assert.equal(upper, '0', `${which}: the top-right cell (keys after the query) is masked, shows ${upper}`);
      assert.notEqual(lower, '0', `${which}: the bottom-left cell (keys before the query) is not masked`);
      // a panel clips what leaves it (paint containment): at the bottom row the tooltip opens above the pointer
      const tip = await page.locator(`[data-metric="heatmap-${which}"] .tooltip`).boundingBox();
      const cell = await page.locator(`[data-metric="heatmap-${which}"] .heatmap-canvas`).boundingBox();
      assert.ok(
        tip.y + tip.height <= cell.y + cell.height,
        `${which}: the bottom row's tooltip ends inside the heatmap (${tip.y + tip.height} > ${cell.y + cell.height})`,
      );
    }
    await page.mouse.move(0, 0);
    assert.deepEqual(await csp.violations(), [], 'no CSP violation while computing on WebGPU');
    assert.deepEqual(csp.cspConsoleErrors(), [], 'no CSP console error');
  },
  { timeout: 150_000 },
);

test(
  'CPU fallback is announced when the browser has no WebGPU; the default scene has structure',
  async ({ page, appUrl, log }) => {
    await page.goto(`${appUrl}/`);
    await page.waitForSelector('[data-metric="backend"][data-value="cpu"]', { timeout: 60_000 });
    assert.match(await page.textContent('[data-metric="backend"]'), /^CPU fallback: .+/);
    await waitForResult(page, null);
    assert.ok((await metric(page, 'rel-error-out')) > 0);

    // the default scene tells the sparsity panel's story: softmax can focus, 1 + elu spreads out
    await waitForAnalysis(page, 'rowEntropies');
    const hA = await metric(page, 'entropy-exact');
    const hPerf = await metric(page, 'entropy-performer');
    const hElu = await metric(page, 'entropy-elu1');
    log(
      `defaults on the CPU path: entropy A ${hA.toFixed(3)}, Performer Â ${hPerf.toFixed(3)}, 1+elu Â ${hElu.toFixed(3)}, rel. error of A ${(await metric(page, 'rel-error-A')).toFixed(3)}`,
    );
    assert.ok(hA <= 0.9, `entropy of A at defaults ${hA}`);
    assert.ok(hElu >= hA + 0.05, `1 + elu (${hElu}) should be flatter than softmax (${hA}) by ≥ 0.05`);
    assert.equal(await page.$('[data-zero-normalizer-rows]'), null, 'no all-zero normalizers at the defaults');

    // extreme norms without ε: every product φ(q_i)·φ(k_j) underflows, and the main panel says so
    await page.goto(`${appUrl}/?n=64&d=256&scale=4&input=gaussian`);
    const notice = page.locator('[data-panel="main"] [data-zero-normalizer-rows]');
    await notice.waitFor({ timeout: 60_000 });
    log(`d = 256, s = 4, stab = shift: ${await notice.textContent()}`);
    assert.equal(await notice.getAttribute('data-zero-normalizer-rows'), '64');
    // the reference ε keeps every normalizer positive
    const before = await resultId(page);
    await page.selectOption('[data-param="stabilizer"]', 'ref');
    await waitForResult(page, before);
    assert.equal(await notice.count(), 0, 'no notice with stab=ref');
    await page.waitForFunction(() => location.search.includes('stab=ref'), null, { timeout: 10_000 }); // the URL follows the store
  },
  { webgpu: false, timeout: 120_000 },
);

test(
  'bad URL parameters are rejected with a message; the page keeps working',
  async ({ page, appUrl, artifacts }) => {
    const q =
      '?backend=cpu&n=abc&m=999999&d=-3&map=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&scale=NaN&causal=maybe&row=1e9&theme=__proto__';
    await page.goto(`${appUrl}/${q}`);
    await page.waitForSelector('[data-notice="param-rejected"]', { timeout: 30_000 });
    // every rejection is on screen within a few seconds (not necessarily in the first frame that has one)
    const KEYS = ['n', 'm', 'd', 'map', 'scale', 'causal', 'row', 'theme'];
    await page
      .waitForFunction(
        (keys) => keys.every((k) => document.querySelector('.notices')?.textContent?.includes(` ${k} = “`)),
        KEYS,
        { timeout: 5_000 },
      )
      .catch(() => {});
    const text = await page.textContent('.notices');
    for (const key of KEYS) assert.ok(text.includes(` ${key} = “`), `no message for ${key}: ${text}`);
    assert.equal(await page.$('img[src="x"]'), null);
    await waitForResult(page, null);
    assert.match(await page.textContent('[data-result-params]'), /n = 256, d = 16, m = 64/);
    await page.screenshot({ path: join(shotsDir(artifacts), 'bad-url-1280.png') });

    // a bad typed value is refused with a message and the previous value stays
    await typeParam(page, 'n', 'lots');
    await page.waitForFunction(() => document.querySelector('.notices')?.textContent?.includes('“lots”'));
    // the field shows the kept value again (within a few frames of the notice)
    const settles = (sel, v) =>
      page
        .waitForFunction(([sel, v]) => document.querySelector(sel)?.value === v, [sel, v], { timeout: 5_000 })
        .catch(() => {});
    await settles('[data-param-input="n"]', '256');
    assert.equal(await page.inputValue('[data-param-input="n"]'), '256');
    // an out-of-range one is clamped, with a message
    await typeParam(page, 'm', 5000);
    await page.waitForFunction(() => document.querySelector('.notices')?.textContent?.includes('using 1,024'));
    await settles('[data-param-input="m"]', '1024');
    assert.equal(await page.inputValue('[data-param-input="m"]'), '1024');
  },
  { timeout: 90_000 },
);

test(
  'structured inputs: the hint offers a scale at which their attention is peaked, and it is',
  async ({ page, appUrl }) => {
    await page.goto(`${appUrl}/?backend=cpu&input=clustered&scale=0.5`);
    await waitForResult(page, null);
    const uniform = await metric(page, 'entropy-exact');
    const hint = page.locator('[data-action="structured-scale"]');
    await hint.waitFor();
    const before = await resultId(page);
    await hint.click();
    await waitForResult(page, before);
    assert.equal(await page.inputValue('[data-param-input="scale"]'), '1.5');
    const peaked = await metric(page, 'entropy-exact');
    assert.ok(peaked < uniform - 0.1, `normalized entropy ${uniform} → ${peaked}: clustered inputs should concentrate`);
    assert.equal(await hint.count(), 0, 'the hint goes away once the scale is large enough');
  },
  { timeout: 60_000 },
);

test(
  'a deep link (#panel-beyond) lands on its panel once the app has rendered and stays there while the panels above take their real heights; an in-page link lands too',
  async ({ page, appUrl, log }) => {
    // off-screen panels are skipped at a guessed height (content-visibility: auto), and at the
    // browser's own fragment scroll the panels do not exist yet: src/app/hash-landing.ts lands
    const top = (id) => page.evaluate((id) => document.getElementById(id).getBoundingClientRect().top, id);
    await page.goto(`${appUrl}/?backend=cpu#panel-beyond`);
    await page.waitForFunction(
      () => Math.abs(document.getElementById('panel-beyond')?.getBoundingClientRect().top ?? 1e9) <= 2,
      null,
      { timeout: 20_000 },
    );
    // the panels above fill in (the error panel grows by ~950 px as its figures arrive)
    await waitForAnalysis(page, 'normSweep');
    await waitForAnalysis(page, 'rowEntropies');
    const settled = await top('panel-beyond');
    log(`deep link: #panel-beyond at ${settled.toFixed(1)} px once the panels above have their figures`);
    assert.ok(Math.abs(settled) <= 2, `the deep-linked panel stays at the top, not at ${settled} px`);

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.evaluate(() => {
      location.hash = '#panel-rank';
    });
    await page.waitForFunction(
      () => Math.abs(document.getElementById('panel-rank').getBoundingClientRect().top) <= 2,
      null,
      { timeout: 10_000 },
    );
    await page.waitForTimeout(500);
    const rank = await top('panel-rank');
    assert.ok(Math.abs(rank) <= 2, `an in-page link lands on its panel, not ${rank} px off`);
  },
  { timeout: 120_000 },
);

test(
  'n = 1 and n = 2: the heatmaps and the row chart label whole positions, each once (fractional ticks printed as integers read 0 0 0 1 1 1)',
  async ({ page, appUrl, log }) => {
    for (const n of [1, 2]) {
      await page.goto(`${appUrl}/?backend=cpu&n=${n}`);
      await waitForResult(page, null, 60_000);
      await page.locator('.row-chart .axis .tick').first().waitFor({ timeout: 30_000 });
      // the axes of positions: both of each heatmap, the row chart's x axis (its first; its y axis holds weights)
      const labelsOf = (gs) => gs.map((g) => [...g.querySelectorAll('.tick text')].map((t) => t.textContent));
      const axes = [
        ...(await page.$$eval('[data-metric^="heatmap-"] .axis', labelsOf)),
        ...(await page.$$eval('.row-chart .axis', labelsOf)).slice(0, 1),
      ];
      log(`n = ${n}: ${axes.map((a) => a.join(' ')).join(' | ')}`);
      assert.equal(axes.length, 7, `three heatmaps' two axes and the row chart's x axis (${axes.length})`);
      for (const labels of axes) {
        assert.equal(new Set(labels).size, labels.length, `repeated tick labels: ${labels}`);
        assert.deepEqual(
          labels,
          labels.filter((l) => /^\d+$/.test(l)),
          `whole positions only: ${labels}`,
        );
        assert.ok(labels.length >= 2 && Number(labels.at(-1)) <= n, `positions 0 … ${n}: ${labels}`);
      }
    }
  },
  { webgpu: false, timeout: 90_000 },
);
