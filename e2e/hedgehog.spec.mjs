// The Hedgehog learned map in the app (CPU path: nothing here is about the GPU kernels, which
// e2e/performer-kernels.spec.mjs checks against the CPU twin). Run: node e2e/run.mjs hedgehog
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from './harness.mjs';

const panel = '.hedgehog-training';
const lossPoints = async (page) =>
  Number(await page.getAttribute(`${panel} [data-hedgehog-loss-points]`, 'data-hedgehog-loss-points'));
const metric = async (page, name) => Number(await page.getAttribute(`[data-metric="${name}"]`, 'data-value'));

test(
  'map=hedgehog trains with a live loss curve and progress; Cancel stops it; after training the main panel shows Â of the fitted map',
  async ({ page, appUrl, artifacts, log }) => {
    await page.goto(`${appUrl}/?map=hedgehog`);
    await page.waitForSelector('[data-metric="backend"][data-value="cpu"]', { timeout: 60_000 });

    // selecting the map starts the training by itself: progress bar and a growing loss curve
    await page.waitForFunction(
      (sel) => document.querySelector(sel)?.getAttribute('data-hedgehog') === 'running',
      panel,
      { timeout: 60_000 },
    );
    await page.waitForSelector(`${panel} [data-hedgehog-progress]`);
    await page.waitForFunction(
      (sel) =>
        Number(
          document.querySelector(`${sel} [data-hedgehog-loss-points]`)?.getAttribute('data-hedgehog-loss-points'),
        ) >= 3,
      panel,
      { timeout: 60_000 },
    );
    const pathD = await page
      .getAttribute(`${panel} [data-export-figure] svg path[stroke="#8c564b"]`, 'd')
      .catch(() => null);
    const svgPaths = await page.locator(`${panel} [data-export-figure] svg path`).count();
    assert.ok(pathD !== null || svgPaths > 0, 'the loss curve is drawn');
    // the main comparison waits for the fit
    assert.equal(await page.getAttribute('.compute-status', 'data-status'), 'computing');

    // Cancel stops the training; the comparison says the map is not fitted
    await page.click('[data-action="hedgehog-cancel"]');
    await page
      .waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-hedgehog') === 'cancelled', panel, {
        timeout: 30_000,
      })
      // say where it stands instead: 'done' means the click never reached Cancel, 'running' that the cancel was lost
      .catch(async (e) => {
        const state = await page.getAttribute(panel, 'data-hedgehog').catch(() => '?');
        throw new Error(`after Cancel the fit is '${state}', not 'cancelled' (${e.message.split('\n')[0]})`);
      });
    await page.waitForFunction(
      () => document.querySelector('.compute-status')?.getAttribute('data-status') === 'error',
      null,
      { timeout: 30_000 },
    );
    assert.match(await page.textContent('.compute-status'), /Train/);
    const kept = await lossPoints(page);
    assert.ok(kept >= 3, `the partial loss curve stays on screen after Cancel (${kept} points)`);
    log(`cancelled after ${kept} steps`);

    // Train again: runs to the end, the table and the headline numbers appear
    const t0 = Date.now();
    await page.click('[data-action="hedgehog-train"]');
    await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-hedgehog') === 'done', panel, {
      timeout: 180_000,
    });
    const steps = await lossPoints(page);
    assert.ok(steps > 10, `full loss curve (${steps} points)`);
    const fitted = await metric(page, 'hedgehog-fitted-error');
    const heldOut = await metric(page, 'hedgehog-heldout-error');
    const random = await metric(page, 'hedgehog-random-error');
    assert.ok(
      fitted < random,
      `fitted Hedgehog (${fitted}) beats FAVOR+ at equal m′ (${random}) on the fitted sequence`,
    );
    assert.ok(Number.isFinite(heldOut), 'held-out error is reported');
    assert.equal(await page.locator(`${panel} [data-hedgehog-table] tbody tr`).count(), 3);
    log(
      `trained in ${((Date.now() - t0) / 1000).toFixed(1)} s wall (${steps} steps): fitted ${fitted.toFixed(4)}, held-out ${heldOut.toFixed(4)}, FAVOR+ m′=128 ${random.toFixed(4)}`,
    );

    // the main panel now computes with the fitted W: at n = 256 every position was fitted, so its
    // rel. error of A is the table's fitted Hedgehog error (f32 kernels vs the f64 evaluation)
    await page.waitForFunction(
      () => document.querySelector('.compute-status')?.getAttribute('data-status') === 'ok',
      null,
      { timeout: 60_000 },
    );
    const relA = await metric(page, 'rel-error-A');
    log(`main panel rel. error of A ${relA.toFixed(5)} vs fit evaluation ${fitted.toFixed(5)}`);
    assert.ok(Math.abs(relA - fitted) <= 1e-3 * fitted, `main panel Â is the fitted map's (${relA} vs ${fitted})`);
    assert.match(page.url(), /map=hedgehog/);
    const dir = join(artifacts, 'screenshots');
    mkdirSync(dir, { recursive: true });
    await page.locator(panel).screenshot({ path: join(dir, 'hedgehog-training.png') });
  },
  { webgpu: false, timeout: 300_000 },
);
