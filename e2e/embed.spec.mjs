// Embeds as a blogger uses them: public/embed-example.html served from ANOTHER origin
// (http://127.0.0.1:<port>, while the app is http://localhost:<port>) with its iframes pointing at the
// production build; frames size themselves, take only well-formed messages, compute only on screen,
// pass axe, and the Embed dialog's snippet works when pasted into a foreign page. CPU fallback
// throughout (webgpu: false): nothing here is about the GPU path. Run: node e2e/run.mjs embed
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { injectAxe } from './axe.mjs';
import { typeParam } from './app-page.mjs';
import { test } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const PANELS = ['main', 'error', 'sparsity', 'rank', 'feature-maps', 'beyond', 'speed', 'training'];
const SMALL = 'n=64&d=8&m=16';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** axe-core's violations on the page, as 'rule (nodes)'. */
async function axeViolations(page) {
  await injectAxe(page);
  return page.evaluate(async () =>
    (await window.axe.run(document, { resultTypes: ['violations'] })).violations.map(
      (v) => `${v.id} (${v.nodes.length}): ${v.nodes[0]?.target}`,
    ),
  );
}

/** A second static server on 127.0.0.1 (another origin than the app's localhost): path → html. */
async function foreignSite(pages) {
  const server = createServer((req, res) => {
    const body = pages[new URL(req.url, 'http://x').pathname];
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body ?? 'not found');
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}`;
  return { url, close: () => new Promise((r) => server.close(r)) };
}

/** The example post with its relative iframe sources pointed at the app (as if it sat on another host). */
function examplePost(appUrl) {
  return readFileSync(join(here, '..', 'public', 'embed-example.html'), 'utf8').replaceAll(
    'src="./index.html?',
    `src="${appUrl}/index.html?`,
  );
}

async function frameFor(page, id, timeout = 60_000) {
  const t0 = Date.now();
  for (;;) {
    const f = page.frames().find((fr) => fr.url().includes(`embedId=${id}`));
    if (f && (await f.$('main.embed-main').catch(() => null))) return f;
    if (Date.now() - t0 > timeout) throw new Error(`frame ${id} never loaded`);
    await sleep(200);
  }
}

/** Compute finished and every analysis of the panel done. */
async function settled(frameOrPage, timeout = 120_000) {
  try {
    await frameOrPage.waitForFunction(
      () => {
        const main = document.querySelector('main.embed-main');
        if (!main || main.dataset.status === 'computing') return false;
        // the main comparison's result, where the embed shows it (an analysis figure's embed does not compute it)
        if (main.dataset.showsResult !== '0' && main.dataset.hasResult !== '1') return false;
        return [...document.querySelectorAll('.analysis-status')].every(
          (e) => e.getAttribute('data-status') === 'done',
        );
      },
      null,
      { timeout, polling: 250 },
    );
  } catch (e) {
    // say what never settled: the compute, or which analyses in which state
    const state = await frameOrPage
      .evaluate(() => {
        const main = document.querySelector('main.embed-main');
        const analyses = [...document.querySelectorAll('.analysis-status')].map(
          (el) =>
            `${el.closest('[data-analysis]')?.getAttribute('data-analysis') ?? '?'}=${el.getAttribute('data-status')} “${el.textContent?.trim().slice(0, 80)}”`,
        );
        return `result ${main?.dataset.hasResult ?? '-'}, compute ${main?.dataset.status ?? '-'}; ${analyses.join('; ')}`;
      })
      .catch(() => '(page state unreadable)');
    throw new Error(`${e.message.split('\n')[0]} — not settled: ${state}`, { cause: e });
  }
}

/** Frame height seen by the parent vs the document's height inside the frame. */
async function heights(page, frame, id) {
  const frameHeight = await page.evaluate(
    (i) => document.querySelector(`iframe[data-performer-embed="${i}"]`).getBoundingClientRect().height,
    id,
  );
  const inner = await frame.evaluate(() => ({
    scrollHeight: document.documentElement.scrollHeight,
    clientHeight: document.documentElement.clientHeight,
  }));
  return { frameHeight, ...inner };
}

async function waitSized(page, frame, id, timeout = 20_000) {
  const t0 = Date.now();
  let h;
  for (;;) {
    h = await heights(page, frame, id);
    if (Math.abs(h.frameHeight - h.scrollHeight) <= 2 && h.scrollHeight <= h.clientHeight + 1) return h;
    if (Date.now() - t0 > timeout) throw new Error(`frame ${id} not sized to its content: ${JSON.stringify(h)}`);
    await sleep(250);
  }
}

