// Runs every e2e/*.spec.mjs in real Chromium against the app served by Vite on localhost
// (WebGPU needs a secure context, which http://localhost is). Usage: node e2e/run.mjs [filter]
// (file names), with E2E_GREP=<text> for the tests whose name contains it.
import { mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, createServer, preview } from 'vite';
import { findBrowser, launchBrowser } from './browser.mjs';
import { preparations, registry } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const artifacts = join(here, 'artifacts');
mkdirSync(artifacts, { recursive: true });

try {
  findBrowser();
} catch (e) {
  console.error(`\n✗ browser tests cannot run: ${e.message}\n`);
  process.exit(1);
}

const filter = process.argv[2] ?? '';
const specs = readdirSync(here)
  .filter((f) => f.endsWith('.spec.mjs') && f.includes(filter))
  .sort();
for (const spec of specs) {
  const before = registry.length;
  const preparedBefore = preparations.length;
  await import(pathToFileURL(join(here, spec)).href);
  for (const t of registry.slice(before)) t.file = spec;
  for (const p of preparations.slice(preparedBefore)) p.file = spec;
}
// E2E_GREP=text: only the tests whose name contains it (while working on one test of a spec)
const grep = process.env.E2E_GREP;
if (grep) registry.splice(0, registry.length, ...registry.filter((t) => t.name.includes(grep)));

// Test pages (e2e/pages/*.html) come from the dev server; the app itself is tested as shipped:
// a production build served statically, so a broken build or worker bundling fails the tests.
// A dev server sets NODE_ENV=development when it is unset, which would ship React's dev build, so
// it is set first (as a build started before the server would have done).
// Tests that never open the app (the kernel specs, which come first) start while the build runs: a
// test whose function mentions neither `appUrl` nor `artifacts` (where the build is written) does not
// wait for it (about 10 s of overlap).
process.env.NODE_ENV ??= 'production';
const distDir = join(artifacts, 'dist');
const built = build({ root, mode: 'production', logLevel: 'error', build: { outDir: distDir, emptyOutDir: true } });
const server = await createServer({
  root,
  logLevel: 'warn',
  server: { port: 0, host: '127.0.0.1', hmr: false, watch: null },
});
await server.listen();
const baseUrl = `http://localhost:${server.httpServer.address().port}`;
const served = built.then(() =>
  preview({
    root,
    logLevel: 'warn',
    build: { outDir: distDir },
    preview: { port: 0, host: '127.0.0.1' },
  }),
);
// a spec's background work (prepare()) starts once the build is done, if any of its tests runs; a
// failure is the test's to report when it awaits the same (memoized) promise
const selected = new Set(registry.map((t) => t.file));
built.then(() => {
  for (const p of preparations) if (selected.has(p.file)) Promise.resolve(p.fn({ artifacts })).catch(() => {});
});
// a failed build fails the run at once, not at the first test that opens the app
served.catch((e) => {
  console.error(`\n✗ the production build failed: ${e?.stack ?? e}\n`);
  process.exit(1);
});
let appServer = null;
let appUrl = null;
const appReady = async () => {
  appServer ??= await served;
  appUrl ??= `http://localhost:${appServer.httpServer.address().port}`;
};

// Lanes: spec files run in E2E_LANES parallel lanes (default 2), each with its own Chromium. On
// SwiftShader a test mostly waits on one thread (a pipeline compile, a worker's compute), so two
// lanes keep both cores of a small machine busy (one lane left a 2-core machine ~60% busy). A lane takes the next file from one queue, the
// costliest first, and runs that file's tests in order; a test's log lines are printed together
// when it ends, so lanes never interleave inside a test's output.
const LANES = Math.max(1, Number(process.env.E2E_LANES ?? 2) || 2);
// files known to take longest (tens of seconds of pipeline compiles), started first so the lanes end together
const COSTLY_FIRST = [
  'performer-kernels',
  'exact-kernels',
  'app',
  'analyses',
  'i18n',
  'engine',
  'present',
  'beyond',
  'embed',
];
const rank = (f) => {
  const i = COSTLY_FIRST.findIndex((c) => f === `${c}.spec.mjs`);
  return i < 0 ? COSTLY_FIRST.length : i;
};
const files = [...new Set(registry.map((t) => t.file))].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
const queue = files.map((f) => registry.filter((t) => t.file === f));

let passed = 0;
let failed = 0;
// CI keeps only the tail of the output: the failures are repeated after the summary line
const failures = [];
const started = Date.now();
console.log(
  `browser tests: ${registry.length} in ${specs.length} spec file(s), ${Math.min(LANES, queue.length)} lane(s); test pages at ${baseUrl}, production build building`,
);

