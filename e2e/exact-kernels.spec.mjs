// Exact-attention, dense-statistics and dummy kernels, and the whole WebGPU backend, against their
// CPU twins in real Chromium (WebGPU on SwiftShader). Driver: e2e/pages/exact-kernels.ts.
//
// Tolerance: every entry within |gpu − cpu| ≤ 1e-4 + 1e-3·|cpu| (outputs, probabilities, view
// cells, normalizers, row statistics). The logged tables give max abs error and the normwise
// relative error max|gpu − cpu| / max|cpu| per case.
import assert from 'node:assert/strict';
import { test } from './harness.mjs';

async function open(page, baseUrl) {
  // tests share one driver page (sharedPage): its pipelines are compiled once
  if (!(await page.evaluate(() => !!window.exactKernels).catch(() => false)))
    await page.goto(`${baseUrl}/e2e/pages/exact-kernels.html`);
  await page.waitForFunction(() => window.exactKernels, null, { timeout: 120_000 });
  return page.evaluate(() => window.exactKernels.info());
}

const fmt = (x) => (Number.isFinite(x) ? x.toExponential(1) : String(x));
function table(log, title, rows) {
  log(`${title}`);
  log(`  ${'case'.padEnd(44)} ${'max abs'.padStart(8)} ${'max rel'.padStart(8)} ${'ms'.padStart(7)}`);
  for (const r of rows) {
    log(
      `  ${(r.ok ? '✓ ' : '✗ ') + r.name.padEnd(42)} ${fmt(r.maxAbs).padStart(8)} ${fmt(r.maxRel).padStart(8)} ${String(Math.round(r.ms)).padStart(7)}`,
    );
  }
}
function assertAll(rows) {
  const bad = rows.filter((r) => !r.ok);
  assert.equal(bad.length, 0, `failed: ${bad.map((r) => `${r.name} ${JSON.stringify(r.fields ?? r)}`).join('; ')}`);
}

// A covering design over n ∈ {1, 7, 64, 257, 1000} × d ∈ {1, 3, 16, 64, 128} × {bidirectional,
// causal}: every n meets every mode, every d meets both modes, plus d = 256, a ragged d, and the
// 16 KiB (default-limit) tile shapes.
const EXACT_CASES = [
  { n: 1, d: 1, causal: false },
  { n: 1, d: 64, causal: true },
  { n: 7, d: 3, causal: true },
  { n: 7, d: 128, causal: false },
  { n: 64, d: 16, causal: false },
  { n: 64, d: 1, causal: true },
  { n: 257, d: 64, causal: true },
  { n: 257, d: 3, causal: false },
  { n: 1000, d: 16, causal: true },
  { n: 1000, d: 128, causal: false },
  { n: 100, d: 256, causal: true },
  { n: 333, d: 200, causal: false, storage: 16384 },
  { n: 257, d: 64, causal: false, storage: 16384 },
  { n: 65, d: 17, causal: true, storage: 16384, scale: 3 },
];

test(
  'exact fused kernel matches the CPU online-softmax twin on awkward shapes',
  async ({ page, baseUrl, log }) => {
    const info = await open(page, baseUrl);
    log(
      `adapter: ${info.adapter}; timestamps: ${info.hasTimestamps}; workgroup memory: ${info.maxComputeWorkgroupStorageSize} B`,
    );
    const rows = [];
    for (const cs of EXACT_CASES) {
      const r = await page.evaluate((c) => window.exactKernels.exact(c), cs);
      const t = r.tiles;
      const name = `n=${cs.n} d=${cs.d} ${cs.causal ? 'causal' : 'bidir'} [${t.br}×${t.bc}${t.qShared ? ' Qs' : ''}${cs.storage ? ' 16K' : ''}]`;
      rows.push({ name, ...r });
    }
    table(log, 'exact fused attention vs core exactAttentionOutput', rows);
    assertAll(rows);
  },
  { timeout: 240_000, sharedPage: 'driver' },
);