/** The snippet the Embed dialog shows now, and its frame's address (its `&amp;`s decoded). */
async function dialogSnippet(dialog) {
  const snippet = await dialog.locator('[data-embed-snippet]').inputValue();
  return { snippet, src: new URL(snippet.match(/src="([^"]+)"/)[1].replaceAll('&amp;', '&')) };
}
const param = (frame, key) => frame.evaluate((k) => window.__performer.getState().params[k], key);

test(
  'example post on another origin: both frames end as tall as their content, take only well-formed messages, never capture scrolling; only the frame that draws the main result computes it',
  async ({ page, appUrl, artifacts, log }) => {
    const site = await foreignSite({ '/post.html': examplePost(appUrl) });
    try {
      assert.notEqual(new URL(site.url).origin, new URL(appUrl).origin);
      await page.goto(`${site.url}/post.html`);
      const lazy = await page.$$eval('iframe[data-performer-embed]', (fs) => fs.map((f) => f.getAttribute('loading')));
      assert.deepEqual(lazy, ['lazy', 'lazy'], 'the snippet loads frames lazily');

      const results = {};
      for (const id of ['fig-error', 'fig-rank']) {
        await page.locator(`iframe[data-performer-embed="${id}"]`).scrollIntoViewIfNeeded();
        const frame = await frameFor(page, id);
        await settled(frame);
        const h = await waitSized(page, frame, id);
        const width = await page.evaluate(
          (i) => document.querySelector(`iframe[data-performer-embed="${i}"]`).getBoundingClientRect().width,
          id,
        );
        assert.ok(h.scrollHeight > 300, `frame ${id} shows its panel (content ${h.scrollHeight} px)`);
        // no inner scroll areas: nothing inside the frame scrolls vertically
        const scrollers = await frame.evaluate(() =>
          [...document.querySelectorAll('*')]
            .filter(
              (el) =>
                ['auto', 'scroll'].includes(getComputedStyle(el).overflowY) && el.scrollHeight > el.clientHeight + 1,
            )
            .map((el) => el.className || el.tagName),
        );
        assert.deepEqual(scrollers, [], `frame ${id} has inner scroll areas`);
        results[id] = { frame, ...h, width };
        log(`${id}: width ${width} px, frame height ${h.frameHeight} px, content scrollHeight ${h.scrollHeight} px`);
      }
      assert.notEqual(results['fig-error'].width, results['fig-rank'].width, 'the two embeds have different widths');
      // error vs m draws the current result (its ring); the rank panel never does, and does not compute it
      const computed = async (id) =>
        results[id].frame.evaluate(() => window.__performer.getState().compute.result !== null);
      assert.equal(await computed('fig-error'), true);
      assert.equal(await computed('fig-rank'), false, 'the rank embed computed the main comparison');
      mkdirSync(join(artifacts, 'screenshots'), { recursive: true });
      await page.screenshot({ path: join(artifacts, 'screenshots', 'embed-example.png'), fullPage: true });

      // the credit opens the full app with the same state in a new tab
      const credit = await results['fig-error'].frame.$eval('a[data-embed-credit]', (a) => ({
        href: a.href,
        target: a.target,
        rel: a.rel,
      }));
      assert.equal(credit.target, '_blank');
      assert.match(credit.rel, /noopener/);
      const cq = new URL(credit.href).searchParams;
      assert.equal(cq.get('embed'), null);
      assert.equal(cq.get('controls'), null);
      assert.equal(cq.get('embedId'), null);
      assert.equal(cq.get('m'), '32');
      assert.equal(cq.get('scale'), '0.8');
      assert.equal(new URL(credit.href).hash, '#figure-error-vs-m', 'it lands on the figure the frame showed');
      const rankCredit = await results['fig-rank'].frame.$eval('a[data-embed-credit]', (a) => a.href);
      assert.equal(new URL(rankCredit).hash, '#panel-rank', 'a panel embed’s lands on its panel');

      // wheel over a frame scrolls the post, not the frame. Up to three tries: on a loaded machine the
      // post was once moved by something else between the read and the wheel (scrollY 6016 → 4352,
      // upwards); a frame that captures the wheel fails every try
      const fig = 'iframe[data-performer-embed="fig-error"]';
      const misses = [];
      for (let attempt = 0; attempt < 3; attempt++) {
        // the frame's top at the top of the view, whatever the full-page screenshot left the scroll at
        // (scrollIntoViewIfNeeded keeps a tall frame that is partly visible where it is: at the bottom
        // of the post, with no room to scroll down, in CI33)
        await page.evaluate((sel) => {
          const el = document.querySelector(sel);
          window.scrollTo(0, window.scrollY + el.getBoundingClientRect().top);
        }, fig);
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const box = await page.locator(fig).boundingBox();
        const before = await page.evaluate(() => ({
          y: window.scrollY,
          room: document.documentElement.scrollHeight - window.innerHeight - window.scrollY,
        }));
        assert.ok(before.room > 200, `the post can scroll further down (${before.room} px left)`);
        await page.mouse.move(box.x + box.width / 2, Math.max(box.y, 0) + 200);
        await page.mouse.wheel(0, 500);
        const moved = await page
          .waitForFunction((b) => window.scrollY > b + 100, before.y, { timeout: 10_000 })
          .then(() => true)
          .catch(() => false);
        if (moved) break;
        misses.push(`scrollY ${before.y} → ${await page.evaluate(() => window.scrollY)}`);
      }
      assert.ok(misses.length < 3, `the wheel over the frame did not scroll the post: ${misses.join('; ')}`);
      if (misses.length) log(`wheel: scrolled the post after ${misses.length} miss(es): ${misses.join('; ')}`);

      // parent side: a resize message from the wrong window / origin is ignored
      const errFrame = results['fig-error'].frame;
      const h0 = results['fig-error'].frameHeight;
      await page.evaluate(() =>
        window.postMessage({ type: 'performer-explainer:resize', id: 'fig-error', height: 123 }, '*'),
      );
      await sleep(400);
      assert.ok(
        Math.abs((await heights(page, errFrame, 'fig-error')).frameHeight - h0) <= 2,
        'a forged resize message changed the frame',
      );

      // frame side: malformed set messages are ignored, the documented one is applied
      const post = (msg) =>
        page.evaluate(
          ([m]) => document.querySelector('iframe[data-performer-embed="fig-error"]').contentWindow.postMessage(m, '*'),
          [msg],
        );
      for (const bad of [
        { type: 'performer-explainer:set', id: 'fig-error', params: { m: 'lots' } },
        { type: 'performer-explainer:set', id: 'fig-rank', params: { m: 8 } },
        { type: 'performer-explainer:set', id: 'fig-error', params: { m: 8 }, extra: true },
        { type: 'set', id: 'fig-error', params: { m: 8 } },
        'performer-explainer:set m=8',
      ])
        await post(bad);
      await sleep(400);
      assert.equal(await param(errFrame, 'm'), 32, 'a malformed message changed m');
      await post({ type: 'performer-explainer:set', id: 'fig-error', params: { m: 8 } });
      await errFrame.waitForFunction(() => window.__performer.getState().params.m === 8, null, { timeout: 5_000 });
      // and the frame re-sizes itself after the change
      await settled(errFrame);
      const after = await waitSized(page, errFrame, 'fig-error');
      log(`fig-error after m = 8: frame ${after.frameHeight} px, content ${after.scrollHeight} px`);
    } finally {
      await site.close();
    }
  },
  { timeout: 300_000, webgpu: false },
);

test(
  'narrow embeds (340 px, a blog read on a phone): no panel cuts off a control, formula, table or figure at its edge — what is wider scrolls sideways in its own box, and no formula needs to',
  async ({ page, appUrl, log }) => {
    await page.setViewportSize({ width: 340, height: 640 });
    for (const id of PANELS) {
      // the main panel causal: its row chart then carries a long marker label (j = i, where the mask cuts the row)
      await page.goto(`${appUrl}/?embed=${id}&backend=cpu${id === 'main' ? '&causal=1' : ''}`);
      await page.waitForSelector(`[data-embed="${id}"] [data-panel="${id}"]`, { timeout: 60_000 });
      // the figures that compute on load are drawn (beyond's table and controls are there before its sweeps)
      if (id !== 'beyond')
        await page.waitForFunction(() => !document.querySelector('[data-pending-figure]'), null, { timeout: 90_000 });
      const r = await page.evaluate(() => {
        const inScroller = (el) => {
          for (let p = el.parentElement; p; p = p.parentElement)
            if (['auto', 'scroll'].includes(getComputedStyle(p).overflowX)) return true;
          return false;
        };
        const name = (el) => `${el.tagName.toLowerCase()}${[...el.classList].map((c) => `.${c}`).join('')}`;
        const panel = document.querySelector('[data-panel]').getBoundingClientRect();
        return {
          clipped: [...document.querySelectorAll('[data-panel] *')]
            .filter((el) => {
              const b = el.getBoundingClientRect();
              return b.width > 0 && b.right > panel.right + 1 && !inScroller(el);
            })
            .map(name)
            .slice(0, 6),
          formulas: [...document.querySelectorAll('.formula:not(.formula-parts), .formula-part')]
            .filter((f) => f.scrollWidth > f.clientWidth + 1)
            .map((f) => f.textContent.slice(0, 30)),
          scrolls: [...document.querySelectorAll('.table-scroll, .table-wide')].filter(
            (t) => t.scrollWidth > t.clientWidth + 1,
          ).length,
        };
      });
      log(`${id}: ${r.scrolls} table(s) scroll sideways`);
      assert.deepEqual(r.clipped, [], `${id}: cut off at the panel's edge`);
      assert.deepEqual(r.formulas, [], `${id}: formulas that scroll`);
    }
  },
  { timeout: 240_000 },
);

test(
  'axe: no violations in any embedded panel, nor in the unknown-panel message (light and dark)',
  async ({ page, appUrl, log }) => {
    for (const [id, extra] of [
      ...PANELS.map((p) => [p, '']),
      ['bogus', ''],
      ['error', '&theme=dark'],
      ['error', '&figure=error-vs-m'],
      ['bogus', '&theme=dark'],
    ]) {
      await page.goto(`${appUrl}/?embed=${id}&${SMALL}&embedId=a11y${extra}`);
      await page.waitForSelector('main.embed-main');
      if (id !== 'bogus') await settled(page);
      await injectAxe(page);
      const violations = await page.evaluate(async () =>
        (await window.axe.run(document, { resultTypes: ['violations'] })).violations.map(
          (v) => `${v.id} (${v.nodes.length})`,
        ),
      );
      log(`axe, embed=${id}${extra}: ${violations.length} violations ${violations.join(', ')}`);
      assert.deepEqual(violations, [], `embed=${id}${extra}`);
    }
  },
  { timeout: 300_000, webgpu: false },
);

test(
  'hide= of every panel and embed=<unknown> say so instead of an empty page or a silent fallback; bad controls= gets a notice',
  async ({ page, appUrl }) => {
    await page.goto(`${appUrl}/?${SMALL}&hide=${PANELS.join(',')}`);
    const msg = page.locator('[data-all-hidden]');
    await msg.waitFor();
    assert.ok((await msg.textContent()).includes(`hide=${PANELS.join(',')}`), 'the message quotes the hide= list');
    await msg.locator('a').click();
    await page.waitForSelector('[data-panel="main"]');
    assert.equal(new URL(page.url()).searchParams.get('hide'), null);
    assert.equal(await page.locator('[data-all-hidden]').count(), 0);

    await page.goto(`${appUrl}/?embed=bogus&${SMALL}`);
    const unknown = page.locator('[data-embed-unknown="bogus"]');
    await unknown.waitFor();
    const text = await unknown.textContent();
    for (const p of PANELS) assert.ok(text.includes(p), `the message names panel ${p}`);
    assert.equal(await page.locator('[data-panel]').count(), 0, 'no silent fallback to the full page');
    await unknown.locator('a', { hasText: 'rank' }).first().click();
    await page.waitForSelector('[data-embed="rank"] [data-panel="rank"]');

    await page.goto(`${appUrl}/?embed=error&controls=m,bogus&${SMALL}`);
    await page.waitForSelector('[data-notice="param-rejected"]');
    assert.match(await page.textContent('[data-notice="param-rejected"]'), /controls/);
    assert.equal(
      await page.getAttribute('[data-embed-controls]', 'data-embed-controls'),
      'm,scale,d,map',
      'the panel defaults stay',
    );
    await page.goto(`${appUrl}/?embed=error&controls=none&${SMALL}`);
    await page.waitForSelector('main.embed-main');
    assert.equal(await page.locator('[data-embed-controls]').count(), 0);
  },
  { timeout: 120_000, webgpu: false },
);

test(
  'Embed dialog: snippet for the current state, copy, keyboard; pasted into a foreign page it sizes itself',
  async ({ page, appUrl, context, log }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: appUrl });
    await page.goto(`${appUrl}/?${SMALL}&scale=1.2`);
    // from a panel: that panel is preselected
    const rankButton = page.locator('[data-action="open-embed"][data-embed-for="rank"]');
    await rankButton.click();
    const dialog = page.locator('dialog[data-embed-dialog]');
    await dialog.waitFor();
    assert.equal(await dialog.locator('[data-embed-panel]').inputValue(), 'rank');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute('data-embed-for')),
      'rank',
      'focus returns to the button',
    );

    // from the header
    await page.click('header [data-action="open-embed"]');
    await dialog.waitFor();
    assert.equal(
      await page.evaluate(() => !!document.activeElement?.closest('dialog')),
      true,
      'focus moves into the dialog',
    );
    await dialog.locator('[data-embed-panel]').selectOption('feature-maps');
    for (const c of ['scale', 'map']) await dialog.locator(`[data-embed-control="${c}"]`).uncheck();
    await dialog.locator('[data-embed-frame-id]').fill('bad id!');
    await dialog.locator('[role="alert"]').waitFor();
    await dialog.locator('[data-embed-frame-id]').fill('my-fig');
    const { snippet, src } = await dialogSnippet(dialog);
    assert.equal(src.origin, new URL(appUrl).origin);
    for (const [k, v] of Object.entries({
      embed: 'feature-maps',
      controls: 'm',
      embedId: 'my-fig',
      n: '64',
      m: '16',
      scale: '1.2',
    }))
      assert.equal(src.searchParams.get(k), v, k);
    assert.ok(snippet.split('<script>')[1].split('\n').length <= 15, 'script of at most 15 lines');
    await dialog.locator('[data-action="copy-snippet"]').click();
    await page.waitForSelector('[data-copy-state="copied"], [data-copy-state="selected"]');
    const state = await page.getAttribute('[data-copy-state]', 'data-copy-state');
    if (state === 'copied') assert.equal(await page.evaluate(() => navigator.clipboard.readText()), snippet);
    else
      assert.equal(
        await page.evaluate(
          () =>
            window.getSelection()?.toString() ||
            document.activeElement.value.slice(
              document.activeElement.selectionStart,
              document.activeElement.selectionEnd,
            ),
        ),
        snippet,
      );
    log(`copy: ${state}`);

    const site = await foreignSite({
      '/pasted.html': `<!doctype html><html lang="en"><head><title>pasted</title></head><body><h1>A post</h1>${snippet}</body></html>`,
    });
    try {
      const p2 = await context.newPage();
      await p2.goto(`${site.url}/pasted.html`);
      const frame = await frameFor(p2, 'my-fig');
      assert.equal(await frame.getAttribute('[data-embed-controls]', 'data-embed-controls'), 'm');
      await settled(frame);
      const h = await waitSized(p2, frame, 'my-fig');
      log(`pasted snippet: frame ${h.frameHeight} px, content ${h.scrollHeight} px`);
      await p2.close();
    } finally {
      await site.close();
    }
  },
  { timeout: 180_000, webgpu: false },
);

