// Progressive analyses on the CPU path: after a step of m, every analysis sent with a coarse stage
// first shows it (its status line says it is refining, data-refining="true") and then refines in
// place; one whose last full run was fast goes without (store entry `stages` 1: analysis-runs.ts) and
// never shows 'refining'. Once all are refined, every analysis figure holds the numbers a fresh load
// of the same URL computes. And 300 rapid changes of every kind on the WebGPU path end in the view a
// fresh load of the final URL computes.
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

/** The metrics a result or an analysis decides (not the timings, the backend or the beyond panel's own runs), by name. */
function computedMetrics(page) {
  return page.evaluate(() =>
    Object.fromEntries(
      [...document.querySelectorAll('[data-panel]:not([data-panel="speed"]):not([data-panel="beyond"]) [data-metric]')]
        .filter((m) => !/^(backend|compute-ms|train-|transfer-)/.test(m.getAttribute('data-metric')))
        .map((m) => [m.getAttribute('data-metric'), m.getAttribute('data-value')]),
    ),
  );
}

/**
 * The main comparison idle with a WebGPU result. A WebGPU run that does not stop within its grace
 * period after a cancel is replaced, and the CPU stand-in answers while the new one compiles
 * (engine-client.ts restartGpu): its result, f64 on the CPU, differs from the GPU's in the last digits
 * until the switch recomputes on WebGPU.
 */
async function waitOnWebGpu(page) {
  await page.waitForFunction(
    () =>
      document.querySelector('[data-metric="backend"]')?.getAttribute('data-value') === 'webgpu' &&
      document.querySelector('[data-result-params]')?.getAttribute('data-result-backend') === 'webgpu' &&
      document.querySelector('.compute-status')?.getAttribute('data-status') !== 'computing',
    null,
    { timeout: 120_000 },
  );
}

/** The main comparison as drawn: its result's parameters and every canvas's pixels (a hash of each PNG). */
function mainDrawn(page) {
  return page.evaluate(() => ({
    params: document.querySelector('[data-result-params]')?.textContent,
    canvases: [...document.querySelectorAll('[data-panel="main"] canvas')].map((c) => {
      const url = c.toDataURL();
      let h = 0;
      for (let i = 0; i < url.length; i++) h = (h * 31 + url.charCodeAt(i)) | 0;
      return `${c.width}×${c.height} ${h}`;
    }),
  }));
}

test(
  '300 rapid changes (the n, d, m and s sliders, the mask, the feature map, the projection: input events 0–40 ms apart; WebGPU) end in the view a fresh load of the final URL computes: every analysis figure, every computed number, the main comparison drawn',
  async ({ page, appUrl, newPage, log }) => {
    const errors = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${appUrl}/?n=64&m=32`);
    await page.waitForSelector('[data-metric="backend"][data-value="webgpu"]', { timeout: 120_000 });
    await waitAnalysesCurrent(page);
    // the changes come from the page itself, as the input events a hand makes (a slider's value and its
    // input event, the checkbox's click, the select's change), 0–40 ms apart: faster than a person, so
    // changes land while computes, analyses and their refinements of the ones before are in flight
    const { kinds, seconds } = await page.evaluate(async () => {
      let seed = 5;
      const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
      const setValue = (el, value, event) => {
        Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), 'value').set.call(el, value);
        el.dispatchEvent(new Event(event, { bubbles: true }));
      };
      const kinds = {};
      const t0 = performance.now();
      for (let i = 0; i < 300; i++) {
        const r = rand();
        let kind;
        if (r < 0.75) {
          // m and s most often (the lecturer's sliders), n and d less (a step of n re-draws the inputs)
          kind = r < 0.35 ? 'm' : r < 0.55 ? 'scale' : r < 0.65 ? 'n' : 'd';
          const el = document.querySelector(`input[type=range][data-param="${kind}"]`);
          const step = Number(el.step) || 1;
          const next = Number(el.value) + (rand() < 0.5 ? -step : step);
          setValue(el, String(Math.min(Number(el.max), Math.max(Number(el.min), next))), 'input');
        } else if (r < 0.85) {
          kind = 'causal';
          document.querySelector('input[data-param="causal"]').click();
        } else {
          kind = r < 0.95 ? 'featureMap' : 'projection';
          const el = document.querySelector(`select[data-param="${kind}"]`);
          // (the projection is disabled for the maps that have none)
          if (el.disabled) continue;
          const options = [...el.options].filter((o) => !o.disabled).map((o) => o.value);
          setValue(el, options[Math.floor(rand() * options.length)], 'change');
        }
        kinds[kind] = (kinds[kind] ?? 0) + 1;
        await new Promise((resolve) => setTimeout(resolve, Math.floor(rand() * 40)));
      }
      return { kinds, seconds: (performance.now() - t0) / 1000 };
    });
    // a slider's newest value reaches the store on the next animation frame (param-controls.tsx)
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    // a last state past a limit (Taylor features at d > 44) shows why it is not computed, not a view
    // to compare (analyses.spec checks that state): one more change then
    const last = await page.evaluate(() => window.__performer.getState().params);
    if (last.featureMap === 'taylor2' && last.d > 44) {
      await page.selectOption('select[data-param="featureMap"]', 'positive');
      kinds.featureMap++;
    }
    const final = await page.evaluate(() => window.__performer.getState().params);
    log(
      `300 changes in ${seconds.toFixed(1)} s (${Object.entries(kinds)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}); final ${JSON.stringify(final)}`,
    );
    // the URL is written a moment after the last change; the main comparison and every analysis then settle
    await page.waitForFunction(
      (p) =>
        new URL(location.href).searchParams.get('m') === String(p.m) &&
        new URL(location.href).searchParams.get('n') === String(p.n),
      final,
    );
    await waitOnWebGpu(page);
    await waitAnalysesCurrent(page, { timeout: 180_000 });
    const got = { figures: await figureData(page), metrics: await computedMetrics(page), main: await mainDrawn(page) };
    assert.deepEqual(
      await page.evaluate(() => window.__performer.getState().compute.result?.params),
      final,
      'the main comparison shows the last parameters',
    );

    const fresh = await newPage();
    await fresh.goto(page.url());
    await waitOnWebGpu(fresh);
    await waitAnalysesCurrent(fresh, { timeout: 180_000 });
    const want = {
      figures: await figureData(fresh),
      metrics: await computedMetrics(fresh),
      main: await mainDrawn(fresh),
    };
    log(
      `compared: ${Object.keys(want.figures).length} analysis figures, ${Object.keys(want.metrics).length} numbers, ` +
        `${want.main.canvases.length} canvases (${want.main.params}); console errors ${errors.length}`,
    );
    assert.ok(
      Object.keys(want.figures).length >= 8 && Object.keys(want.metrics).length >= 10,
      'the views hold figures and numbers',
    );
    assert.deepEqual(got.main, want.main, 'the main comparison: parameters and pixels');
    assert.deepEqual(got.metrics, want.metrics, 'every computed number');
    assert.deepEqual(Object.keys(got.figures), Object.keys(want.figures));
    for (const k of Object.keys(want.figures)) assert.deepEqual(got.figures[k], want.figures[k], `figure "${k}"`);
    assert.deepEqual(errors, [], 'no console error');
  },
  { timeout: 600_000 },
);
