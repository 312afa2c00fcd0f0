// Performer kernels (src/gpu/favor-features.ts, performer-bidirectional.ts, performer-causal.ts and
// the fast exp-of-projection path performer-exp.ts with favor-projection.ts: favor-projection.wgsl,
// performer-exp-gemm.wgsl)
// against their CPU twins in src/core (queryFeatures / keyFeatures, linearAttentionOutput), in
// Chromium's WebGPU on SwiftShader. Driver: e2e/pages/performer-kernels.ts.
//
// Tolerances (f32 kernels vs the f64-accumulating CPU twins):
// - features: max |Δφ| ≤ 5e-5 · max |φ_cpu| over each matrix (observed ≤ 3e-6).
// - outputs:  for every row i, max_c |Δout_ic| ≤ 1e-5 · κ_i · (max|V| + max_c |out_ic|)
//             (observed ≤ 4e-7), where κ_i = Σ_f |φ(q_i)_f| Σ_j |φ(k_j)_f| / |φ(q_i)·Σ_j φ(k_j)|
//             (j over the allowed keys). All maps but trig have positive features, so κ_i = 1 and
//             the bound is 1e-5 of the output scale. Trig features take both signs: the normalizer
//             φ(q_i)·z is a sum whose terms are up to κ_i times larger than the result (κ up to
//             ~700 here), so the f32 rounding of those terms — relative to their magnitudes, not
//             to the result — is amplified by κ_i; the bound scales with it instead of hiding it
//             behind a loose global tolerance.
import assert from 'node:assert/strict';
import { test } from './harness.mjs';

const FEATURE_TOL = 5e-5;
const OUTPUT_TOL = 1e-5;

// Order matters for time only: the row of a map fixes its (d, m) at each n. Trig (on-the-fly sin/cos
// features on the generic path) sits in the row whose n = 1000 has m = 33; in the row with
// n = 1000, m = 256 it alone took ~7 s on SwiftShader, and positive there runs on the fast path.
const MAPS = ['trig', 'hyperbolic', 'positive', 'relu', 'elu1', 'exp', 'double-softmax'];
const NS = [1, 7, 64, 257, 1000];
const DS = [1, 3, 16, 64, 128];
const MS = [1, 33, 256];
// Covering design: every map meets every n and every d once (Latin squares), and every pair of
// (n, d), (n, m), (d, m) occurs — 35 shapes instead of the 7·5·5·3 = 525 of the full product.
const DESIGN = MAPS.flatMap((map, b) => NS.map((n, a) => ({ map, n, d: DS[(a + b) % 5], m: MS[(a + 2 * b) % 3] })));
// Head dimensions in the third tile class (128 < d ≤ 256), forced causal chunks of 128 and 256
// (n not a multiple of C, n < C), and stress inputs (larger norms, structured inputs).
const EXTRA = [
  { map: 'positive', n: 300, d: 200, m: 64 },
  { map: 'trig', n: 100, d: 256, m: 33 },
  { map: 'double-softmax', n: 129, d: 256, m: 0 },
  { map: 'hyperbolic', n: 65, d: 129, m: 16 },
  { map: 'positive', n: 257, d: 16, m: 33, chunk: 128 },
  { map: 'relu', n: 100, d: 8, m: 16, chunk: 128 },
  { map: 'exp', n: 1000, d: 64, m: 64, chunk: 256 },
  { map: 'positive', n: 257, d: 64, m: 256, scale: 1.5, input: 'clustered' },
  { map: 'hyperbolic', n: 257, d: 64, m: 128, scale: 1.5, input: 'local' },
  { map: 'exp', n: 200, d: 32, m: 64, scale: 2 },
  { map: 'elu1', n: 150, d: 48, m: 0, scale: 2, input: 'clustered' },
  // the stabilizer (FmParams.eps): 'ref' adds the reference ε = 1e-6, the default 'shift' adds none.
  // s = 2 is where ε floods the key features (e^-24 ≪ ε), so a kernel ignoring the flag fails here.
  { map: 'positive', n: 257, d: 16, m: 64, scale: 2 },
  { map: 'positive', n: 257, d: 16, m: 64, scale: 2, stab: 'ref' },
  { map: 'hyperbolic', n: 100, d: 7, m: 33, scale: 1.5, input: 'clustered', stab: 'ref' },
  { map: 'exp', n: 65, d: 129, m: 16, scale: 1.5, stab: 'ref' },
  { map: 'positive', n: 1, d: 1, m: 1, stab: 'ref' },
  // hedgehog (FM_HEDGEHOG): per-row softmax over the m projections, both signs, both sides; the W
  // is given (the feature seed's projection stands in for a fitted one — the kernels only read W).
  { map: 'hedgehog', n: 257, d: 7, m: 33, scale: 1.5, input: 'clustered' },
  // the exp-of-projection maps take the fast GEMM path (performer-exp.ts); these force
  // the generic on-the-fly path on the same kind of shapes, so both paths stay checked.
  { map: 'positive', n: 257, d: 64, m: 256, generic: true },
  { map: 'hyperbolic', n: 100, d: 7, m: 33, scale: 1.5, input: 'clustered', stab: 'ref', generic: true },
  { map: 'exp', n: 200, d: 32, m: 64, scale: 2, generic: true },
  // fast path: n just past a 64-row tile, d not a multiple of 4, a forced causal chunk of 192
  { map: 'hyperbolic', n: 65, d: 5, m: 7, chunk: 192 },
  // fast path in projection row blocks (as at n = 2^20, where 2·n·m floats exceed a binding), forced
  // small: a last block shorter than the others, a block not a power of two, both hyperbolic signs,
  // a causal chunk of two 64-row tiles inside a block.
  { map: 'positive', n: 333, d: 5, m: 33, block: 128, chunk: 64 },
  { map: 'hyperbolic', n: 300, d: 7, m: 17, scale: 1.5, input: 'clustered', block: 192, chunk: 64 },
  { map: 'exp', n: 257, d: 64, m: 64, stab: 'ref', block: 128, chunk: 128 },
  // heads wider than 64 run the fast path in column tiles of 64 (d = 130: three tiles, the last two
  // columns wide), here with row blocks and a causal chunk spanning two 64-row tiles as well
  { map: 'positive', n: 333, d: 130, m: 33, block: 128, chunk: 128 },
];

