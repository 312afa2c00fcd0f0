// 中文 end to end, on the CPU path (the text does not depend on the backend): with ?lang=zh every
// text users see or hear — text nodes, aria-label, title, placeholder, alt, aria-valuetext, <option>
// — of the whole page (header, controls, every panel once its analyses have finished, footer) holds
// no untranslated English sentence; the same for each panel embedded alone (?embed=<panel>), every
// presentation slide (?present, → until the step stops changing) and every dialog opened by a
// [data-open-dialog] button, where the app has them. Also: the header select switches the language
// and <html lang>, lang=xx gives a notice, and a browser whose language is Chinese gets Chinese by
// default. Run: node e2e/run.mjs i18n
import assert from 'node:assert/strict';
import { test } from './harness.mjs';

/**
 * An "English sentence" is a run of ≥ 3 English words with nothing between them but spaces, ASCII
 * punctuation, digits and typographic quotes/dashes — a CJK character (or CJK punctuation, or any
 * other non-ASCII symbol such as =, ×, ‖ in math: φ, ≤) ends the run. A word is ≥ 2 Latin letters
 * (apostrophes inside allowed); single letters are symbols (n, d, m, i, j). Words on ALLOWED (math
 * tokens, units, proper names, identifiers) neither count nor end a run. Not walked: KaTeX output
 * (.katex), code/pre/kbd/samp/textarea (code is not prose), and elements marked as deliberately
 * untranslated — translate="no" (authors' names) or lang="en…" (English titles of cited papers).
 */
const ALLOWED = [
  // methods, products, proper names
  'performer',
  'performers',
  'favor',
  'webgpu',
  'softmax',
  'relu',
  'elu',
  'gelu',
  'transformer',
  'transformers',
  'swiftshader',
  'katex',
  'google',
  'ai',
  'arxiv',
  'iclr',
  'icml',
  'wacv',
  'kexue',
  'fm',
  'scientific',
  'spaces',
  'su',
  'jianlin',
  'krzysztof',
  'choromanski',
  'lucy',
  'colwell',
  'angelos',
  'katharopoulos',
  'zhuoran',
  'shen',
  'chromium',
  'chrome',
  'vulkan',
  'navigator',
  'requestadapter',
  'requestdevice',
  // math and statistics tokens
  'exp',
  'log',
  'ln',
  'max',
  'min',
  'sin',
  'cos',
  'tanh',
  'kl',
  'mse',
  'rms',
  'svd',
  'iid',
  'top',
  'nan',
  'inf',
  'sm',
  'trig',
  'eff',
  'rank',
  'frobenius',
  'std',
  'qk',
  // units, formats, identifiers that appear in URLs and file names
  'nats',
  'nat',
  'ms',
  'px',
  'gpu',
  'cpu',
  'fps',
  'png',
  'svg',
  'csv',
  'json',
  'npy',
  'html',
  'iframe',
  'url',
  'id',
  'api',
  'backend',
  'lang',
  'en',
  'zh',
  'true',
  'false',
  'float',
  'f32',
  'f64',
];
const SKIP_SELECTOR =
  '.katex, script, style, noscript, template, code, pre, kbd, samp, textarea, [translate="no"], [lang^="en"]';
const ATTRIBUTES = [
  'aria-label',
  'title',
  'placeholder',
  'alt',
  'aria-valuetext',
  'aria-description',
  'aria-roledescription',
];

