// Lecture mode end to end on the CPU path (no WebGPU needed: the slides are about the story, and
// the CPU twin computes the same numbers much faster): a link opens a given slide, the clicker
// keys navigate and keep `step=` in the URL, every slide applies its scene and shows a computed
// figure, the type is large at 1024×768, every figure fits its box in the bundled font and with it
// blocked (system fonts), `?` lists the keys, Esc leaves, P enters, axe finds nothing; the trained-head
// slide draws the bundled head (its A, its measured entropy) and the slides after it are back on
// generated inputs. Screenshots of some slides go to e2e/artifacts/screenshots/slide-<n>.png.
// Run: node e2e/run.mjs present
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { markerLabelBoxes } from './app-page.mjs';
import { injectAxe } from './axe.mjs';
import { test } from './harness.mjs';

const STEPS = 13;
const SHOT_STEPS = (process.env.SLIDE_SHOTS ?? '3,10,11,12,13').split(',').map(Number);

const state = (page) => page.evaluate(() => window.__performer.getState());
const urlStep = (page) => page.evaluate(() => new URLSearchParams(location.search).get('step'));

async function waitForStep(page, k) {
  await page.waitForSelector(`.present[data-step="${k}"]`, { timeout: 10_000 });
  await page.waitForFunction((kk) => new URLSearchParams(location.search).get('step') === String(kk), k, {
    timeout: 10_000,
  });
}

async function press(page, key, expected) {
  await page.keyboard.press(key);
  await waitForStep(page, expected);
  assert.equal((await state(page)).ui.step, expected, `${key} → store step ${expected}`);
  assert.equal(await urlStep(page), String(expected), `${key} → URL step=${expected}`);
}

/** Violations of axe-core's rules inside the slide (page-level best practices included). */
async function axeViolations(page) {
  await injectAxe(page);
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => `${v.id}: ${v.nodes.length} × ${v.nodes[0]?.target}`);
  });
}

test(
  'lecture mode: ?present&step=3 opens slide 3 with focus on its heading; → PageDown ← PageUp Home End navigate and write step= to the URL; a focused slider keeps its arrows',
  async ({ page, appUrl }) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto(`${appUrl}/?present&step=3&backend=cpu`);
    await waitForStep(page, 3);
    const s = await state(page);
    assert.equal(s.ui.present, true);
    assert.equal(s.ui.step, 3);
    await page.waitForFunction(() => document.activeElement?.matches('.slide h1'), null, { timeout: 5_000 }); // the slide heading has focus
    assert.match(await page.textContent('[data-announce]'), new RegExp(`Slide 3 of ${STEPS}`));
    // the lecturer moves the slide's control: on a focused slider the arrows are the slider's, PageDown still pages
    const m0 = (await state(page)).params.m;
    await page.focus('.control-strip [data-param="m"]');
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction((m) => window.__performer.getState().params.m < m, m0);
    assert.equal((await state(page)).ui.step, 3, 'an arrow on a slider moves the slider, not the slide');
    await page.waitForFunction(
      (m) =>
        document.querySelector('.slide-fig')?.getAttribute('data-ready') === '1' &&
        window.__performer.getState().compute.result?.params.m === m,
      (await state(page)).params.m,
      { timeout: 30_000 },
    );
    await press(page, 'PageDown', 4);
    await press(page, 'ArrowLeft', 3);
    await press(page, 'ArrowRight', 4);
    await press(page, 'PageDown', 5);
    await press(page, 'ArrowLeft', 4);
    await press(page, 'PageUp', 3);
    await press(page, 'End', STEPS);
    await press(page, 'PageDown', STEPS); // stays on the last slide
    await press(page, 'Home', 1);
    await press(page, 'PageUp', 1);
    assert.match(await page.textContent('[data-announce]'), new RegExp(`Slide 1 of ${STEPS}`));
    await page.waitForFunction(() => document.activeElement?.matches('.slide h1'), null, { timeout: 5_000 }); // focus moves to the new slide heading
  },
  { webgpu: false, timeout: 60_000 },
);

