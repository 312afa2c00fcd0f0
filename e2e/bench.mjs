// npm run bench [-- --budget 20 --d 64 --m 256 --min-n 256 --max-n 65536 --repeats 5 --only exact,dummy --no-warmup]
//
// Times the attention kernels in headless Chromium (WebGPU; SwiftShader unless CHROME_PATH points
// at a browser with a real GPU) for n = min-n, 2·min-n, …, max-n at head dimension d with m random
// features: exact fused attention (bidirectional), Performer bidirectional, Performer causal and
// dummy attention (reads Q, K, V, returns V). Each point is the median of several runs after a
// warm-up, measured with timestamp queries when the device has them (else wall time). A method's
// line stops ("> budget") when its previous point predicts that the next would take longer than
// the per-point budget (exact ∝ n², the others ∝ n); slow points get fewer timed runs. Prints median GPU ms, the exact/Performer
// ratio, the measured crossover n and the bytes each method allocated.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { findBrowser, launchBrowser } from './browser.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

function parseArgs(argv) {
  const opts = { budget: 20, d: 64, m: 256, minN: 256, maxN: 65_536, repeats: 5 };
  const names = { '--budget': 'budget', '--d': 'd', '--m': 'm', '--min-n': 'minN', '--max-n': 'maxN', '--repeats': 'repeats' };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=');
    if (flag === '--no-warmup') {
      opts.warmup = false;
      continue;
    }
    if (flag === '--only') {
      opts.only = (inline ?? argv[++i] ?? '').split(',').filter(Boolean);
      continue;
    }
    const key = names[flag];
    if (!key) {
      if (flag === '--help' || flag === '-h') {
        console.log('usage: npm run bench -- [--budget seconds] [--d 64] [--m 256] [--min-n 256] [--max-n 65536] [--repeats 5] [--only exact,performer-bidirectional,performer-causal,dummy] [--no-warmup]');
        process.exit(0);
      }
      throw new Error(`unknown flag ${flag}`);
    }
    const value = Number(inline ?? argv[++i]);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${flag} needs a positive number`);
    opts[key] = value;
  }
  return opts;
}

const ALL_METHODS = [
  { kernel: 'exact', label: 'exact fused', power: 2 },
  { kernel: 'performer-bidirectional', label: 'Performer bidir', power: 1 },
  { kernel: 'performer-causal', label: 'Performer causal', power: 1 },
  { kernel: 'dummy', label: 'dummy', power: 1 },
];

const fmtMs = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : ms >= 10 ? `${ms.toFixed(1)} ms` : `${ms.toFixed(2)} ms`);
const fmtBytes = (b) => (b >= 2 ** 20 ? `${(b / 2 ** 20).toFixed(1)} MiB` : `${(b / 1024).toFixed(0)} KiB`);

const opts = parseArgs(process.argv.slice(2));
const METHODS = ALL_METHODS.filter((m) => !opts.only || opts.only.includes(m.kernel));
if (METHODS.length === 0) {
  console.error(`--only matched no method; choose from ${ALL_METHODS.map((m) => m.kernel).join(', ')}`);
  process.exit(1);
}
try {
  findBrowser();
} catch (e) {
  console.error(`\n✗ the benchmark needs Chromium: ${e.message}\n`);
  process.exit(1);
}

const ns = [];
for (let n = opts.minN; n <= opts.maxN; n *= 2) ns.push(n);

const server = await createServer({ root, logLevel: 'warn', server: { port: 0, host: '127.0.0.1' } });
await server.listen();
const baseUrl = `http://localhost:${server.httpServer.address().port}`;
const browser = await launchBrowser({ webgpu: true });
const started = Date.now();
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error(`  [page error] ${e.message}`));
  await page.goto(`${baseUrl}/e2e/pages/bench.html`);
  await page.waitForFunction(() => window.bench, null, { timeout: 60_000 });
  const info = await page.evaluate(() => window.bench.info());
  console.log(`adapter: ${info.adapter}; timing: ${info.timestamps ? 'timestamp queries' : 'wall clock'}; ` +
    `workgroup memory ${info.workgroupStorage} B; max binding ${fmtBytes(info.maxBinding)}`);
  console.log(`d = ${opts.d}, m = ${opts.m} (positive features), budget ${opts.budget} s per point, n = ${ns[0]} … ${ns.at(-1)}\n`);

  /** results[kernel][n] = { ms, bytes, source } | { skip: reason } */
  const results = {};
  for (const method of METHODS) {
    const row = (results[method.kernel] = {});
    let prev = null;
    let stopped = null;
    for (const n of ns) {
      if (stopped) {
        row[n] = { skip: stopped };
        continue;
      }
      let repeats = opts.repeats;
      if (prev) {
        const predicted = prev.ms * (n / prev.n) ** method.power;
        if (predicted > opts.budget * 1000) {
          stopped = '> budget';
          row[n] = { skip: stopped, predicted };
          continue;
        }
        // Fewer timed runs for slow points: a point then costs at most about twice the budget.
        repeats = Math.max(1, Math.min(opts.repeats, Math.floor((opts.budget * 1000) / predicted)));
      }
      const r = await page.evaluate((o) => window.bench.time(o), { kernel: method.kernel, n, d: opts.d, m: opts.m, repeats, warmup: opts.warmup });
      if (!r.ok) {
        stopped = r.code;
        row[n] = { skip: r.code, message: r.message };
        console.log(`  ${method.label.padEnd(17)} n = ${String(n).padStart(6)}: ${r.code}: ${r.message}`);
        continue;
      }
      row[n] = { ms: r.medianMs, bytes: r.bytes, source: r.source, repeats };
      prev = { n, ms: Math.max(r.medianMs, 1e-3) };
      console.log(`  ${method.label.padEnd(17)} n = ${String(n).padStart(6)}: ${fmtMs(r.medianMs).padStart(9)} ` +
        `(median of ${repeats}, ${r.source}; point took ${(r.wallMs / 1000).toFixed(1)} s; ${fmtBytes(r.bytes)})`);
    }
  }

  const cell = (x) => (x === undefined ? '' : 'ms' in x ? fmtMs(x.ms) : x.skip);
  const w = 17;
  console.log(`\nmedian GPU time per call (d = ${opts.d}, m = ${opts.m})`);
  console.log(['n'.padStart(7), ...METHODS.map((m) => m.label.padStart(w)), 'exact/Performer'.padStart(16)].join(' '));
  for (const n of ns) {
    const e = results.exact?.[n];
    const p = results['performer-bidirectional']?.[n];
    const ratio = e && p && 'ms' in e && 'ms' in p ? `${(e.ms / p.ms).toFixed(2)}×` : '';
    console.log([String(n).padStart(7), ...METHODS.map((m) => cell(results[m.kernel][n]).padStart(w)), ratio.padStart(16)].join(' '));
  }

  const cross = ns.find((n) => {
    const e = results.exact?.[n];
    const p = results['performer-bidirectional']?.[n];
    return e && p && 'ms' in e && 'ms' in p && p.ms < e.ms;
  });
  if (cross !== undefined) {
    const e = results.exact[cross].ms;
    const p = results['performer-bidirectional'][cross].ms;
    console.log(`\ncrossover: Performer (bidirectional) is faster than exact fused attention from n = ${cross} (${fmtMs(p)} vs ${fmtMs(e)})`);
  } else {
    const lastExact = ns.filter((n) => 'ms' in (results.exact?.[n] ?? {})).at(-1);
    console.log(`\ncrossover: not reached where both were measured (exact measured up to n = ${lastExact ?? '—'})`);
  }

  console.log('\nbytes allocated per method (GPU buffers the method used, inputs included)');
  console.log(['n'.padStart(7), ...METHODS.map((m) => m.label.padStart(w))].join(' '));
  for (const n of ns) {
    console.log([String(n).padStart(7), ...METHODS.map((m) => {
      const x = results[m.kernel][n];
      return (x && 'bytes' in x ? fmtBytes(x.bytes) : '').padStart(w);
    })].join(' '));
  }
  console.log(`\nbenchmark finished in ${((Date.now() - started) / 1000).toFixed(0)} s`);
} finally {
  await browser.close();
  await server.close();
}
