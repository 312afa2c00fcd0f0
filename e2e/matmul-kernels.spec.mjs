// The tiled matrix-product kernel (src/shaders/matmul.wgsl) against its CPU twin core/matmul.ts on
// awkward shapes in real Chromium (WebGPU on SwiftShader): sizes below, at and across the 64×64×16
// tiles, strided views (a head's column slice of W_Q, a row slice of W_O), accumulate and ReLU.
// Every entry of the whole output buffer is compared, so writes outside the view fail too.
// Tolerance: |gpu − cpu| ≤ 1e-4·√k + 1e-4·|cpu|. Driver: e2e/pages/matmul-kernels.ts.
import assert from 'node:assert/strict';
import { test } from './harness.mjs';

const CASES = [
  { m: 1, n: 1, k: 1 },
  { m: 7, n: 3, k: 5 },
  { m: 65, n: 129, k: 33 },
  { m: 64, n: 64, k: 16 },
  { m: 130, n: 70, k: 600 },
  { m: 3, n: 200, k: 1 },
  { m: 33, n: 17, k: 40, relu: true },
  { m: 20, n: 9, k: 11, accumulate: true },
  // a head's slice: Q_h = X · W_Q[:, h·dh …] with X 37×24, W_Q 24×24, dh = 8, h = 2
  { m: 37, n: 8, k: 24, ldb: 24, offB: 16 },
  // Y += Att_h · W_O[h·dh …, :], written into a strided C with an offset
  { m: 37, n: 24, k: 8, offB: 2 * 8 * 24, ldc: 30, offC: 5, accumulate: true, relu: false },
  { m: 9, n: 5, k: 7, lda: 10, offA: 3, ldb: 6, offB: 1, ldc: 8, offC: 2, accumulate: true, relu: true },
];

test(
  'matmul kernel matches the CPU twin on awkward shapes, strides, accumulate and ReLU',
  async ({ page, baseUrl, log }) => {
    await page.goto(`${baseUrl}/e2e/pages/matmul-kernels.html`);
    await page.waitForFunction(() => window.matmulKernels, null, { timeout: 60_000 });
    const info = await page.evaluate(() => window.matmulKernels.info());
    log(`adapter: ${info.adapter}`);
    const bad = [];
    for (const cs of CASES) {
      const r = await page.evaluate((c) => window.matmulKernels.run(c), cs);
      log(
        `${r.ok ? '✓' : '✗'} ${JSON.stringify(cs).padEnd(100)} max abs ${r.maxAbs.toExponential(1)}  max rel ${r.maxRel.toExponential(1)}`,
      );
      if (!r.ok) bad.push({ cs, r });
    }
    assert.deepEqual(bad, [], 'every case within tolerance');
  },
  { timeout: 180_000 },
);
