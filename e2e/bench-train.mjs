// Bench (not a test): training throughput per backend — optimizer steps per second and the model's
// GFLOP/s (src/core/train/flops.ts) of the CPU twins and of the WebGPU trainer, in one page,
// interleaved round by round (min and median over rounds), for each attention kind of the default
// comparison, beside the exact attention kernel's GFLOP/s at the model's attention shape.
// The target: WebGPU (SwiftShader here) ≥ the CPU twins in the same run.
// --profile: also one WebGPU step per attention kind timed pass by pass (timestamp queries; the
// median of --profile N steps per pass), printed as a table of passes, heaviest first.
// Usage: node e2e/bench-train.mjs [--rounds 5] [--steps 3] [--json FILE] [--setup task.mqar_d.64_L.64…]
//        [--profile 3] [--only-profile]
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
const rounds = Number(opt('rounds', '5'));
const steps = Number(opt('steps', '3'));
const jsonFile = opt('json', null);
const setupRaw = opt('setup', '');
const profileSteps = Number(opt('profile', args.includes('--only-profile') ? '3' : '0'));
const onlyProfile = args.includes('--only-profile');

const server = await createServer({
  root,
  logLevel: 'warn',
  server: { port: 0, host: '127.0.0.1', hmr: false, watch: null },
});
await server.listen();
const baseUrl = `http://localhost:${server.httpServer.address().port}`;
// the setup's sizes, parsed by the app's own strict parser (the same rules as train= in a link)
const { defaultSetup } = await server.ssrLoadModule('/src/engine/training-setup.ts');
const { parseSetup } = await server.ssrLoadModule('/src/engine/training-setup-url.ts');
const { setup, problems } = parseSetup(setupRaw, defaultSetup('webgpu'));
if (problems.length) console.warn(`ignored setup fields: ${JSON.stringify(problems)}`);
const over = { ...setup };
delete over.kinds;
delete over.lr;

const browser = await launchBrowser({ webgpu: true });
const page = await (await browser.newContext()).newPage();
page.on('pageerror', (e) => console.error('page error:', e));
await page.goto(`${baseUrl}/e2e/pages/bench-train.html`);
await page.waitForFunction(() => window.trainBench, null, { timeout: 120_000 });
const info = await page.evaluate(() => window.trainBench.info());
console.log(
  `adapter: ${info.adapter ?? 'none'}; WebGPU trainer built in: ${info.gpuTrainer}; timestamps: ${info.timestamps}`,
);
console.log(
  `setup: d ${setup.dModel}, L ${setup.seqLen}, batch ${setup.batch}, ${setup.layers} layers, ${setup.heads} heads, task ${setup.task}`,
);

const backends = ['cpu', ...(info.adapter && info.gpuTrainer ? ['webgpu'] : [])];
const hasGpu = backends.includes('webgpu');

const profiles = {};
if (profileSteps > 0 && hasGpu) {
  for (const kind of setup.kinds) {
    const runs = [];
    for (let i = 0; i < profileSteps; i++)
      runs.push(await page.evaluate(([k, o, w]) => window.trainBench.profile(k, o, w), [kind, over, i === 0 ? 2 : 0]));
    profiles[kind] = runs;
    const med = (xs) => {
      const s = [...xs].sort((a, b) => a - b);
      return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
    };
    const n = runs[0].passes.length;
    const rows = runs[0].passes.map((p, i) => ({ i, label: p.kernel, ms: med(runs.map((r) => r.passes[i]?.ms ?? 0)) }));
    const gpuMs = rows.reduce((s, r) => s + r.ms, 0);
    const wall = med(runs.map((r) => r.wallMs));
    console.log(
      `\n### WebGPU step profile: ${kind} (${n} passes; median of ${profileSteps} steps; GPU Σ ${gpuMs.toFixed(1)} ms, wall ${wall.toFixed(1)} ms)\n`,
    );
    // the same label summed (a kernel called several times), heaviest first
    const byLabel = new Map();
    for (const r of rows) {
      const e = byLabel.get(r.label) ?? { label: r.label, calls: 0, ms: 0 };
      e.calls++;
      e.ms += r.ms;
      byLabel.set(r.label, e);
    }
    console.log('| pass | calls | ms | % of GPU Σ |\n|---|---|---|---|');
    for (const e of [...byLabel.values()].sort((a, b) => b.ms - a.ms))
      console.log(`| ${e.label} | ${e.calls} | ${e.ms.toFixed(2)} | ${((100 * e.ms) / gpuMs).toFixed(1)} |`);
  }
}
if (onlyProfile) {
  if (jsonFile) writeFileSync(jsonFile, JSON.stringify({ info, setup, profiles }, null, 2));
  await browser.close();
  await server.close();
  process.exit(0);
}
const call = (which, kind, n) =>
  page
    .evaluate(([w, k, o, s]) => window.trainBench.steps(w, k, o, s), [which, kind, over, n])
    .catch((e) => ({ error: String(e) }));

// warm-up: build every trainer, compile the pipelines
for (const kind of setup.kinds) for (const b of backends) await call(b, kind, 1);

const samples = {};
for (let r = 0; r < rounds; r++) {
  for (const kind of setup.kinds) {
    const order = r % 2 ? [...backends].reverse() : backends;
    for (const b of order) {
      const x = await call(b, kind, steps);
      (samples[`${b}|${kind}`] ??= []).push(x);
    }
  }
}
const exact = await page.evaluate(
  ([n, d]) => window.trainBench.exact(n, d),
  [setup.seqLen, setup.dModel / setup.heads],
);
await browser.close();
await server.close();

const stat = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0] ?? NaN, median: s.length ? (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2 : NaN };
};
const f = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '—');
console.log(`\n### Training step (${rounds} interleaved rounds of ${steps} steps; ms per step, model GFLOP/s)\n`);
console.log(
  '| attention | backend | ms/step min | ms/step median | GFLOP/s (at median) | steps/s |\n|---|---|---|---|---|---|',
);
const out = { info, setup, rounds, steps, rows: [], exact, profiles };
for (const kind of setup.kinds) {
  for (const b of backends) {
    const xs = samples[`${b}|${kind}`] ?? [];
    const err = xs.find((x) => x.error);
    if (err) {
      console.log(`| ${kind} | ${b} | failed: ${err.error.slice(0, 80)} | | | |`);
      continue;
    }
    const ms = stat(xs.map((x) => x.ms));
    const gflops = xs[0] ? xs[0].flops / ms.median / 1e6 : NaN;
    console.log(`| ${kind} | ${b} | ${f(ms.min)} | ${f(ms.median)} | ${f(gflops)} | ${f(1000 / ms.median, 1)} |`);
    out.rows.push({ kind, backend: b, msMin: ms.min, msMedian: ms.median, gflops });
  }
}
if (exact)
  console.log(
    `\nexact attention kernel at n = ${setup.seqLen}, d = ${setup.dModel / setup.heads}: ${f(exact.ms, 3)} ms (${exact.source}), ${f(exact.gflops)} GFLOP/s`,
  );
else console.log('\nexact attention kernel: no WebGPU adapter');
if (jsonFile) writeFileSync(jsonFile, JSON.stringify(out, null, 2));
