// The WebGPU analysis backend against the CPU twins in real Chromium (WebGPU on SwiftShader).
// Driver: e2e/pages/analysis-kernels.ts.
//
// Kernels (attention-row-list-batch.wgsl — rowDots, rowDotsThin for 1 or 2 rows — on φ from attention-row-list-features.wgsl
// (rowFeatures: the exp maps' projection; rowFeaturesDirect: trig, relu, elu1, cosformer, taylor2, oprf,
// double-softmax), favor-features (hedgehog, the 'ref' stabilizer) or the twins; full rows from the same reduce;
// top-k masses from attention-row-top-mass.wgsl vs sweeps.ts topMassAt, and the same batch read back without
// rows bit for bit): every row statistic within |gpu − cpu| ≤ 1e-4 + 1e-3·|cpu| (KL: 1e-2·|cpu|); a row whose normalizer
// is exactly 0 (cosformer's relu features can all vanish) is 0 on the GPU and 0/0 in the twin (the
// all-zero normalizer guard) and is skipped. Dense kernels (src/gpu/analysis-dense.ts): the n×n planes
// A, Â read back vs the f64 twins within 1e-5 + 1e-3·|cpu|; local-window-stats.wgsl vs the twin
// windowRowStats on the GPU's own planes within 1e-6 + 1e-4·|cpu| (the kernel alone) and on the CPU's
// matrices within 1e-5 + 1e-3·|cpu| (the whole path). Ops: every number of
// each analysis result on the GPU backend vs the CPU one within 2e-3 + 2e-2·|cpu| (f32 vs f64 through
// a whole sweep); the spectra's singular values within 1e-6·σ_max of each spectrum (A and Â from f32
// kernels, the SVD in f64 on both sides). The op list is the engine's GPU_ANALYSIS_OPS: an op without a
// case here fails. The logged tables give max abs error and the normwise relative error per case.
import assert from 'node:assert/strict';
import { test } from './harness.mjs';

async function open(page, baseUrl) {
  // tests share one driver page (sharedPage): its pipelines are compiled once
  if (!(await page.evaluate(() => !!window.analysisKernels).catch(() => false)))
    await page.goto(`${baseUrl}/e2e/pages/analysis-kernels.html`);
  await page.waitForFunction(() => window.analysisKernels, null, { timeout: 120_000 });
  return page.evaluate(() => window.analysisKernels.info());
}

const fmt = (x) => (Number.isFinite(x) ? x.toExponential(1) : String(x));
function table(log, title, rows) {
  log(title);
  log(`  ${'case'.padEnd(52)} ${'max abs'.padStart(8)} ${'max rel'.padStart(8)} ${'ms'.padStart(7)}`);
  for (const r of rows) {
    log(
      `  ${(r.ok ? '✓ ' : '✗ ') + r.name.padEnd(50)} ${fmt(r.maxAbs).padStart(8)} ${fmt(r.maxRel).padStart(8)} ${String(Math.round(r.ms ?? r.gpuMs)).padStart(7)}`,
    );
  }
}
function assertAll(rows) {
  const bad = rows.filter((r) => !r.ok);
  assert.equal(bad.length, 0, `failed: ${bad.map((r) => `${r.name} ${JSON.stringify(r.fields ?? r)}`).join('; ')}`);
}