async function open(page, baseUrl) {
  // tests share one driver page (sharedPage): its pipelines are compiled once
  if (!(await page.evaluate(() => !!window.performerKernels).catch(() => false)))
    await page.goto(`${baseUrl}/e2e/pages/performer-kernels.html`);
  await page.waitForFunction(() => window.performerKernels, null, { timeout: 60_000 });
}

const e = (x) => x.toExponential(1);
const shape = (c) =>
  `${c.map.padEnd(14)} n=${String(c.n).padStart(4)} d=${String(c.d).padStart(3)} m=${String(c.m).padStart(3)}` +
  (c.scale ? ` s=${c.scale}` : '') +
  (c.input ? ` ${c.input}` : '') +
  (c.stab ? ` stab=${c.stab}` : '') +
  (c.generic ? ' generic' : '') +
  (c.block ? ` block=${c.block}` : '');

function check(failures, c, what, r, tol, metric) {
  if (!r.finite || !(r[metric] <= tol))
    failures.push(`${shape(c)} ${what}: ${metric} ${r[metric]} > ${tol} (finite ${r.finite})`);
}

test(
  'feature maps, bidirectional and causal outputs match the CPU twins (covering design + extras)',
  async ({ page, baseUrl, log }) => {
    await open(page, baseUrl);
    const messages = await page.evaluate(() => window.performerKernels.shaderMessages());
    for (const [name, list] of Object.entries(messages))
      assert.deepEqual(list, [], `${name} shader compiles without messages`);

    const failures = [];
    log(`tolerances: features max|Δ| ≤ ${FEATURE_TOL}·max|φ|; outputs max_c|Δ| ≤ ${OUTPUT_TOL}·κ_i·(max|V| + |out_i|)`);
    log(`${'shape'.padEnd(48)} | φ rel   | bidir abs / rel   | causal abs / rel (C)  | κmax | path`);
    let worstF = 0;
    let worstO = 0;
    for (const c of [...DESIGN, ...EXTRA]) {
      const r = await page.evaluate(([c]) => window.performerKernels.runCase(c, { chunk: c.chunk }), [c]);
      check(failures, c, 'features', r.features, FEATURE_TOL, 'rel');
      check(failures, c, 'bidirectional', r.bidirectional, OUTPUT_TOL, 'norm');
      check(failures, c, 'causal', r.causal, OUTPUT_TOL, 'norm');
      worstF = Math.max(worstF, r.features.rel);
      worstO = Math.max(worstO, r.bidirectional.norm, r.causal.norm);
      const k = Math.max(r.bidirectional.kappaMax, r.causal.kappaMax);
      log(
        `${shape(c).padEnd(48)} | ${e(r.features.rel)} | ${e(r.bidirectional.maxAbs)} / ${e(r.bidirectional.rel)} | ` +
          `${e(r.causal.maxAbs)} / ${e(r.causal.rel)} (${r.causal.chunk}) | ${k < 1.0001 ? '1' : k.toFixed(0)} | ${r.bidirectional.path}`,
      );
    }
    log(`worst: features rel ${e(worstF)}, outputs normalized ${e(worstO)}`);
    assert.deepEqual(failures, []);

    // On-the-fly key features inside the generic fused kernel equal the materialized ones, bit for bit.
    for (const c of [
      { map: 'positive', n: 40, d: 64, m: 33 },
      { map: 'hyperbolic', n: 64, d: 64, m: 256 },
      { map: 'trig', n: 16, d: 16, m: 33 },
      { map: 'relu', n: 16, d: 16, m: 33 },
      { map: 'elu1', n: 7, d: 16, m: 0 },
      { map: 'double-softmax', n: 7, d: 16, m: 0 },
      { map: 'hedgehog', n: 7, d: 16, m: 33 },
    ]) {
      const r = await page.evaluate((c) => window.performerKernels.keyFeatureBits(c), c);
      assert.equal(
        r.mismatches,
        0,
        `${shape(c)}: ${r.mismatches} of ${r.compared} on-the-fly key features differ from materialized`,
      );
    }

    // Every reduction has a fixed order: reruns give identical bits (outputs; on the generic path
    // the materialized features too), on each path: fast, fast in row blocks, fast with column
    // tiles (d > 64), generic.
    const runs = [
      [{ map: 'positive', n: 700, d: 32, m: 64 }, 'exp'],
      [{ map: 'positive', n: 700, d: 32, m: 64, block: 256 }, 'exp, blocks of 256'],
      [{ map: 'hyperbolic', n: 300, d: 130, m: 33 }, 'exp'],
      [{ map: 'positive', n: 700, d: 32, m: 64, generic: true }, 'generic'],
    ];
    for (const [c, path] of runs) {
      for (const causal of [false, true]) {
        const r = await page.evaluate(([c, causal]) => window.performerKernels.determinism(c, causal), [c, causal]);
        assert.equal(r.path, path, `${shape(c)} runs on the ${path} path`);
        assert.ok(r.same, `${shape(c)} ${causal ? 'causal' : 'bidirectional'} rerun is bit-identical`);
      }
    }

    const rej = await page.evaluate(() => window.performerKernels.rejects({ map: 'positive', n: 8, d: 300, m: 4 }));
    assert.equal(rej.code, 'exceeds-limit');
  },
  { timeout: 420_000, sharedPage: 'driver' },
);