/** Waits for the slide's figure; on the speed slide (it times the kernels only when asked: heavy) presses Run first. */
async function figureReady(page) {
  if ((await page.getAttribute('.slide-fig', 'data-figure')) === 'speed') {
    assert.equal(await page.getAttribute('.slide-fig', 'data-ready'), '0', 'the speed slide waits for Run');
    // meanwhile it draws the FLOP model: 4n²d against 8nm′d, equal at n = 2m′
    assert.equal(
      await page.locator('.slide-fig [data-speed-flops] .legend li').count(),
      2,
      'the FLOP model before Run',
    );
    assert.match(await page.textContent('.slide-fig [data-speed-flops] .marker-label'), /2m′ = \d/);
    await page.click('[data-action="slide-speed-run"]');
    await page.waitForSelector('.slide-speed-run[data-speed-state="running"]', { timeout: 10_000 });
  }
  // the learning slide trains when asked; its figure is current once the live curves have points
  if ((await page.getAttribute('.slide-fig', 'data-figure')) === 'training') {
    assert.equal(await page.getAttribute('.slide-fig', 'data-ready'), '0', 'the learning slide waits for Train');
    await page.click('[data-action="train-start"]');
  }
  await page.waitForSelector('.slide-fig[data-ready="1"]', { timeout: 120_000 });
}

/**
 * What does not fit on the slide on screen: the formula wider than its column, the figure taller than
 * its box, a line chart's axis title on its tick labels (x title on the x ticks, y title on the y ticks:
 * the boxes of the drawn text intersect by more than half a pixel both ways), a y title taller than
 * its chart.
 */
async function misfits(page, k) {
  const fit = await page.evaluate(() => {
    const f = document.querySelector('.slide-formula');
    const body = document.querySelector('.slide-fig-body');
    const hit = (a, b) =>
      Math.min(
        Math.min(a.right, b.right) - Math.max(a.left, b.left),
        Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top),
      );
    const titles = [...document.querySelectorAll('.slide-fig-body .chart svg > g')].flatMap((g) => {
      const axes = g.querySelectorAll(':scope > g.axis');
      const labels = g.querySelectorAll(':scope > text.axis-label');
      return [0, 1].map((i) => {
        const title = labels[i]?.getBoundingClientRect();
        const ticks = [...(axes[i]?.querySelectorAll('.tick text') ?? [])].map((t) => t.getBoundingClientRect());
        return {
          axis: i ? 'y' : 'x',
          text: labels[i]?.textContent,
          overlap: title ? Math.max(0, ...ticks.map((t) => hit(title, t))) : 0,
          // the y title must not run above its chart, into the heading over it
          above: i && title ? Math.max(0, g.ownerSVGElement.getBoundingClientRect().top - title.top) : 0,
        };
      });
    });
    return { formula: [f.scrollWidth, f.clientWidth], overflow: body.scrollHeight - body.clientHeight, titles };
  });
  const out = [];
  if (fit.formula[0] > fit.formula[1] + 1)
    out.push(`slide ${k}: the formula is wider than its column (${fit.formula[0]} > ${fit.formula[1]} px)`);
  if (fit.overflow > 2) out.push(`slide ${k}: the figure overflows its box by ${fit.overflow}px`);
  for (const t of fit.titles) {
    if (t.overlap > 0.5)
      out.push(`slide ${k}: the ${t.axis}-axis title “${t.text}” lies ${t.overlap.toFixed(1)} px on its tick labels`);
    if (t.above > 0.5)
      out.push(`slide ${k}: the y-axis title “${t.text}” runs ${t.above.toFixed(1)} px above its chart`);
  }
  return out;
}

/** What the page has in force: the trained head (null: generated inputs or a file), whether any upload is, and the result on screen. */
const inputs = (page) =>
  page.evaluate(() => {
    const s = window.__performer.getState();
    const r = s.compute.result;
    return {
      trained: s.upload.active?.trained ?? null,
      uploaded: !!s.upload.active,
      n: s.params.n,
      d: s.params.d,
      result: r && { id: String(r.id), n: r.params.n, d: r.params.d, m: r.params.m, relErrorA: r.metrics.relErrorA },
      exact: r?.output.view ? Array.from(r.output.view.exact) : null,
    };
  });

/**
 * The trained-head slide shows head `sel`: the store's inputs are that head (n = the model's sequence
 * length, d = its head dim), the heatmaps are the result whose exact A is softmax(QKᵀ/√d) of the
 * head's Q, K (recomputed here from the bundle), and the measured line is head-stats' for that head.
 */
