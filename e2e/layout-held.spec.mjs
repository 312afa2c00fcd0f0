// Figures hold their space while they first compute (src/ui/PendingFigure.tsx): the page does not jump
// when results arrive — not for a reader, not on a projector, not in an iframe, and not under the
// pointer (a CI run lost a click on the Hedgehog fit's Cancel when the per-map rows above it appeared).
// Run: node e2e/run.mjs layout-held
import assert from 'node:assert/strict';
import { test } from './harness.mjs';

/** Before the app runs: the load's layout-shift score, and every held frame seen (name → its height). */
function watchLayout() {
  window.__shift = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value;
  }).observe({ type: 'layout-shift', buffered: true });
  window.__held = {};
  const record = (el) => {
    const name = el.getAttribute('data-pending-figure');
    (window.__held[name] ??= new Set()).add(Math.round(el.getBoundingClientRect().height));
  };
  new MutationObserver((records) => {
    for (const r of records)
      for (const n of r.addedNodes) {
        if (!(n instanceof Element)) continue;
        if (n.matches('[data-pending-figure]')) record(n);
        for (const el of n.querySelectorAll('[data-pending-figure]')) record(el);
      }
  }).observe(document, { childList: true, subtree: true });
}

/** The figures every default page shows; each must hold its space first (data-figure-body names). */
const EXPECTED = [
  'main-figures',
  'main-row',
  'error-vs-m',
  'error-vs-scale',
  'entropy-vs-scale',
  'error-vs-d',
  'entry-error',
  'sparsity-metrics',
  'entropy-histogram',
  'top-k-mass',
  'entropy-vs-n',
  'local-truncation',
  'singular-values',
  'beyond-metrics',
  'beyond-error-vs-dim',
  'beyond-error-vs-scale',
  'beyond-error-vs-time',
];

test(
  'every figure holds its own height while it first computes (held = shown within a line of a note, 25 px, at the defaults), and a load shifts the first screen by a layout-shift score under 0.05',
  async ({ page, appUrl, log }) => {
    await page.addInitScript(watchLayout);
    await page.goto(`${appUrl}/`);
    await page.waitForSelector('[data-metric="heatmap-exact"][data-result-id]', { timeout: 60_000 });
    // the first screen's score, before the test scrolls (a scroll is not the page's own shift)
    await page.waitForFunction(() => !document.querySelector('[data-panel="main"] [data-pending-figure]'));
    await page.waitForTimeout(500);
    const shift = await page.evaluate(() => window.__shift);
    // the beyond panel computes once seen, and a panel off screen is not laid out: visit each
    for (const panel of ['error', 'sparsity', 'rank', 'feature-maps', 'beyond']) {
      await page.locator(`[data-panel="${panel}"]`).scrollIntoViewIfNeeded();
      await page.waitForFunction((p) => !document.querySelector(`[data-panel="${p}"] [data-pending-figure]`), panel, {
        timeout: 120_000,
      });
    }
    const shown = await page.evaluate(() =>
      [...document.querySelectorAll('[data-figure-body]')].map((el) => ({
        name: el.getAttribute('data-figure-body'),
        held: Number(el.getAttribute('data-held-height')),
        height: el.getBoundingClientRect().height,
      })),
    );
    const seen = await page.evaluate(() =>
      Object.fromEntries(Object.entries(window.__held).map(([k, v]) => [k, [...v]])),
    );
    const names = shown.map((s) => s.name);
    for (const name of EXPECTED) assert.ok(names.includes(name), `figure ${name} is on the page`);
    for (const s of shown) {
      log(`${s.name.padEnd(22)} held ${String(s.held).padStart(4)} px · shown ${s.height.toFixed(1)} px`);
      // a note that depends on the value (a series off the chart, say) may add or take a line
      assert.ok(Math.abs(s.height - s.held) <= 25, `${s.name}: held ${s.held} px, shown ${s.height.toFixed(1)} px`);
      assert.ok(
        seen[s.name],
        `${s.name}: its space was held before its first value (held frames: ${Object.keys(seen)})`,
      );
      // and held at its own height (the frame as laid out, not only the number it was given)
      assert.ok(
        seen[s.name].some((h) => Math.abs(h - s.held) <= 1),
        `${s.name}: held frames of ${seen[s.name].join(', ')} px, its held height ${s.held} px`,
      );
    }
    // the per-map rows: a held cell per map, each the height of the figure that replaced it
    const cells = await page.evaluate(() =>
      [...document.querySelectorAll('[data-map-row]')].map((c) => ({
        map: c.getAttribute('data-map-row'),
        figure: c.querySelector('.figure-body, .export-figure').getBoundingClientRect().height,
      })),
    );
    assert.ok(cells.length >= 8, `rows under every map (${cells.length})`);
    for (const c of cells) {
      const held = seen[`row-${c.map}`];
      assert.ok(held, `the ${c.map} row's cell was held before the rows came`);
      assert.ok(
        held.some((h) => Math.abs(h - c.figure) <= 25),
        `${c.map}: held ${held} px, its figure ${c.figure.toFixed(1)} px`,
      );
    }
    log(`per-map rows: ${cells.length} cells held; layout-shift score of the load ${shift.toFixed(4)}`);
    assert.ok(
      shift < 0.05,
      `layout-shift score of the load ${shift.toFixed(4)} (was 0.27 before figures held their space)`,
    );
  },
  { webgpu: false, timeout: 240_000 },
);

