// The engine boundary in a real browser: backend choice, CPU fallback, latest-wins, typed errors,
// device-loss recovery and buffer reuse. The kernels' numerics are in the *-kernels specs.
import assert from 'node:assert/strict';
import { test } from './harness.mjs';

// The WebGPU tests that leave the engine usable share one driver page (sharedPage: one engine, whose
// pipelines compile once); the device-loss test gets its own.
async function open(page, baseUrl, query = '') {
  if (!(await page.evaluate(() => !!window.engineDriver).catch(() => false)))
    await page.goto(`${baseUrl}/e2e/pages/engine.html${query}`);
  await page.waitForFunction(() => window.engineDriver, null, { timeout: 60_000 });
  return page.evaluate(() => window.engineDriver.ready());
}

test(
  'computes on the CPU stand-in while WebGPU warms up, then settles on WebGPU (SwiftShader) with finite outputs and metrics',
  async ({ page, baseUrl }) => {
    await page.goto(`${baseUrl}/e2e/pages/engine.html`);
    await page.waitForFunction(() => window.engineDriver, null, { timeout: 60_000 });
    const start = await page.evaluate(() => window.engineDriver.started());
    assert.equal(start.backend.kind, 'cpu', JSON.stringify(start));
    assert.equal(start.warming, true, JSON.stringify(start));
    const early = await page.evaluate(() => window.engineDriver.compute({}));
    assert.ok(early.ok && early.finite && early.backend.kind === 'cpu', JSON.stringify(early));
    const backend = await page.evaluate(() => window.engineDriver.ready());
    assert.equal(backend.kind, 'webgpu', JSON.stringify(backend));
    assert.match(backend.adapter, /swiftshader/i);
    const r = await page.evaluate(() => window.engineDriver.compute({}));
    assert.ok(r.ok, JSON.stringify(r));
    assert.ok(r.finite);
    assert.equal(r.viewCells, 64);
    assert.ok(r.metrics.relErrorOut > 0 && r.metrics.relErrorOut < 1, `relErrorOut ${r.metrics.relErrorOut}`);
    assert.ok(r.metrics.relErrorA > 0 && r.metrics.relErrorA < 1, `relErrorA ${r.metrics.relErrorA}`);
    assert.ok(r.metrics.entropyExact > 0.9 && r.metrics.entropyExact <= 1.0001);
  },
  { sharedPage: 'engine' },
);

test(
  'latest wins: a burst of 12 requests resolves only the newest, and the worker computes at most 2 of them (the rest never start)',
  async ({ page, baseUrl }) => {
    await open(page, baseUrl);
    const before = (await page.evaluate(() => window.engineDriver.stats())).computesRun;
    const results = await page.evaluate(() => window.engineDriver.burst(12, (i) => ({ n: 32 + i, seed: i })));
    const last = results.at(-1);
    assert.ok(last.ok, JSON.stringify(last));
    assert.equal(last.n, 32 + 11);
    for (const r of results.slice(0, -1)) assert.ok(!r.ok && r.code === 'cancelled', JSON.stringify(r));
    // the client drops superseded replies anyway; this checks that the worker itself never ran them:
    // the first request starts at once, the newest replaces every queued one
    const ran = (await page.evaluate(() => window.engineDriver.stats())).computesRun - before;
    assert.ok(ran >= 1 && ran <= 2, `the worker ran ${ran} of 12 computes`);
  },
  { sharedPage: 'engine' },
);

test(
  'bad input gives typed errors and leaves the engine usable',
  async ({ page, baseUrl }) => {
    await open(page, baseUrl);
    const cases = await page.evaluate(async () => {
      const d = window.engineDriver;
      return {
        n0: await d.compute({ n: 0 }),
        dBig: await d.compute({ d: 100_000 }),
        m0: await d.compute({ m: 0 }),
        nan: await d.computeWithNaN(),
        after: await d.compute({}),
      };
    });
    assert.equal(cases.n0.code, 'invalid-size');
    assert.equal(cases.dBig.code, 'exceeds-limit');
    assert.equal(cases.m0.code, 'invalid-size');
    assert.equal(cases.nan.code, 'non-finite-input');
    assert.ok(cases.after.ok, JSON.stringify(cases.after));
  },
  { sharedPage: 'engine' },
);