const DENSE_CASES = [
  { n: 1, d: 1, m: 4, featureMap: 'positive', causal: false, viewCells: 8, rows: [0] },
  { n: 7, d: 3, m: 5, featureMap: 'hyperbolic', causal: true, viewCells: 3, rows: [0, 6] },
  { n: 64, d: 16, m: 7, featureMap: 'relu', causal: false, viewCells: 20, rows: [3] },
  { n: 64, d: 3, m: 0, featureMap: 'elu1', causal: true, viewCells: 64, rows: [0, 63] },
  { n: 257, d: 64, m: 32, featureMap: 'exp', causal: true, viewCells: 64, rows: [256] },
  { n: 257, d: 16, m: 3, featureMap: 'trig', causal: false, viewCells: 512, rows: [5], scale: 0.3 },
  { n: 1000, d: 16, m: 0, featureMap: 'double-softmax', causal: false, viewCells: 16, rows: [0, 999] },
  { n: 1000, d: 8, m: 16, featureMap: 'positive', causal: true, viewCells: 512, rows: [500] },
];

test(
  'dense statistics kernels (normalizers, row stats, matrix view, full rows; products formed or read from the raw ones) match the CPU twins',
  async ({ page, baseUrl, log }) => {
    await open(page, baseUrl);
    const rows = [];
    // each case twice: every product formed in each kernel, and from the raw products the
    // normalizers keep (the live job's path up to RAW_BUDGET)
    for (const cs of DENSE_CASES.flatMap((c) => [c, { ...c, raw: true }])) {
      const r = await page.evaluate((c) => window.exactKernels.dense(c), cs);
      const g = r.geometry;
      rows.push({
        name: `n=${cs.n} d=${cs.d} m'=${g.mp} ${cs.featureMap} ${cs.causal ? 'causal' : 'bidir'} view ${g.cells}/b${g.block}${cs.raw ? ' raw' : ''}`,
        ...r,
      });
    }
    table(log, 'dense kernels vs core (worst of norms, 5 row stats, 3 view planes, rows); CPU features uploaded', rows);
    assertAll(rows);
  },
  { timeout: 180_000, sharedPage: 'driver' },
);

const JOBS = [
  { n: 64, d: 16, m: 16, featureMap: 'positive', causal: false, viewCells: 32, rowStats: true, rows: [0, 63] },
  { n: 100, d: 8, m: 8, featureMap: 'hyperbolic', causal: true, viewCells: 64, rowStats: true, rows: [50] },
  { n: 70, d: 4, m: 12, featureMap: 'trig', causal: false, viewCells: 16, rowStats: true, rows: [1], scale: 0.3 },
  { n: 33, d: 5, m: 9, featureMap: 'relu', causal: true, viewCells: 33, rowStats: true, rows: [] },
  { n: 129, d: 12, m: 0, featureMap: 'elu1', causal: false, viewCells: 0, rowStats: true, rows: [128] },
  { n: 80, d: 16, m: 20, featureMap: 'exp', causal: true, viewCells: 40, rowStats: false, rows: [0, 79] },
  { n: 96, d: 7, m: 0, featureMap: 'double-softmax', causal: true, viewCells: 96, rowStats: true, rows: [95] },
  // the app's defaults (src/core/default-params.ts) as the live request sends them: one view cell
  // per entry, so the row statistics and the pinned row come from the view's planes, φ from U
  {
    n: 256,
    d: 16,
    m: 64,
    featureMap: 'positive',
    causal: false,
    viewCells: 256,
    rowStats: true,
    rows: [128],
    input: 'local',
    scale: 1.5,
  },
  { n: 90, d: 8, m: 8, featureMap: 'hyperbolic', causal: true, viewCells: 90, rowStats: true, rows: [0, 89] },
  {
    n: 200,
    d: 32,
    m: 64,
    featureMap: 'positive',
    causal: false,
    viewCells: 0,
    rowStats: false,
    rows: [],
    input: 'clustered',
    scale: 1,
  },
];

// Every map of FEATURE_MAPS (read from the page, so a new map is covered without editing this file)
// that JOBS does not name runs on a small awkward shape, causal and bidirectional alternating.
function jobsFor(maps) {
  const named = new Set(JOBS.map((j) => j.featureMap));
  const extra = maps
    .filter((map) => !named.has(map))
    .map((featureMap, i) => ({
      n: 45 + i,
      d: 6,
      m: 10,
      featureMap,
      causal: i % 2 === 0,
      viewCells: 16,
      rowStats: true,
      rows: [0, 44],
    }));
  return [...JOBS, ...extra];
}