test(
  'the entropy against s with and without ε is drawn once per page: in the error panel (the sparsity panel links to it), in the sparsity panel under hide=error (its space held at its height) and in its embed',
  async ({ page, appUrl, log }) => {
    const REF = 'positive Â, + ε = 10⁻⁶ (reference code)';
    const legendsWithRef = () => page.locator('ul.legend li', { hasText: REF }).count();
    await page.addInitScript(watchLayout);
    await page.goto(`${appUrl}/?backend=cpu`);
    await page.locator('[data-panel="sparsity"]').scrollIntoViewIfNeeded();
    const link = page.locator('[data-panel="sparsity"] [data-stabilizer-elsewhere] a');
    await link.waitFor({ timeout: 60_000 });
    const target = (await link.getAttribute('href')).slice(1);
    // the link names the figure it leads to, and that figure is the error panel's, with the ε series
    const heading = page.locator(`[data-panel="error"] h3#${target}`);
    assert.equal(await heading.count(), 1, `#${target} is a heading of the error panel`);
    assert.equal((await link.textContent()).trim(), (await heading.textContent()).trim());
    assert.equal(await page.locator('[data-panel="sparsity"] [data-figure="stabilizer"]').count(), 0);
    await page.locator('[data-panel="error"]').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => !document.querySelector('[data-panel="error"] [data-pending-figure]'), null, {
      timeout: 120_000,
    });
    assert.equal(await legendsWithRef(), 1, 'one legend on the full page names the ε series');
    await link.click();
    await page.waitForFunction((id) => Math.abs(document.getElementById(id).getBoundingClientRect().top) < 40, target, {
      timeout: 5_000,
    });

    // without the error panel the sparsity panel draws it, its space held first at the height it is shown
    await page.goto(`${appUrl}/?hide=error&backend=cpu`);
    await page.locator('[data-panel="sparsity"]').scrollIntoViewIfNeeded();
    const body = page.locator('[data-figure-body="stabilizer-entropy"]');
    await body.waitFor({ timeout: 120_000 });
    await page.locator('[data-figure="stabilizer"] ul.legend').waitFor();
    const held = Number(await body.getAttribute('data-held-height'));
    const shown = (await body.boundingBox()).height;
    const seen = await page.evaluate(() => [...(window.__held['stabilizer-entropy'] ?? [])]);
    log(`hide=error: stabilizer-entropy held ${held} px (frames ${seen.join(', ')}) · shown ${shown.toFixed(1)} px`);
    assert.ok(Math.abs(shown - held) <= 25, `held ${held} px, shown ${shown.toFixed(1)} px`);
    assert.ok(
      seen.some((h) => Math.abs(h - held) <= 1),
      `held frames ${seen.join(', ')} px`,
    );
    assert.equal(await legendsWithRef(), 1);
    assert.equal(await page.locator('[data-stabilizer-elsewhere]').count(), 0);

    // the sparsity embed: the figure (or its held frame) and no link out of the frame
    await page.goto(`${appUrl}/?embed=sparsity&backend=cpu`);
    await page.locator('[data-panel="sparsity"]').waitFor({ timeout: 60_000 });
    await page
      .locator('[data-figure-body="stabilizer-entropy"], [data-pending-figure="stabilizer-entropy"]')
      .first()
      .waitFor();
    assert.equal(await page.locator('[data-stabilizer-elsewhere]').count(), 0);
  },
  { webgpu: false, timeout: 180_000 },
);