test(
  'buffers are reused: 40 recomputes of varying size leak no GPU buffers',
  async ({ page, baseUrl }) => {
    await open(page, baseUrl);
    await page.evaluate(() => window.engineDriver.compute({ n: 96 }));
    const before = await page.evaluate(() => window.engineDriver.stats());
    for (let round = 0; round < 4; round++) {
      await page.evaluate(
        (round) => window.engineDriver.burst(10, (i) => ({ n: 64 + ((i * 7 + round) % 32), seed: i })),
        round,
      );
    }
    await page.evaluate(() => window.engineDriver.compute({ n: 96 }));
    const after = await page.evaluate(() => window.engineDriver.stats());
    assert.ok(before.liveBuffers > 0);
    assert.equal(after.liveBuffers, before.liveBuffers, `live buffers ${before.liveBuffers} → ${after.liveBuffers}`);
    assert.ok(after.created <= before.created + 4, `created ${before.created} → ${after.created}`);
  },
  { sharedPage: 'engine' },
);

test(
  'with WebGPU the row-statistics analyses run on the GPU (computedOn), stop when cancelled, and leave computes working',
  async ({ page, baseUrl }) => {
    const backend = await open(page, baseUrl);
    assert.equal(backend.kind, 'webgpu');
    const payload = { params: { n: 64, d: 8, m: 16 }, seeds: 2, mGrid: [4, 8], rows: 8 };
    const r = await page.evaluate((pl) => window.engineDriver.analyze('errorVsM', pl), payload);
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.computedOn, 'webgpu');
    // the engine worker reports the op's own run time (what the store's coarse-stage skip reads)
    assert.ok(r.runMs > 0, `run time reported: ${r.runMs}`);
    // the driver's client asks for the GPU analyses on SwiftShader too (the app's keeps them on the pool)
    const spectra = await page.evaluate(() => window.engineDriver.analyze('spectra', { params: { n: 32 } }));
    assert.equal(spectra.computedOn, 'webgpu', JSON.stringify(spectra));
    // the cancelled run is long (seconds on SwiftShader) so that the abort, sent at its first progress
    // message, reaches the worker mid-run even on a loaded machine: a 13-step run of 56 ms once ended first
    const long = {
      params: { n: 512, d: 32, m: 64 },
      nCap: 512,
      seeds: 6,
      mGrid: [4, 8, 16, 32, 64, 128, 256],
      rows: 64,
    };
    const c = await page.evaluate((pl) => window.engineDriver.analyze('errorVsM', pl, true), long);
    assert.equal(c.code, 'cancelled', JSON.stringify(c));
    // one progress message per seed and projection, one for the theory curve
    assert.ok(c.progress < 6 * 2 + 1, `stopped before its last step: ${c.progress} progress messages`);
    assert.equal(c.runMs, null, 'a cancelled run reports no run time');
    const after = await page.evaluate(() => window.engineDriver.compute({}));
    assert.ok(after.ok && after.finite && after.backend.kind === 'webgpu', JSON.stringify(after));
  },
  { sharedPage: 'engine' },
);

test(
  "the analyses on the GPU asked in one task run in the store's priority order, not in arrival order, and one superseded before it runs is answered cancelled at once, unrun",
  async ({ page, baseUrl, log }) => {
    const backend = await open(page, baseUrl);
    assert.equal(backend.kind, 'webgpu');
    // sent in this order (as the panels ask); priority: lower runs first
    const jobs = [
      { op: 'rowEntropies', payload: { params: { n: 64, d: 8, m: 16 } }, priority: 3 },
      { op: 'spectra', payload: { params: { n: 32, d: 8, m: 16 } }, priority: 2 },
      { op: 'entryErrors', payload: { params: { n: 64, d: 8, m: 16 } }, priority: 0 },
      { op: 'mapRows', payload: { params: { n: 32, d: 8, m: 16 } }, priority: 9, abort: true },
      { op: 'localTruncation', payload: { params: { n: 32, d: 8, m: 16 } }, priority: 1 },
    ];
    const r = await page.evaluate((js) => window.engineDriver.analyzeBurst(js), jobs);
    log(`ended in order ${r.order.join(', ')}; ran ${r.ran.join(', ')}`);
    assert.equal(r.order[0], '3:cancelled', 'the aborted analysis is answered before any other ends');
    // the burst reaches the worker as one message (worker-requests.ts sendSoon), so the first one sent
    // cannot start before the rest have arrived: all of them go by priority
    assert.deepEqual(
      r.order.slice(1),
      ['2:ok', '4:ok', '1:ok', '0:ok'],
      `priority order 0, 1, 2, 3 (arrival order would be 0:ok, 1:ok, 2:ok, 4:ok): ${r.order.join(', ')}`,
    );
    assert.ok(!r.ran.includes(3), 'the cancelled analysis never started');
  },
  { sharedPage: 'engine' },
);