test(
  'one figure alone (figure=): the dialog offers each figure of a panel; pasted, the frame shows that figure with its own status line and none of the panel’s text, runs only its analysis (not the main comparison), and is a fraction of the panel’s height; its credit opens the full page at that figure (the main panel’s figures too, drawn after the first render); a figure of another panel gets a notice and the whole panel',
  async ({ page, appUrl, context, log }) => {
    // the whole error panel's height in a 640-px frame (its figures' space is held before their values)
    await page.setViewportSize({ width: 640, height: 900 });
    await page.goto(`${appUrl}/?embed=error&${SMALL}&backend=cpu`);
    await page.waitForSelector('[data-embed="error"] [data-panel="error"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-analysis]').length >= 4);
    const wholeHeight = await page.evaluate(() => document.documentElement.scrollHeight);

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${appUrl}/?${SMALL}`);
    await page.locator('[data-action="open-embed"][data-embed-for="error"]').click();
    const dialog = page.locator('dialog[data-embed-dialog]');
    await dialog.waitFor();
    const choice = dialog.locator('[data-embed-figure-choice]');
    assert.deepEqual(
      await choice.locator('option').evaluateAll((os) => os.map((o) => o.value)),
      ['', 'error-vs-m', 'error-vs-scale', 'entropy-vs-scale', 'error-vs-d', 'entry-error'],
      'the whole panel, then each of its figures',
    );
    assert.equal((await dialogSnippet(dialog)).src.searchParams.get('figure'), null, 'the whole panel by default');
    // the entropy figure: on the page it shares the error-vs-scale figure's status line (status={false})
    await choice.selectOption('entropy-vs-scale');
    const title = 'Entropy of A and of the Performer’s Â vs norm scale s';
    assert.equal(await choice.locator('option:checked').textContent(), title);
    await dialog.locator('[data-embed-frame-id]').fill('one-fig');
    const { snippet, src } = await dialogSnippet(dialog);
    assert.equal(src.searchParams.get('figure'), 'entropy-vs-scale');
    assert.equal(src.searchParams.get('embed'), 'error');
    assert.ok(
      snippet.includes(`title="Performer, up close: Approximation error — ${title}`),
      'the frame is titled by its figure',
    );
    assert.ok(snippet.includes('height="900"'), 'a figure-sized first height');
    // another panel: its figures (or none) — the choice does not carry over
    await dialog.locator('[data-embed-panel]').selectOption('rank');
    assert.equal(await dialog.locator('[data-embed-figure-choice]').count(), 0, 'rank is one figure');
    assert.equal((await dialogSnippet(dialog)).src.searchParams.get('figure'), null);
    await dialog.locator('[data-embed-panel]').selectOption('error');
    assert.equal(await choice.inputValue(), '', 'back to the whole panel');
    await page.keyboard.press('Escape');

    const site = await foreignSite({
      '/one.html': `<!doctype html><html lang="en"><head><title>one figure</title></head><body style="width:640px"><h1>A post</h1>${snippet}</body></html>`,
    });
    try {
      const p2 = await context.newPage();
      await p2.goto(`${site.url}/one.html`);
      const frame = await frameFor(p2, 'one-fig');
      await settled(frame);
      const view = await frame.evaluate(() => ({
        figure: document.querySelector('[data-embed-figure]')?.getAttribute('data-embed-figure'),
        h3: [...document.querySelectorAll('main h3')].map((h) => h.textContent),
        charts: [...document.querySelectorAll('[data-export-figure]')].map((f) => f.getAttribute('data-export-figure')),
        statuses: [...document.querySelectorAll('[data-analysis]')].map((e) => e.getAttribute('data-analysis')),
        lead: [...document.querySelectorAll('[data-panel] :is(.lead, .formula, [data-metric])')].map((e) =>
          e.outerHTML.slice(0, 120),
        ),
        analyses: Object.keys(window.__performer.getState().analyses),
        compute: window.__performer.getState().compute.status,
        result: window.__performer.getState().compute.result !== null,
        h1: document.querySelector('h1').textContent,
      }));
      log(`one figure: ${JSON.stringify(view)}`);
      assert.equal(view.figure, 'entropy-vs-scale');
      assert.deepEqual(view.h3, [title], 'its title, no other figure’s');
      assert.deepEqual(view.charts, [title], 'one chart');
      assert.deepEqual(view.statuses, ['normSweep'], 'its own status line');
      assert.deepEqual(view.lead, [], 'no lead, formula or headline number of the panel');
      assert.deepEqual(view.analyses, ['normSweep'], 'only its analysis ran');
      assert.deepEqual([view.compute, view.result], ['idle', false], 'no main comparison: nothing here draws it');
      assert.ok(view.h1.endsWith(`— ${title}`), 'the heading names the figure');
      const h = await waitSized(p2, frame, 'one-fig');
      log(`one figure: frame ${h.frameHeight} px; the whole panel ${wholeHeight} px`);
      assert.ok(h.frameHeight < 0.4 * wholeHeight, `${h.frameHeight} px is not a fraction of ${wholeHeight} px`);
      // its credit opens the full explainer on that figure, in its panel
      const credit = await frame.$eval('a[data-embed-credit]', (a) => a.href);
      assert.equal(new URL(credit).hash, '#figure-entropy-vs-scale');
      assert.equal(new URL(credit).searchParams.get('figure'), null);
      await p2.close();
      const full = await context.newPage();
      await full.setViewportSize({ width: 1280, height: 800 });
      await full.goto(credit.replace('?', '?backend=cpu&'));
      const heading = full.locator('#figure-entropy-vs-scale');
      await heading.waitFor();
      // the landing ends once the heading has stayed at the top (src/app/hash-landing.ts)
      await full.waitForFunction(
        () => Math.abs(document.getElementById('figure-entropy-vs-scale').getBoundingClientRect().top) < 40,
        null,
        { timeout: 20_000 },
      );
      assert.equal(await heading.textContent(), title, 'the full page, at the embedded figure');
      // the main panel's figures are drawn from the result, which comes after the first render: their
      // link targets are there from the start, so a credit (or any link) to them lands too
      for (const id of ['figure-heatmaps', 'figure-attention-row']) {
        await full.goto(`${appUrl}/?backend=cpu&${SMALL}#${id}`);
        await full.waitForFunction(
          (i) => {
            const el = document.getElementById(i);
            return el && Math.abs(el.getBoundingClientRect().top) < 40 && el.querySelector('canvas, svg');
          },
          id,
          { timeout: 20_000 },
        );
      }
      await full.close();
    } finally {
      await site.close();
    }

    // a figure the panel does not have: a notice, and the whole panel
    for (const q of ['embed=rank&figure=error-vs-m', 'embed=error&figure=bogus', 'figure=error-vs-m']) {
      await page.goto(`${appUrl}/?${q}&${SMALL}&backend=cpu`);
      await page.waitForSelector('[data-notice="param-rejected"]');
      // it names the key and what it takes: each panel's figures
      assert.match(
        await page.textContent('[data-notice="param-rejected"]'),
        /figure = “[^”]*”.*error: error-vs-m, error-vs-scale.*showing the whole panel/,
        q,
      );
      assert.equal(await page.locator('[data-embed-figure=""], .app:not(.embed)').count(), 1, `${q}: the whole panel`);
    }
  },
  { timeout: 180_000, webgpu: false },
);

