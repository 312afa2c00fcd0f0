// Per-pass GPU time (timestamp queries) of the dense analyses' GPU part at the default parameters
// (e2e/pages/analysis-kernels.ts profileDense: spectra's planes, local truncation's two variants with
// φ from the twins, as the engine forms it on a software adapter), three runs each, in one headless
// Chromium page. A profile, not a test. Usage: node e2e/profile-dense.mjs [spectra,localTruncation]
import { createServer } from 'vite';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from './browser.mjs';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const server = await createServer({
  root,
  logLevel: 'warn',
  server: { port: 0, host: '127.0.0.1', hmr: false, watch: null },
});
await server.listen();
const browser = await launchBrowser({ webgpu: true });
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error(`  [page error] ${e.message}`));
  await page.goto(`http://localhost:${server.httpServer.address().port}/e2e/pages/analysis-kernels.html`);
  await page.waitForFunction(() => window.analysisKernels, null, { timeout: 60_000 });
  for (const which of (process.argv[2] ?? 'localTruncation,spectra').split(',')) {
    for (let r = 0; r < 3; r++) {
      const res = await page.evaluate((w) => window.analysisKernels.profileDense(w, 'cpu'), which);
      const agg = {};
      for (const p of res.passes) agg[p.kernel] = (agg[p.kernel] ?? 0) + p.ms;
      console.log(
        which,
        'wall',
        Math.round(res.wallMs),
        'ms; passes',
        JSON.stringify(Object.fromEntries(Object.entries(agg).map(([k, v]) => [k, +v.toFixed(1)]))),
      );
    }
  }
} finally {
  await browser.close();
  await server.close();
}