test(
  'the WebGPU backend matches runAttentionJob (all fields, every feature map)',
  async ({ page, baseUrl, log }) => {
    await open(page, baseUrl);
    const { maps } = await page.evaluate(() => window.exactKernels.lists());
    const jobs = jobsFor(maps);
    assert.deepEqual([...new Set(jobs.map((j) => j.featureMap))].sort(), [...maps].sort(), 'a feature map is not run');
    const rows = [];
    for (const cs of jobs) {
      const r = await page.evaluate((c) => window.exactKernels.backendJob(c), cs);
      rows.push({ name: `n=${cs.n} d=${cs.d} m=${cs.m} ${cs.featureMap} ${cs.causal ? 'causal' : 'bidir'}`, ...r });
    }
    table(log, 'createWebGpuBackend(...).run(job) vs runAttentionJob(job) (worst field)', rows);
    log(`  timings of the last job: ${rows.at(-1).timings.join(' ')}; bytes ${rows.at(-1).bytesAllocated}`);
    assertAll(rows);
  },
  { timeout: 180_000, sharedPage: 'driver' },
);

// ---- causality: causal linear attention sees no future, on the WebGPU backend and the CPU twin ----
// For every feature map × stabilizer and t ∈ {5, 40} (the lists come from src/core/types.ts through
// the driver, so a new map is covered without editing this file), redraw the keys and values at
// positions ≥ t; the outputs and the Â rows before t must not move beyond float32 rounding (see
// CAUSAL_TOL). In the shared driver page, after the backend test: the same backend, its pipelines
// already compiled. The CPU half is src/core/causality.test.ts.
// t = 5 as well as 40: a statistic over a block of the first rows (a tile of 32) passes t = 40 unseen
const CAUSAL_SHAPE = { n: 64, d: 8, m: 32 };
const CAUSAL_TS = [5, 40];
// relative to the magnitude of what is compared: the CPU twin 1e-6; the f32 kernels 2e-6 (a scalar
// key shift that moves with the future cancels exactly in the math, not in the GPU's rounding: ≤ 1e-6
// observed). A leak is ≥ 1e-5 here.
const CAUSAL_TOL = { cpu: 1e-6, gpu: 2e-6 };

test(
  'causal mode: outputs and Â rows before t ignore keys and values at ≥ t (every map × stabilizer, GPU and CPU)',
  async ({ page, baseUrl, log }) => {
    await open(page, baseUrl);
    const { maps, stabilizers } = await page.evaluate(() => window.exactKernels.lists());
    const fmt = (x) => x.toExponential(1).padStart(8);
    log(
      `n=${CAUSAL_SHAPE.n} d=${CAUSAL_SHAPE.d} m=${CAUSAL_SHAPE.m}, keys and values redrawn at ≥ t: max change before t`,
    );
    log(
      `  ${'map'.padEnd(16)} ${'stab'.padEnd(6)} ${'t'.padStart(3)} ${'gpu out'.padStart(8)} ${'gpu Â'.padStart(8)} ${'cpu out'.padStart(8)} ${'cpu Â'.padStart(8)}`,
    );
    const bad = [];
    for (const map of maps) {
      for (const stabilizer of stabilizers) {
        for (const t of CAUSAL_TS) {
          const r = await page.evaluate((c) => window.exactKernels.causality(c), {
            ...CAUSAL_SHAPE,
            t,
            map,
            stabilizer,
          });
          const ok = (x, tol) => x.out <= tol * x.outScale && x.row <= tol * x.rowScale;
          const pass = ok(r.gpu, CAUSAL_TOL.gpu) && ok(r.cpu, CAUSAL_TOL.cpu);
          if (!pass) bad.push(`${map}/${stabilizer}/t=${t}`);
          log(
            `${pass ? '✓' : '✗'} ${map.padEnd(16)} ${stabilizer.padEnd(6)} ${String(t).padStart(3)} ${fmt(r.gpu.out)} ${fmt(r.gpu.row)} ${fmt(r.cpu.out)} ${fmt(r.cpu.row)}`,
          );
        }
      }
    }
    assert.equal(bad.length, 0, `the future leaks into: ${bad.join(', ')}`);
  },
  { timeout: 300_000, sharedPage: 'driver' },
);