// The later estimators (FM_OPRF, FM_TAYLOR2, FM_COSFORMER and the simplex projection, src/core/feature-maps-beyond.ts):
// one entry per map on awkward shapes — n = 1, n not a multiple of any tile, d = 1 and d past a
// tile class, a forced causal chunk — plus norms where OPRF's A is far from 0 (s = 1.5, ρ ≈ 3).
// Taylor-2's d stays ≤ 44 (1 + d + d² ≤ 2048, the product limit); d = 44 is its largest tile.
const LATER = [
  { map: 'oprf', n: 257, d: 3, m: 33 },
  { map: 'oprf', n: 100, d: 64, m: 256, scale: 1.5, input: 'clustered', chunk: 128 },
  { map: 'oprf', n: 65, d: 129, m: 16, stab: 'ref' },
  { map: 'oprf', n: 1, d: 1, m: 1 },
  { map: 'taylor2', n: 65, d: 1, m: 0 },
  { map: 'taylor2', n: 257, d: 7, m: 0, scale: 1.5, chunk: 128 },
  { map: 'taylor2', n: 33, d: 44, m: 0 },
  { map: 'cosformer', n: 1, d: 1, m: 0 },
  { map: 'cosformer', n: 257, d: 16, m: 0, input: 'local', chunk: 128 },
  { map: 'cosformer', n: 129, d: 200, m: 0 },
  { map: 'positive', n: 100, d: 16, m: 33, projection: 'simplex' },
];