test(
  'map=hedgehog: the fit’s Cancel button keeps its place on screen (within 2 px) from the first fit step to the end of the fit',
  async ({ page, appUrl, log }) => {
    await page.goto(`${appUrl}/?map=hedgehog`);
    const cancel = page.locator('[data-action="hedgehog-cancel"]');
    await cancel.waitFor({ timeout: 60_000 });
    await cancel.scrollIntoViewIfNeeded();
    // its top on screen (where the pointer goes), every frame, until the fit ends (the button goes)
    const tops = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const seen = [];
          const tick = () => {
            const b = document.querySelector('[data-action="hedgehog-cancel"]');
            if (!b) return resolve(seen);
            seen.push(b.getBoundingClientRect().top);
            requestAnimationFrame(tick);
          };
          tick();
        }),
    );
    const spread = Math.max(...tops) - Math.min(...tops);
    log(
      `Cancel over ${tops.length} frames of the fit: top ${Math.min(...tops).toFixed(1)}–${Math.max(...tops).toFixed(1)} px`,
    );
    assert.ok(tops.length >= 10, `the fit ran for frames (${tops.length})`);
    assert.ok(spread <= 2, `Cancel moved ${spread.toFixed(1)} px during the fit`);
    assert.equal(await page.getAttribute('.hedgehog-training', 'data-hedgehog'), 'done');
  },
  { webgpu: false, timeout: 120_000 },
);

test(
  'lecture mode: a step of a slide’s slider leaves its figure where it is (top and height within 1 px, every frame until it is current again)',
  async ({ page, appUrl, log }) => {
    // the sparsity slide: an analysis figure, whose status shows while each step recomputes
    await page.goto(`${appUrl}/?present&step=sparsity&backend=cpu`);
    await page.waitForSelector('.slide-fig[data-ready="1"]', { timeout: 60_000 });
    // settled: a figure is ready at its first (coarse) version and shows its status while it refines
    await page.waitForFunction(() => !document.querySelector('.slide-fig .analysis-status'), null, {
      timeout: 60_000,
    });
    const range = page.locator('.control-strip input[type=range]').first();
    await range.focus();
    // the figure's box every frame, from before the step until the figure is current again
    await page.evaluate(() => {
      window.__boxes = new Promise((resolve) => {
        const seen = [];
        let left = false;
        const tick = () => {
          const fig = document.querySelector('.slide-fig');
          const r = fig.querySelector('.slide-fig-body').getBoundingClientRect();
          const ready = fig.getAttribute('data-ready') === '1';
          seen.push({ top: r.top, height: r.height, status: !!fig.querySelector('.analysis-status'), ready });
          left ||= !ready;
          if ((left && ready) || seen.length > 600) return resolve(seen);
          requestAnimationFrame(tick);
        };
        tick();
      });
    });
    await page.keyboard.press('ArrowLeft');
    const boxes = await page.evaluate(() => window.__boxes);
    const spread = (k) => Math.max(...boxes.map((b) => b[k])) - Math.min(...boxes.map((b) => b[k]));
    const withStatus = boxes.filter((b) => b.status).length;
    log(
      `${boxes.length} frames, ${withStatus} with the status shown: body top spread ${spread('top').toFixed(1)} px, height ${spread('height').toFixed(1)} px`,
    );
    assert.ok(
      !boxes[0].status && withStatus > 0,
      'the step showed the figure’s status while it recomputed, not before',
    );
    assert.ok(boxes.at(-1).ready, 'the figure was current again at the last frame recorded');
    assert.ok(spread('top') <= 1 && spread('height') <= 1, 'the figure stayed put');
  },
  { webgpu: false, timeout: 120_000 },
);

