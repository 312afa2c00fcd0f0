// Bench (not a test): how long after navigation the first numbers appear. Builds the app in
// production mode, serves it, and loads it in headless Chromium several times per path, recording
// (from navigation start, in page time) when the first metric value and the first drawn heatmap
// appear, which backend produced them, and — on the WebGPU path — when the first WebGPU-computed
// result is on screen. Prints a table of medians. Usage:
//   npm run bench:first                      (this checkout)
//   node e2e/first-number.mjs --root DIR     (another checkout, e.g. an export of main, to compare)
//   node e2e/first-number.mjs --runs 5
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, preview } from 'vite';
import { launchBrowser } from './browser.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const root = resolve(opt('root', join(here, '..')));
const runs = Number(opt('runs', '3'));
const timeoutMs = Number(opt('timeout', '120000'));

const outDir = mkdtempSync(join(tmpdir(), 'first-number-'));
await build({ root, mode: 'production', logLevel: 'error', build: { outDir, emptyOutDir: true } });
const server = await preview({ root, logLevel: 'warn', build: { outDir }, preview: { port: 0, host: '127.0.0.1' } });
const appUrl = `http://localhost:${server.httpServer.address().port}`;

/**
 * Installed before any page script: watches the DOM and records page time (performance.now(), which
 * starts at navigation) of the first metric value, the first drawn heatmap, the backend badge at
 * that moment, and the first result whose metric `compute-ms` appears under a WebGPU badge.
 */
function probe() {
  const marks = { metric: null, heatmap: null, badgeAtFirst: null, webgpuResult: null };
  window.__firstNumber = marks;
  const check = () => {
    const now = performance.now();
    const badge = document.querySelector('[data-metric="backend"]');
    const kind = badge?.getAttribute('data-value') ?? '';
    const metric = document.querySelector('[data-metric="rel-error-out"]')?.getAttribute('data-value');
    const fig = document.querySelector('[data-metric="heatmap-exact"]');
    const drawn = fig?.getAttribute('data-result-id');
    if (marks.metric === null && metric) {
      marks.metric = now;
      marks.badgeAtFirst = (badge?.textContent ?? '').slice(0, 60);
    }
    if (marks.heatmap === null && drawn) marks.heatmap = now;
    // a result computed by WebGPU: the shown result's backend (data-result-backend where the app
    // exposes it; otherwise the badge says WebGPU and a heatmap is drawn)
    const resultBackend = document.querySelector('[data-result-backend]')?.getAttribute('data-result-backend');
    const onGpu = resultBackend ? resultBackend === 'webgpu' : kind === 'webgpu';
    if (marks.webgpuResult === null && onGpu && drawn) marks.webgpuResult = now;
  };
  new MutationObserver(check).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
}

const paths = [
  { name: 'WebGPU (SwiftShader)', webgpu: true, query: '' },
  { name: 'no WebGPU (CPU fallback)', webgpu: false, query: '' },
  { name: '?backend=cpu', webgpu: true, query: '?backend=cpu' },
];

const median = (xs) => {
  const s = xs.filter((x) => x !== null).sort((a, b) => a - b);
  if (!s.length) return null;
  const k = Math.floor(s.length / 2);
  return s.length % 2 ? s[k] : (s[k - 1] + s[k]) / 2;
};
const fmt = (ms) => (ms === null ? '—' : `${(ms / 1000).toFixed(2)} s`);

const rows = [];
for (const path of paths) {
  const browser = await launchBrowser({ webgpu: path.webgpu });
  const samples = [];
  for (let r = 0; r < runs; r++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.addInitScript(probe);
    await page.goto(`${appUrl}/${path.query}`);
    const wantGpu = path.webgpu && !path.query;
    await page
      .waitForFunction(
        (g) => {
          const m = window.__firstNumber;
          return m && m.metric !== null && m.heatmap !== null && (!g || m.webgpuResult !== null);
        },
        wantGpu,
        { timeout: timeoutMs, polling: 100 },
      )
      .catch(() => {});
    samples.push(await page.evaluate(() => window.__firstNumber));
    await context.close();
  }
  await browser.close();
  rows.push({
    path: path.name,
    metric: median(samples.map((s) => s.metric)),
    heatmap: median(samples.map((s) => s.heatmap)),
    webgpu: path.webgpu && !path.query ? median(samples.map((s) => s.webgpuResult)) : null,
    badge: samples[0]?.badgeAtFirst ?? '',
  });
}
await new Promise((r) => server.httpServer.close(r));

console.log(`\nfirst numbers after navigation (median of ${runs} loads, 1280×800, default URL; root ${root})\n`);
const header = ['path', 'first metric', 'first heatmap', 'first WebGPU result', 'badge at first number'];
const table = rows.map((r) => [
  r.path,
  fmt(r.metric),
  fmt(r.heatmap),
  r.webgpu === null ? 'n/a' : fmt(r.webgpu),
  r.badge,
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
const line = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
console.log(line(header));
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const row of table) console.log(line(row));