/** The controls of a figure embed without controls=: its panel's, or its own (src/store/embed.ts FIGURE_CONTROLS). */
const PANEL_CONTROLS = {
  main: 'n,m,scale,map',
  error: 'm,scale,d,map',
  sparsity: 'n,scale,input,map',
  beyond: 'n,m,scale,proj',
};
const OWN_CONTROLS = { 'feature-map-curves': 'map', 'map-rows': 'n,m,scale' };

/** Each figure an embed can show alone (src/store/embed.ts EMBED_FIGURES) and the analyses it draws. */
const FIGURE_OPS = {
  // the main panel's figures draw the main comparison's result, no analysis
  main: { heatmaps: [], 'attention-row': [] },
  error: {
    'error-vs-m': ['errorVsM'],
    'error-vs-scale': ['normSweep'],
    'entropy-vs-scale': ['normSweep'],
    'error-vs-d': ['errorVsD'],
    'entry-error': ['entryErrors'],
  },
  sparsity: {
    'entropy-histogram': ['rowEntropies'],
    'top-k-mass': ['rowEntropies'],
    'entropy-vs-n': ['entropyVsN'],
    'local-truncation': ['localTruncation'],
  },
  'feature-maps': { 'feature-map-curves': [], 'map-rows': ['mapRows'] },
  beyond: {
    'beyond-error-vs-dim': ['beyondSweeps'],
    'beyond-error-vs-scale': ['beyondSweeps'],
    'beyond-error-vs-time': ['estimatorTiming'],
  },
};

