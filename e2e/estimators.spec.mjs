// The later estimators in the app (CPU fallback: the same math as the kernels, faster to start):
// selectable from the URL and the controls, computed by the engine, and the second-order Taylor map
// refused with a typed error, said where the user looks, when 1 + d + d² passes the feature limit.
// Run: node e2e/run.mjs estimators
import assert from 'node:assert/strict';
import { test } from './harness.mjs';

async function idleWithResult(page, timeout = 60_000) {
  await page.waitForFunction(
    () => {
      const v = document.querySelector('[data-metric="rel-error-A"]')?.getAttribute('data-value');
      const status = document.querySelector('.compute-status')?.getAttribute('data-status');
      return v && Number.isFinite(Number(v)) && status !== 'computing';
    },
    null,
    { timeout },
  );
  return Number(await page.getAttribute('[data-metric="rel-error-A"]', 'data-value'));
}

test(
  'map=oprf / taylor2 / cosformer and proj=simplex load from the URL, show in the controls and compute',
  async ({ page, appUrl, log }) => {
    for (const [query, map, proj] of [
      ['map=oprf&proj=simplex', 'oprf', 'simplex'],
      ['map=taylor2', 'taylor2', null],
      ['map=cosformer&causal=1', 'cosformer', null],
    ]) {
      await page.goto(`${appUrl}/?backend=cpu&n=128&${query}`);
      const err = await idleWithResult(page);
      assert.equal(await page.inputValue('select[data-param="featureMap"]'), map);
      if (proj) assert.equal(await page.inputValue('select[data-param="projection"]'), proj);
      assert.equal(await page.locator('.engine-error').count(), 0, `${query}: no engine error`);
      log(`${query}: relative error of A ${err.toFixed(3)}`);
      if (map === 'oprf') {
        // the feature-map panel states the A chosen for these Q, K: negative (bounded features), not FAVOR+'s 0
        const note = page.locator('[data-note="oprf"]');
        await note.waitFor({ timeout: 60_000 });
        const a = Number(await note.getAttribute('data-oprf-a'));
        log(`oprf: A = ${a.toFixed(4)} for these Q, K`);
        assert.ok(a < 0 && a > -10, `A = ${a}`);
      }
      assert.ok(err > 0 && err < 2, `${query}: error of A ${err} is a real, bounded number`);
    }
  },
  { timeout: 120_000, webgpu: false },
);

test(
  'causal mode: the feature-map panel states the causal OPRF (a fixed A) and the causal double softmax, and every map’s row marks j = i, where the mask cuts it',
  async ({ page, appUrl, log }) => {
    const d = 16;
    await page.goto(`${appUrl}/?backend=cpu&n=128&d=${d}&map=oprf&causal=1`);
    await idleWithResult(page);
    const note = page.locator('[data-note="oprf"]');
    await note.waitFor({ timeout: 60_000 });
    // rho = 2/sqrt(d) (unit-variance q, k), A = A*(rho): the same for any Q, K
    const rho = 2 / Math.sqrt(d);
    const expected = (1 - 2 * rho - Math.sqrt((2 * rho + 1) ** 2 + 8 * rho)) / 16;
    const a = Number(await note.getAttribute('data-oprf-a'));
    log(`causal oprf: A = ${a.toFixed(4)} (expected ${expected.toFixed(4)})`);
    assert.ok(Math.abs(a - expected) < 1e-9, `A = ${a}, expected ${expected}`);
    assert.match(await note.textContent(), /Causal mode/);
    // each map's row of Â is cut by the mask at its query: a marker at j = i in every small multiple
    await page.locator('[data-map-row]').first().waitFor({ timeout: 60_000 });
    const rows = await page.locator('[data-map-row]').count();
    const marked = await page.locator('[data-map-row] .marker-label', { hasText: /^j = i$/ }).count();
    assert.ok(rows >= 8 && marked === rows, `${marked} of ${rows} map rows marked at j = i`);
    // at the row's own position: its line is i / (n − 1) of the plot's width (the clip rect), in every cell
    const i = Number(
      (await page.locator('[data-map-row]').first().locator('xpath=preceding::h3[1]').textContent()).match(
        /i = (\d+)/,
      )[1],
    );
    const at = await page.locator('[data-map-row]').evaluateAll((cells) =>
      cells.map((c) => {
        const line = c.querySelector('.marker-label').parentElement.querySelector(':scope > line');
        return Number(line.getAttribute('x1')) / Number(c.querySelector('clipPath rect').getAttribute('width'));
      }),
    );
    for (const f of at)
      assert.ok(Math.abs(f - i / 127) < 0.005, `marker at ${f.toFixed(4)} of the plot, row ${i} of 0 … 127`);
    await page.goto(`${appUrl}/?backend=cpu&n=128&d=${d}&map=double-softmax&causal=1`);
    await idleWithResult(page);
    await page.locator('[data-note="double-softmax-causal"]').waitFor({ timeout: 60_000 });
  },
  { timeout: 120_000, webgpu: false },
);

test(
  'taylor2 at d = 64 (4161 features) is refused: a typed exceeds-limit error and a note at the d slider',
  async ({ page, appUrl }) => {
    await page.goto(`${appUrl}/?backend=cpu&map=taylor2&d=64`);
    const note = page.locator('[data-warning="taylor2-d"]');
    await note.waitFor({ timeout: 30_000 });
    assert.match(await note.textContent(), /4[,\u202f\u00a0 ]?161/);
    const banner = page.locator('.engine-error');
    await banner.waitFor({ timeout: 30_000 });
    assert.equal(await banner.getAttribute('data-error-code'), 'exceeds-limit');
    assert.match(await banner.textContent(), /d ≤ 44/);
    // back to a d it fits: the note turns into the feature count and the result comes back
    await page.goto(`${appUrl}/?backend=cpu&map=taylor2&d=16`);
    await idleWithResult(page);
    assert.equal(await page.locator('[data-warning="taylor2-d"]').count(), 0);
    assert.equal(await page.locator('.engine-error').count(), 0);
  },
  { timeout: 90_000, webgpu: false },
);
