// Regenerates the committed images in public/ from the real app: the apple-touch icon (180×180 PNG
// rendered from public/icon.svg) and the social preview (1200×630 PNG, a screenshot of the
// production build computing on the CPU path). Run: node build/make-images.mjs
import { readFileSync, statSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, preview } from 'vite';
import { launchBrowser } from '../e2e/browser.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pub = join(root, 'public');
const outDir = mkdtempSync(join(tmpdir(), 'performer-images-'));

await build({ root, mode: 'production', logLevel: 'error', build: { outDir, emptyOutDir: true } });
const server = await preview({ root, logLevel: 'warn', build: { outDir }, preview: { port: 0, host: '127.0.0.1' } });
const url = `http://localhost:${server.httpServer.address().port}`;
const browser = await launchBrowser({ webgpu: false });
try {
  const icon = await browser.newPage({ viewport: { width: 180, height: 180 } });
  const svg = readFileSync(join(pub, 'icon.svg'), 'utf8');
  // iOS rounds the corners itself: fill the square with the tile colour behind the SVG.
  await icon.setContent(
    `<body style="margin:0;background:#3b4cc0">${svg.replace('<svg ', '<svg width="180" height="180" ')}</body>`,
  );
  await icon.screenshot({ path: join(pub, 'apple-touch-icon.png') });

  // A 1600×840 layout scaled by 0.75 shows the heatmaps as well as the header in 1200×630.
  const page = await browser.newPage({ viewport: { width: 1600, height: 840 }, deviceScaleFactor: 0.75 });
  await page.goto(`${url}/?backend=cpu&input=clustered&n=128&scale=1.5`);
  await page.waitForSelector('[data-metric="heatmap-exact"][data-result-id]', { timeout: 120_000 });
  await page.waitForFunction(
    () => document.querySelector('.compute-status')?.getAttribute('data-status') !== 'computing',
  );
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(pub, 'social-preview.png') });
} finally {
  await browser.close();
  await new Promise((r) => server.httpServer.close(r));
  rmSync(outDir, { recursive: true, force: true });
}
for (const f of ['apple-touch-icon.png', 'social-preview.png'])
  console.log(`${f}: ${statSync(join(pub, f)).size} bytes`);