// awkward shapes: n ∈ {1, 47, 65}, d ∈ {3, 5, 16}, ragged m′, both modes, a row list longer than one tile
const ROW_CASES = [
  { n: 1, d: 3, m: 5, causal: false, rows: 4, maps: ['positive', 'elu1'] },
  { n: 1, d: 5, m: 4, causal: true, rows: 4, maps: ['hyperbolic'] },
  { n: 47, d: 3, m: 7, causal: true, rows: 9, maps: ['positive', 'trig', 'relu', 'exp'] },
  { n: 47, d: 5, m: 5, causal: false, rows: 47, maps: ['hyperbolic', 'double-softmax', 'oprf', 'hedgehog'] },
  { n: 65, d: 5, m: 3, causal: false, rows: 40, maps: ['positive', 'elu1', 'cosformer', 'taylor2'] },
  { n: 65, d: 16, m: 33, causal: true, rows: 65, maps: ['positive', 'double-softmax', 'oprf', 'cosformer'] },
  { n: 65, d: 3, m: 8, causal: true, rows: 12, maps: ['positive', 'exp'], stabilizer: 'ref', scale: 1.5 },
  // φ from the projection (attention-row-list-features.wgsl) at large norms: per-row shifts, ragged m
  { n: 33, d: 16, m: 6, causal: true, rows: 33, maps: ['positive', 'hyperbolic', 'exp'], scale: 3 },
  // φ from the twins, uploaded (the software adapter's choice for the maps outside the projection); the row statistics on the GPU
  { n: 47, d: 5, m: 7, causal: true, rows: 47, maps: ['positive', 'hyperbolic', 'cosformer'], features: 'cpu' },
  { n: 65, d: 3, m: 5, causal: false, rows: 9, maps: ['trig', 'double-softmax', 'oprf'], features: 'cpu' },
  // φ of the exp maps from the projection, the others from the twins, in one packed batch (the software adapter's choice)
  { n: 47, d: 5, m: 6, causal: true, rows: 13, maps: ['hyperbolic', 'trig', 'positive'], features: 'projection' },
  // a row list of 1 or 2 rows (rowDotsThin), ragged keys; twins' φ sides shared by repeated maps
  { n: 45, d: 5, m: 6, causal: false, rows: 1, maps: ['positive', 'taylor2', 'positive'], features: 'cpu' },
  { n: 37, d: 3, m: 5, causal: true, rows: 2, maps: ['hyperbolic', 'cosformer', 'exp'], features: 'projection' },
  { n: 21, d: 16, m: 9, causal: true, rows: 2, maps: ['trig', 'elu1'] },
  // zero inputs: every row of A and Â uniform, every entry tied (the top-k selection's equal-to-pivot part)
  { n: 40, d: 3, m: 5, causal: true, rows: 8, maps: ['positive', 'elu1'], scale: 0 },
  // φ of the other maps from the rows (rowFeaturesDirect): taylor2's 273 features (3 pad lanes), trig at
  // larger norms (its exp(‖y‖²/2) as the keys' log-scale) with 4 | m (whole vec4s; the cases above: m ∤ 4),
  // double-softmax's column offsets, oprf's A
  {
    n: 29,
    d: 16,
    m: 12,
    causal: false,
    rows: 7,
    maps: ['taylor2', 'trig', 'relu', 'double-softmax', 'oprf'],
    scale: 1.5,
    features: 'projection',
  },
  // one W for every map: the first projected slot projects, the later projected slots and trig, relu read
  // its u (hyperbolic's rows of 2m/4 vec4s with m ∤ 4: trig's scalar path, positive's masked last vec4;
  // positive's of m/4 with 4 | m, listed after them: hyperbolic's aligned −u block), oprf projects itself
  // (it needs ‖ω‖²)
  {
    n: 47,
    d: 5,
    m: 6,
    causal: true,
    rows: 5,
    maps: ['hyperbolic', 'trig', 'relu', 'oprf', 'positive'],
    scale: 1.2,
    sharedW: true,
  },
  {
    n: 33,
    d: 16,
    m: 8,
    causal: false,
    rows: 1,
    maps: ['trig', 'relu', 'positive', 'hyperbolic', 'exp'],
    sharedW: true,
  },
];

test(
  'row-list statistics kernel (φ, normalizers, per-row stats, full rows, top-k masses) matches the CPU twins on awkward shapes, and a batch without rows reads back the same statistics',
  async ({ page, baseUrl, log }) => {
    const info = await open(page, baseUrl);
    log(`adapter: ${info.adapter}`);
    const rows = [];
    for (const cs of ROW_CASES) {
      const r = await page.evaluate((c) => window.analysisKernels.rowStats(c), cs);
      const name = `n=${cs.n} d=${cs.d} m=${cs.m} R=${Math.min(cs.n, cs.rows)} ${cs.causal ? 'causal' : 'bidir'} ${cs.maps.join(',')}${cs.stabilizer ? ' ref' : ''}${cs.features ? ` [φ ${cs.features}]` : ''}${cs.sharedW ? ' one W' : ''}`;
      rows.push({ name, ...r });
    }
    table(log, 'attention-row-list-batch vs core rowListStats (exactRowsOf / approxRowsOf)', rows);
    assertAll(rows);
  },
  { timeout: 240_000, sharedPage: 'driver' },
);

