// npm run bench [-- --quick] [--json FILE] [--rounds 5] [--budget 20] [--d 64] [--m 256] [--min-n 256]
//                 [--max-n 65536] [--only exact,tfjs-exact,…] [--seed 1] [--check-max-n 1024] [--tolerance 1e-3]
//
// Times our attention kernels and their TensorFlow.js peers in ONE headless Chromium page (WebGPU;
// SwiftShader unless CHROME_PATH points at a browser with a real GPU), on the same inputs:
//   exact                    our fused exact attention (bidirectional)
//   performer-bidirectional  our Performer, positive features (FAVOR+), bidirectional
//   performer-causal         our Performer, causal (prefix sums)
//   dummy                    reads Q, K, V and returns V
//   tfjs-exact               softmax(QKᵀ/√d)V from tf ops (@tensorflow/tfjs-backend-webgpu)
//   tfjs-favor               FAVOR+ from tf ops: same W, same scaling and stabilizer as ours
// First it checks that both sides agree (our exact vs tfjs-exact, our Performer vs tfjs-favor, max
// relative difference on the same Q, K, V, W, for every n ≤ --check-max-n) and stops loudly if they
// do not. Then one warm-up visit per point (compiles; a method stops at the n whose predicted time
// exceeds --budget seconds: exact ∝ n², the others ∝ n), then --rounds interleaved rounds: each
// round visits every method and n once, in an order rotated from round to round, so the noise of a
// shared machine spreads over all points. Reports min and median per point, GFLOP/s (FLOP model:
// exact 4n²d, Performer 8nmd), bytes, per-pass times when the kernels' timing hook gives them, the
// speed targets (BENCH_TARGETS, src/core/bench-stats.ts) with a verdict each, and (--json) { adapter, d, m, points }.
// --quick: n ∈ {256, 1024, 4096}, 3 rounds, budget 60 s per visit (every method reaches n = 4096 on an idle machine).
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { findBrowser, launchBrowser } from './browser.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

const USAGE =
  'usage: npm run bench -- [--quick] [--json FILE] [--rounds 5] [--budget seconds] [--d 64] [--m 256] [--min-n 256] [--max-n 65536] ' +
  '[--only exact,performer-bidirectional,performer-causal,dummy,tfjs-exact,tfjs-favor] [--seed 1] [--check-max-n 1024] [--tolerance 1e-3]';

