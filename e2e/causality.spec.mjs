// Causal linear attention sees no future, on the WebGPU backend and the CPU twin: for every feature
// map × stabilizer (the lists come from src/core/types.ts through the driver, so a new map is covered
// without editing this file), redraw the keys and values at positions ≥ T; the outputs and the Â rows
// before T must not move beyond float32 rounding (relative 1e-6 of their magnitude). Driver:
// e2e/pages/exact-kernels.ts (causality); the CPU half is src/core/causality.test.ts.
import assert from 'node:assert/strict';
import { test } from './harness.mjs';

const SHAPE = { n: 64, d: 8, m: 32, t: 40 };
const REL_TOL = 1e-6;

test(
  'causal mode: outputs and Â rows before t ignore keys and values at ≥ t (every map × stabilizer, GPU and CPU)',
  async ({ page, baseUrl, log }) => {
    await page.goto(`${baseUrl}/e2e/pages/exact-kernels.html`);
    await page.waitForFunction(() => window.exactKernels, null, { timeout: 120_000 });
    const { maps, stabilizers } = await page.evaluate(() => window.exactKernels.lists());
    const fmt = (x) => x.toExponential(1).padStart(8);
    log(`n=${SHAPE.n} d=${SHAPE.d} m=${SHAPE.m}, keys and values redrawn at ≥ ${SHAPE.t}: max change before t`);
    log(
      `  ${'map'.padEnd(16)} ${'stab'.padEnd(6)} ${'gpu out'.padStart(8)} ${'gpu Â'.padStart(8)} ${'cpu out'.padStart(8)} ${'cpu Â'.padStart(8)}`,
    );
    const bad = [];
    for (const map of maps) {
      for (const stabilizer of stabilizers) {
        const r = await page.evaluate((c) => window.exactKernels.causality(c), { ...SHAPE, map, stabilizer });
        const ok = (x) => x.out <= REL_TOL * x.outScale && x.row <= REL_TOL * x.rowScale;
        const pass = ok(r.gpu) && ok(r.cpu);
        if (!pass) bad.push(`${map}/${stabilizer}`);
        log(
          `${pass ? '✓' : '✗'} ${map.padEnd(16)} ${stabilizer.padEnd(6)} ${fmt(r.gpu.out)} ${fmt(r.gpu.row)} ${fmt(r.cpu.out)} ${fmt(r.cpu.row)}`,
        );
      }
    }
    assert.equal(bad.length, 0, `the future leaks into: ${bad.join(', ')}`);
  },
  { timeout: 300_000 },
);
