// Analyses on the CPU twins vs the WebGPU analysis backend, in one headless Chromium page
// (e2e/pages/analysis-kernels.ts): every row-statistics op at the default parameters
// (src/core/default-params.ts) and its default budgets, interleaved rounds (CPU and GPU alternate
// which goes first), min and median wall time of the whole op. On SwiftShader the GPU runs on the
// CPU too, so the ratio is the honest proxy. It also prints the adapter's read-back floor (the least
// one GPU batch costs: a trivial dispatch, copy and mapAsync), which a single-batch op pays once and its
// twin not at all. A bench, not a test.
// Usage: node e2e/bench-analyses.mjs [--rounds N] [--ops a,b] [--gpu-features] (every φ on the GPU even
// on a software adapter, where the engine worker forms the maps outside the projection with the twins)
// [--profile] (then one profiled run per op: φ on the CPU, encoding, readback wait and GPU time per
// pass label, summed over batches; with --twins-only that side too; --batches: one line per batch)
// [--host] [--top K] (then the page's own time per run of each op on the GPU side, idle excluded — what a
// faster GPU cannot take away — and its K (3) top functions by self time) [--cold] (every memo of the
// analysis ops emptied before each timed run — Q, K, W, A's spectra, the
// theory's moments — as after a change of seed; without it a run finds what the previous one drew, as a
// refinement finds its coarse pass's, and a step of m the inputs, A's spectrum and the moments, not every W)
// [--twins-only] (a third side, interleaved: on a software adapter every φ from the twins, the exp maps'
// too — the A/B behind the engine's choice of the projection kernel for them) [--without-direct] (a third side,
// interleaved: the GPU side without rowFeaturesDirect — trig, relu, elu1, … from the twins or feature kernels again)
import { createServer } from 'vite';
import { findBrowser, launchBrowser } from './browser.mjs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const rounds = Number(arg('--rounds', '3'));
const cold = args.includes('--cold');