test(
  'later estimators (oprf, taylor2, cosformer, simplex W) match their CPU twins; on-the-fly features equal materialized',
  async ({ page, baseUrl, log }) => {
    await open(page, baseUrl);
    const failures = [];
    for (const c of LATER) {
      const r = await page.evaluate(([c]) => window.performerKernels.runCase(c, { chunk: c.chunk }), [c]);
      check(failures, c, 'features', r.features, FEATURE_TOL, 'rel');
      check(failures, c, 'bidirectional', r.bidirectional, OUTPUT_TOL, 'norm');
      check(failures, c, 'causal', r.causal, OUTPUT_TOL, 'norm');
      log(
        `${shape(c).padEnd(40)}${c.projection ? ` ${c.projection}` : ''} | φ rel ${e(r.features.rel)} | bidir ${e(r.bidirectional.norm)} | causal ${e(r.causal.norm)} (${r.causal.chunk})`,
      );
    }
    assert.deepEqual(failures, []);
    for (const c of [
      { map: 'oprf', n: 40, d: 64, m: 33 },
      { map: 'taylor2', n: 5, d: 8, m: 0 },
      { map: 'cosformer', n: 16, d: 16, m: 0 },
    ]) {
      const r = await page.evaluate((c) => window.performerKernels.keyFeatureBits(c), c);
      assert.equal(
        r.mismatches,
        0,
        `${shape(c)}: ${r.mismatches} of ${r.compared} on-the-fly key features differ from materialized`,
      );
    }
  },
  { timeout: 240_000, sharedPage: 'driver' },
);

// The maps off the exp path with φ(Q), φ(K) formed first (as the live backend does for its dense
// statistics): the Performer GEMMs of performer-exp.ts read them as they are (phi_direct). Every such map,
// on awkward shapes — n = 1, n not a multiple of any tile, d = 1 and past a column tile (d > 64),
// m' past one feature tile of 64, a forced causal chunk, the 'ref' stabilizer.
const MATERIALIZED = [
  { map: 'elu1', n: 1, d: 1, m: 0 },
  { map: 'elu1', n: 257, d: 16, m: 0, input: 'local', chunk: 128 },
  { map: 'elu1', n: 65, d: 129, m: 0 },
  { map: 'trig', n: 100, d: 3, m: 33, scale: 1.5 },
  { map: 'trig', n: 65, d: 70, m: 40 },
  { map: 'relu', n: 129, d: 16, m: 256, chunk: 128 },
  { map: 'double-softmax', n: 257, d: 16, m: 0 },
  { map: 'double-softmax', n: 33, d: 5, m: 0, stab: 'ref' },
  { map: 'hedgehog', n: 65, d: 16, m: 33 },
  { map: 'oprf', n: 100, d: 64, m: 256, scale: 1.5, input: 'clustered', chunk: 128 },
  { map: 'oprf', n: 37, d: 8, m: 16, stab: 'ref' },
  { map: 'taylor2', n: 33, d: 12, m: 0 },
  { map: 'cosformer', n: 129, d: 200, m: 0 },
].map((c) => ({ ...c, materialized: true }));

test(
  'maps off the exp path run the GEMMs on materialized features (phi_direct) and match their CPU twins, bidirectional and causal; reruns give identical bits',
  async ({ page, baseUrl, log }) => {
    await open(page, baseUrl);
    const failures = [];
    for (const c of MATERIALIZED) {
      const r = await page.evaluate(([c]) => window.performerKernels.runCase(c, { chunk: c.chunk }), [c]);
      for (const [what, out] of [
        ['bidirectional', r.bidirectional],
        ['causal', r.causal],
      ])
        if (out.path !== 'materialized') failures.push(`${shape(c)} ${what} ran on the ${out.path} path`);
      check(failures, c, 'features', r.features, FEATURE_TOL, 'rel');
      check(failures, c, 'bidirectional', r.bidirectional, OUTPUT_TOL, 'norm');
      check(failures, c, 'causal', r.causal, OUTPUT_TOL, 'norm');
      log(
        `${shape(c).padEnd(44)} | bidir ${e(r.bidirectional.maxAbs)} / ${e(r.bidirectional.norm)} | causal ${e(r.causal.maxAbs)} / ${e(r.causal.norm)} (${r.causal.chunk})`,
      );
    }
    assert.deepEqual(failures, []);
    for (const c of [MATERIALIZED[1], MATERIALIZED[5]])
      for (const causal of [false, true]) {
        const r = await page.evaluate(([c, causal]) => window.performerKernels.determinism(c, causal), [c, causal]);
        assert.equal(r.path, 'materialized', `${shape(c)} runs on the materialized path`);
        assert.ok(r.same, `${shape(c)} ${causal ? 'causal' : 'bidirectional'} rerun is bit-identical`);
      }
  },
  { timeout: 240_000, sharedPage: 'driver' },
);