test(
  'every figure a panel offers alone: its own Embed button beside its downloads opens the dialog on it; the dialog lists exactly these, and each embed shows one figure (one title; the main heatmaps: the three heatmaps and nothing else of the panel), asks only for the analyses that figure draws and shows the controls that change it (chosen with the figure in the dialog, unless changed by hand); on a phone in Chinese the longest title stays inside the dialog and the snippet’s Chinese frame title is set in the bundled Han face',
  async ({ page, appUrl, log }) => {
    await page.goto(`${appUrl}/?${SMALL}&backend=cpu`);
    const dialog = page.locator('dialog[data-embed-dialog]');
    // a figure's own Embed button, beside its downloads, opens the dialog on that figure alone
    const own = page.locator('[data-embed-figure-for="error-vs-d"]');
    await own.scrollIntoViewIfNeeded({ timeout: 60_000 });
    assert.equal(await own.getAttribute('aria-label'), 'Embed “Error vs head dimension d” in a web page');
    await own.click();
    await dialog.waitFor();
    const opened = {
      panel: await dialog.locator('[data-embed-panel]').inputValue(),
      figure: await dialog.locator('[data-embed-figure-choice]').inputValue(),
      id: await dialog.locator('[data-embed-frame-id]').inputValue(),
      src: (await dialogSnippet(dialog)).src,
    };
    log(`opened from the figure: ${JSON.stringify({ ...opened, src: opened.src.search })}`);
    assert.deepEqual(
      [opened.panel, opened.figure, opened.id],
      ['error', 'error-vs-d', 'performer-error-vs-d'],
      'its panel, the figure chosen, a frame id named for it',
    );
    assert.equal(opened.src.searchParams.get('figure'), 'error-vs-d');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute('data-embed-figure-for')),
      'error-vs-d',
      'focus returns to the figure’s button',
    );
    // the downloads and the button share one row: the button sits level with PNG / SVG / CSV
    const row = await page.evaluate(() => {
      const button = document.querySelector('[data-embed-figure-for="error-vs-d"]');
      const b = button.getBoundingClientRect();
      const png = button.closest('.export-toolbar').querySelector('[data-export="png"]').getBoundingClientRect();
      return { dy: Math.abs(b.top - png.top), dh: Math.abs(b.height - png.height) };
    });
    assert.ok(row.dy <= 1 && row.dh <= 1, `the Embed button is out of line with the downloads: ${JSON.stringify(row)}`);

    await page.click('header [data-action="open-embed"]');
    await dialog.waitFor();
    for (const panel of PANELS) {
      await dialog.locator('[data-embed-panel]').selectOption(panel);
      const offered = await dialog
        .locator('[data-embed-figure-choice] option')
        .evaluateAll((os) => os.map((o) => o.value).filter(Boolean));
      assert.deepEqual(offered, Object.keys(FIGURE_OPS[panel] ?? {}), `${panel}: the figures offered`);
    }
    for (const [panel, figures] of Object.entries(FIGURE_OPS))
      for (const [figure, ops] of Object.entries(figures)) {
        await page.goto(`${appUrl}/?embed=${panel}&figure=${figure}&${SMALL}&backend=cpu`);
        if (panel === 'main') {
          // the heatmaps (no title of their own: the panel's) or the row chart, drawn from the result
          const part = { heatmaps: '.heatmaps canvas', 'attention-row': '.row-chart svg' }[figure];
          await page.waitForSelector(`[data-embed-figure="${figure}"] [data-panel="main"] ${part}`);
          const parts = await page.evaluate(() =>
            ['.heatmaps', '.row-chart', '.metrics', '.main-explainer', '.state-export'].map(
              (sel) => document.querySelectorAll(`[data-panel] ${sel}`).length,
            ),
          );
          log(`main/${figure}: heatmaps, row chart, numbers, explainer, JSON export ${parts.join(', ')}`);
          assert.deepEqual(parts, figure === 'heatmaps' ? [1, 0, 0, 0, 0] : [0, 1, 0, 0, 0], `main/${figure}`);
          if (figure === 'attention-row')
            assert.doesNotMatch(
              await page.textContent('.row-chart'),
              /Hover a heatmap row/,
              'alone, the row chart does not point at heatmaps it is without',
            );
        } else await page.waitForSelector(`[data-embed-figure="${figure}"] [data-panel="${panel}"] h3`);
        // requests go out when the panel body mounts; give its effects a moment, then read what was asked for
        await sleep(500);
        const view = await page.evaluate(() => ({
          h3: [...document.querySelectorAll('[data-panel] h3')].map((h) => h.textContent),
          analyses: Object.keys(window.__performer.getState().analyses).sort(),
          // (a figure's own numbers, as error vs s's at the largest s, are part of it)
          prose: document.querySelectorAll('[data-panel] :is(.lead, .formula)').length,
          controls: document.querySelector('[data-embed-controls]')?.getAttribute('data-embed-controls'),
        }));
        log(`${panel}/${figure}: ${JSON.stringify(view)}`);
        assert.equal(view.h3.length, panel === 'main' && figure === 'heatmaps' ? 0 : 1, `${figure}: one figure title`);
        assert.deepEqual(view.analyses, ops, `${figure}: the analyses asked for`);
        assert.equal(view.prose, 0, `${figure}: no lead or formula of the panel`);
        assert.equal(view.controls, OWN_CONTROLS[figure] ?? PANEL_CONTROLS[panel], `${figure}: its controls`);
      }
    // the dialog: a figure with controls of its own brings them (and the snippet leaves them to the default),
    // unless the controls were changed by hand
    await page.goto(`${appUrl}/?${SMALL}&backend=cpu`);
    await page.locator('[data-action="open-embed"][data-embed-for="feature-maps"]').click();
    const ticked = () =>
      dialog.locator('[data-embed-control]').evaluateAll((cs) =>
        cs
          .filter((c) => c.checked)
          .map((c) => c.dataset.embedControl)
          .join(','),
      );
    const controlsParam = async () => (await dialogSnippet(dialog)).src.searchParams.get('controls');
    assert.equal(await ticked(), 'm,scale,map');
    await dialog.locator('[data-embed-figure-choice]').selectOption('feature-map-curves');
    assert.equal(await ticked(), 'map', 'the curves bring their one control');
    assert.equal(await controlsParam(), null, 'the snippet leaves them to the figure’s default');
    await dialog.locator('[data-embed-control="seed"]').check();
    await dialog.locator('[data-embed-figure-choice]').selectOption('map-rows');
    assert.equal(await ticked(), 'map,seed', 'controls changed by hand stay');
    assert.equal(await controlsParam(), 'map,seed');
    await page.keyboard.press('Escape');
    // a phone, in Chinese: the longest figure title stays inside the dialog (cut in its box, whole on hover),
    // and the snippet's Chinese frame title is set in the bundled Han face, not boxes
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${appUrl}/?${SMALL}&backend=cpu&lang=zh`);
    await page.locator('[data-action="open-embed"][data-embed-for="sparsity"]').click();
    await dialog.locator('[data-embed-figure-choice]').selectOption('local-truncation');
    const fit = await page.evaluate(() => {
      const sel = document.querySelector('[data-embed-figure-choice]');
      const d = document.querySelector('dialog[data-embed-dialog]');
      const snippet = document.querySelector('[data-embed-snippet]');
      return {
        right: sel.getBoundingClientRect().right,
        inner: d.getBoundingClientRect().right - parseFloat(getComputedStyle(d).paddingRight),
        tooltip: sel.title,
        chosen: sel.selectedOptions[0].textContent,
        hanFace: getComputedStyle(snippet).fontFamily.split(',')[0].replace(/["']/g, ''),
        han: /近距离看/.test(snippet.value),
      };
    });
    log(`zh dialog at 390 px: ${JSON.stringify(fit)}`);
    assert.ok(
      fit.right <= fit.inner + 0.5,
      `the figure select ends at ${fit.right} px, past the dialog's ${fit.inner}`,
    );
    assert.equal(fit.tooltip, fit.chosen, 'its tooltip is the whole title');
    assert.ok(fit.han, 'the snippet carries the Chinese frame title');
    assert.equal(fit.hanFace, 'Noto Sans SC UI', 'the snippet is set in the bundled Han face first');
  },
  { timeout: 180_000, webgpu: false },
);

