// Bench (not a test): where one live compute at the defaults (src/core/default-params.ts, the
// request the store sends: view, row statistics, one pinned row) spends its time.
// Opens e2e/pages/bench-compute.html in headless Chromium (WebGPU on SwiftShader) and, over
// --rounds interleaved rounds (m alternating 64 / 96, as a slider step does), runs:
//   - the WebGPU backend in the page: per pass (timestamps, else wall-timed stages) and per host
//     call (buffer / bind group / pipeline creation, writeBuffer, submit, mapAsync waits);
//   - the CPU twin in the page on the same job;
//   - the same request through the CPU worker and through the WebGPU worker (engine client, round trip).
// Prints min / median tables. Usage: node e2e/bench-compute.mjs [--rounds 15] [--n N] [--map M] [--json FILE]
// (--n: the defaults with another sequence length, to tell fixed per-pass costs from work; --map: another
// feature map)
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { launchBrowser } from './browser.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const rounds = Number(opt('rounds', '15'));
const jsonFile = opt('json', null);
const nParam = opt('n', null);

const server = await createServer({
  root,
  logLevel: 'warn',
  server: { port: 0, host: '127.0.0.1', hmr: false, watch: null },
});
await server.listen();
const baseUrl = `http://localhost:${server.httpServer.address().port}`;
const browser = await launchBrowser({ webgpu: true });
const page = await (await browser.newContext()).newPage();
page.on('pageerror', (e) => console.error('page error:', e));
const mapParam = opt('map', null);
const pageQuery = new URLSearchParams({
  ...(nParam ? { n: String(Number(nParam)) } : {}),
  ...(mapParam ? { map: mapParam } : {}),
}).toString();
await page.goto(`${baseUrl}/e2e/pages/bench-compute.html${pageQuery ? `?${pageQuery}` : ''}`);
await page.waitForFunction(() => window.computeBench, null, { timeout: 120_000 });
const info = await page.evaluate(() => window.computeBench.gpuInfo());
const request = await page.evaluate(() => window.computeBench.request());
console.log(`adapter: ${info.adapter}; timestamps: ${info.timestamps}`);
console.log(`request: ${JSON.stringify(request)}`);
const readyCpu = await page.evaluate(() => window.computeBench.workerReady('cpu'));
const readyGpu = await page.evaluate(() => window.computeBench.workerReady('webgpu'));
console.log(`workers: ${readyCpu.kind}, ${readyGpu.kind}`);

// warm-up: compile pipelines, size buffers for both m values
for (const m of [64, 96, 64]) {
  await page.evaluate((m) => window.computeBench.gpuJob(m), m);
  await page.evaluate((m) => window.computeBench.cpuJob(m), m);
  await page.evaluate((m) => window.computeBench.worker('cpu', m), m);
  await page.evaluate((m) => window.computeBench.worker('webgpu', m), m);
}

const samples = { gpu: [], cpu: [], wcpu: [], wgpu: [] };
for (let r = 0; r < rounds; r++) {
  const m = r % 2 === 0 ? 96 : 64;
  const order = ['gpu', 'cpu', 'wcpu', 'wgpu'];
  for (let k = 0; k < r % 4; k++) order.push(order.shift());
  for (const what of order) {
    if (what === 'gpu') samples.gpu.push(await page.evaluate((m) => window.computeBench.gpuJob(m), m));
    if (what === 'cpu') samples.cpu.push(await page.evaluate((m) => window.computeBench.cpuJob(m), m));
    if (what === 'wcpu') samples.wcpu.push(await page.evaluate((m) => window.computeBench.worker('cpu', m), m));
    if (what === 'wgpu') samples.wgpu.push(await page.evaluate((m) => window.computeBench.worker('webgpu', m), m));
  }
}
await browser.close();
await server.close();

const stat = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0] ?? NaN, median: s.length ? (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2 : NaN };
};
const f = (x) => (Number.isFinite(x) ? x.toFixed(2) : '—');
const row = (label, xs, extra = '') => {
  const { min, median } = stat(xs);
  console.log(`| ${label} | ${f(min)} | ${f(median)} |${extra}`);
};

console.log(`\n### End to end (${rounds} interleaved rounds, ms)\n`);
console.log('| path | min | median |\n|---|---|---|');
row(
  'CPU worker, round trip',
  samples.wcpu.map((s) => s.ms),
);
row(
  'WebGPU worker, round trip',
  samples.wgpu.map((s) => s.ms),
);
row(
  'CPU twin in page (inputs + job)',
  samples.cpu.map((s) => s.totalMs),
);
row(
  '  of which inputs',
  samples.cpu.map((s) => s.inputsMs),
);
row(
  'WebGPU backend in page (inputs + job)',
  samples.gpu.map((s) => s.totalMs),
);
row(
  '  of which inputs',
  samples.gpu.map((s) => s.inputsMs),
);
row(
  '  of which backend.run',
  samples.gpu.map((s) => s.runMs),
);

console.log(
  `\n### WebGPU per pass (ms; ${info.timestamps ? 'timestamp queries' : 'wall-timed stages: submit → onSubmittedWorkDone'})\n`,
);
console.log('| pass | min | median |\n|---|---|---|');
const passNames = [...new Set(samples.gpu.flatMap((s) => s.passes.map((t) => t.kernel)))];
for (const name of passNames)
  row(
    name,
    samples.gpu.map((s) => s.passes.filter((t) => t.kernel === name).reduce((a, t) => a + t.ms, 0)),
  );
row(
  'sum of passes',
  samples.gpu.map((s) => s.passes.reduce((a, t) => a + t.ms, 0)),
);

console.log('\n### WebGPU host calls per run (ms summed per run; count = calls per run, median)\n');
console.log('| call | min | median | count |\n|---|---|---|---|');
const hostNames = [...new Set(samples.gpu.flatMap((s) => Object.keys(s.host)))].sort();
for (const name of hostNames) {
  const counts = samples.gpu.map((s) => s.host[name]?.count ?? 0);
  row(
    name,
    samples.gpu.map((s) => s.host[name]?.ms ?? 0),
    ` ${stat(counts).median} |`,
  );
}
const live = samples.gpu.at(-1)?.live;
console.log(
  `\nlive buffers after the last run: ${live?.liveBuffers} (${live?.liveBytes} bytes; created ${live?.created})`,
);
if (jsonFile) writeFileSync(jsonFile, JSON.stringify({ info, request, samples }, null, 1));