async function assertHeadShown(page, sel, mods, k) {
  const { bundleShape, BUNDLES } = mods.bundles;
  const { bundledHeads } = mods.weights;
  const shape = bundleShape(sel.model);
  const causal = BUNDLES[sel.model].config.model.causal;
  await page.waitForFunction(
    ([m, l, h]) => {
      const s = window.__performer.getState();
      const t = s.upload.active?.trained;
      const fig = document.querySelector('.slide-fig');
      return (
        t?.model === m &&
        t.layer === l &&
        t.head === h &&
        fig?.getAttribute('data-ready') === '1' &&
        fig.querySelector('.heatmap')?.getAttribute('data-result-id') === String(s.compute.result?.id)
      );
    },
    [sel.model, sel.layer, sel.head],
    { timeout: 30_000 },
  );
  const got = await inputs(page);
  assert.deepEqual(got.trained, sel, `slide ${k}: the head in force`);
  assert.deepEqual(
    [got.n, got.d, got.result.n, got.result.d],
    [shape.n, shape.d, shape.n, shape.d],
    `slide ${k}: n, d`,
  );
  const head = bundledHeads(sel.model, sel.example)[sel.layer][sel.head];
  const a = mods.exact.exactAttentionMatrix(head.q, head.k, causal).data;
  assert.equal(got.exact.length, a.length, `slide ${k}: one cell per entry of the head's A`);
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff = Math.max(diff, Math.abs(got.exact[i] - a[i]));
  assert.ok(diff < 1e-5, `slide ${k}: the heatmap's A is the head's softmax (max |Δ| ${diff})`);
  const stats = mods.stats.headStats(head, causal);
  const shown = await page.evaluate(() => {
    const el = document.querySelector('.slide-fig [data-head-stats]');
    return {
      entropy: Number(el.dataset.entropy),
      uniform: Number(el.dataset.entropyUniform),
      favor: el.dataset.favorError.split(',').map(Number),
      text: el.textContent,
    };
  });
  const close = (x, y) => Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(y));
  assert.ok(close(shown.entropy, stats.entropy), `slide ${k}: entropy ${shown.entropy} = head-stats' ${stats.entropy}`);
  assert.ok(close(shown.uniform, stats.entropyUniform), `slide ${k}: uniform ${shown.uniform}`);
  stats.favorError.forEach((e, i) => assert.ok(close(shown.favor[i], e), `slide ${k}: FAVOR+ error ${i}`));
  const { fmt } = mods.format;
  for (const part of [
    fmt(stats.entropy, 2),
    fmt(stats.entropyUniform, 2),
    fmt(got.result.relErrorA, 2),
    `m = ${got.result.m}`,
  ])
    assert.ok(shown.text.includes(part), `slide ${k}: the line shows ${part}: ${shown.text}`);
  return {
    entropy: stats.entropy,
    uniform: stats.entropyUniform,
    error: got.result.relErrorA,
    favor: stats.favorError,
  };
}

const headModules = async (loadModule) => ({
  bundles: await loadModule('/src/core/trained/bundles.ts'),
  weights: await loadModule('/src/core/trained/bundle-weights.ts'),
  exact: await loadModule('/src/core/exact-attention.ts'),
  stats: await loadModule('/src/core/trained/head-stats.ts'),
  format: await loadModule('/src/charts/format.ts'),
});

/** Faces of the bundled UI font (src/app/fonts.ts) that loaded in the page. */
const uiFaces = (page) =>
  page.evaluate(() => [...document.fonts].filter((f) => f.family.includes('Inter') && f.status === 'loaded').length);