test(
  'dummy attention returns V; repeated runs reuse every buffer',
  async ({ page, baseUrl, log }) => {
    await open(page, baseUrl);
    for (const [n, d] of [
      [1, 1],
      [257, 3],
      [1000, 64],
    ]) {
      const r = await page.evaluate(([n, d]) => window.exactKernels.dummy(n, d), [n, d]);
      assert.ok(r.exactMatch, `dummy n=${n} d=${d} does not return V: ${JSON.stringify(r)}`);
    }
    const shapes = [
      { n: 100, d: 8, m: 8, featureMap: 'positive', causal: true, viewCells: 50, rowStats: true, rows: [3] },
      { n: 60, d: 8, m: 8, featureMap: 'positive', causal: true, viewCells: 50, rowStats: true, rows: [3] },
    ];
    const stats = await page.evaluate((s) => window.exactKernels.reuse(s, 3), shapes);
    log(`allocator after each run: ${stats.map((s) => `${s.job}:${s.created}/${s.liveBuffers}`).join(' ')}`);
    const created = stats.map((s) => s.created);
    // The first run of the larger shape creates everything; nothing is created afterwards.
    assert.ok(
      created.every((c) => c === created[0]),
      `buffers created per run: ${created.join(', ')}`,
    );
    assert.ok(stats.every((s) => s.liveBuffers === stats[0].liveBuffers));
  },
  { sharedPage: 'driver' },
);

// Each case changes one thing from the one before (n, d, m, seed, map, causal, stabilizer, the view's
// block, what is requested): a buffer, uniform or staging range left from the previous run would
// show as a bit difference from the same job on fresh buffers.
const CACHE_CASES = (() => {
  const base = { n: 96, d: 16, m: 16, featureMap: 'positive', causal: false, viewCells: 96, rowStats: true, rows: [5] };
  const steps = [
    {},
    { n: 80 },
    { d: 12 },
    { m: 24 },
    { seed: 3 },
    { featureMap: 'hyperbolic' },
    { causal: true },
    { stabilizer: 'ref' },
    { featureMap: 'relu' },
    { n: 200, rows: [150] },
    { causal: false, viewCells: 0, rowStats: false, rows: [] },
  ];
  let cur = base;
  return steps.map((s) => (cur = { ...cur, ...s }));
})();

test(
  'repeated runs on reused buffers are bit-identical to fresh buffers of a second backend, also where the exact side is kept from the run before; parameter changes invalidate; live buffers stay bounded over 55 runs',
  async ({ page, baseUrl, log }) => {
    await open(page, baseUrl);
    const rounds = 5;
    const { mismatches, stats, timestamps, ms } = await page.evaluate(
      ([cases, rounds]) => window.exactKernels.cachedRuns(cases, rounds),
      [CACHE_CASES, rounds],
    );
    assert.deepEqual(
      mismatches,
      [],
      `runs on reused buffers differ from fresh ones: ${mismatches.slice(0, 5).join('; ')}`,
    );
    assert.equal(stats.length, rounds * CACHE_CASES.length);
    // the exact side (scores, exact normalizers, exact output) is kept exactly when the job before
    // had the same Q, K, V and mask and both kept the raw products (dense jobs at these sizes)
    const dense = (c) => c.viewCells > 0 || c.rowStats || c.rows.length > 0;
    const sameExact = (a, b) =>
      a.n === b.n && a.d === b.d && (a.seed ?? 1) === (b.seed ?? 1) && a.causal === b.causal && dense(a) && dense(b);
    const kept = stats.filter((s) => s.exactPass === false).map((s) => `${s.round}:${s.case}`);
    // which passes ran is known from the timestamps (SwiftShader and hardware adapters here have them)
    if (timestamps) {
      assert.ok(
        stats.every((s) => s.exactPass !== null),
        'every run lists its passes',
      );
      const expected = stats
        .filter((s) => {
          const prev = s.case > 0 ? CACHE_CASES[s.case - 1] : s.round > 0 ? CACHE_CASES.at(-1) : null;
          return prev !== null && sameExact(prev, CACHE_CASES[s.case]) && dense(CACHE_CASES[s.case]);
        })
        .map((s) => `${s.round}:${s.case}`);
      assert.deepEqual(kept, expected, 'runs that kept the exact side (round:case)');
      assert.ok(kept.length >= rounds * 3, `the exact side was kept in ${kept.length} runs`);
    }
    log(
      timestamps
        ? `exact side kept (same Q, K, V, mask as the run before; bit-identical to fresh): ${kept.length} of ${stats.length} runs`
        : 'no timestamp queries: which runs kept the exact side is not checked (their bits are)',
    );
    const endOf = (r) => stats.filter((s) => s.round === r).at(-1);
    log(
      `time: fresh backend ${Math.round(ms.fresh)} ms, ${rounds} rounds on the reused one ${Math.round(ms.reused)} ms`,
    );
    log(
      `live buffers / created after each round: ${[...Array(rounds).keys()].map((r) => `${endOf(r).liveBuffers}/${endOf(r).created}`).join(' ')}`,
    );
    const maxLive = Math.max(...stats.map((s) => s.liveBuffers));
    // every role reaches its largest size in the first round: later rounds create nothing
    assert.equal(endOf(rounds - 1).created, endOf(0).created, 'buffers created after the first round');
    assert.equal(endOf(rounds - 1).liveBuffers, endOf(0).liveBuffers);
    assert.ok(maxLive <= 64, `live buffers peaked at ${maxLive}`);
  },
  { timeout: 480_000, sharedPage: 'driver' },
);

