// Bench (not a test): what the adapter's primitives cost — one dispatch, a barrier, an indexed
// storage / workgroup read, a vec4 FMA, an exp — per invocation, and how the Performer family's
// passes (d = 16, positive) grow with n. A kernel far slower than its FLOPs at these rates pays for
// something else (reads, barriers, fixed costs): profile that before optimizing.
// Opens e2e/pages/bench-primitives.html in headless Chromium (WebGPU on SwiftShader); rounds
// interleave every probe; prints min / median. Usage: node e2e/bench-primitives.mjs [--rounds 9]
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { launchBrowser } from './browser.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const at = args.indexOf('--rounds');
const rounds = at >= 0 ? Number(args[at + 1]) : 9;

const server = await createServer({
  root,
  logLevel: 'warn',
  server: { port: 0, host: '127.0.0.1', hmr: false, watch: null },
});
await server.listen();
const browser = await launchBrowser({ webgpu: true });
const page = await (await browser.newContext()).newPage();
page.on('pageerror', (e) => console.error('page error:', e));
await page.goto(`http://localhost:${server.httpServer.address().port}/e2e/pages/bench-primitives.html`);
await page.waitForFunction(() => window.primitives, null, { timeout: 120_000 });
console.log(`adapter: ${await page.evaluate(() => window.primitives.adapter())}`);

const probes = await page.evaluate(() => window.primitives.probes());
// (probe, workgroups, dispatches): one workgroup alone, four (the width of the defaults' passes),
// eight dispatches of the empty one; the workgroup-memory probes at 16 and 256 workgroups
const cases = probes.flatMap((p, i) =>
  p.name.startsWith('workgroup memory')
    ? [
        [i, 16, 1],
        [i, 256, 1],
      ]
    : [[i, 1, 1], [i, 4, 1], ...(i === 0 ? [[i, 4, 8]] : [])],
);
const samples = cases.map(() => []);
for (let r = 0; r < rounds; r++)
  for (let c = 0; c < cases.length; c++) {
    const k = (c + r) % cases.length;
    samples[k].push(await page.evaluate(([i, g, d]) => window.primitives.probe(i, g, d), cases[k]));
  }
const stat = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0], median: s[Math.floor(s.length / 2)] };
};
console.log(`\n### One pass, 64 invocations per workgroup (${rounds} interleaved rounds, GPU ms; timestamp queries)\n`);
console.log(
  '| probe | per invocation | workgroups × dispatches | min | median | µs per listed op of one workgroup (its 64 invocations; median) |',
);
console.log('|---|---|---|---|---|---|');
cases.forEach(([i, g, d], c) => {
  const { min, median } = stat(samples[c]);
  const ops = Number(probes[i].work.match(/^\d+/)?.[0] ?? 0);
  const per =
    g === 1 && ops > 0
      ? ((median * 1000) / ops).toFixed(3)
      : g === 256
        ? `${((median * 1000) / g).toFixed(1)} per workgroup`
        : '';
  console.log(
    `| ${probes[i].name} | ${probes[i].work} | ${g} × ${d} | ${min.toFixed(3)} | ${median.toFixed(3)} | ${per} |`,
  );
});

console.log(`\n### Performer family (d = 16, positive), GPU ms per pass (median of 5 timed runs each)\n`);
const perf = [];
for (const [n, m] of [
  [256, 64],
  [1024, 64],
  [4096, 64],
  [256, 256],
])
  perf.push({ n, m, ...(await page.evaluate(([n, m]) => window.primitives.performer(n, m), [n, m])) });
const labels = [...new Set(perf.flatMap((p) => p.passes.map((x) => x.label)))];
console.log(`| n | m | ${labels.join(' | ')} | total |`);
console.log(`|---|---|${labels.map(() => '---').join('|')}|---|`);
for (const p of perf)
  console.log(
    `| ${p.n} | ${p.m} | ${labels.map((l) => p.passes.find((x) => x.label === l)?.ms.toFixed(2) ?? '').join(' | ')} | ${p.total.toFixed(2)} |`,
  );
await browser.close();
await server.close();
