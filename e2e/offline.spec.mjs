// Shipping the app as static files: the served production build runs under its Content-Security-
// Policy without violations and without leaving its origin (the CPU path here; app.spec.mjs's WebGPU
// test watches the served build on WebGPU); the single-file build (npm run build:single) computes
// opened from file:// with no network, on the CPU and on WebGPU; the normal build opened
// from file:// explains what to do instead of showing a blank page. Run: node e2e/run.mjs offline
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';
import { watchCsp as watch } from './csp-watch.mjs';
import { prepare, test } from './harness.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** A small scene for the CPU pages (their analyses run at n = 64, not at the default 256). */
const SMALL = 'n=64&d=8&m=16';

let singleBuild;
/** Builds the single-file app once (vite's build API, mode 'single') into e2e/artifacts/dist-single. */
function buildSingle(artifacts) {
  const outDir = join(artifacts, 'dist-single');
  singleBuild ??= build({ root, mode: 'single', logLevel: 'error', build: { outDir, emptyOutDir: true } }).then(
    () => outDir,
  );
  return singleBuild;
}

// the single-file build runs in the background while the kernel specs run (about 14 s of build)
prepare(({ artifacts }) => buildSingle(artifacts));

async function cspOf(page) {
  return page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
}

async function waitForComputed(page, timeout = 90_000) {
  await page.waitForFunction(
    () =>
      document.querySelector('[data-metric="heatmap-exact"]')?.getAttribute('data-result-id') &&
      document.querySelector('.compute-status')?.getAttribute('data-status') !== 'computing',
    null,
    { timeout },
  );
  const err = Number(await page.getAttribute('[data-metric="rel-error-A"]', 'data-value'));
  assert.ok(Number.isFinite(err) && err > 0, `rel-error-A is a positive number (got ${err})`);
}

async function katexRendered(page) {
  return page.evaluate(async () => {
    await document.fonts.ready;
    const formulas = document.querySelectorAll('.katex .katex-html').length;
    const fonts = [...document.fonts].filter(
      (f) => f.family.replace(/"/g, '') === 'KaTeX_Main' && f.status === 'loaded',
    ).length;
    return { formulas, fonts };
  });
}

test(
  'served build: strict CSP meta, CPU path computes, KaTeX and both workers run, no violations, no request leaves the origin',
  async ({ page, context, appUrl, artifacts }) => {
    const w = await watch(page, context);
    // a small scene: only whether the workers run matters here, not how long the analyses take
    await page.goto(`${appUrl}/?backend=cpu&${SMALL}`);

    const csp = await cspOf(page);
    assert.ok(csp, 'index.html carries a Content-Security-Policy meta');
    assert.match(csp, /default-src 'self'/);
    assert.match(
      csp,
      /script-src 'self' 'sha256-[^']+'(;|$)/,
      'scripts: self plus the hash of the file:// notice, nothing else',
    );
    assert.match(csp, /worker-src 'self' blob:/);
    assert.match(csp, /connect-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-eval|frame-ancestors/);

    await page.waitForSelector('[data-metric="backend"][data-value="cpu"]', { timeout: 60_000 });
    await waitForComputed(page); // the engine worker ran
    await page.waitForSelector('[data-analysis="errorVsM"][data-status="done"]', { timeout: 120_000 }); // the analysis worker ran
    const k = await katexRendered(page);
    assert.ok(k.formulas >= 3, `KaTeX formulas rendered (${k.formulas})`);
    assert.ok(k.fonts >= 1, 'the KaTeX_Main font loaded');
    assert.equal(await page.isVisible('#file-notice'), false, 'the file:// notice stays hidden when served');

    assert.deepEqual(await w.violations(), [], 'no CSP violation');
    assert.deepEqual(w.cspConsoleErrors(), [], 'no CSP console error');
    const origin = new URL(appUrl).origin;
    const foreign = w.requests.filter(
      (u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:') && !u.startsWith('blob:'),
    );
    assert.deepEqual(foreign, [], 'every request is same-origin, data: or blob:');
    assert.ok(
      w.requests.some((u) => /\/assets\/engine-worker-[^/]+\.js$/.test(u)),
      'the served build loads its worker as a separate file',
    );
    assert.ok(
      readdirSync(join(artifacts, 'dist', 'assets')).some((f) => /^analysis-worker-.+\.js$/.test(f)),
      'the normal build keeps separate worker files',
    );
  },
  { webgpu: false, timeout: 180_000 },
);

test(
  'WebGPU computes from file:// in the single-file build under its CSP (WGSL needs no eval), with no console error',
  async ({ page, context, artifacts }) => {
    // the served build on WebGPU is app.spec.mjs's WebGPU test, which checks it for CSP violations
    const w = await watch(page, context);
    // file:// counts as a secure context, so the single file's (Blob) worker gets WebGPU too.
    const outDir = await buildSingle(artifacts);
    await page.goto(pathToFileURL(join(outDir, 'index.html')).href);
    await page.waitForSelector('[data-metric="backend"][data-value="webgpu"]', { timeout: 120_000 });
    await waitForComputed(page, 180_000);
    assert.deepEqual(await w.violations(), [], 'no CSP violation (single file)');
    assert.deepEqual(w.consoleErrors, [], 'no console error (single file)');
  },
  { webgpu: true, timeout: 480_000 },
);

test(
  'single-file build: one index.html that computes from file:// with no network, says which backend, switches to Chinese offline, no console error',
  async ({ page, context, artifacts, log }) => {
    const outDir = await buildSingle(artifacts);
    assert.deepEqual(readdirSync(outDir), ['index.html'], 'the build writes exactly one file');
    log(`dist-single/index.html: ${statSync(join(outDir, 'index.html')).size} bytes`);

    await context.setOffline(true);
    const w = await watch(page, context);
    const url = `${pathToFileURL(join(outDir, 'index.html')).href}?${SMALL}`;
    await page.goto(url);
    const csp = await cspOf(page);
    assert.match(csp, /script-src 'sha256-[^']+'(;|$)/, 'the inlined app is allowed by its hash, not by unsafe-inline');
    assert.doesNotMatch(csp, /unsafe-eval/);

    await page.waitForSelector('[data-metric="backend"][data-value="cpu"]', { timeout: 60_000 });
    assert.match(await page.textContent('[data-metric="backend"]'), /^CPU fallback: .+/);
    await waitForComputed(page);
    await page.waitForSelector('[data-analysis="errorVsM"][data-status="done"]', { timeout: 120_000 });
    const k = await katexRendered(page);
    assert.ok(k.formulas >= 3 && k.fonts >= 1, `KaTeX renders with its inlined fonts (${JSON.stringify(k)})`);
    assert.equal(await page.$('#file-notice'), null, 'the single file has no "serve this folder" notice');
    // Chinese, a chunk of its own in the served build, is inlined here: the switch works offline
    await page.selectOption('[data-setting="lang"]', 'zh');
    await page.waitForFunction(() => document.documentElement.lang.startsWith('zh'), null, { timeout: 20_000 });
    await page.waitForFunction(() => /[\u4e00-\u9fff]/.test(document.querySelector('h1')?.textContent ?? ''), null, {
      timeout: 20_000,
    });
    log(`in Chinese: ${await page.textContent('h1')}`);
    // an exported figure carries the page's faces here too: the single file's faces are data: URLs
    // already (its CSP allows no fetch), embedded as they are
    const figure = page.locator('#panel-error .export-figure').first();
    const [dl] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      figure.locator('[data-export="svg"]').click(),
    ]);
    const svg = readFileSync(await dl.path(), 'utf8');
    const faces = [...svg.matchAll(/@font-face\{font-family:"([^"]+)";src:url\(data:font\/woff2;base64,/g)].map(
      (m) => m[1],
    );
    log(`exported SVG: ${(svg.length / 1024).toFixed(0)} kB, faces ${faces.join(', ')}`);
    assert.ok(faces.includes('Inter Variable') && faces.includes('Noto Sans SC UI'), `faces embedded: ${faces}`);

    assert.deepEqual(await w.violations(), [], 'no CSP violation');
    assert.deepEqual(w.consoleErrors, [], 'no console error');
    const outside = w.requests.filter((u) => u !== url && !u.startsWith('data:') && !u.startsWith('blob:'));
    assert.deepEqual(outside, [], 'nothing is requested but the file itself, data: and blob: URLs');
  },
  { webgpu: false, timeout: 180_000 },
);