test(
  'bad input, device limits and device loss give typed EngineErrors, nothing crashes',
  async ({ page, baseUrl, log }) => {
    await open(page, baseUrl);
    const r = await page.evaluate(() => window.exactKernels.badInputs());
    log(
      Object.entries(r.cases)
        .map(([k, v]) => `${k} → ${v.code}`)
        .join('; '),
    );
    assert.equal(r.cases.n0.code, 'invalid-size');
    assert.equal(r.cases.dTooBig.code, 'exceeds-limit');
    assert.equal(r.cases.nanInQ.code, 'non-finite-input');
    assert.equal(r.cases.m0.code, 'invalid-size');
    assert.equal(r.cases.rowOutOfRange.code, 'exceeds-limit');
    assert.equal(r.cases.cancelled.code, 'cancelled');
    assert.ok(r.createdUnchanged, 'a rejected job must not allocate');
    assert.equal(r.after.code, 'ok', JSON.stringify(r.after));

    const lim = await page.evaluate(() => window.exactKernels.deviceLimits());
    log(`default-limits device (${lim.limit} B per binding): ${lim.err.code}: ${lim.err.message}`);
    log(`after device.destroy(): ${lim.lost.code}: ${lim.lost.message}`);
    assert.equal(lim.err.code, 'exceeds-limit');
    assert.match(lim.err.message, /MiB/);
    assert.equal(lim.created, 0, 'the over-limit job must be rejected before any buffer is created');
    assert.equal(lim.lost.code, 'device-lost');
  },
  { sharedPage: 'driver' },
);

test(
  'n = 32768, d = 16, causal, on a default-limits device: 16 KiB tiles; the row blocks holding the sampled rows (the last streams all 32 768 keys) match the CPU',
  async ({ page, baseUrl, log }) => {
    await open(page, baseUrl);
    // Only the blocks that hold a sampled row run (one dispatch each): the whole causal run is
    // ~17 GFLOP, most of a minute on SwiftShader, and the sampled rows are all this test compares.
    // Full-length dispatches, split over passes too, are checked on the awkward shapes above.
    const rowsToCheck = [0, 1, 4095, 8191, 16_384, 20_000, 32_766, 32_767];
    const cs = {
      n: 32_768,
      d: 16,
      causal: true,
      defaultLimits: true,
      sampleRows: rowsToCheck,
      sampledBlocksOnly: true,
    };
    const r = await page.evaluate((c) => window.exactKernels.exact(c), cs);
    table(log, `large case on a default-limits device (${r.storageLimit} B workgroup memory)`, [
      {
        name: `n=32768 d=16 causal [${r.tiles.br}×${r.tiles.bc}] rows ${rowsToCheck.length}, blocks ${r.blocksRun}`,
        ...r,
      },
    ]);
    assert.equal(r.storageLimit, 16384);
    assert.ok(r.tiles.bytes <= 16384, `tiles need ${r.tiles.bytes} B`);
    assert.equal(r.blocksRun, new Set(rowsToCheck.map((i) => Math.floor(i / r.tiles.br))).size);
    assert.ok(r.ok, JSON.stringify(r));
  },
  { timeout: 240_000, sharedPage: 'driver' },
);
