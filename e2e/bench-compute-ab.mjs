// Bench (not a test): one live compute at the defaults, this checkout against another (a base), in
// one browser, rounds interleaved (A B, then B A) — the way to tell a kernel change from the noise
// of a shared machine, where two separate bench-compute runs differ by more than most changes.
// Per side: the WebGPU backend in the page (per pass, timestamps) and the WebGPU worker's round trip.
// Usage: git worktree add /tmp/base <ref> && ln -s "$PWD/node_modules" /tmp/base/node_modules
//        node e2e/bench-compute-ab.mjs --base /tmp/base [--rounds 15] [--n 256]
// (the base needs e2e/pages/bench-compute.* with ?n=, i.e. a checkout from fd7ffe3 on)
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { launchBrowser } from './browser.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const baseRoot = opt('base', null);
if (!baseRoot) throw new Error('--base DIR: the checkout to compare with (see the header)');
const rounds = Number(opt('rounds', '15'));
const n = opt('n', null);
const roots = { base: resolve(baseRoot), this: join(here, '..') };

const browser = await launchBrowser({ webgpu: true });
const servers = [];
const pages = {};
for (const [side, root] of Object.entries(roots)) {
  const server = await createServer({
    root,
    logLevel: 'warn',
    server: { port: 0, host: '127.0.0.1', hmr: false, watch: null },
  });
  await server.listen();
  servers.push(server);
  const page = await (await browser.newContext()).newPage();
  page.on('pageerror', (e) => console.error(`${side} page error:`, e));
  await page.goto(
    `http://localhost:${server.httpServer.address().port}/e2e/pages/bench-compute.html${n ? `?n=${n}` : ''}`,
  );
  await page.waitForFunction(() => window.computeBench, null, { timeout: 180_000 });
  await page.evaluate(() => window.computeBench.workerReady('webgpu'));
  pages[side] = page;
}

const samples = { base: { job: [], worker: [] }, this: { job: [], worker: [] } };
const runOnce = async (side, m, keep) => {
  const page = pages[side];
  const job = await page.evaluate((m) => window.computeBench.gpuJob(m), m);
  const worker = await page.evaluate((m) => window.computeBench.worker('webgpu', m), m);
  if (keep) {
    samples[side].job.push(job);
    samples[side].worker.push(worker);
  }
};
// warm-up (pipelines, buffers for both m), then interleaved rounds
for (const m of [64, 96, 64]) for (const side of ['base', 'this']) await runOnce(side, m, false);
for (let r = 0; r < rounds; r++) {
  const m = r % 2 === 0 ? 96 : 64;
  for (const side of r % 2 === 0 ? ['base', 'this'] : ['this', 'base']) await runOnce(side, m, true);
}
await browser.close();
for (const s of servers) await s.close();

const stat = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0] ?? NaN, median: s.length ? (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2 : NaN };
};
const f = (x) => (Number.isFinite(x) ? x.toFixed(2) : '—');
const line = (label, pick) => {
  const a = stat(pick('base'));
  const b = stat(pick('this'));
  console.log(`| ${label} | ${f(a.min)} | ${f(a.median)} | ${f(b.min)} | ${f(b.median)} | ${f(b.median / a.median)} |`);
};
console.log(`\nbase ${roots.base} vs this ${roots.this}; ${rounds} interleaved rounds${n ? `, n = ${n}` : ''} (ms)\n`);
console.log('| what | base min | base median | this min | this median | this / base (median) |');
console.log('|---|---|---|---|---|---|');
line('WebGPU worker, round trip', (s) => samples[s].worker.map((w) => w.ms));
line('backend.run in page', (s) => samples[s].job.map((j) => j.runMs));
const names = [
  ...new Set(['base', 'this'].flatMap((s) => samples[s].job.flatMap((j) => j.passes.map((t) => t.kernel)))),
];
for (const name of names)
  line(name, (s) => samples[s].job.map((j) => j.passes.filter((t) => t.kernel === name).reduce((a, t) => a + t.ms, 0)));
line('sum of passes', (s) => samples[s].job.map((j) => j.passes.reduce((a, t) => a + t.ms, 0)));