test(
  'a step at a large n (8,192 on the CPU worker, 16,384 on a faster machine) whose run shows its progress, Cancel and the long-run note moves nothing on the page: the status line keeps its height and the figures under it their place, every frame of the run',
  async ({ page, appUrl, log }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${appUrl}/?backend=cpu&n=8192`);
    const idle = () =>
      page.waitForFunction(
        () =>
          !!document.querySelector('[data-result-params]') &&
          document.querySelector('#panel-main .compute-status')?.getAttribute('data-status') === 'ok',
        null,
        { timeout: 90_000 },
      );
    await idle();
    // the step must be a long run (predicted ≥ 2 s, LONG_RUN_MS) to show its note: on a machine
    // fast enough to take n = 8,192 in under 3 s, 16,384 (four times the work)
    const took = await page.evaluate(() => window.__performer.getState().compute.latencyMs);
    if (took < 3000) {
      log(`n = 8,192 took ${Math.round(took)} ms here: stepping at n = 16,384`);
      await page.goto(`${appUrl}/?backend=cpu&n=16384`);
      await idle();
    }
    const slider = page.locator('[data-param="m"]').first();
    await slider.focus();
    // every frame from the key press until the new result is shown: the status line's height, the
    // figures' tops under it, what the status shows, and the layout shifts (no input excluded)
    await page.evaluate(() => {
      const rec = (window.__run = { frames: [], shift: 0, done: false });
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) rec.shift += e.value;
      }).observe({ type: 'layout-shift' });
      const before = document.querySelector('[data-result-params]').getAttribute('data-result-id');
      const tick = () => {
        const params = document.querySelector('[data-result-params]');
        rec.frames.push({
          line: document.querySelector('#panel-main .status-line').getBoundingClientRect().height,
          tops: [...document.querySelectorAll('#panel-main .figure-body')].map((f) => f.getBoundingClientRect().top),
          note: !!document.querySelector('#panel-main .compute-status .long-run'),
          cancel: !!document.querySelector('#panel-main [data-action="cancel-compute"]'),
        });
        if (params.getAttribute('data-result-id') !== before) rec.done = true;
        else requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => window.__run.done, null, { timeout: 90_000 });
    await page.waitForTimeout(300); // the shifts of the result's own frame
    const run = await page.evaluate(() => window.__run);
    const first = run.frames[0];
    const moved = Math.max(...run.frames.flatMap((f) => f.tops.map((t, i) => Math.abs(t - first.tops[i]))));
    const lines = run.frames.map((f) => f.line);
    log(
      `${run.frames.length} frames; note in ${run.frames.filter((f) => f.note).length}, Cancel in ${run.frames.filter((f) => f.cancel).length}; status line ${Math.min(...lines).toFixed(1)}–${Math.max(...lines).toFixed(1)} px; figures moved ≤ ${moved.toFixed(1)} px; layout shift ${run.shift.toFixed(4)}`,
    );
    assert.ok(
      run.frames.some((f) => f.note && f.cancel),
      'the run was long: its note and Cancel were shown (else this machine is too fast for n = 8,192)',
    );
    assert.ok(Math.max(...lines) - Math.min(...lines) <= 0.5, 'the status line kept its height');
    assert.ok(moved <= 0.5, `the figures under the status line stayed put (moved ${moved.toFixed(1)} px)`);
    assert.ok(run.shift < 0.001, `no layout shift (${run.shift.toFixed(4)})`);
  },
  { webgpu: false, timeout: 180_000 },
);