test(
  'the projection pass of the exp maps: query row maxima, the key max (key 0 alone when causal under ε) and hn equal an f64 recomputation, unblocked and in row blocks',
  async ({ page, baseUrl, log }) => {
    await open(page, baseUrl);
    const fast = [...DESIGN, ...EXTRA].filter((c) => ['positive', 'hyperbolic', 'exp'].includes(c.map) && !c.generic);
    const failures = [];
    for (const c of fast)
      for (const causal of [false, true]) {
        const r = await page.evaluate(([c, causal]) => window.performerKernels.projectionStats(c, causal), [c, causal]);
        const bad = !r.finite || !(r.query <= 1e-5 && r.key <= 1e-5 && r.hn <= 1e-5);
        if (bad) failures.push(`${shape(c)} causal=${causal}: ${JSON.stringify(r)}`);
        log(
          `${shape(c).padEnd(56)} ${causal ? 'causal' : 'bidir '} | query max ${e(r.query)} | key max ${e(r.key)}${r.keyMax.firstOnly ? ' (key 0)' : ''} | hn ${e(r.hn)}`,
        );
      }
    assert.ok(fast.length >= 10, `${fast.length} fast-path cases`);
    assert.deepEqual(failures, []);
  },
  { timeout: 120_000, sharedPage: 'driver' },
);

test(
  'large case n = 16384, d = 64, m = 256: bidirectional and causal on sampled rows',
  async ({ page, baseUrl, log }) => {
    await open(page, baseUrl);
    const c = { map: 'positive', n: 16384, d: 64, m: 256 };
    for (const causal of [false, true]) {
      const r = await page.evaluate(
        ([c, causal]) => window.performerKernels.output(c, causal, { sampleRows: 256 }),
        [c, causal],
      );
      log(
        `${shape(c)} ${causal ? `causal (C=${r.chunk})` : 'bidirectional'}: ${r.rowsCompared} rows, max abs ${e(r.maxAbs)}, ` +
          `rel ${e(r.rel)}, normalized ${e(r.norm)} | GPU ${(r.ms / 1000).toFixed(1)} s, CPU twin ${(r.cpuMs / 1000).toFixed(1)} s`,
      );
      assert.ok(r.finite && r.norm <= OUTPUT_TOL, JSON.stringify(r));
    }
  },
  { timeout: 150_000, sharedPage: 'driver' },
);

test(
  'all-zero normalizers (d = 256, s = 4, no ε): rows are 0 and counted, never NaN; ε = 1e-6 leaves none',
  async ({ page, baseUrl, log }) => {
    await open(page, baseUrl);
    for (const causal of [false, true]) {
      const shift = await page.evaluate(
        (causal) =>
          window.performerKernels.zeroNormalizers({ map: 'positive', n: 64, d: 256, m: 16, scale: 4 }, causal),
        causal,
      );
      log(
        `${causal ? 'causal' : 'bidirectional'} shift: GPU ${shift.gpuZeroRows} zero rows, CPU twin ${shift.cpuZeroRows}; finite ${shift.finite}, zero rows are 0: ${shift.zeroRowsAreZero}`,
      );
      assert.ok(shift.finite, 'output is finite');
      assert.ok(shift.zeroRowsAreZero, 'rows with a zero normalizer are 0');
      assert.ok(shift.cpuZeroRows > 0, 'the CPU twin sees zero normalizers here');
      // the GPU multiplies features in f32 (the twin in f64), so it can only reach zero more often
      assert.ok(shift.gpuZeroRows >= shift.cpuZeroRows, JSON.stringify(shift));
      const ref = await page.evaluate(
        (causal) =>
          window.performerKernels.zeroNormalizers(
            { map: 'positive', n: 64, d: 256, m: 16, scale: 4, stab: 'ref' },
            causal,
          ),
        causal,
      );
      assert.equal(ref.gpuZeroRows, 0, 'ε keeps every normalizer positive');
      assert.ok(ref.finite);
    }
  },
  { timeout: 120_000, sharedPage: 'driver' },
);
