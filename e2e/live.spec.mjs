// Live while dragging, on the CPU path (?backend=cpu, the same store and compute loop as WebGPU,
// faster under SwiftShader). A slider held down and moved computes and shows the values it passes,
// the figure on screen never goes empty in between, and release leaves the released value's
// heatmap. What keeps the main thread free is checked structurally, not by timing: every heatmap
// is coloured in the colouring worker (globalThis.__heatmapColourings.main stays 0), and a heatmap
// renders only when its inputs change (its data-renders count grows by at most one per result
// shown, though the compute status changes twice per result). Long tasks are measured by
// npm run bench:live. Run: node e2e/run.mjs live
import assert from 'node:assert/strict';
import { test } from './harness.mjs';

const EXACT = '[data-metric="heatmap-exact"]';
const PARAMS = '[data-result-params]';

/**
 * Nothing computing on the page: the compute loop idle, every panel body on the store's parameters
 * (window.__performer.panelsBehind) and every analysis current.
 */
function settledPage(page, timeout = 120_000) {
  return page.waitForFunction(
    () =>
      document.querySelector('.compute-status')?.getAttribute('data-status') === 'ok' &&
      window.__performer.panelsBehind() === 0 &&
      [...document.querySelectorAll('[data-analysis]')].every(
        (el) =>
          el.getAttribute('data-status') === 'done' &&
          el.getAttribute('data-analysis-version') === el.getAttribute('data-analysis-key'),
      ),
    null,
    { timeout, polling: 100 },
  );
}