try {
  findBrowser();
} catch (e) {
  console.error(`\n✗ the benchmark needs Chromium: ${e.message}\n`);
  process.exit(1);
}
const server = await createServer({
  root,
  logLevel: 'warn',
  server: { port: 0, host: '127.0.0.1', hmr: false, watch: null },
});
await server.listen();
// the ops the engine runs on the GPU, from the engine's own list (not a copy that could drift)
const { GPU_ANALYSIS_OPS } = await server.ssrLoadModule('/src/engine/analysis/types.ts');
const ops = arg('--ops', GPU_ANALYSIS_OPS.join(',')).split(',');
const browser = await launchBrowser({ webgpu: true });
const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error(`  [page error] ${e.message}`));
  await page.goto(`http://localhost:${server.httpServer.address().port}/e2e/pages/analysis-kernels.html`);
  await page.waitForFunction(() => window.analysisKernels, null, { timeout: 60_000 });
  const info = await page.evaluate(() => window.analysisKernels.info());
  const p = info.defaults;
  console.log(`adapter: ${info.adapter}; n = ${p.n}, d = ${p.d}, m = ${p.m}, map ${p.featureMap}; ${rounds} rounds`);
  // compile the pipelines first (one small op)
  await page.evaluate(() =>
    window.analysisKernels.op('mapRows', { params: { n: 16, d: 4, m: 4 }, row: 1 }).catch(() => null),
  );
  const withoutDirect = args.includes('--without-direct');
  const third = args.includes('--twins-only') || withoutDirect;
  const times = Object.fromEntries(ops.map((o) => [o, { cpu: [], gpu: [], third: [] }]));
  // the GPU side as the engine worker runs it on this adapter (software: the exp maps' φ from the
  // projection kernel, trig, relu, elu1, cosformer, taylor2, oprf and double-softmax from the rows
  // (rowFeaturesDirect), hedgehog's and the 'ref' stabilizer's from the twins)
  const gpuMode =
    /swiftshader|fallback|llvmpipe|warp/i.test(info.adapter) && !args.includes('--gpu-features')
      ? 'gpu-projection'
      : 'gpu';
  console.log(
    `GPU side: ${gpuMode === 'gpu' ? 'φ and row statistics on the GPU' : "φ on the GPU (exp maps projected, the others from the rows) but hedgehog's and the 'ref' stabilizer's (twins); row statistics on the GPU"}`,
  );
  for (let r = 0; r < rounds; r++) {
    for (const op of ops) {
      const sides = third ? ['cpu', 'gpu', 'third'] : ['cpu', 'gpu'];
      const order = [...sides.slice(r % sides.length), ...sides.slice(0, r % sides.length)];
      const mode = { cpu: 'cpu', gpu: gpuMode, third: withoutDirect ? 'gpu-no-direct' : 'gpu-cpu-features' };
      for (const side of order) {
        // --cold: nothing remembered from the previous run
        if (cold) await page.evaluate(() => window.analysisKernels.clearAnalysisMemos());
        const ms = await page.evaluate(([o, g]) => window.analysisKernels.timeOp(o, g), [op, mode[side]]);
        times[op][side].push(ms);
        console.log(`  round ${r + 1} ${op} ${side} ${Math.round(ms)} ms`);
      }
    }
  }
  const floor_ = (x) => `${x.toFixed(2)} ms`;
  const f = (x) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${Math.round(x)} ms`).padStart(9);
  console.log(
    `\n${'op'.padEnd(14)} ${'CPU min'.padStart(9)} ${'CPU med'.padStart(9)} ${'GPU min'.padStart(9)} ${'GPU med'.padStart(9)} ${'CPU/GPU (med)'.padStart(14)}${third ? `${(withoutDirect ? 'no-dir min' : 'twins min').padStart(10)} ${(withoutDirect ? 'no-dir med' : 'twins med').padStart(9)}` : ''}`,
  );
  for (const op of ops) {
    const { cpu, gpu, third: pr } = times[op];
    console.log(
      `${op.padEnd(14)} ${f(Math.min(...cpu))} ${f(median(cpu))} ${f(Math.min(...gpu))} ${f(median(gpu))} ${(median(cpu) / median(gpu)).toFixed(2).padStart(13)}×${third ? ` ${f(Math.min(...pr))} ${f(median(pr))}` : ''}`,
    );
  }
  // what one GPU batch costs at the least here: a single-batch op pays it once, its twin nothing
  const floor = await page.evaluate(() => window.analysisKernels.readbackFloor(25));
  console.log(
    `\nread-back floor (a one-workgroup dispatch, a 256-byte copy, its mapAsync; 25 round trips): min ${floor_(Math.min(...floor))}, median ${floor_(median(floor))}`,
  );
  if (args.includes('--host')) {
    // the page's own (JS and native) time per run of each op on the GPU side, from a sampling CPU profile:
    // what a faster GPU cannot take away (its idle time is the wait for the GPU)
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    console.log(
      `\nhost time per run on the GPU side (CPU profile of 3 ${cold ? 'cold ' : ''}runs, idle excluded; top functions):`,
    );
    for (const op of ops) {
      await page.evaluate(([o, g]) => window.analysisKernels.timeOp(o, g), [op, gpuMode]);
      await cdp.send('Profiler.start');
      const wall = await page.evaluate(
        async ([o, g, cold]) => {
          let t = 0;
          for (let i = 0; i < 3; i++) {
            // with --cold as the timed runs: nothing remembered from the previous run
            if (cold) window.analysisKernels.clearAnalysisMemos();
            t += await window.analysisKernels.timeOp(o, g);
          }
          return t / 3;
        },
        [op, gpuMode, cold],
      );
      const { profile } = await cdp.send('Profiler.stop');
      const byId = new Map(profile.nodes.map((nd) => [nd.id, nd]));
      const self = new Map();
      profile.samples.forEach((id, i) => {
        const f = byId.get(id).callFrame;
        const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}${f.url ? `:${f.lineNumber + 1}` : ''}`;
        self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000 / 3);
      });
      self.delete('(idle) ');
      const busy = [...self.values()].reduce((a, b) => a + b, 0);
      const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(arg('--top', '3')));
      console.log(
        `  ${op.padEnd(14)} ${f(busy)} of ${f(wall)}  (${top.map(([k, v]) => `${k.trim()} ${v.toFixed(1)} ms`).join(', ')})`,
      );
    }
    await cdp.detach();
  }
  if (args.includes('--profile')) {
    // the GPU side as timed above, and with --twins-only the third side too
    const sides = [
      gpuMode === 'gpu' ? 'gpu' : 'projection',
      ...(third ? [withoutDirect ? 'projection-no-direct' : 'cpu'] : []),
    ];
    for (const op of ops)
      for (const features of sides) {
        const r = await page.evaluate(([o, f]) => window.analysisKernels.profileOp(o, f), [op, features]);
        const gpuMs = Object.values(r.passes).reduce((s, p) => s + p.ms, 0);
        console.log(
          `\n${op} (φ: ${features === 'cpu' ? 'twins' : features}): ${Math.round(r.ms)} ms, ${r.batches} batches, ${r.variants} variants; φ on the CPU ${Math.round(r.cpuFeaturesMs)} ms, encode ${Math.round(r.encodeMs)} ms, submit → readback ${Math.round(r.waitMs)} ms (GPU passes ${Math.round(gpuMs)} ms); outside the batches ${Math.round(r.ms - r.batchMs)} ms`,
        );
        const sorted = Object.entries(r.passes).sort((a, b) => b[1].ms - a[1].ms);
        for (const [k, p] of sorted)
          console.log(`  ${k.padEnd(24)} ${p.ms.toFixed(1).padStart(9)} ms  ${String(p.count).padStart(6)} passes`);
        // --batches: one line per batch (its shape and where its time went)
        if (args.includes('--batches'))
          for (const b of r.each)
            console.log(
              `    batch n ${b.n} d ${b.d} R ${b.rows} V ${b.variants}: wall ${b.wallMs.toFixed(1)} ms, φ on the CPU ${b.cpuFeaturesMs.toFixed(1)}, encode ${b.encodeMs.toFixed(1)}, wait ${b.waitMs.toFixed(1)}, GPU ${b.passes.reduce((s, p) => s + p.ms, 0).toFixed(1)}`,
            );
      }
  }
} finally {
  await browser.close();
  await server.close();
}