/** Runs in the page: every English sentence under `rootSelector` (document body by default). */
function findEnglishInPage({ allowed, skip, attributes, rootSelector }) {
  const allow = new Set(allowed);
  const NEUTRAL = /[\s\x21-\x40\x5b-\x60\x7b-\x7e\u00a0\u2018\u2019\u201c\u201d\u2013\u2014\u2026\u00b7]/;
  const runs = (text) => {
    const out = [];
    let run = [];
    let start = -1;
    let end = -1;
    const flush = () => {
      if (run.length >= 3) out.push(text.slice(start, end));
      run = [];
      start = -1;
    };
    const re = /[A-Za-z]+(?:['’][A-Za-z]+)*/g;
    let last = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const between = text.slice(last, m.index);
      if ([...between].some((c) => !NEUTRAL.test(c))) flush();
      const w = m[0];
      if (w.length >= 2 && !allow.has(w.toLowerCase())) {
        if (start < 0) start = m.index;
        run.push(w);
        end = m.index + w.length;
      }
      last = m.index + w.length;
    }
    if ([...text.slice(last)].some((c) => !NEUTRAL.test(c))) flush();
    flush();
    return out;
  };
  const where = (el) => {
    const panel = el.closest('[data-panel]')?.getAttribute('data-panel');
    const tag = el.tagName.toLowerCase();
    const cls =
      typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
    return `${panel ? `[panel ${panel}] ` : ''}<${tag}${cls}>`;
  };
  const found = [];
  const root = rootSelector ? document.querySelector(rootSelector) : document.body;
  if (!root) return found;
  const visit = (el) => {
    if (el.matches(skip)) return;
    const own = [...el.childNodes]
      .filter((n) => n.nodeType === Node.TEXT_NODE)
      .map((n) => n.nodeValue)
      .join('');
    for (const r of runs(own)) found.push(`${where(el)} text: “${r}” in “${own.trim().slice(0, 160)}”`);
    for (const a of attributes) {
      const v = el.getAttribute(a);
      if (v) for (const r of runs(v)) found.push(`${where(el)} @${a}: “${r}” in “${v.slice(0, 160)}”`);
    }
    if (el.tagName === 'INPUT' && /^(button|submit|reset)$/i.test(el.type) && el.value)
      for (const r of runs(el.value)) found.push(`${where(el)} value: “${r}”`);
    for (const c of el.children) visit(c);
  };
  visit(root);
  return [...new Set(found)];
}

async function findEnglish(page, rootSelector) {
  return page.evaluate(findEnglishInPage, {
    allowed: ALLOWED,
    skip: SKIP_SELECTOR,
    attributes: ATTRIBUTES,
    rootSelector,
  });
}

/**
 * Waits until the page has settled: no analysis running or waiting, no compute in flight, and the
 * page text unchanged for 1.5 s (panels mount analyses only after the first result arrives).
 */
async function settle(page, timeout = 150_000) {
  const t0 = Date.now();
  // panels that start their analyses only when near the viewport (Beyond the Performer) start now. A
  // plain scroll, not Playwright's scrollIntoViewIfNeeded: that one first waits for the panel's box to
  // hold still for two frames, and while the panels above re-render as results stream in on a loaded
  // machine it did not within 30 s (once in three full runs); coming near the viewport is all it needs
  for (const panel of await page.locator('[data-panel]').all())
    await panel.evaluate(
      (el) =>
        new Promise((done) => {
          el.scrollIntoView({ block: 'center' });
          requestAnimationFrame(() => requestAnimationFrame(done));
        }),
    );
  let lastSig = '';
  let stableSince = Date.now();
  while (Date.now() - t0 < timeout) {
    const { busy, sig } = await page.evaluate(() => {
      const pending = [...document.querySelectorAll('.analysis-status')].filter(
        (e) => !['done', 'error', 'cancelled'].includes(e.getAttribute('data-status') ?? ''),
      );
      const computing = document.querySelector('.compute-status[data-status="computing"]');
      const text = document.body.innerText;
      return {
        busy: pending.length > 0 || !!computing,
        sig: `${text.length}:${text.slice(0, 200)}:${document.querySelectorAll('[data-status]').length}`,
      };
    });
    if (busy || sig !== lastSig) {
      lastSig = sig;
      stableSince = Date.now();
    } else if (Date.now() - stableSince > 250) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`page did not settle within ${timeout} ms`);
}

function report(label, found) {
  return `${found.length} untranslated English sentence(s) ${label}:\n  ${found.join('\n  ')}`;
}

test(
  'zh: no untranslated English sentence on the page, in any panel, embed, slide or dialog',
  async ({ page, appUrl, log }) => {
    const tStart = Date.now();
    // a small scene: the walk reads text, and every text appears at any size (the analyses finish sooner)
    const small = 'n=64&d=8&m=16';
    await page.goto(`${appUrl}/?lang=zh&backend=cpu&${small}`);
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    // every panel is there and has finished its analyses
    await page.waitForFunction(
      () => document.querySelectorAll('[data-panel]').length >= 5 && document.querySelector('[data-result-params]'),
      null,
      { timeout: 60_000 },
    );
    await settle(page);
    const analyses = await page.$$eval('[data-analysis]', (els) =>
      els.map((e) => `${e.getAttribute('data-analysis')}=${e.getAttribute('data-status')}`),
    );
    log(`analyses (${((Date.now() - tStart) / 1000).toFixed(1)} s): ${analyses.join(', ')}`);
    assert.ok(analyses.length >= 9, `expected every panel's analyses on the page, found ${analyses.length}`);
    assert.ok(
      analyses.every((a) => a.endsWith('=done')),
      `every analysis finished: ${analyses.join(', ')}`,
    );
    // the walker itself is sound: it finds English where there is some
    await page.evaluate(() => {
      const p = document.createElement('p');
      p.id = 'i18n-probe';
      p.textContent = '注意力 the error of A grows with d';
      p.title = 'Exact softmax attention vs its linear approximation';
      document.body.append(p);
    });
    const probed = await findEnglish(page, '#i18n-probe');
    assert.equal(
      probed.length,
      2,
      `the walker flags a planted sentence in text and in an attribute: ${probed.join(' | ')}`,
    );
    await page.evaluate(() => document.getElementById('i18n-probe')?.remove());

    const found = await findEnglish(page);
    const panels = await page.$$eval('[data-panel]', (els) => els.map((e) => e.getAttribute('data-panel')));
    const tPage = Date.now();
    log(`walked the page: header, controls, ${panels.length} panels (${panels.join(', ')}), footer`);

    // dialogs opened by [data-open-dialog] buttons (built by other parts of the app)
    const dialogButtons = await page.$$('[data-open-dialog]');
    for (const [k, button] of dialogButtons.entries()) {
      const name = (await button.getAttribute('data-open-dialog')) || `#${k}`;
      await button.click();
      const dialog = await page.waitForSelector(
        'dialog[open], [role="dialog"]:not([hidden]), [role="alertdialog"]:not([hidden])',
        { timeout: 10_000 },
      );
      await page.waitForTimeout(300);
      await dialog.evaluate((el) => el.setAttribute('data-i18n-walk', ''));
      for (const f of await findEnglish(page, '[data-i18n-walk]')) found.push(`[dialog ${name}] ${f}`);
      await dialog.evaluate((el) => el.removeAttribute('data-i18n-walk'));
      await page.keyboard.press('Escape');
      await page.waitForTimeout(300);
      await page.evaluate(() => document.querySelectorAll('dialog[open]').forEach((d) => d.close()));
    }
    log(`dialogs walked: ${dialogButtons.length}`);
    assert.deepEqual(found, [], report('on the page', found));

    // each panel embedded alone (?embed=<panel>): the embed's own frame, controls and credit
    const embeds = [];
    for (const id of panels) {
      await page.goto(`${appUrl}/?lang=zh&backend=cpu&${small}&embed=${id}`);
      await page.waitForSelector(`[data-embed="${id}"]`, { timeout: 30_000 });
      await settle(page);
      for (const f of await findEnglish(page)) embeds.push(`[embed ${id}] ${f}`);
    }
    log(`embeds walked: ${panels.length} (${((Date.now() - tPage) / 1000).toFixed(1)} s after the page)`);
    const tEmbeds = Date.now();
    assert.deepEqual(embeds, [], report('in the embeds', embeds));

    // presentation slides: ?present, then → until the step stops changing
    await page.goto(`${appUrl}/?lang=zh&backend=cpu&present`);
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    await settle(page);
    // the step is in the URL (step=N) where the app has slides; without one, fall back to the text
    const state = () =>
      page.evaluate(
        () => new URL(location.href).searchParams.get('step') ?? `text:${document.body.innerText.slice(0, 400)}`,
      );
    const slides = [];
    let before = await state();
    for (let step = 0; step < 60; step++) {
      for (const f of await findEnglish(page))
        slides.push(`[slide ${before.startsWith('text:') ? step : before}] ${f}`);
      await page.evaluate(() =>
        document.activeElement instanceof HTMLElement ? document.activeElement.blur() : undefined,
      );
      await page.keyboard.press('ArrowRight');
      await settle(page);
      const after = await state();
      if (after === before) {
        log(
          step === 0
            ? 'no presentation mode in this build (→ changes nothing)'
            : `walked ${step + 1} slides (${((Date.now() - tEmbeds) / 1000).toFixed(1)} s)`,
        );
        break;
      }
      before = after;
    }
    assert.deepEqual(slides, [], report('on the slides', [...new Set(slides)]));
  },
  { timeout: 420_000, webgpu: false },
);

test(
  'the header select switches the language: text, <html lang> and the URL follow',
  async ({ page, appUrl }) => {
    await page.goto(`${appUrl}/?backend=cpu`);
    await page.waitForSelector('h1');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    assert.equal(await page.textContent('h1'), 'Performer, up close');
    assert.equal(await page.textContent('#h-error'), '1 · How large is the error, and what drives it?');
    const select = page.locator('.app-header select[data-setting="lang"]');
    assert.deepEqual(await select.locator('option').allTextContents(), ['English', '中文']);

    await select.selectOption('zh');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    assert.equal(await page.textContent('h1'), '细看 Performer');
    assert.equal(await page.textContent('#h-error'), '1 · 误差有多大，由什么决定？');
    assert.equal(await page.evaluate(() => document.title), '细看 Performer —— softmax 与 FAVOR+ 线性注意力');
    assert.match(await page.textContent('.app-footer'), /苏剑林.*科学空间/s);
    await page.waitForFunction(() => new URL(location.href).searchParams.get('lang') === 'zh');

    await select.selectOption('en');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    assert.equal(await page.textContent('h1'), 'Performer, up close');
    // chosen explicitly: the URL keeps naming it, so a copied link opens in English for everyone
    await page.waitForFunction(() => new URL(location.href).searchParams.get('lang') === 'en');
    const links = await page.$$eval('.app-footer a', (as) => as.map((a) => a.getAttribute('href')));
    for (const href of [
      'https://kexue.fm/archives/8338',
      'https://arxiv.org/abs/2009.14794',
      'https://research.google/blog/rethinking-attention-with-performers/',
    ]) {
      assert.ok(links.includes(href), `the footer links ${href}: ${links.join(', ')}`);
    }
    assert.ok(!/seed 00\d/i.test(await page.textContent('body')), 'no "seed 000/001" anywhere on the page');
  },
  { timeout: 60_000, webgpu: false },
);

test(
  'lang=xx gives a notice naming the parameter, and the page stays in the default language',
  async ({ page, appUrl }) => {
    await page.goto(`${appUrl}/?lang=xx&backend=cpu`);
    await page.waitForSelector('[data-notice="param-rejected"]', { timeout: 30_000 });
    const text = await page.textContent('.notices');
    assert.match(text, /lang = “xx”/);
    assert.match(text, /en, zh/);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    assert.equal(await page.textContent('h1'), 'Performer, up close');
  },
  { timeout: 60_000, webgpu: false },
);

test(
  'a browser whose language is Chinese (locale zh-CN) gets Chinese without lang= in the URL',
  async ({ context, appUrl }) => {
    const zhContext = await context.browser().newContext({ locale: 'zh-CN', viewport: { width: 1280, height: 800 } });
    const errors = [];
    try {
      const page = await zhContext.newPage();
      page.on('pageerror', (e) => errors.push(e));
      await page.goto(`${appUrl}/?backend=cpu`);
      assert.equal(await page.evaluate(() => navigator.languages[0]), 'zh-CN');
      await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
      assert.equal(await page.textContent('h1'), '细看 Performer');
      assert.equal(await page.inputValue('.app-header select[data-setting="lang"]'), 'zh');
      // the browser default is not written into the URL (a shared link opens in each reader's language)
      await page.waitForFunction(() => new URL(location.href).searchParams.has('n'));
      assert.equal(await page.evaluate(() => new URL(location.href).searchParams.get('lang')), null);
      // an explicit lang= still wins
      await page.goto(`${appUrl}/?lang=en&backend=cpu`);
      await page.waitForFunction(() => document.documentElement.lang === 'en');
      assert.equal(await page.textContent('h1'), 'Performer, up close');
      assert.deepEqual(errors, []);
    } finally {
      await zhContext.close();
    }
  },
  { timeout: 60_000, webgpu: false },
);

/**
 * The fonts Chromium drew the text of the elements matching `selector` with (DevTools'
 * CSS.getPlatformFontsForNode, per element: its own text nodes): family, whether it is a web font
 * (isCustomFont) and how many glyphs it drew.
 */
async function fontsDrawn(page, selector) {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
    const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector });
    const out = [];
    for (const nodeId of nodeIds) out.push(...(await cdp.send('CSS.getPlatformFontsForNode', { nodeId })).fonts);
    return out;
  } finally {
    await cdp.detach();
  }
}
const cjkFaces = (page) =>
  page.evaluate(() =>
    [...document.fonts]
      .filter((f) => f.family.replace(/"/g, '') === 'Noto Sans SC UI')
      .map((f) => ({ status: f.status, points: f.unicodeRange.split(',').length })),
  );

/** CJK characters in the own text nodes of the elements matching `selector` (what fontsDrawn counts). */
const cjkInText = (page, selector) =>
  page.evaluate(
    (sel) =>
      [...document.querySelectorAll(sel)]
        .flatMap((el) => [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE))
        .map((n) => n.textContent.match(/[\u2E80-\u9FFF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFFEF]/gu)?.length ?? 0)
        .reduce((a, b) => a + b, 0),
    selector,
  );
const describeFonts = (fonts) =>
  fonts.map((f) => `${f.familyName}${f.isCustomFont ? ' (web)' : ''} ×${f.glyphCount}`).join(', ');

/** Every CJK character of the elements' own text drawn by the bundled face (and only those by it). */
async function assertHanInBundledFace(page, selector, log) {
  const fonts = await fontsDrawn(page, selector);
  const han = await cjkInText(page, selector);
  log(`${selector}: ${han} CJK characters; ${describeFonts(fonts)}`);
  assert.ok(han > 0, `${selector} holds CJK text`);
  const bundled = fonts.filter((f) => f.isCustomFont && f.familyName === 'Noto Sans CJK SC');
  assert.equal(
    bundled.reduce((a, f) => a + f.glyphCount, 0),
    han,
    `${selector}: every CJK glyph from the bundled face (${describeFonts(fonts)})`,
  );
}

test(
  'Han is drawn in the bundled CJK face, not the machine’s: the Chinese page’s headings, prose, labels and formula text, and the English page’s 苏剑林 (which loads only the small common subset)',
  async ({ page, appUrl, log }) => {
    await page.goto(`${appUrl}/?backend=cpu`);
    await page.waitForSelector('.app-footer');
    await assertHanInBundledFace(page, '.app-footer li span[translate="no"]', log);
    const facesEn = await cjkFaces(page);
    log(`CJK faces on the English page: ${JSON.stringify(facesEn)}`);
    assert.deepEqual(
      facesEn.map((f) => f.status).sort(),
      ['loaded', 'unloaded'],
      'the common subset loaded, the Chinese UI’s not downloaded',
    );
    assert.equal(facesEn.find((f) => f.status === 'loaded').points, 9, 'the loaded one is the 9-character subset');

    await page.goto(`${appUrl}/?backend=cpu&lang=zh`);
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    await page.waitForSelector('#h-error');
    await page.locator('.katex .cjk_fallback').first().waitFor({ state: 'attached', timeout: 30_000 });
    assert.deepEqual(
      (await cjkFaces(page)).map((f) => f.status),
      ['loaded', 'loaded'],
      'both subsets loaded on the Chinese page',
    );
    // one panel's lead, scrolled on screen (a panel off screen is not laid out: content-visibility)
    await page.locator('[data-panel="error"] .lead').scrollIntoViewIfNeeded();
    const formula = page.locator('.katex .cjk_fallback').first();
    for (const selector of ['h1', '#h-error', '[data-panel="error"] .lead', '.lang-switch'])
      await assertHanInBundledFace(page, selector, log);
    // the Han of the first formula that has some (\text{…}), on screen
    await formula.scrollIntoViewIfNeeded();
    await page.evaluate(() =>
      document
        .querySelector('.katex .cjk_fallback')
        .closest('.katex')
        .querySelectorAll('.cjk_fallback')
        .forEach((el) => el.setAttribute('data-probe-cjk', '')),
    );
    await assertHanInBundledFace(page, '[data-probe-cjk]', log);
  },
  { timeout: 60_000, webgpu: false },
);

test(
  'the language select waits for the Chinese face before switching, shows the pending choice meanwhile, and a quicker second choice wins over the first',
  async ({ page, appUrl }) => {
    // the Chinese subset held back 1.5 s, so a choice is still loading when the next one is made
    await page.route(/cjk-zh[^/]*\.woff2(\?.*)?$/, async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await page.goto(`${appUrl}/?backend=cpu`);
    await page.waitForSelector('h1');
    const select = page.locator('.app-header select[data-setting="lang"]');

    await select.selectOption('zh');
    assert.equal(await select.inputValue(), 'zh', 'the select shows the choice at once');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en', 'the page waits for the face');
    await select.selectOption('en');
    await page.waitForTimeout(2000); // the Chinese face has arrived by now
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en', 'the later choice (English) wins');
    assert.equal(await select.inputValue(), 'en');
    assert.equal(await page.textContent('h1'), 'Performer, up close');

    await select.selectOption('zh');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    assert.equal(await page.textContent('h1'), '细看 Performer');
    const faces = await page.evaluate(() =>
      [...document.fonts].filter((f) => f.family.replace(/"/g, '') === 'Noto Sans SC UI').map((f) => f.status),
    );
    assert.deepEqual(faces, ['loaded', 'loaded'], 'switched with the Chinese face loaded');
  },
  { timeout: 60_000, webgpu: false },
);

test(
  'Chinese strings that cannot load (offline, a blocked chunk) leave the page in English with a notice: from the select, and from lang=zh on load',
  async ({ page, appUrl }) => {
    // the Chinese strings are a chunk of their own (src/i18n/index.ts): refuse it
    await page.route(/\/assets\/zh-[^/]*\.js(\?.*)?$/, (route) => route.abort());
    await page.goto(`${appUrl}/?backend=cpu`);
    await page.waitForSelector('h1');
    const select = page.locator('.app-header select[data-setting="lang"]');
    await select.selectOption('zh');
    const notice = page.locator('.notices', { hasText: 'could not be loaded' });
    await notice.waitFor({ timeout: 20_000 });
    assert.match(await notice.textContent(), /中文 could not be loaded \(is the page offline\?\)/);
    assert.equal(await select.inputValue(), 'en', 'the select goes back to the language in force');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    assert.equal(await page.textContent('h1'), 'Performer, up close');

    await page.goto(`${appUrl}/?lang=zh&backend=cpu`);
    await page.waitForSelector('h1');
    assert.equal(await page.textContent('h1'), 'Performer, up close', 'the page renders in English');
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    assert.match(await page.locator('.notices').textContent(), /中文 could not be loaded/);
    assert.equal(await select.inputValue(), 'en');
  },
  { timeout: 60_000, webgpu: false },
);

/**
 * The controls' selects under `scope`: per select, the room its chosen option's text has (its box
 * less padding and Chromium's arrow, 20 px) and each option's text width in its font, measured through
 * a canvas (a select's own text cannot be measured).
 */
async function selectRoom(page, scope) {
  await page.evaluate(() => document.fonts.ready);
  return page.locator(`${scope} select`).evaluateAll((selects) => {
    const ctx = document.createElement('canvas').getContext('2d');
    return selects.map((s) => {
      const cs = getComputedStyle(s);
      ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      return {
        name: s.getAttribute('data-param') ?? s.id,
        room: s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20,
        options: [...s.options].map((o) => ({ text: o.text, width: ctx.measureText(o.text).width })),
      };
    });
  });
}

test(
  'no select of the controls cuts off a choice: every option of the sidebar’s selects fits their box at 1280 and 390 px, in English and Chinese; a map’s or projection’s full name, with its source, stands under its select (an embed’s: its tooltip only)',
  async ({ page, appUrl, log }) => {
    for (const lang of ['en', 'zh'])
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${appUrl}/?backend=cpu&lang=${lang}`);
        await page.waitForSelector('.sidebar select[data-param="featureMap"]');
        const selects = await selectRoom(page, '.sidebar');
        assert.ok(selects.length >= 4, `the sidebar's selects (${selects.length})`);
        for (const s of selects) {
          const widest = Math.max(...s.options.map((o) => o.width));
          log(`${lang} ${width} px: ${s.name} widest option ${widest.toFixed(0)} of ${s.room.toFixed(0)} px`);
          for (const o of s.options)
            assert.ok(
              o.width <= s.room,
              `${lang}, ${width} px, ${s.name}: “${o.text}” ${o.width.toFixed(0)} > ${s.room} px`,
            );
        }
      }
    // the option reads short; the full name stands under the select
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${appUrl}/?backend=cpu&map=oprf`);
    const row = page.locator('.sidebar .control', { has: page.locator('select[data-param="featureMap"]') });
    assert.equal(await row.locator('select option:checked').textContent(), 'FAVOR++ (optimal positive)');
    assert.equal(await row.locator('.help').textContent(), 'FAVOR++: optimal positive RF (Likhosherstov et al. 2022)');
    const proj = page.locator('.sidebar .control', { has: page.locator('select[data-param="projection"]') });
    assert.equal(await proj.locator('.help').textContent(), 'Orthogonal, χ-distributed norms (paper default)');
    assert.equal(
      await row.locator('select').getAttribute('title'),
      'FAVOR++: optimal positive RF (Likhosherstov et al. 2022)',
      'the full name is the select’s tooltip too',
    );
    // a name that fits whole needs no line under it
    await page.selectOption('.sidebar select[data-param="featureMap"]', 'positive');
    await row.locator('.help').waitFor({ state: 'detached' });
    // an embed's strip keeps one line per control: the full name is the tooltip only, and the
    // options fit its selects at a phone's width
    await page.setViewportSize({ width: 340, height: 700 });
    await page.goto(`${appUrl}/?backend=cpu&embed=beyond`);
    const embedProj = page.locator('.embed-controls .control', {
      has: page.locator('select[data-param="projection"]'),
    });
    await embedProj.waitFor();
    assert.equal(await embedProj.locator('.help').count(), 0, 'no line under the embed’s select');
    assert.equal(
      await embedProj.locator('select').getAttribute('title'),
      'Orthogonal, χ-distributed norms (paper default)',
    );
    for (const s of await selectRoom(page, '.embed-controls'))
      for (const o of s.options) assert.ok(o.width <= s.room, `embed, 340 px, ${s.name}: “${o.text}” > ${s.room} px`);
  },
  { webgpu: false, timeout: 120_000 },
);