test(
  'lecture mode: every slide applies its scene (src/present/story.ts) and shows a computed figure — the trained-head slide the bundled head (its A, head-stats’ entropy; the head control switches it), every other slide generated inputs; body text ≥ 20 px at 1024×768; marker labels on a box of the slide’s background; before a run the learning slide’s accuracy chart marks MQAR’s chance (1/32); axe finds no violations',
  async ({ page, appUrl, artifacts, loadModule, log }) => {
    const { STORY } = await loadModule('/src/present/story.ts');
    const mods = await headModules(loadModule);
    assert.equal(STORY.length, STEPS, 'the story has as many steps as the spec walks');
    await page.setViewportSize({ width: 1024, height: 768 });
    const shots = join(artifacts, 'screenshots');
    mkdirSync(shots, { recursive: true });
    await page.goto(`${appUrl}/?present&step=1&backend=cpu`);
    await waitForStep(page, 1);
    assert.ok((await uiFaces(page)) > 0, 'the bundled UI font is loaded');
    const wide = [];
    for (let k = 1; k <= STEPS; k++) {
      if (k > 1) await press(page, 'ArrowRight', k);
      const params = (await state(page)).params;
      for (const [key, v] of Object.entries(STORY[k - 1].params))
        assert.equal(params[key], v, `slide ${k} (${STORY[k - 1].id}): ${key} set to ${v} as story.ts says`);
      const sel = STORY[k - 1].trained;
      if (!sel) assert.equal((await inputs(page)).uploaded, false, `slide ${k}: generated inputs, no head or upload`);
      await figureReady(page);
      if (sel) {
        const m = await assertHeadShown(page, sel, mods, k);
        log(
          `slide ${k} ${sel.model} L${sel.layer} H${sel.head}: H ${m.entropy} (uniform ${m.uniform}), error ${m.error}, FAVOR+ ${m.favor.join(' / ')}`,
        );
      }
      // heatmaps are coloured in a worker: their image (and data-result-id) follows by a moment
      await page
        .waitForFunction(
          () => {
            const fig = document.querySelector('.slide-fig');
            return (
              !!fig?.querySelector('.heatmap[data-result-id]:not([data-result-id=""]) canvas') ||
              [...(fig?.querySelectorAll('.chart svg g[clip-path] path') ?? [])].some(
                (p) => (p.getAttribute('d') ?? '').length > 20,
              )
            );
          },
          null,
          { timeout: 10_000 },
        )
        .catch(() => {});
      const drawn = await page.evaluate(() => {
        const fig = document.querySelector('.slide-fig');
        const canvases = fig.querySelectorAll('.heatmap[data-result-id]:not([data-result-id=""]) canvas').length;
        const lines = [...fig.querySelectorAll('.chart svg g[clip-path] path')].filter(
          (p) => (p.getAttribute('d') ?? '').length > 20,
        ).length;
        return { canvases, lines, kind: fig.getAttribute('data-figure') };
      });
      assert.ok(drawn.canvases + drawn.lines > 0, `slide ${k} (${drawn.kind}) draws data: ${JSON.stringify(drawn)}`);
      assert.equal(drawn.kind, STORY[k - 1].figure, `slide ${k} shows the figure story.ts names`);
      const sizes = await page.evaluate(() =>
        ['.slide-caption', '.slide-stat', '.strip-control label', '.slide-sources', '.present-bar'].map((sel) => {
          const el = document.querySelector(sel);
          return [sel, el ? parseFloat(getComputedStyle(el).fontSize) : null];
        }),
      );
      for (const [sel, px] of sizes) if (px !== null) assert.ok(px >= 20, `slide ${k}: ${sel} font ${px}px ≥ 20px`);
      wide.push(...(await misfits(page, k)));
      // a marker's label lies on a box of the slide's background (slides have no panels), in both themes
      for (const theme of drawn.kind === 'spectra' ? ['light', 'dark'] : ['light']) {
        await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
        const labels = await markerLabelBoxes(page, '.slide-fig');
        if (drawn.kind === 'spectra') assert.equal(labels.length, 2, `slide ${k}: the spectra's d and m′ labels`);
        for (const l of labels) {
          assert.ok(l.covers, `slide ${k}, ${l.text}: its box covers the text`);
          assert.equal(l.fill, l.bg, `slide ${k} (${theme}), ${l.text}: the box has the slide's background`);
        }
      }
      await page.evaluate(() => delete document.documentElement.dataset.theme);
      if (drawn.kind === 'training') {
        // before a run the accuracy chart already marks where a model starts: MQAR's chance, 1/32
        const chance = await page.evaluate(() => {
          const label = [...document.querySelectorAll('.slide-fig .marker-label')].find((t) =>
            /chance/.test(t.textContent),
          );
          if (!label) return null;
          const y = Number(label.parentElement.querySelector('line').getAttribute('y1'));
          const tick = (v) =>
            Number(
              // the y axis: the one not moved to the plot's bottom
              [...document.querySelectorAll('.slide-fig .axis:not([transform]) .tick')]
                .find((t) => t.textContent === v)
                .getAttribute('transform')
                .match(/translate\(0,([-\d.]+)\)/)[1],
            );
          // px from where 1/32 falls between the ticks 0 and 0.2 (d3 draws ticks half a pixel off)
          const at = tick('0') + ((tick('0.2') - tick('0')) * (1 / 32)) / 0.2;
          return { text: label.textContent, off: Math.abs(y - at) };
        });
        assert.ok(chance, `slide ${k}: the accuracy chart's chance line`);
        assert.equal(chance.text, 'chance: a random value, 1/32');
        assert.ok(chance.off <= 1, `slide ${k}: the line at 1/32 of the axis (${chance.off.toFixed(2)} px off)`);
      }
      log(`slide ${k} ${drawn.kind}: ${JSON.stringify(sizes.map(([, px]) => px))} px`);
      if (SHOT_STEPS.includes(k)) {
        await page.waitForTimeout(300);
        await page.screenshot({ path: join(shots, `slide-${k}.png`) });
      }
      if (k === 3 || k === STEPS || sel) {
        const v = await axeViolations(page);
        assert.deepEqual(v, [], `axe on slide ${k}`);
      }
      if (sel) {
        // the lecturer switches to a grammar head on the slide; → must still leave for generated inputs
        const other = { model: 'grammar', layer: 1, head: 1, example: sel.example };
        await page.selectOption(
          '.control-strip [data-trained-key="head"]',
          `${other.model}:${other.layer}:${other.head}`,
        );
        const g = await assertHeadShown(page, other, mods, k);
        log(`slide ${k} switched to grammar L1 H1: H ${g.entropy}, error ${g.error}`);
        await page.focus('.slide h1'); // the select keeps the arrows while focused
      }
    }
    assert.deepEqual(wide, [], 'every figure and formula fits its box at 1024×768');
  },
  { webgpu: false, timeout: 420_000 },
);

