// Screenshots of the training panel (not a test): the full page with a finished comparison, the
// zh page, the embed, and the learning slide. Usage: node e2e/shots-training.mjs OUTDIR
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, preview } from 'vite';
import { launchBrowser } from './browser.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const out = process.argv[2] ?? join(here, 'artifacts', 'screenshots');
mkdirSync(out, { recursive: true });
const distDir = join(here, 'artifacts', 'dist-shots');
await build({ root, mode: 'production', logLevel: 'error', build: { outDir: distDir, emptyOutDir: true } });
const server = await preview({
  root,
  logLevel: 'warn',
  build: { outDir: distDir },
  preview: { port: 0, host: '127.0.0.1' },
});
const appUrl = `http://localhost:${server.httpServer.address().port}`;
const browser = await launchBrowser({ webgpu: process.env.SHOT_WEBGPU === '1' });
// the panel: the default comparison (no train=); the embed and the slide: a shorter one
const SHORT =
  process.env.SHOT_SETUP ??
  'task.mqar_pairs.4_L.24_kinds.softmax+elu1+positive_d.32_h.1_layers.1_steps.60_batch.8_seeds.2_m.32_conv.shift';
const backend = process.env.SHOT_WEBGPU === '1' ? '' : '&backend=cpu';

async function shot(
  name,
  url,
  { until = '[data-training-status="done"]', width = 1280, height = 900, el = null } = {},
) {
  const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
  page.on('pageerror', (e) => console.error(name, 'page error:', e));
  await page.goto(url);
  await page.waitForSelector(until, { timeout: 600_000 });
  // the panels above the element keep settling (analyses arriving) after the run: let them, then
  // bring the element into view, or the capture is of the box where the element was measured
  await page.waitForFunction(() => !document.querySelector('[data-analysis][data-status="running"]'), null, {
    timeout: 120_000,
  });
  if (el) await page.locator(el).scrollIntoViewIfNeeded();
  await page.waitForTimeout(800);
  const target = el ? page.locator(el) : page;
  await target.screenshot({ path: join(out, `${name}.png`), ...(el ? {} : { fullPage: true }) });
  console.log(`${name}.png`);
  await page.close();
}

if (process.env.SHOT_SKIP_PANEL !== '1') {
  // a viewport taller than the panel: a stitched element screenshot resizes the page mid-capture
  await shot('training-panel-en', `${appUrl}/?run=1${backend}`, { el: '[data-panel="training"]', height: 2400 });
}
await shot('training-embed-zh', `${appUrl}/?embed=training&lang=zh&train=${SHORT}&run=1${backend}`);
await shot('training-slide', `${appUrl}/?present&step=12&train=${SHORT}&run=1${backend}`, {
  width: 1024,
  height: 768,
});
await browser.close();
await new Promise((r) => server.httpServer.close(r));