function parseArgs(argv) {
  const opts = {
    budget: null,
    d: 64,
    m: 256,
    minN: 256,
    maxN: 65_536,
    rounds: null,
    seed: 1,
    checkMaxN: 1024,
    tolerance: 1e-3,
    quick: false,
    json: null,
    only: null,
  };
  const names = {
    '--budget': 'budget',
    '--d': 'd',
    '--m': 'm',
    '--min-n': 'minN',
    '--max-n': 'maxN',
    '--rounds': 'rounds',
    '--seed': 'seed',
    '--check-max-n': 'checkMaxN',
    '--tolerance': 'tolerance',
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=');
    if (flag === '--help' || flag === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    if (flag === '--quick') {
      opts.quick = true;
      continue;
    }
    if (flag === '--json') {
      opts.json = inline ?? argv[++i];
      if (!opts.json) throw new Error('--json needs a file name');
      continue;
    }
    if (flag === '--only') {
      opts.only = (inline ?? argv[++i] ?? '').split(',').filter(Boolean);
      continue;
    }
    const key = names[flag];
    if (!key) throw new Error(`unknown flag ${flag}\n${USAGE}`);
    const value = Number(inline ?? argv[++i]);
    if (!Number.isFinite(value) || value < 0 || (value === 0 && key !== 'checkMaxN'))
      throw new Error(`${flag} needs a positive number`);
    opts[key] = value;
  }
  opts.rounds ??= opts.quick ? 3 : 5;
  // --quick exists to measure the targets at n = 4096: every method gets there unless told otherwise.
  opts.budget ??= opts.quick ? 60 : 20;
  return opts;
}

/** label, timing-model power of n (for the budget prediction), side */
const METHOD_INFO = {
  exact: { label: 'exact', power: 2, side: 'ours' },
  'tfjs-exact': { label: 'tfjs exact', power: 2, side: 'tfjs' },
  'performer-bidirectional': { label: 'Performer bidir', power: 1, side: 'ours' },
  'performer-causal': { label: 'Performer causal', power: 1, side: 'ours' },
  'tfjs-favor': { label: 'tfjs FAVOR+', power: 1, side: 'tfjs' },
  dummy: { label: 'dummy', power: 1, side: 'ours' },
};
/** display order: ours next to its tfjs peer */
const DISPLAY = ['exact', 'tfjs-exact', 'performer-bidirectional', 'performer-causal', 'tfjs-favor', 'dummy'];

const fmtMs = (ms) =>
  ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : ms >= 10 ? `${ms.toFixed(1)} ms` : `${ms.toFixed(2)} ms`;
const fmtBytes = (b) =>
  b == null ? '' : b >= 2 ** 20 ? `${(b / 2 ** 20).toFixed(1)} MiB` : `${(b / 1024).toFixed(0)} KiB`;
const fmtG = (g) => (g == null ? '—' : g >= 10 ? g.toFixed(1) : g.toFixed(2));
const since = (t) => `${((Date.now() - t) / 1000).toFixed(0)} s`;

const opts = parseArgs(process.argv.slice(2));
try {
  findBrowser();
} catch (e) {
  console.error(`\n✗ the benchmark needs Chromium: ${e.message}\n`);
  process.exit(1);
}

// No watcher and no HMR: an edit elsewhere in the tree must not reload the page mid-run; tfjs is
// pre-bundled up front so that discovering it does not reload the page either.
const server = await createServer({
  root,
  logLevel: 'warn',
  server: { port: 0, host: '127.0.0.1', hmr: false, watch: null },
  optimizeDeps: { include: ['@tensorflow/tfjs-core', '@tensorflow/tfjs-backend-webgpu'] },
});
await server.listen();
/** @type {typeof import('../src/core/bench-stats')} */
const stats = await server.ssrLoadModule('/src/core/bench-stats.ts');
const methods = stats.BENCH_METHODS.filter((m) => !opts.only || opts.only.includes(m));
if (methods.length === 0) {
  console.error(`--only matched no method; choose from ${stats.BENCH_METHODS.join(', ')}`);
  await server.close();
  process.exit(1);
}
const ns = [];
if (opts.quick) ns.push(256, 1024, 4096);
else for (let n = opts.minN; n <= opts.maxN; n *= 2) ns.push(n);
const { d, m, seed } = opts;

const baseUrl = `http://localhost:${server.httpServer.address().port}`;
const browser = await launchBrowser({ webgpu: true });
const started = Date.now();
let exitCode = 0;
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error(`  [page error] ${e.message}`));
  await page.goto(`${baseUrl}/e2e/pages/bench.html`);
  await page.waitForFunction(() => window.bench, null, { timeout: 60_000 });
  const info = await page.evaluate(() => window.bench.info());
  console.log(
    `adapter: ${info.adapter}; workgroup memory ${info.workgroupStorage} B; max binding ${fmtBytes(info.maxBinding)}`,
  );
  console.log(
    `timing, ours: ${info.timestamps ? "GPU timestamp queries, summed over the method's compute passes" : 'wall clock, submit → onSubmittedWorkDone'}`,
  );
  console.log(`timing, tfjs: ${info.tfjs.timing} (backend ${info.tfjs.backend})`);
  console.log(
    `d = ${d}, m = ${m} (positive features, stabilizer 'shift'), seed ${seed}; n = ${ns.join(', ')}; ${opts.rounds} rounds; budget ${opts.budget} s per visit\n`,
  );

  // ---- 1. both sides agree on the same Q, K, V, W ----
  const checkNs = ns.filter((n) => n <= opts.checkMaxN);
  const needs = (a, b) => methods.includes(a) && methods.includes(b);
  if (checkNs.length && (needs('exact', 'tfjs-exact') || needs('performer-bidirectional', 'tfjs-favor'))) {
    console.log(
      `agreement (max relative difference, entries floored at 1e-3 of the largest; tolerance ${opts.tolerance}):`,
    );
    const bad = [];
    for (const n of checkNs) {
      const r = await page.evaluate((o) => window.bench.check(o), { n, d, m, seed });
      if (!r.ok) {
        bad.push(`n = ${n}: ${r.code}: ${r.message}`);
        console.log(`  n = ${String(n).padStart(6)}: ✗ ${r.code}: ${r.message}`);
        continue;
      }
      const mark = (x) => (x <= opts.tolerance ? '✓' : '✗');
      console.log(
        `  n = ${String(n).padStart(6)}: exact vs tfjs-exact ${r.exact.toExponential(2)} ${mark(r.exact)}   ` +
          `Performer bidir vs tfjs-favor ${r.favor.toExponential(2)} ${mark(r.favor)}   (${(r.wallMs / 1000).toFixed(1)} s)`,
      );
      if (!(r.exact <= opts.tolerance)) bad.push(`n = ${n}: exact vs tfjs-exact differ by ${r.exact.toExponential(2)}`);
      if (!(r.favor <= opts.tolerance))
        bad.push(`n = ${n}: Performer vs tfjs-favor differ by ${r.favor.toExponential(2)}`);
    }
    if (bad.length) {
      console.error(
        `\n✗✗✗ OUR KERNELS AND TENSORFLOW.JS DISAGREE — the timings would compare different computations; not timing.\n  ${bad.join('\n  ')}\n`,
      );
      exitCode = 1;
      throw new Error('disagreement');
    }
    console.log('');
  }

  // ---- 2. warm-up: one visit per point, increasing n; a method stops where its next point would exceed the budget ----
  /** samples[method][n] = { samples: [], bytes, passes: { name: [] } } | { skip } */
  const samples = Object.fromEntries(methods.map((mm) => [mm, {}]));
  const record = (method, n, r) => {
    const cell = (samples[method][n] ??= { samples: [], bytes: null, passes: {} });
    cell.samples.push(r.ms);
    if (r.bytes != null) cell.bytes = r.bytes;
    for (const [name, ms] of Object.entries(r.passes ?? {})) (cell.passes[name] ??= []).push(ms);
    cell.source = r.source;
  };
  console.log('warm-up (one visit per point; compiles pipelines and tf programs):');
  for (const method of methods) {
    let prev = null;
    let stopped = null;
    for (const n of ns) {
      if (!stopped && prev) {
        const predicted = prev.ms * (n / prev.n) ** METHOD_INFO[method].power;
        if (predicted > opts.budget * 1000) {
          stopped = `> budget (predicted ${fmtMs(predicted)})`;
          samples[method][n] = { skip: stopped, predictedMs: predicted, predictedFrom: prev.n };
          console.log(
            `  ${METHOD_INFO[method].label.padEnd(17)} n = ${String(n).padStart(6)}: skipped from here on, ${stopped} > ${opts.budget} s`,
          );
          continue;
        }
      }
      if (stopped) {
        samples[method][n] = { skip: stopped };
        continue;
      }
      const r = await page.evaluate((o) => window.bench.visit(o), { method, n, d, m, seed, warmup: true });
      if (!r.ok) {
        stopped = `${r.code}: ${r.message}`;
        samples[method][n] = { skip: stopped };
        console.log(`  ${METHOD_INFO[method].label.padEnd(17)} n = ${String(n).padStart(6)}: ✗ ${stopped}`);
        continue;
      }
      samples[method][n] = { samples: [], bytes: r.bytes, passes: {}, source: r.source, warmupMs: r.ms };
      prev = { n, ms: Math.max(r.ms, 1e-3) };
      console.log(
        `  ${METHOD_INFO[method].label.padEnd(17)} n = ${String(n).padStart(6)}: ${fmtMs(r.ms).padStart(9)} (${r.source}; visit took ${(r.wallMs / 1000).toFixed(1)} s)`,
      );
    }
  }

  // ---- 3. interleaved rounds ----
  const points = ns.flatMap((n) => methods.filter((mm) => !samples[mm][n].skip).map((mm) => ({ method: mm, n })));
  for (let round = 0; round < opts.rounds; round++) {
    const t0 = Date.now();
    for (const p of stats.rotatedOrder(points, round, opts.rounds)) {
      const r = await page.evaluate((o) => window.bench.visit(o), { ...p, d, m, seed, warmup: false });
      if (!r.ok) {
        console.log(`  round ${round + 1}: ${p.method} n = ${p.n}: ✗ ${r.code}: ${r.message}`);
        continue;
      }
      record(p.method, p.n, r);
    }
    console.log(`round ${round + 1}/${opts.rounds}: ${points.length} visits in ${since(t0)} (total ${since(started)})`);
  }

  // ---- 4. report ----
  const measured = [];
  for (const method of methods) {
    for (const n of ns) {
      const c = samples[method][n];
      if (c && !c.skip) measured.push({ method, n, samples: c.samples, bytes: c.bytes ?? 0, passes: c.passes });
    }
  }
  const json = stats.benchJson(info.adapter, d, m, measured);
  const point = (method, n) => json.points.find((p) => p.method === method && p.n === n);
  const shown = DISPLAY.filter((mm) => methods.includes(mm));

  console.log(
    `\nper point: median and min of ${opts.rounds} interleaved runs; GFLOP/s on the median (exact 4n²d, Performer 8nmd)`,
  );
  console.log(
    [
      'n'.padStart(7),
      'method'.padEnd(17),
      'side'.padEnd(5),
      'median'.padStart(10),
      'min'.padStart(10),
      'GFLOP/s'.padStart(8),
      'bytes'.padStart(10),
      '  passes (median ms)',
    ].join(' '),
  );
  for (const n of ns) {
    for (const method of shown) {
      const p = point(method, n);
      const c = samples[method][n];
      const mi = METHOD_INFO[method];
      if (!p) {
        console.log(
          [String(n).padStart(7), mi.label.padEnd(17), mi.side.padEnd(5), (c?.skip ?? 'no samples').padStart(10)].join(
            ' ',
          ),
        );
        continue;
      }
      const passes = p.passes
        ? Object.entries(p.passes)
            .map(([k, v]) => `${k} ${v.toFixed(1)}`)
            .join(', ')
        : '';
      console.log(
        [
          String(n).padStart(7),
          mi.label.padEnd(17),
          mi.side.padEnd(5),
          fmtMs(p.medianMs).padStart(10),
          fmtMs(p.minMs).padStart(10),
          fmtG(p.gflops).padStart(8),
          fmtBytes(p.bytes).padStart(10),
          passes ? `  ${passes}` : '',
        ].join(' '),
      );
    }
  }

  // ours and the tfjs peers side by side (median · GFLOP/s)
  console.log(
    `\n| n | ${shown.map((mm) => `${METHOD_INFO[mm].label}${METHOD_INFO[mm].side === 'ours' ? ' (ours)' : ''}`).join(' | ')} |`,
  );
  console.log(`|---|${shown.map(() => '---').join('|')}|`);
  for (const n of ns) {
    const cells = shown.map((mm) => {
      const p = point(mm, n);
      return p
        ? `${fmtMs(p.medianMs)}${p.gflops != null ? ` · ${fmtG(p.gflops)}` : ''}`
        : samples[mm][n]?.skip
          ? 'skipped'
          : '—';
    });
    console.log(`| ${n} | ${cells.join(' | ')} |`);
  }

  const at = ns.includes(stats.BENCH_TARGETS.atN) ? stats.BENCH_TARGETS.atN : ns.at(-1);
  console.log(`\ntargets (medians, n = ${at}):`);
  for (const t of stats.targets(json.points, at)) {
    const v =
      t.value == null
        ? '—'
        : t.name.startsWith('measured crossover')
          ? `n ≈ ${Math.round(t.value)}`
          : `${t.value.toFixed(2)}${t.name.includes('time /') ? '×' : ''}`;
    const verdict = t.met == null ? '? not measured' : t.met ? '✓ met' : '✗ missed';
    console.log(`  ${verdict.padEnd(15)} ${t.name}: ${v} (goal ${t.goal}; ${t.detail})`);
  }
  // A peer skipped at n = `at` for the budget: the ratio its warm-up prediction implies, marked as an estimate.
  for (const [ours, peer] of [
    ['exact', 'tfjs-exact'],
    ['performer-bidirectional', 'tfjs-favor'],
  ]) {
    const skipped = samples[peer]?.[at];
    const o = point(ours, at);
    if (skipped?.predictedMs && o) {
      console.log(
        `  (estimate)      ${peer} at n = ${at} skipped (> budget); predicted from n = ${skipped.predictedFrom} ` +
          `(∝ n^${METHOD_INFO[peer].power}): ${fmtMs(skipped.predictedMs)}, i.e. ${peer} time / ${ours} time ≈ ${(skipped.predictedMs / o.medianMs).toFixed(1)}× — not a measurement`,
      );
    }
  }
  const big = json.points.find((p) => p.n === 2 ** 20 && p.method.startsWith('performer'));
  if (big)
    console.log(
      `  ✓ measured      Performer at n = 2^20 (d = ${d}, m = ${m}): ${fmtMs(big.medianMs)}, ${fmtBytes(big.bytes)}`,
    );
  else
    console.log(
      '  ? not measured  Performer at n = 2^20, d = 16, m = 64 — run: npm run bench -- --d 16 --m 64 --min-n 1048576 --max-n 1048576 --only performer-bidirectional,performer-causal --rounds 1',
    );

  const largest = shown.map(
    (mm) =>
      `${METHOD_INFO[mm].label} ${
        json.points
          .filter((p) => p.method === mm)
          .map((p) => p.n)
          .at(-1) ?? '—'
      }`,
  );
  console.log(`\nlargest n measured: ${largest.join(', ')}`);

  if (opts.json) {
    writeFileSync(opts.json, `${JSON.stringify(json, null, 2)}\n`);
    console.log(`wrote ${opts.json}`);
  }
  console.log(`\nbenchmark finished in ${since(started)}`);
} catch (e) {
  if (exitCode === 0) {
    exitCode = 1;
    console.error(e);
  }
} finally {
  await browser.close();
  await server.close();
}
process.exit(exitCode);
