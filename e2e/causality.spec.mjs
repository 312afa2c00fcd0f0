// Causal linear attention sees no future, on the WebGPU backend and the CPU twin: for every feature
// map × stabilizer and t ∈ {5, 40} (the lists come from src/core/types.ts through the driver, so a new map is covered
// without editing this file), redraw the keys and values at positions ≥ t; the outputs and the Â rows
// before t must not move beyond float32 rounding (see REL_TOL). Driver:
// e2e/pages/exact-kernels.ts (causality); the CPU half is src/core/causality.test.ts.
import assert from 'node:assert/strict';
import { test } from './harness.mjs';

// t = 5 as well as 40: a statistic over a block of the first rows (a tile of 32) passes t = 40 unseen
const SHAPE = { n: 64, d: 8, m: 32 };
const TS = [5, 40];
// relative to the magnitude of what is compared: the CPU twin 1e-6; the f32 kernels 2e-6 (a scalar
// key shift that moves with the future cancels exactly in the math, not in the GPU's rounding: ≤ 1e-6
// observed). A leak is ≥ 1e-5 here.
const REL_TOL = { cpu: 1e-6, gpu: 2e-6 };

test(
  'causal mode: outputs and Â rows before t ignore keys and values at ≥ t (every map × stabilizer, GPU and CPU)',
  async ({ page, baseUrl, log }) => {
    await page.goto(`${baseUrl}/e2e/pages/exact-kernels.html`);
    await page.waitForFunction(() => window.exactKernels, null, { timeout: 120_000 });
    const { maps, stabilizers } = await page.evaluate(() => window.exactKernels.lists());
    const fmt = (x) => x.toExponential(1).padStart(8);
    log(`n=${SHAPE.n} d=${SHAPE.d} m=${SHAPE.m}, keys and values redrawn at ≥ t: max change before t`);
    log(
      `  ${'map'.padEnd(16)} ${'stab'.padEnd(6)} ${'t'.padStart(3)} ${'gpu out'.padStart(8)} ${'gpu Â'.padStart(8)} ${'cpu out'.padStart(8)} ${'cpu Â'.padStart(8)}`,
    );
    const bad = [];
    for (const map of maps) {
      for (const stabilizer of stabilizers) {
        for (const t of TS) {
          const r = await page.evaluate((c) => window.exactKernels.causality(c), { ...SHAPE, t, map, stabilizer });
          const ok = (x, tol) => x.out <= tol * x.outScale && x.row <= tol * x.rowScale;
          const pass = ok(r.gpu, REL_TOL.gpu) && ok(r.cpu, REL_TOL.cpu);
          if (!pass) bad.push(`${map}/${stabilizer}/t=${t}`);
          log(
            `${pass ? '✓' : '✗'} ${map.padEnd(16)} ${stabilizer.padEnd(6)} ${String(t).padStart(3)} ${fmt(r.gpu.out)} ${fmt(r.gpu.row)} ${fmt(r.cpu.out)} ${fmt(r.cpu.row)}`,
          );
        }
      }
    }
    assert.equal(bad.length, 0, `the future leaks into: ${bad.join(', ')}`);
  },
  { timeout: 300_000 },
);
