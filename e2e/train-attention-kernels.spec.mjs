// The trainer's attention kernels against their CPU twins in real Chromium (WebGPU on
// SwiftShader), forward and backward: softmax attention (src/gpu/train/softmax-attention.ts vs
// core/train/softmax-attention.ts), the six feature maps and their Jacobians (feature-maps.ts vs
// core/train/feature-map-grad.ts), linear attention bidirectional, causal (chunked prefix scan /
// reverse scan) and windowed (linear-attention.ts vs core/train/linear-attention-train.ts), and
// the Hedgehog distillation's KL rows, dφq, dφk (hedgehog-distill.ts vs core/train/hedgehog-distill.ts).
// Awkward shapes: L = 1, odd L, L across the causal chunks (16 rows) and 64-invocation workgroups, H > 1,
// odd dh, m across 64, strided views (fused QKV, offsets in flat parameter/gradient buffers).
// Tolerance per entry: 2e-5·max|twin| + 2e-4·|twin| (ATOL, RTOL in e2e/pages/train-attention-common.ts;
// driver: e2e/pages/train-attention-kernels.ts).
// One page compiles each pipeline once; the table prints kernel, shape, max abs / rel error.
import assert from 'node:assert/strict';
import { test } from './harness.mjs';

const SOFTMAX = [
  { B: 1, L: 1, H: 1, dh: 1, causal: false },
  { B: 2, L: 7, H: 3, dh: 5, causal: true },
  { B: 1, L: 67, H: 2, dh: 8, causal: false, fused: true },
  { B: 1, L: 130, H: 1, dh: 65, causal: true },
  { B: 1, L: 1024, H: 1, dh: 3, causal: true },
];

const MAPS = ['positive', 'elu1', 'relu', 'taylor2', 'cosformer', 'hedgehog'];
const FEATURES = [
  ...MAPS.flatMap((map) => [
    { map, side: 'query', B: 2, L: 5, H: 2, dh: 3, m: 5, strided: true },
    { map, side: 'key', B: 2, L: 5, H: 2, dh: 3, m: 5 },
  ]),
  { map: 'positive', side: 'key', B: 1, L: 9, H: 1, dh: 8, m: 70 },
  // FAVOR+'s 4 × 8 tiles: rows, features and input columns all across a ragged last block
  { map: 'positive', side: 'query', B: 1, L: 7, H: 2, dh: 13, m: 11 },
  { map: 'hedgehog', side: 'query', B: 1, L: 3, H: 1, dh: 65, m: 67 },
  { map: 'taylor2', side: 'query', B: 1, L: 2, H: 1, dh: 9, m: 1 },
];

const LINEAR = [
  { B: 1, L: 1, H: 1, F: 1, dh: 1, causal: false, window: 0 },
  { B: 1, L: 1, H: 1, F: 1, dh: 1, causal: true, window: 0 },
  { B: 2, L: 7, H: 2, F: 5, dh: 3, causal: false, window: 0 },
  { B: 2, L: 7, H: 2, F: 5, dh: 3, causal: true, window: 0 },
  // L ≤ 32 runs densely (LA_DENSE_MAX_L); these take the state paths
  { B: 2, L: 67, H: 2, F: 5, dh: 3, causal: false, window: 0 },
  { B: 1, L: 130, H: 1, F: 70, dh: 4, causal: true, window: 0 },
  { B: 2, L: 9, H: 2, F: 4, dh: 3, causal: true, window: 3 },
  { B: 1, L: 130, H: 1, F: 6, dh: 5, causal: false, window: 70 },
  { B: 1, L: 1024, H: 1, F: 3, dh: 2, causal: true, window: 0 },
];

// Hedgehog distillation's core (hedgehog-distill.ts vs core distillHead): m odd, L = 1, odd L,
// B·H·L across a 64-invocation workgroup
const DISTILL = [
  { B: 1, L: 1, H: 1, m: 1, causal: false },
  { B: 1, L: 1, H: 1, m: 3, causal: true },
  { B: 2, L: 7, H: 3, m: 5, causal: true },
  { B: 2, L: 7, H: 2, m: 3, causal: false },
  { B: 1, L: 67, H: 2, m: 5, causal: true },
];

const fmt = (x) => x.toExponential(1).padStart(8);

test(
  'training attention kernels (softmax, feature maps, linear attention; forward and backward; Hedgehog distillation) match their CPU twins',
  async ({ page, baseUrl, log }) => {
    await page.goto(`${baseUrl}/e2e/pages/train-attention-kernels.html`);
    await page.waitForFunction(() => window.trainAttentionKernels, null, { timeout: 60_000 });
    const info = await page.evaluate(() => window.trainAttentionKernels.info());
    log(`adapter: ${info.adapter}`);
    log(`${'kernel'.padEnd(26)} ${'shape'.padEnd(58)} ${'output'.padEnd(13)} max abs  max rel`);
    const bad = [];
    const runAll = async (kind, cases, name, shape) => {
      for (const cs of cases) {
        const t0 = Date.now();
        const res = await page.evaluate(([k, c]) => window.trainAttentionKernels[k](c), [kind, cs]);
        for (const r of res) {
          log(
            `${r.ok ? '✓' : '✗'} ${name(cs).padEnd(24)} ${shape(cs).padEnd(58)} ${r.name.padEnd(13)} ${fmt(r.maxAbs)} ${fmt(r.maxRel)}`,
          );
          if (!r.ok) bad.push({ kind, cs, r });
        }
        log(`    (${Date.now() - t0} ms)`);
      }
    };
    await runAll(
      'softmax',
      SOFTMAX,
      (c) => `softmax ${c.causal ? 'causal' : 'bidir'}`,
      (c) => `B${c.B} L${c.L} H${c.H} dh${c.dh}${c.fused ? ' fused QKV' : ''}`,
    );
    await runAll(
      'feature',
      FEATURES,
      (c) => `φ ${c.map} ${c.side}`,
      (c) => `B${c.B} L${c.L} H${c.H} dh${c.dh} m${c.m}${c.strided ? ' strided' : ''}`,
    );
    await runAll(
      'linear',
      LINEAR,
      (c) => `linear ${c.window ? `window ${c.window}` : ''}${c.causal ? ' causal' : ' bidir'}`,
      (c) => `B${c.B} L${c.L} H${c.H} F${c.F} dh${c.dh}`,
    );
    await runAll(
      'distill',
      DISTILL,
      (c) => `hedgehog distill ${c.causal ? 'causal' : 'bidir'}`,
      (c) => `B${c.B} L${c.L} H${c.H} m${c.m}`,
    );
    assert.deepEqual(bad, [], 'every output within tolerance');
  },
  { timeout: 120_000 },
);