test(
  'dragging the m slider: intermediate values computed and shown during the drag, the released value after; heatmaps coloured in the worker, not re-rendered without new inputs',
  async ({ page, appUrl, log }) => {
    await page.goto(`${appUrl}/?backend=cpu&n=256`);
    await page.waitForSelector(`${EXACT}[data-result-id]:not([data-result-id=""])`, { timeout: 90_000 });
    await page.waitForFunction(
      () => document.querySelector('.compute-status')?.getAttribute('data-status') !== 'computing',
    );

    // record, from here on: every result the params line shows, and every frame without a drawn heatmap
    await page.evaluate(
      ({ EXACT, PARAMS }) => {
        const rec = { texts: [], ids: [], empty: 0, frames: 0, down: true };
        const note = () => {
          const p = document.querySelector(PARAMS);
          const id = p?.getAttribute('data-result-id');
          if (id && rec.ids.at(-1) !== id) {
            rec.ids.push(id);
            if (rec.down) rec.texts.push(p.textContent);
          }
        };
        new MutationObserver(note).observe(document, {
          subtree: true,
          childList: true,
          attributes: true,
          characterData: true,
        });
        const frame = () => {
          rec.frames++;
          if (!document.querySelector(EXACT)?.getAttribute('data-result-id')) rec.empty++;
          requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
        rec.renders0 = Number(document.querySelector(EXACT)?.getAttribute('data-renders') ?? 0);
        rec.colourings0 = { ...globalThis.__heatmapColourings };
        window.__live = rec;
      },
      { EXACT, PARAMS },
    );

    const slider = page.locator('input[type="range"][data-param="m"]').first();
    await slider.scrollIntoViewIfNeeded();
    const box = await slider.boundingBox();
    assert.ok(box, 'the m slider has a box');
    const y = box.y + box.height / 2;
    const shownM = async () => /m = (\d+)/.exec((await page.textContent(PARAMS)) ?? '')?.[1] ?? null;
    const sliderM = async () =>
      /= ([\d,]+)/.exec((await slider.getAttribute('aria-valuetext')) ?? '')?.[1].replace(/,/g, '');

    await page.mouse.move(box.x + 3, y);
    await page.mouse.down();
    const during = [];
    for (const f of [0.2, 0.35, 0.5]) {
      await page.mouse.move(box.x + box.width * f, y, { steps: 4 });
      const want = await sliderM();
      // the button is still down: the value reached must be computed and shown now, not on release
      await page.waitForFunction(
        ({ sel, want }) => document.querySelector(sel)?.textContent?.includes(`m = ${want},`),
        { sel: PARAMS, want },
        { timeout: 60_000 },
      );
      during.push(await shownM());
    }
    await page.mouse.move(box.x + box.width * 0.65, y, { steps: 4 });
    const final = await sliderM();
    await page.evaluate(() => (window.__live.down = false));
    await page.mouse.up();

    await page.waitForFunction(
      ({ EXACT, PARAMS, final }) => {
        const p = document.querySelector(PARAMS);
        const status = document.querySelector('.compute-status')?.getAttribute('data-status');
        return (
          status !== 'computing' &&
          p?.textContent?.includes(`m = ${final},`) &&
          document.querySelector(EXACT)?.getAttribute('data-result-id') === p.getAttribute('data-result-id')
        );
      },
      { EXACT, PARAMS, final },
      { timeout: 60_000 },
    );
    // let any stray render land before counting
    await page.waitForTimeout(300);
    const rec = await page.evaluate(
      (EXACT) => ({
        ...window.__live,
        renders: Number(document.querySelector(EXACT)?.getAttribute('data-renders') ?? 0),
        colourings: { ...globalThis.__heatmapColourings },
      }),
      EXACT,
    );
    const distinct = new Set(rec.texts);
    log(
      `during the drag: ${distinct.size} results shown (m ${during.join(', ')}), final m ${final}; ` +
        `${rec.ids.length} results in all, exact heatmap renders ${rec.renders - rec.renders0}; ` +
        `colourings worker ${rec.colourings.worker - rec.colourings0.worker}, main ${rec.colourings.main}; ` +
        `frames without a heatmap ${rec.empty} of ${rec.frames}`,
    );
    assert.ok(distinct.size >= 2, `at least 2 distinct results shown before release: ${[...distinct].join(' | ')}`);
    assert.notEqual(final, during.at(-1), 'the last move went past the last value waited for');
    assert.equal(rec.empty, 0, 'the heatmap stayed on screen through the drag');
    assert.equal(rec.colourings.main, 0, 'no heatmap coloured on the main thread');
    assert.ok(rec.colourings.worker - rec.colourings0.worker >= 3 * 2, 'heatmaps coloured in the worker');
    assert.ok(
      rec.renders - rec.renders0 <= rec.ids.length,
      `exact heatmap rendered ${rec.renders - rec.renders0} times for ${rec.ids.length} results`,
    );
  },
  { webgpu: false, timeout: 240_000 },
);

test(
  'a step of m: the panels keep their parameters while the compute is in flight (and the page counts them behind) and follow with its result — or after PANEL_HOLD_MS when it is slow; no progress line shows before SHOW_PROGRESS_AFTER_MS, a slow compute shows one',
  async ({ page, appUrl, log, loadModule }) => {
    const { PANEL_HOLD_MS } = await loadModule('/src/store/panel-params.ts');
    const { SHOW_PROGRESS_AFTER_MS } = await loadModule('/src/ui/compute-progress.ts');
    // the engine's results reach the page `__resultDelayMs` late: a compute of known length
    await page.addInitScript(() => {
      const Native = window.Worker;
      window.Worker = class extends Native {
        set onmessage(fn) {
          super.onmessage =
            fn &&
            ((ev) => {
              const delay = window.__resultDelayMs ?? 0;
              if (ev.data?.type === 'result' && delay > 0) setTimeout(() => fn.call(this, ev), delay);
              else fn.call(this, ev);
            });
        }
        get onmessage() {
          return super.onmessage;
        }
      };
    });
    // a small n: the compute itself takes a few ms, the delay decides when its result arrives
    await page.goto(`${appUrl}/?backend=cpu&n=64`);
    const STATUS = '[data-analysis="errorVsD"]';
    const settled = () => settledPage(page);
    await settled();
    const slider = page.locator('input[type="range"][data-param="m"]').first();

    /** One key step with the results `delayMs` late: when the panel wanted its new key, when the result was shown. */
    const step = async (key, delayMs) => {
      await page.evaluate(
        ({ STATUS, delayMs }) => {
          window.__resultDelayMs = delayMs;
          const key0 = document.querySelector(STATUS).getAttribute('data-analysis-key');
          const id0 = document.querySelector('[data-result-params]').getAttribute('data-result-id');
          const rec = { t0: null, panel: null, result: null, progress: null, behind: 0 };
          const note = () => {
            if (rec.t0 === null) return;
            const now = performance.now() - rec.t0;
            // how many panel bodies the page reports behind the store's parameters while they wait
            if (rec.result === null) rec.behind = Math.max(rec.behind, window.__performer.panelsBehind());
            if (rec.panel === null && document.querySelector(STATUS)?.getAttribute('data-analysis-key') !== key0)
              rec.panel = now;
            if (
              rec.result === null &&
              document.querySelector('[data-result-params]')?.getAttribute('data-result-id') !== id0
            )
              rec.result = now;
            if (rec.progress === null && document.querySelector('#panel-main .compute-status .progress-row'))
              rec.progress = now;
          };
          new MutationObserver(note).observe(document, { subtree: true, childList: true, attributes: true });
          clearInterval(window.__stepTimer);
          window.__stepTimer = setInterval(note, 10);
          addEventListener('keydown', () => (rec.t0 = performance.now()), { capture: true, once: true });
          window.__step = rec;
        },
        { STATUS, delayMs },
      );
      await slider.focus();
      await page.keyboard.press(key);
      await page.waitForFunction(() => window.__step.panel !== null && window.__step.result !== null, null, {
        timeout: 60_000,
      });
      const rec = await page.evaluate(() => window.__step);
      await page.evaluate(() => (window.__resultDelayMs = 0));
      await settled();
      return rec;
    };

    const quick = await step('ArrowRight', PANEL_HOLD_MS / 4);
    log(
      `result ${PANEL_HOLD_MS / 4} ms late: shown at ${quick.result.toFixed(0)} ms, panel followed at ${quick.panel.toFixed(0)} ms`,
    );
    assert.ok(quick.result >= PANEL_HOLD_MS / 4, `the result was held back (${quick.result} ms)`);
    // (on a loaded machine the result can come later than PANEL_HOLD_MS; then the panel may go first)
    assert.ok(
      quick.panel >= Math.min(quick.result, 0.9 * PANEL_HOLD_MS),
      `the panel followed with the result, not before (${quick.panel} < ${quick.result} ms)`,
    );
    assert.ok(
      quick.progress === null || quick.progress >= SHOW_PROGRESS_AFTER_MS,
      `no progress line before SHOW_PROGRESS_AFTER_MS (shown at ${quick.progress} ms)`,
    );
    assert.ok(quick.behind > 0, 'while they wait, the page reports the panel bodies behind (panelsBehind)');

    const slow = await step('ArrowLeft', 3 * SHOW_PROGRESS_AFTER_MS);
    log(
      `result ${3 * SHOW_PROGRESS_AFTER_MS} ms late: shown at ${slow.result.toFixed(0)} ms, panel followed at ${slow.panel.toFixed(0)} ms`,
    );
    assert.ok(slow.panel < slow.result, `the panel did not wait for a slow result (${slow.panel} ≥ ${slow.result} ms)`);
    assert.ok(slow.panel >= PANEL_HOLD_MS * 0.9, `the panel waited about PANEL_HOLD_MS first (${slow.panel} ms)`);
    assert.ok(
      slow.progress !== null && slow.progress >= SHOW_PROGRESS_AFTER_MS,
      `a compute longer than SHOW_PROGRESS_AFTER_MS shows its progress line, not before (${slow.progress} ms)`,
    );
  },
  { webgpu: false, timeout: 240_000 },
);

test(
  'a step of m moves nothing on the page: no panel and no analysis status line changes height while the analyses re-run and refine',
  async ({ page, appUrl, log }) => {
    await page.goto(`${appUrl}/?backend=cpu`);
    const settled = () => settledPage(page);
    await settled();
    const before = await page.evaluate(() => {
      const keys = Object.fromEntries(
        [...document.querySelectorAll('[data-analysis]')].map((el) => [
          el.getAttribute('data-analysis'),
          el.getAttribute('data-analysis-key'),
        ]),
      );
      const rec = { resized: [], states: new Set() };
      const boxes = [...document.querySelectorAll('.panel, [data-analysis]')];
      const heights = new Map(boxes.map((el) => [el, el.getBoundingClientRect().height]));
      const ro = new ResizeObserver((entries) => {
        for (const e of entries) {
          const h = e.target.getBoundingClientRect().height;
          if (Math.abs(h - heights.get(e.target)) > 0.5)
            rec.resized.push(
              `${e.target.getAttribute('data-analysis') ?? e.target.id}: ${heights.get(e.target)} → ${h}`,
            );
          heights.set(e.target, h);
        }
      });
      for (const el of boxes) ro.observe(el);
      // which states the status lines went through (running, refining, done)
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('[data-analysis]'))
          rec.states.add(
            `${el.getAttribute('data-status')}${el.getAttribute('data-refining') === 'true' ? '+refining' : ''}`,
          );
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-status', 'data-refining'] });
      window.__layout = rec;
      return keys;
    });
    const slider = page.locator('input[type="range"][data-param="m"]').first();
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(
      (before) =>
        [...document.querySelectorAll('[data-analysis]')].some(
          (el) => el.getAttribute('data-analysis-key') !== before[el.getAttribute('data-analysis')],
        ),
      before,
      { timeout: 60_000 },
    );
    await settled();
    const rec = await page.evaluate(() => ({ resized: window.__layout.resized, states: [...window.__layout.states] }));
    log(`status lines went through: ${rec.states.join(', ')}; height changes: ${rec.resized.length}`);
    assert.ok(
      rec.states.includes('running+refining'),
      `a figure showed its coarse stage while refining: ${rec.states}`,
    );
    assert.deepEqual(rec.resized, [], 'no panel or status line changed height');
  },
  { webgpu: false, timeout: 240_000 },
);