test(
  'lecture mode with the bundled font blocked (the system fonts draw the text): every figure and formula still fits its box at 1024×768',
  async ({ page, appUrl, artifacts }) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    const blocked = [];
    await page.route(/\/inter-[^/]*\.woff2(\?.*)?$/, (route) => {
      blocked.push(route.request().url());
      return route.abort();
    });
    await page.goto(`${appUrl}/?present&step=1&backend=cpu`);
    await waitForStep(page, 1);
    assert.ok(blocked.length > 0, 'the page asked for the bundled font');
    assert.equal(await uiFaces(page), 0, 'no face of the bundled font loaded');
    const wide = [];
    for (let k = 1; k <= STEPS; k++) {
      if (k > 1) await press(page, 'ArrowRight', k);
      await figureReady(page);
      wide.push(...(await misfits(page, k)));
    }
    const shots = join(artifacts, 'screenshots');
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, `slide-${STEPS}-fallback-font.png`) });
    assert.deepEqual(wide, [], 'every figure and formula fits its box in the fallback font');
  },
  { webgpu: false, timeout: 300_000 },
);

test(
  'lecture mode on a 16:9 projector (1280×720, shorter than 1024×768 for its width): every figure, formula and axis title fits on every slide',
  async ({ page, appUrl, artifacts }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${appUrl}/?present&step=1&backend=cpu`);
    await waitForStep(page, 1);
    const wide = [];
    for (let k = 1; k <= STEPS; k++) {
      if (k > 1) await press(page, 'ArrowRight', k);
      await figureReady(page);
      wide.push(...(await misfits(page, k)));
      if (k === 10) {
        const shots = join(artifacts, 'screenshots');
        mkdirSync(shots, { recursive: true });
        await page.screenshot({ path: join(shots, 'slide-10-1280x720.png') });
      }
    }
    assert.deepEqual(wide, [], 'every figure, formula and axis title fits at 1280×720');
  },
  { webgpu: false, timeout: 300_000 },
);

test(
  'lecture mode: ? shows the key list, Esc closes it, Esc leaves to the page, P enters again; keys are inert while typing',
  async ({ page, appUrl }) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto(`${appUrl}/?present&step=42&backend=cpu`);
    await waitForStep(page, 1);
    assert.ok(await page.isVisible('[data-notice="param-rejected"]'), 'a bad step says so');
    await page.keyboard.press('?');
    await page.waitForSelector('[data-keys-dialog]');
    const text = await page.textContent('[data-keys-dialog]');
    for (const k of ['PageDown', 'PageUp', 'Home', 'End', 'Esc']) assert.ok(text.includes(k), `key list names ${k}`);
    assert.deepEqual(await axeViolations(page), [], 'axe with the key list open');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-keys-dialog]', { state: 'detached' });
    assert.equal((await state(page)).ui.present, true, 'Esc first closes the key list');
    await press(page, 'End', STEPS);
    await page.keyboard.press('Escape');
    await page.waitForSelector('.app-header');
    assert.equal((await state(page)).ui.present, false);
    await page.waitForFunction(
      () => !new URLSearchParams(location.search).has('present') && !new URLSearchParams(location.search).has('step'),
    );
    await page.waitForFunction(() => document.activeElement?.matches('[data-action="present"]'), null, {
      timeout: 5_000,
    }); // focus returns to the Present button
    // typing a P into a text field does not start the slides (m: the last slide's trained head,
    // still in force on the page, locks n)
    const input = page.locator('[data-param-input="m"]');
    await input.focus();
    await page.keyboard.press('p');
    assert.equal((await state(page)).ui.present, false, 'P in a text field is text');
    await input.press('Escape');
    await page.locator('h1').first().click();
    await page.keyboard.press('p');
    await waitForStep(page, STEPS);
    assert.equal((await state(page)).ui.present, true, 'P enters lecture mode at the current step');
    await page.click('[data-action="exit"]');
    await page.waitForSelector('[data-action="present"]');
    await page.click('[data-action="present"]');
    await waitForStep(page, STEPS);
  },
  { webgpu: false, timeout: 60_000 },
);

test(
  'lecture mode in Chinese at 1920×1080: translated slide, figure and formula fit, type ≥ 20 px — slide 6 and the trained-head slide',
  async ({ page, appUrl, artifacts, loadModule }) => {
    const { STORY } = await loadModule('/src/present/story.ts');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`${appUrl}/?present&step=6&lang=zh&backend=cpu`);
    await waitForStep(page, 6);
    await page.waitForSelector('.slide-fig[data-ready="1"]', { timeout: 60_000 });
    assert.match(await page.evaluate(() => document.documentElement.lang), /^zh/);
    for (const sel of ['.slide h1', '.slide-caption', '[data-announce]', '.strip-control label']) {
      assert.match(await page.textContent(sel), /[\u4e00-\u9fff]/, `${sel} is in Chinese`);
    }
    const fit = await page.evaluate(() => {
      const body = document.querySelector('.slide-fig-body');
      const f = document.querySelector('.slide-formula');
      const heat = document.querySelector('.slide-heatmaps .heatmap canvas');
      return {
        overflow: body.scrollHeight - body.clientHeight,
        formula: f.scrollWidth - f.clientWidth,
        heatmap: heat.getBoundingClientRect().width,
        caption: parseFloat(getComputedStyle(document.querySelector('.slide-caption')).fontSize),
      };
    });
    assert.ok(fit.overflow <= 2 && fit.formula <= 1, `fits: ${JSON.stringify(fit)}`);
    assert.ok(fit.heatmap >= 450, `heatmaps use the screen: ${fit.heatmap}px wide`);
    assert.ok(fit.caption >= 20, `caption ${fit.caption}px`);
    const shots = join(artifacts, 'screenshots');
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, 'slide-6-1920-zh.png') });
    const head = STORY.findIndex((st) => st.trained) + 1;
    for (let k = 7; k <= head; k++) await press(page, 'ArrowRight', k);
    await page.waitForFunction(
      () =>
        document.querySelector('.slide-fig')?.getAttribute('data-ready') === '1' &&
        !!document.querySelector('.slide-fig [data-head-stats]'),
      null,
      { timeout: 60_000 },
    );
    for (const sel of ['.slide h1', '.slide-caption', '.slide-fig [data-head-stats]', '.strip-control label'])
      assert.match(await page.textContent(sel), /[\u4e00-\u9fff]/, `slide ${head}: ${sel} is in Chinese`);
    const headFit = await page.evaluate(() => {
      const body = document.querySelector('.slide-fig-body');
      const f = document.querySelector('.slide-formula');
      return {
        overflow: body.scrollHeight - body.clientHeight,
        formula: f.scrollWidth - f.clientWidth,
        heatmaps: [...document.querySelectorAll('.slide-heatmaps .heatmap canvas')].map(
          (c) => c.getBoundingClientRect().width,
        ),
      };
    });
    assert.ok(headFit.overflow <= 2 && headFit.formula <= 1, `slide ${head} fits: ${JSON.stringify(headFit)}`);
    assert.equal(headFit.heatmaps.length, 2, `slide ${head}: A and Â`);
    assert.ok(Math.min(...headFit.heatmaps) >= 400, `slide ${head}: heatmaps use the screen: ${headFit.heatmaps}`);
    await page.screenshot({ path: join(shots, `slide-${head}-1920-zh.png`) });
  },
  { webgpu: false, timeout: 90_000 },
);