// awkward shapes for the dense path: n = 1, n off every tile, d = 1, m′ ≠ m (hyperbolic, trig: 2m;
// elu1: d), both modes, degenerate windows (trig), no V, V wider than one block, φ from the twins
const DENSE_CASES = [
  { n: 1, d: 1, m: 3, causal: false, maps: ['positive', 'elu1'] },
  { n: 1, d: 3, m: 4, causal: true, maps: ['hyperbolic'] },
  { n: 47, d: 1, m: 5, causal: true, maps: ['trig', 'elu1'], scale: 1.5 },
  { n: 65, d: 5, m: 7, causal: false, maps: ['hyperbolic', 'elu1', 'positive'] },
  { n: 65, d: 16, m: 33, causal: true, maps: ['positive', 'exp'], values: false },
  { n: 47, d: 5, m: 7, causal: false, maps: ['positive', 'cosformer'], features: 'cpu' },
  { n: 33, d: 3, m: 6, causal: true, maps: ['trig', 'oprf'], features: 'cpu' },
  // V of 21 columns: the output error's one whole block of 16 columns and a ragged one of 5
  { n: 29, d: 21, m: 6, causal: true, maps: ['positive', 'elu1'] },
  // output terms for some variants only (the local-truncation op leaves out its 1 + elu's): those
  // without stay 0 on both sides, the others keep theirs
  { n: 37, d: 6, m: 5, causal: false, maps: ['elu1', 'positive', 'hyperbolic'], outputs: [false, true, false] },
];

test(
  'dense planes (A, Â) and local-window-stats kernel match the CPU twins on awkward shapes',
  async ({ page, baseUrl, log }) => {
    await open(page, baseUrl);
    const rows = [];
    for (const cs of DENSE_CASES) {
      const r = await page.evaluate((c) => window.analysisKernels.denseKernels(c), cs);
      const name = `n=${cs.n} d=${cs.d} m=${cs.m} ${cs.causal ? 'causal' : 'bidir'} ${cs.maps.join(',')}${cs.values === false ? ' no V' : ''}${cs.outputs ? ` outputs ${cs.outputs.map(Number).join('')}` : ''}${cs.features === 'cpu' ? ' [φ cpu]' : ''}`;
      rows.push({ name, ...r });
    }
    table(log, 'dense planes + local-window-stats vs core exactAttentionF64 / denseApproxF64 / windowRowStats', rows);
    assertAll(rows);
  },
  { timeout: 240_000, sharedPage: 'driver' },
);

const p = (extra = {}) => ({ n: 47, d: 5, m: 8, ...extra });
const OP_CASES = [
  ['errorVsM', { params: p(), seeds: 2, mGrid: [4, 16], rows: 8 }],
  ['normSweep', { params: p({ causal: true }), seeds: 2, scales: [0.5, 1.5], rows: 8 }],
  ['normSweep', { params: p({ stabilizer: 'ref' }), seeds: 2, scales: [0.5, 1.5], rows: 8 }],
  ['errorVsD', { params: p(), seeds: 2, dGrid: [3, 5, 16], rows: 8 }],
  ['entryErrors', { params: p({ n: 65 }), rows: 8 }],
  ['rowEntropies', { params: p({ causal: true }), maxRows: 8 }],
  ['entropyVsN', { params: p(), nGrid: [16, 47, 65], rows: 8 }],
  ['mapRows', { params: p({ d: 3 }), row: 5 }],
  ['mapRows', { params: p({ causal: true }), row: 30 }],
  ['beyondSweeps', { params: p(), seeds: 2, normSeeds: 2, mGrid: [8, 16], scales: [0.5, 1], rows: 8 }],
  // m′ = 8 < n: A dense, Â by its 8×8 core; causal: Â dense too; m′ = 2m ≥ n: the dense Â bidirectional
  ['spectra', { params: p() }],
  ['spectra', { params: p({ causal: true, n: 33 }) }],
  ['spectra', { params: p({ n: 20, m: 12, featureMap: 'hyperbolic' }) }],
  // cosFormer at d = 1: the rows of every q_i ≤ 0 have a zero normalizer (the dense Â's NaN rows on the GPU,
  // 0/0 in the twin; zero rows and their count in the result on both), bidirectional by its core, causal dense
  ['spectra', { params: p({ d: 1, featureMap: 'cosformer' }) }],
  ['spectra', { params: p({ d: 1, featureMap: 'cosformer', causal: true, n: 33 }) }],
  ['localTruncation', { params: p({ n: 65 }) }],
  ['localTruncation', { params: p({ causal: true, featureMap: 'trig' }) }],
];

