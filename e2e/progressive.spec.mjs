// Progressive analyses on the CPU path: after a step of m, every analysis sent with a coarse stage
// first shows it (its status line says it is refining, data-refining="true") and then refines in
// place; one whose last full run was fast goes without (store entry `stages` 1: analysis-runs.ts) and
// never shows 'refining'. Once all are refined, every analysis figure holds the numbers a fresh load
// of the same URL computes.
// Run: node e2e/run.mjs progressive
import assert from 'node:assert/strict';
import { afterMStep, analysisKeys, waitAnalysesCurrent } from './app-analyses.mjs';
import { test } from './harness.mjs';

/** Analyses that depend on m and have a coarse stage: a step of m re-runs each, coarse first unless fast. */
const REFINED = ['normSweep', 'errorVsD', 'rowEntropies', 'entropyVsN'];

/**
 * The data of every figure in a panel that shows analyses: its data tables (opened) and its charts'
 * marks (path geometry), by figure title and position — once two reads 300 ms apart agree. The
 * panels draw their figures from deferred values (withDeferredParams), so on a loaded machine a
 * figure can trail its status line, which already says done; a figure that never catches up still
 * differs from the fresh load's and fails the comparison.
 */
async function figureData(page) {
  await page.evaluate(() => {
    for (const d of document.querySelectorAll('details.data-table')) d.open = true;
  });
  let last = '';
  for (let tries = 0; tries < 40; tries++) {
    await page.waitForTimeout(300);
    const now = await readFigures(page);
    const key = JSON.stringify(now);
    if (key === last) return now;
    last = key;
  }
  return JSON.parse(last);
}

function readFigures(page) {
  return page.evaluate(() => {
    const out = {};
    const figures = [...document.querySelectorAll('[data-export-figure]')].filter((f) =>
      f.closest('section')?.querySelector('[data-analysis]'),
    );
    figures.forEach((f, i) => {
      out[`${i} ${f.getAttribute('data-export-figure')}`] = {
        tables: [...f.querySelectorAll('.data-table table')].map((t) => t.textContent),
        paths: [...f.querySelectorAll('svg path')].map((p) => p.getAttribute('d') ?? ''),
      };
    });
    return out;
  });
}

test(
  'progressive: coarse first, then refined; the numbers after the refinement equal those a fresh load computes (CPU)',
  async ({ page, appUrl, newPage, log }) => {
    const t0 = Date.now();
    const phases = [];
    const phase = (name) => phases.push(`${name} ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    // a smaller scene than the defaults: the property does not depend on size, and each settle is a
    // full set of analyses on the CPU pool (20 s at the defaults on a loaded 2-core machine)
    await page.goto(`${appUrl}/?backend=cpu&n=128&m=32`);
    await waitAnalysesCurrent(page);
    phase('loaded and settled');
    // record which analyses showed a coarse stage for the current key
    await page.evaluate(() => {
      window.__coarse = new Set();
      new MutationObserver((records) => {
        for (const r of records) {
          const el = r.target;
          if (el.getAttribute?.('data-refining') === 'true') window.__coarse.add(el.getAttribute('data-analysis'));
        }
      }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-refining'] });
    });
    const slider = page.locator('[data-param="m"]').first();
    await slider.focus();
    const m0 = new URL(page.url()).searchParams.get('m');
    const keysBefore = await analysisKeys(page);
    await slider.press('ArrowRight');
    await page.waitForFunction((m) => new URL(location.href).searchParams.get('m') !== m, m0);
    // the panels take new parameters at low priority (withDeferredParams): the URL moves first, and
    // until an analysis's key has moved too its old, settled state would pass for the new one
    await waitAnalysesCurrent(page, { keys: keysBefore, want: afterMStep });
    phase('step settled');
    const coarse = await page.evaluate(() => [...window.__coarse].sort());
    const stages = await page.evaluate(
      (ids) => ids.map((id) => window.__performer.getState().analyses[id]?.stages),
      REFINED,
    );
    log(
      `m ${m0} → ${new URL(page.url()).searchParams.get('m')}: coarse stages shown for ${coarse.join(', ')}; ` +
        `stages sent ${REFINED.map((id, i) => `${id} ${stages[i]}`).join(', ')}`,
    );
    const after = await figureData(page);
    assert.ok(Object.keys(after).length >= 8, `analysis figures found: ${Object.keys(after).length}`);

    phase('figures read');
    const fresh = await newPage();
    await fresh.goto(page.url());
    await waitAnalysesCurrent(fresh);
    phase('fresh load settled');
    const want = await figureData(fresh);
    phase('fresh figures read');
    log(`phases: ${phases.join(', ')}`);
    assert.deepEqual(Object.keys(after), Object.keys(want));
    for (const k of Object.keys(want))
      assert.deepEqual(after[k], want[k], `figure "${k}" after the refinement = fresh load`);
    REFINED.forEach((id, i) => {
      if (stages[i] === 2) assert.ok(coarse.includes(id), `${id} was sent with a coarse stage and showed it first`);
      else assert.ok(stages[i] === 1 && !coarse.includes(id), `${id}: full run only (${stages[i]}), never 'refining'`);
    });
    // the sweeps that stay slow here (the norm sweep is split over the pool; entropy vs n sweeps n to 4096)
    assert.ok(stages.includes(2), 'some analysis still refines progressively');
  },
  { timeout: 600_000, webgpu: false },
);