test(
  'a step of m: the analyses report their progress (≥ 10 store updates of progress alone), yet no panel body renders more often than the store changed something other than progress',
  async ({ page, appUrl, log }) => {
    await page.goto(`${appUrl}/?backend=cpu`);
    await settledPage(page);
    await page.evaluate(() => {
      const perf = window.__performer;
      const rec = { updates: 0, progressOnly: 0, renders0: perf.panelBodyRenders() };
      // every field but progress the same (whatever fields an entry has)
      const same = (a, b) => Object.keys({ ...a, ...b }).every((k) => k === 'progress' || a[k] === b[k]);
      perf.subscribe((s, prev) => {
        rec.updates++;
        // progress only: nothing but the analyses changed, and each changed entry only in its progress
        const changed = Object.keys(s).filter((k) => s[k] !== prev[k]);
        if (changed.length !== 1 || changed[0] !== 'analyses') return;
        const ops = new Set([...Object.keys(s.analyses), ...Object.keys(prev.analyses)]);
        for (const op of ops) {
          const a = s.analyses[op];
          const b = prev.analyses[op];
          if (a !== b && !(a && b && same(a, b))) return;
        }
        rec.progressOnly++;
      });
      window.__renders = rec;
    });
    const slider = page.locator('input[type="range"][data-param="m"]').first();
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => window.__performer.getState().params.m !== 64, null, { timeout: 10_000 });
    await settledPage(page);
    const r = await page.evaluate(() => {
      const now = window.__performer.panelBodyRenders();
      const rec = window.__renders;
      return {
        updates: rec.updates,
        progressOnly: rec.progressOnly,
        renders: Object.fromEntries(Object.keys(now).map((k) => [k, now[k] - (rec.renders0[k] ?? 0)])),
      };
    });
    log(
      `store updates ${r.updates}, of them progress only ${r.progressOnly}; body renders: ${Object.entries(r.renders)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
    assert.ok(r.progressOnly >= 10, `the step's analyses reported their progress (${r.progressOnly} updates)`);
    const others = r.updates - r.progressOnly;
    for (const [body, n] of Object.entries(r.renders))
      assert.ok(n <= others, `${body} rendered ${n} times for ${others} updates that were not progress alone`);
  },
  { webgpu: false, timeout: 240_000 },
);
