// The trainer's dense WGSL kernels (src/gpu/train/*.ts: linear fwd/bwd on matmul.wgsl's transpose
// flags, layer norm, GELU, embedding, short conv, cross-entropy, grad norm + AdamW) against their CPU
// twins (src/core/train, f64 on the same f32 inputs; the products with either kernel, tiled
// matmul.wgsl and train-matmul.wgsl, and either transpose) in real Chromium (WebGPU on SwiftShader), on
// awkward shapes: 1, odd, across the 64-wide tiles and the 4096-entry norm chunks. Prints one line
// per output (the kernel-vs-twin table). Tolerance: |gpu − twin| ≤ 2e-5·√k + 1e-4·|twin|, k the
// length of the sums behind an entry. Driver: e2e/pages/train-dense-kernels.ts.
import assert from 'node:assert/strict';
import { test } from './harness.mjs';

const CASES = [
  ['matmulT', { m: 1, n: 1, k: 1, transA: false, transB: false, kernel: 'small' }],
  ['matmulT', { m: 33, n: 7, k: 130, transA: true, transB: false, kernel: 'small' }],
  // 81 blocks of 8 × 8 (train-matmul.wgsl main8) with ragged edges; 33×7 takes the 4 × 4 blocks
  ['matmulT', { m: 70, n: 65, k: 9, transA: false, transB: true, kernel: 'small' }],
  // few blocks, long k: 8 k-slices of 8 × 8 blocks, then the in-order reduce pass
  ['matmulT', { m: 33, n: 7, k: 1030, transA: true, transB: false, kernel: 'small' }],
  // dx of three projections in one pass (train-matmul-sum3.wgsl): ragged 8 × 8 blocks, a gap between the weights
  ['sum3', { m: 37, n: 13, k: 11, pad: 5 }],
  ['matmulT', { m: 70, n: 65, k: 33, transA: true, transB: false, kernel: 'tiled' }],
  ['matmulT', { m: 129, n: 130, k: 17, transA: false, transB: true, kernel: 'tiled' }],
  ['linear', { rows: 1, inDim: 1, outDim: 1, bias: true }],
  ['linear', { rows: 7, inDim: 5, outDim: 3, bias: false }],
  ['linear', { rows: 130, inDim: 33, outDim: 70, bias: true, residual: true }],
  ['linear', { rows: 130, inDim: 40, outDim: 129, bias: true, residual: true }],
  // dW 9×5 (+ db as row 9) over k = 600 in 4 slices
  ['linear', { rows: 600, inDim: 9, outDim: 5, bias: true, residual: true }],
  // dW 65×70 and db as its row 65 in one pass of 8 × 8 blocks (the row of ones mid-block)
  ['linear', { rows: 9, inDim: 65, outDim: 70, bias: true }],
  // dW 130×129: the tiled kernel, db by the column-sum pass
  ['linear', { rows: 70, inDim: 130, outDim: 129, bias: true }],
  ['layerNorm', { rows: 1, cols: 1 }],
  ['layerNorm', { rows: 7, cols: 5 }],
  ['layerNorm', { rows: 65, cols: 130 }],
  ['gelu', { n: 1 }],
  ['gelu', { n: 1001 }],
  ['embed', { B: 1, L: 1, V: 1, D: 1, Lmax: 1 }],
  ['embed', { B: 3, L: 17, V: 67, D: 24, Lmax: 20 }],
  // odd D and V: the token index (tokenIndex) with tokens absent from the batch
  ['embed', { B: 2, L: 9, V: 5, D: 37, Lmax: 9 }],
  ['shortConv', { B: 1, L: 1, D: 1, mode: 'shift' }],
  ['shortConv', { B: 3, L: 17, D: 33, mode: 'shift' }],
  ['shortConv', { B: 1, L: 2, D: 3, mode: 'conv3' }],
  ['shortConv', { B: 3, L: 17, D: 33, mode: 'conv3' }],
  ['crossEntropy', { rows: 1, V: 1, maskRate: 1 }],
  ['crossEntropy', { rows: 7, V: 13, maskRate: 0 }],
  ['crossEntropy', { rows: 67, V: 130, maskRate: 0.5, ties: true }],
  ['adamw', { n: 1, t: 1, clip: 0, decayEvery: 1 }],
  ['adamw', { n: 9001, t: 7, clip: 1, decayEvery: 3 }],
];

test(
  'dense training kernels match their CPU twins on awkward shapes',
  async ({ page, baseUrl, log }) => {
    await page.goto(`${baseUrl}/e2e/pages/train-dense-kernels.html`);
    await page.waitForFunction(() => window.trainDense, null, { timeout: 60_000 });
    log(`adapter: ${(await page.evaluate(() => window.trainDense.info())).adapter}`);
    const bad = [];
    for (const [kind, shape] of CASES) {
      const rows = await page.evaluate(([k, s]) => window.trainDense.run(k, s), [kind, shape]);
      for (const r of rows) {
        log(
          `${r.ok ? '✓' : '✗'} ${kind.padEnd(12)} ${JSON.stringify(shape).padEnd(52)} ${r.out.padEnd(15)} n ${String(r.n).padStart(5)}  max abs ${r.maxAbs.toExponential(1)}  max rel ${r.maxRel.toExponential(1)}`,
        );
        if (!r.ok) bad.push({ kind, shape, r });
      }
    }
    assert.deepEqual(bad, [], 'every output within tolerance');
  },
  { timeout: 60_000 },
);