test(
  'normal build opened from file:// shows how to serve it (English and Chinese), not a blank page',
  async ({ page, artifacts }) => {
    await page.goto(pathToFileURL(join(artifacts, 'dist', 'index.html')).href);
    const notice = page.locator('#file-notice');
    await notice.waitFor({ state: 'visible', timeout: 10_000 });
    const text = await notice.innerText();
    assert.match(text, /npx vite preview/);
    assert.match(text, /npm run build:single/);
    assert.match(text, /本地文件/);
  },
  { webgpu: false, timeout: 60_000 },
);

test(
  'the build ships the icons and a 1200×630 social preview (< 300 KB) that the Open Graph / Twitter meta point at',
  async ({ artifacts }) => {
    const dist = join(artifacts, 'dist');
    const html = readFileSync(join(dist, 'index.html'), 'utf8');
    const ref = (re) => {
      const m = re.exec(html);
      assert.ok(m, `index.html has ${re}`);
      assert.ok(statSync(join(dist, m[1].replace(/^\.\//, ''))).size > 0, `${m[1]} is in the build`);
      return m[1];
    };
    ref(/<link rel="icon" type="image\/svg\+xml" href="([^"]+)"/);
    ref(/<link rel="apple-touch-icon" href="([^"]+)"/);
    const image = ref(/<meta property="og:image" content="([^"]+)"/);
    assert.match(html, new RegExp(`<meta name="twitter:image" content="${image}"`));
    assert.match(html, /<meta name="twitter:card" content="summary_large_image"/);
    assert.match(html, /<meta property="og:title" content="[^"]+"/);
    const png = readFileSync(join(dist, image));
    assert.equal(png.toString('latin1', 1, 4), 'PNG');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [1200, 630], 'IHDR width × height');
    assert.ok(png.length < 300 * 1024, `social preview is ${png.length} bytes`);
  },
  { webgpu: false, timeout: 10_000 },
);