test(
  'recovers from GPU device loss: a new device, and the next compute succeeds',
  async ({ page, baseUrl }) => {
    const backend = await open(page, baseUrl);
    assert.equal(backend.kind, 'webgpu', JSON.stringify(backend));
    const before = await page.evaluate(() => window.engineDriver.compute({}));
    assert.ok(before.ok && before.backend.kind === 'webgpu', JSON.stringify(before));
    // the page is the shared one (its warm-up compile is reused): earlier tests' events come first
    const seen = await page.evaluate(() => window.engineDriver.backendEvents().length);
    await page.evaluate(() => window.engineDriver.loseDevice());
    await page.waitForFunction((k) => window.engineDriver.backendEvents().length > k, seen, { timeout: 30_000 });
    const events = (await page.evaluate(() => window.engineDriver.backendEvents())).slice(seen);
    // the backend that replaces the lost one is WebGPU again (a new device), not the CPU fallback
    assert.match(events[0], /^webgpu: GPU device lost/i, JSON.stringify(events));
    const r = await page.evaluate(() => window.engineDriver.compute({ seed: 2 }));
    assert.ok(r.ok && r.finite, JSON.stringify(r));
    assert.equal(r.backend.kind, 'webgpu', `the next compute runs on the new device: ${JSON.stringify(r.backend)}`);
    assert.match(r.backend.adapter, /swiftshader/i);
  },
  { timeout: 240_000, sharedPage: 'engine' },
); // the new device compiles its pipelines again (seconds on SwiftShader); the warm-up's are the shared page's

test(
  'falls back to the CPU worker, and says why, when the browser has no WebGPU',
  async ({ page, baseUrl }) => {
    const backend = await open(page, baseUrl);
    assert.equal(backend.kind, 'cpu');
    assert.match(backend.reason, /adapter|WebGPU/i);
    const r = await page.evaluate(() => window.engineDriver.compute({ n: 64 }));
    assert.ok(r.ok && r.finite, JSON.stringify(r));
    assert.equal(r.backend.kind, 'cpu');
  },
  { webgpu: false },
);

test(
  'cancel really stops a CPU run: an n = 65,536 request is dropped and the next request is answered',
  async ({ page, baseUrl }) => {
    const backend = await open(page, baseUrl);
    assert.equal(backend.kind, 'cpu');
    // hours of CPU work if it were not stopped; the next compute could not be answered behind it
    const r = await page.evaluate(() =>
      window.engineDriver.cancelThenCompute(
        { n: 65_536, d: 256, m: 1_024 },
        { viewCells: 0, rowStats: false, rows: [0] },
        300,
      ),
    );
    assert.equal(r.cancelled, true);
    assert.equal(r.outcome.code, 'cancelled', JSON.stringify(r.outcome));
    assert.ok(r.next.ok && r.next.finite, JSON.stringify(r.next));
  },
  { webgpu: false, timeout: 60_000 },
);

test(
  'without WebGPU the analyses run on the CPU twins (computedOn cpu), and the pool reports their run time',
  async ({ page, baseUrl }) => {
    await open(page, baseUrl);
    const r = await page.evaluate(() =>
      window.engineDriver.analyze('errorVsM', { params: { n: 64, d: 8, m: 16 }, seeds: 2, mGrid: [4, 8], rows: 8 }),
    );
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.computedOn, 'cpu');
    // one worker's op (not a sweep split over the pool): its run time comes back
    const s = await page.evaluate(() => window.engineDriver.analyze('spectra', { params: { n: 32 } }));
    assert.ok(s.ok && s.runMs > 0, JSON.stringify(s));
  },
  { webgpu: false },
);
