import { test } from './harness.mjs';
test('probe', async ({ page, baseUrl, log }) => {
  await page.goto(`${baseUrl}/e2e/pages/performer-kernels.html`);
  await page.waitForFunction(() => window.performerKernels, null, { timeout: 60_000 });
  for (const [n, causal] of [[4096, false], [4096, true]]) {
    const c = { map: 'positive', n, d: 64, m: 256 };
    log(n, causal, JSON.stringify(await page.evaluate(([c, causal]) => window.profile(c, causal), [c, causal])));
  }
}, { timeout: 600_000 });