test(
  'four embeds on one page: only the frame on screen starts its engine and computes (the others wait until scrolled to); each shows the full page’s numbers',
  async ({ page, appUrl, newPage, log }) => {
    // not the defaults, so an embed that dropped a URL key would show other numbers than the full page
    const params = 'n=256&d=16&m=48&input=gaussian&scale=0.8&seed=2';
    const frameTag = (i) =>
      `<iframe src="${appUrl}/index.html?embed=main&${params}&controls=none&embedId=f${i}" data-performer-embed="f${i}" title="figure ${i}" scrolling="no" width="100%" height="900" style="display:block;width:100%;height:900px;border:0"></iframe>`;
    const post = (k) =>
      `<!doctype html><html lang="en"><head><title>${k} embeds</title></head><body><main><h1>${k} embeds</h1>${Array.from({ length: k }, (_, i) => `${frameTag(i + 1)}<div style="height:2500px"></div>`).join('')}</main></body></html>`;
    const site = await foreignSite({ '/one.html': post(1), '/four.html': post(4) });
    /** the main panel's headline numbers once its compute is idle (the time excluded: it is not a result) */
    const headline = async (target) => {
      await target.waitForFunction(
        () =>
          document.querySelector('[data-metric="rel-error-A"]')?.getAttribute('data-value') &&
          document.querySelector('.compute-status')?.getAttribute('data-status') !== 'computing',
        null,
        { timeout: 120_000 },
      );
      return target.$$eval('.metrics [data-metric]:not([data-metric="compute-ms"])', (els) =>
        Object.fromEntries(els.map((e) => [e.getAttribute('data-metric'), Number(e.getAttribute('data-value'))])),
      );
    };
    const shown = [];
    try {
      // a first, unmeasured load warms the HTTP cache so that 1 and 4 are compared alike
      for (const k of [0, 1, 4]) {
        await page.goto('about:blank');
        const t0 = Date.now();
        await page.goto(`${site.url}/${k === 4 ? 'four' : 'one'}.html`);
        await page.evaluate(() => {
          window.__long = [];
          new PerformanceObserver((l) => window.__long.push(...l.getEntries().map((e) => e.duration))).observe({
            type: 'longtask',
            buffered: true,
          });
        });
        const f1 = await frameFor(page, 'f1');
        await f1.evaluate(() => {
          window.__long = [];
          new PerformanceObserver((l) => window.__long.push(...l.getEntries().map((e) => e.duration))).observe({
            type: 'longtask',
            buffered: true,
          });
        });
        await f1.waitForSelector('main[data-has-result="1"]', { timeout: 60_000 });
        const firstResult = Date.now() - t0;
        if (k > 0) shown.push([`f1 of ${k}`, await headline(f1)]);
        await sleep(1_500); // let the other frames start (they are loaded eagerly: the worst case)
        const longFrame = await f1.evaluate(() => window.__long);
        const longPage = await page.evaluate(() => window.__long);
        if (k === 0) continue;
        const sum = (xs) => Math.round(xs.reduce((a, b) => a + b, 0));
        log(
          `${k} embed(s): first result of the visible one after ${firstResult} ms; long tasks in it ${longFrame.length} (total ${sum(longFrame)} ms, max ${Math.round(Math.max(0, ...longFrame))} ms), in the post ${longPage.length} (total ${sum(longPage)} ms)`,
        );
        if (k === 4) {
          for (const id of ['f2', 'f3', 'f4']) {
            const f = await frameFor(page, id);
            const s = await f.$eval('main.embed-main', (m) => ({
              active: m.dataset.active,
              result: m.dataset.hasResult,
            }));
            assert.deepEqual(s, { active: '0', result: '0' }, `off-screen frame ${id} computed`);
            // its engine has not even started (no backend chosen: no workers, no pipelines)
            assert.equal(
              await f.getAttribute('[data-metric="backend"]', 'data-value'),
              '',
              `off-screen frame ${id} started its engine`,
            );
          }
          // scroll to the last one: it computes, and the first one pauses
          await page.locator('iframe[data-performer-embed="f4"]').scrollIntoViewIfNeeded();
          const f4 = await frameFor(page, 'f4');
          const t1 = Date.now();
          await f4.waitForSelector('main[data-active="1"][data-has-result="1"]', { timeout: 60_000 });
          log(`4 embeds: f4 shows its first result ${Date.now() - t1} ms after it is scrolled into view`);
          shown.push(['f4 of 4', await headline(f4)]);
          await f1.waitForSelector('main[data-active="0"]', { timeout: 10_000 });
          const f2 = await frameFor(page, 'f2');
          assert.equal(
            await f2.getAttribute('main.embed-main', 'data-has-result'),
            '0',
            'a frame scrolled past without stopping',
          );
        }
      }
    } finally {
      await site.close();
    }
    // every embed shows the numbers of the full page at the same parameters (one embed or four, on
    // screen first or scrolled to; CPU stand-in or WebGPU: within f32 agreement of the two paths)
    const full = await newPage();
    await full.goto(`${appUrl}/?${params}&hide=error,sparsity,rank,feature-maps,beyond,speed`);
    const want = await headline(full);
    assert.deepEqual(Object.keys(want).sort(), [
      'entropy-exact',
      'entropy-performer',
      'mean-kl',
      'rel-error-A',
      'rel-error-out',
    ]);
    for (const [where, got] of shown) {
      assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort(), `${where}: the same metrics`);
      for (const [key, v] of Object.entries(want))
        assert.ok(Math.abs(got[key] - v) <= 1e-5 * Math.abs(v), `${where}: ${key} ${got[key]}, full page ${v}`);
    }
    log(
      `the full page and ${shown.map(([w]) => w).join(', ')}: rel. error of A ${want['rel-error-A'].toFixed(5)}, mean KL ${want['mean-kl'].toFixed(5)}`,
    );
    assert.equal(shown.length, 3);
  },
  { timeout: 240_000, webgpu: false },
);