/** The page's unfinished figures and computes (data-status other than done), for a timed-out test's report. */
async function pendingState(page) {
  const state = page
    .evaluate(() =>
      [...document.querySelectorAll('[data-status]')]
        .filter((el) => !['done', 'ok', 'idle'].includes(el.getAttribute('data-status') ?? ''))
        .slice(0, 12)
        .map((el) => {
          const name = el.getAttribute('data-analysis') ?? el.getAttribute('data-panel') ?? el.className;
          return `${name}=${el.getAttribute('data-status')} “${(el.textContent ?? '').trim().slice(0, 60)}”`;
        })
        .join('; '),
    )
    .then((s) => `    pending at the timeout (${page.url()}): ${s || 'nothing'}`)
    .catch((err) => `    pending at the timeout: page not readable (${err?.message ?? err})`);
  const limit = new Promise((r) =>
    setTimeout(() => r('    pending at the timeout: the page did not answer in 3 s'), 3000),
  );
  return Promise.race([state, limit]);
}

async function lane() {
  const browsers = {};
  const browserFor = async (webgpu) => (browsers[webgpu] ??= await launchBrowser({ webgpu }));
  // Kernel specs compile their pipelines once per page (seconds each on SwiftShader), so tests that
  // declare the same `sharedPage` key run one after another in one page; any other test gets its own.
  let shared = null; // { key, context, page, pageErrors }
  const closeShared = async () => {
    if (shared) await shared.context.close().catch(() => {});
    shared = null;
  };
  for (let tests = queue.shift(); tests; tests = queue.shift()) {
    for (const t of tests) {
      if (/\b(appUrl|artifacts)\b/.test(t.fn.toString())) await appReady();
      const browser = await browserFor(t.webgpu);
      const key = t.sharedPage ? `${t.file}|${t.sharedPage}` : null;
      if (shared && shared.key !== key) await closeShared();
      const reuse = key !== null && shared !== null;
      const context = reuse ? shared.context : await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const pageErrors = reuse ? shared.pageErrors : [];
      pageErrors.length = 0;
      const lines = [];
      const newPage = async () => {
        const p = await context.newPage();
        p.on('pageerror', (err) => pageErrors.push(err));
        p.on('console', (msg) => {
          if (msg.type() === 'error' && process.env.E2E_VERBOSE) lines.push(`    [console.error] ${msg.text()}`);
        });
        return p;
      };
      const page = reuse ? shared.page : await newPage();
      if (key !== null && !reuse) shared = { key, context, page, pageErrors };
      const t0 = Date.now();
      let timer;
      try {
        await Promise.race([
          t.fn({
            page,
            baseUrl,
            appUrl,
            artifacts,
            newPage,
            context,
            loadModule: (id) => server.ssrLoadModule(id),
            log: (...a) => lines.push(['   ', ...a].join(' ')),
          }),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`timed out after ${t.timeout} ms`)), t.timeout);
          }),
        ]);
        if (pageErrors.length) throw new Error(`uncaught error in page: ${pageErrors[0].stack ?? pageErrors[0]}`);
        passed++;
        lines.push(`  ✓ ${t.file} › ${t.name} (${Date.now() - t0} ms)`);
      } catch (e) {
        failed++;
        // a hang is diagnosed by what was still pending: every element whose data-status is not final
        if (/timed out/.test(String(e?.message ?? e))) lines.push(await pendingState(page));
        const report = `  ✗ ${t.file} › ${t.name} (${Date.now() - t0} ms)\n      ${String(e?.stack ?? e)
          .split('\n')
          .slice(0, 8)
          .join('\n      ')}`;
        lines.push(report);
        failures.push([...lines.slice(-13, -1), report].join('\n'));
        // a failed test may leave its page in any state: the next test sharing it starts afresh
        if (key !== null) await closeShared();
      } finally {
        clearTimeout(timer);
        if (key === null) await context.close().catch(() => {});
        console.log(lines.join('\n'));
      }
    }
    await closeShared();
  }
  for (const b of Object.values(browsers)) await b.close();
}
await Promise.all(Array.from({ length: Math.min(LANES, queue.length) }, () => lane()));
await server.close();
await appReady();
await new Promise((r) => appServer.httpServer.close(r));
console.log(`\nbrowser tests finished in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`browser: ${passed} passed, ${failed} failed`);
if (failures.length) console.log(`\nfailed (with the last lines each logged):\n${failures.join('\n\n')}`);
process.exit(failed > 0 || registry.length === 0 ? 1 : 0);