test(
  'every GPU-run analysis op gives the CPU op’s result within f32 tolerance',
  async ({ page, baseUrl, log }) => {
    const { gpuOps } = await open(page, baseUrl);
    // the engine's own list: every op it runs on the GPU has a case, and every case is such an op
    assert.deepEqual(
      [...new Set(OP_CASES.map(([op]) => op))].sort(),
      [...gpuOps].sort(),
      'OP_CASES must cover GPU_ANALYSIS_OPS exactly',
    );
    const rows = [];
    for (const [op, payload] of OP_CASES) {
      // φ on the GPU (a hardware adapter's choice), the exp maps' projected and the rest from the twins
      // (a software adapter's), every φ from the twins
      for (const features of ['gpu', 'projection', 'cpu']) {
        const r = await page.evaluate(([o, pl, f]) => window.analysisKernels.op(o, pl, f), [op, payload, features]);
        rows.push({
          name: `${op} ${JSON.stringify(payload.params)}${features === 'gpu' ? '' : ` [φ ${features}]`}`,
          ...r,
        });
      }
    }
    table(log, 'analysis ops: WebGPU backend vs CPU twins (all result numbers)', rows);
    assertAll(rows);
  },
  { timeout: 300_000, sharedPage: 'driver' },
);

test(
  'the GPU backend reports a batch as submitted once, before its result (what lets a sweep draw its next point meanwhile), and two batches asked for at once each give their twins’ result',
  async ({ page, baseUrl }) => {
    await open(page, baseUrl);
    const r = await page.evaluate(() => window.analysisKernels.submissionOrder());
    assert.deepEqual(r.events, ['submitted', 'result']);
    assert.ok(r.sqErr.ok, `the batch's Σ(A − Â)² against the twins': ${JSON.stringify(r.sqErr)}`);
    for (const [i, e] of r.concurrent.entries())
      assert.ok(
        e.ok,
        `concurrent batches, check ${i} (positive Σ(A − Â)², trig Σ(A − Â)², trig rows): ${JSON.stringify(e)}`,
      );
  },
  { timeout: 120_000, sharedPage: 'driver' },
);

test(
  'a GPU-run sweep whose device is lost with batches in flight ends with an error, not a hang',
  async ({ page, baseUrl, log }) => {
    await open(page, baseUrl);
    const r = await page.evaluate(() => window.analysisKernels.sweepOnLostDevice(30_000));
    log(`device lost after step ${r.steps}: ${r.outcome}`);
    assert.match(r.outcome, /^rejected/);
  },
  { timeout: 120_000, sharedPage: 'driver' },
);

test(
  'a GPU-run sweep stops with cancelled between its batches',
  async ({ page, baseUrl }) => {
    await open(page, baseUrl);
    const r = await page.evaluate(() =>
      window.analysisKernels.cancelMidway('errorVsM', {
        params: { n: 47, d: 5, m: 8 },
        seeds: 4,
        mGrid: [4, 8],
        rows: 8,
      }),
    );
    assert.equal(r.code, 'cancelled');
    assert.equal(r.steps, 1);
  },
  { timeout: 120_000, sharedPage: 'driver' },
);