test(
  'an error embed past the confirm threshold (n = 65,536) offers Compute anyway and Cancel in its own status, and its headline numbers say they are of the last result; a fresh load says they are not computed; in the full page the note stands beside the numbers',
  async ({ page, appUrl, log }) => {
    const stale = (name) => page.getAttribute(`[data-metric="${name}"]`, 'data-stale');
    const value = (name) => page.getAttribute(`[data-metric="${name}"]`, 'data-value');
    const HEADLINE = ['err-rel-error-A', 'err-rel-error-out', 'err-mean-kl'];
    await page.goto(`${appUrl}/?embed=error&controls=n,d,m&backend=cpu&${SMALL}`);
    await page.waitForFunction(() =>
      document.querySelector('[data-metric="err-rel-error-A"]')?.getAttribute('data-value'),
    );
    await page.waitForSelector('.embed-status .compute-status[data-status="ok"]');
    const before = await Promise.all(HEADLINE.map(value));

    await typeParam(page, 'n', 65536);
    // the embed's own status says the run waits, with the button that starts it
    const held = page.locator('.embed-status [data-held]');
    await held.waitFor({ timeout: 30_000 });
    assert.match(
      await held.textContent(),
      /Not started: this run \(n = 65,536, d = 8, m = 16.*\) is predicted to take about/,
    );
    assert.match(await held.textContent(), /The last result stays on screen/);
    // the numbers stay, dimmed, and the note beside them names the parameters they are of
    const note = page.locator('[data-panel="error"] [data-result-note="other"]');
    await note.waitFor();
    const noteText = await note.textContent();
    log(`held: ${await held.textContent()} | note: ${noteText}`);
    assert.match(noteText, /of the last result computed \(n = 64, d = 8, m = 16, .*\), not of the current parameters/);
    assert.deepEqual(await Promise.all(HEADLINE.map(value)), before, 'the previous numbers stay');
    assert.deepEqual(await Promise.all(HEADLINE.map(stale)), ['true', 'true', 'true'], 'each is marked stale');
    // dimmed is still legible (axe's contrast rule on the dimmed numbers, the note and the held status)
    assert.deepEqual(await axeViolations(page), [], 'axe in the held state (light)');

    // Compute anyway runs it with a Cancel in the embed; Cancel stops it and goes back to n = 64
    await held.locator('[data-action="compute-anyway"]').click();
    const running = page.locator('.embed-status .compute-status[data-long="true"]');
    await running.waitFor({ timeout: 30_000 });
    assert.equal(await page.locator('[data-result-note]').count(), 0, 'no note while the run is on its way');
    await running.locator('[data-action="cancel-compute"]').click();
    await page.locator('.embed-status [data-cancelled="reverted"]').waitFor({ timeout: 10_000 });
    assert.equal(await page.inputValue('[data-param-input="n"]'), '64');
    assert.equal(await page.locator('[data-result-note]').count(), 0, 'the numbers are the current ones again');
    assert.deepEqual(await Promise.all(HEADLINE.map(stale)), [null, null, null]);
    assert.deepEqual(await Promise.all(HEADLINE.map(value)), before);

    // a first load past the threshold: nothing to quote, and it says so
    await page.goto(`${appUrl}/?embed=error&controls=n,d,m&backend=cpu&n=65536&d=8&m=16`);
    await page.locator('.embed-status [data-held]').waitFor({ timeout: 30_000 });
    assert.match(await page.textContent('.embed-status [data-held]'), /Nothing has been computed yet/);
    await page.locator('[data-result-note="none"]').waitFor();
    assert.match(await page.textContent('[data-result-note="none"]'), /not computed for the current parameters/);
    assert.deepEqual(await Promise.all(HEADLINE.map(value)), ['', '', '']);
    // and dark: the same state, held at a stale result (one quoted at n = 64 first)
    await page.goto(`${appUrl}/?embed=error&controls=n,d,m&backend=cpu&${SMALL}&theme=dark`);
    await page.waitForSelector('.embed-status .compute-status[data-status="ok"]', { timeout: 60_000 });
    await typeParam(page, 'n', 65536);
    await page.locator('[data-result-note="other"]').waitFor({ timeout: 30_000 });
    assert.deepEqual(await axeViolations(page), [], 'axe in the held state (dark)');

    // the full page: the held status is at the top of the main comparison, the note beside the numbers
    await page.goto(`${appUrl}/?backend=cpu&${SMALL}`);
    await page.waitForSelector('#panel-main .compute-status[data-status="ok"]', { timeout: 60_000 });
    await typeParam(page, 'n', 65536);
    await page.locator('#panel-main [data-held]').waitFor({ timeout: 30_000 });
    await page.locator('[data-panel="error"] [data-result-note="other"]').waitFor();
    assert.deepEqual(await Promise.all(HEADLINE.map(stale)), ['true', 'true', 'true']);
  },
  { timeout: 180_000, webgpu: false },
);
