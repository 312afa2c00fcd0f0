// Export end to end on the CPU path (no WebGPU needed: the files are built from what is on screen
// and, for the JSON, by the engine's CPU twins). Downloads are captured and checked as files:
// PNG signature and 2× size, SVG that parses and holds the chart's marks, CSV = the data table,
// and a JSON whose exact A and error the test recomputes itself from Q, K and V.
// Run: node e2e/run.mjs export
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PANEL_ANALYSES as ANALYSES } from './app-analyses.mjs';
import { test } from './harness.mjs';

const PARAMS = { n: 96, d: 16, m: 48, causal: true };
const QUERY = `?backend=cpu&n=${PARAMS.n}&d=${PARAMS.d}&m=${PARAMS.m}&causal=1&scale=1&seed=3&fseed=5&map=positive&input=gaussian&proj=orthogonal-chi`;

let keepDir = null;

/** Clicks `target` (a selector or a locator) and returns the file it downloads (a copy stays in e2e/artifacts/export/). */
async function download(page, target) {
  const button = typeof target === 'string' ? page.locator(target) : target;
  const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), button.click()]);
  const failure = await dl.failure();
  assert.equal(failure, null, `download failed: ${failure}`);
  const file = { name: dl.suggestedFilename(), bytes: readFileSync(await dl.path()) };
  if (keepDir) writeFileSync(join(keepDir, file.name), file.bytes);
  return file;
}

/** Parses an SVG document in the page and returns what the checks need. */
async function inspectSvg(page, text) {
  return page.evaluate((src) => {
    // parsed without its @font-face <style>: a parsed <style> falls under the page's CSP (style-src-elem),
    // which reports it, though nothing of it is applied; the faces are checked on the text itself
    const doc = new DOMParser().parseFromString(src.replace(/<style>[\s\S]*?<\/style>/g, ''), 'image/svg+xml');
    const root = doc.documentElement;
    const texts = [...doc.querySelectorAll('text')].map((t) => t.textContent);
    return {
      error: doc.querySelector('parsererror')?.textContent ?? null,
      root: root.localName,
      width: Number(root.getAttribute('width')),
      images: [...doc.querySelectorAll('image')].map((i) =>
        (i.getAttribute('href') ?? i.getAttribute('xlink:href') ?? '').slice(0, 22),
      ),
      strokedPaths: [...doc.querySelectorAll('path')].filter(
        (p) => /stroke:\s*rgb/.test(p.getAttribute('style') ?? '') && (p.getAttribute('d') ?? '').length > 20,
      ).length,
      texts,
      textStyles: Object.fromEntries(
        [...doc.querySelectorAll('text')].map((t) => [t.textContent, t.getAttribute('style') ?? '']),
      ),
      external: /(?:href|src)="(?!data:|#)/.test(src) || /url\((?!data:|#)/.test(src),
    };
  }, text);
}

/** Distinct colours in the middle third of a PNG, decoded by the browser (a drawn heatmap has many). */
async function pngColours(page, bytes) {
  const { width, height, rgba } = await pngPixels(page, bytes);
  const px = Buffer.from(rgba, 'base64');
  const set = new Set();
  for (let y = Math.floor(height / 3); y < Math.floor((2 * height) / 3); y++)
    for (let x = Math.floor(width / 3); x < Math.floor((2 * width) / 3); x++) {
      const i = 4 * (y * width + x);
      set.add((px[i] << 16) | (px[i + 1] << 8) | px[i + 2]);
    }
  return set.size;
}

/** A PNG file's pixels, decoded by the browser (without fetch(): the app's CSP, connect-src 'self', rightly refuses data: fetches); RGBA as base64. */
async function pngPixels(page, bytes) {
  return page.evaluate(async (b64) => {
    const blob = new Blob([Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0))], { type: 'image/png' });
    const bmp = await createImageBitmap(blob);
    const c = new OffscreenCanvas(bmp.width, bmp.height);
    const ctx = c.getContext('2d');
    ctx.drawImage(bmp, 0, 0);
    const px = ctx.getImageData(0, 0, bmp.width, bmp.height).data;
    let bin = '';
    for (let i = 0; i < px.length; i += 0x8000) bin += String.fromCharCode(...px.subarray(i, i + 0x8000));
    return { width: bmp.width, height: bmp.height, rgba: btoa(bin) };
  }, bytes.toString('base64'));
}

/** The texts an exported SVG draws above its figure: the title, then the caption's lines. */
function headLines(svg) {
  const head = /<\/title>(?:<defs>[\s\S]*?<\/defs>)?<rect[^>]*\/>((?:<text[^>]*>[^<]*<\/text>)+)/.exec(svg);
  assert.ok(head, 'title and caption texts before the figure');
  return [...head[1].matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) =>
    m[1].replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>'),
  );
}

function pngSize(bytes) {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Opens a figure's data table: the rows are built on the details' toggle event, a task after the click. */
async function openTable(figure) {
  await figure.locator('.data-table summary').click();
  await figure.locator('.data-table tbody tr').first().waitFor({ timeout: 10_000 });
}

test('every figure has PNG and SVG buttons (and CSV for its table); the files hold the figure', async ({
  page,
  appUrl,
  artifacts,
  log,
}) => {
  keepDir = join(artifacts, 'export');
  mkdirSync(keepDir, { recursive: true });
  await page.goto(`${appUrl}/${QUERY}`);
  await page.waitForSelector('[data-metric="heatmap-exact"][data-result-id]:not([data-result-id=""])', {
    timeout: 60_000,
  });
  for (const id of ANALYSES)
    await page.waitForSelector(`[data-analysis="${id}"][data-status="done"]`, { timeout: 120_000 });

  // ---- every figure in every panel carries the buttons ----
  const census = await page.evaluate(() => {
    const charts = [...document.querySelectorAll('.chart, figure.heatmap')];
    const figures = [...document.querySelectorAll('.export-figure')];
    const perPanel = {};
    for (const f of figures) {
      const p = f.closest('[data-panel]')?.getAttribute('data-panel') ?? '?';
      perPanel[p] = (perPanel[p] ?? 0) + 1;
    }
    return {
      charts: charts.length,
      unwrapped: charts
        .filter((c) => !c.closest('.export-figure'))
        .map((c) => c.querySelector('[aria-label]')?.getAttribute('aria-label')),
      figures: figures.length,
      perPanel,
      buttons: figures.map((f) => ({
        png: f.querySelectorAll(':scope > .export-toolbar [data-export="png"]').length,
        svg: f.querySelectorAll(':scope > .export-toolbar [data-export="svg"]').length,
        csv: f.querySelectorAll(':scope > .export-toolbar [data-export="csv"]').length,
        tables: f.querySelectorAll('.data-table').length,
        labels: [...f.querySelectorAll(':scope > .export-toolbar [data-export]')].map((b) =>
          b.getAttribute('aria-label'),
        ),
        title: f.getAttribute('data-export-figure'),
      })),
    };
  });
  log(
    `figures with export buttons: ${census.figures} (${Object.entries(census.perPanel)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}); charts on the page: ${census.charts}`,
  );
  assert.deepEqual(census.unwrapped, [], 'every chart and heatmap sits in an export figure');
  assert.equal(census.figures, census.charts);
  // at least: main 3 heatmaps + the row chart; error 5; sparsity 4; rank 1; feature maps: curves + one per map
  const least = { main: 4, error: 5, sparsity: 4, rank: 1, 'feature-maps': 6 };
  for (const [p, k] of Object.entries(least))
    assert.ok(census.perPanel[p] >= k, `panel ${p}: ${census.perPanel[p]} figures, expected ≥ ${k}`);
  for (const b of census.buttons) {
    assert.equal(b.png, 1, `${b.title}: one PNG button`);
    assert.equal(b.svg, 1, `${b.title}: one SVG button`);
    assert.equal(b.csv, b.tables, `${b.title}: a CSV button per data table`);
    assert.ok(
      b.labels.includes(`Download PNG of ${b.title}`) && b.labels.includes(`Download SVG of ${b.title}`),
      `${b.title}: accessible labels ${b.labels}`,
    );
  }

  await page.locator('#panel-main').screenshot({ path: join(keepDir, 'page-main-panel.png') });

  // ---- heatmap: PNG at 2×, SVG with the canvas embedded as an image, CSV of the block table ----
  const exact = page.locator('.export-figure', { has: page.locator('[data-metric="heatmap-exact"]') });
  const hmSvg = await download(page, exact.locator('[data-export="svg"]'));
  assert.match(hmSvg.name, /^performer-A-exact-n96-d16-m48-positive-s1-causal\.svg$/);
  const hm = await inspectSvg(page, hmSvg.bytes.toString('utf8'));
  assert.equal(hm.error, null, `SVG parses: ${hm.error}`);
  assert.equal(hm.root, 'svg');
  assert.equal(hm.external, false, 'SVG references nothing outside itself');
  assert.ok(
    hm.images.length >= 2 && hm.images.every((h) => h.startsWith('data:image/png;base64')),
    `heatmap and colour bar embedded as PNG images: ${hm.images}`,
  );
  assert.ok(hm.texts.includes('key j') && hm.texts.includes('query i'), 'axis labels are in the SVG');
  // the title, then the caption with the parameters the figure shows (those of the file name), wrapped
  // at its commas to the figure's width rather than widening it
  const head = headLines(hmSvg.bytes.toString('utf8'));
  assert.equal(head[0], 'Exact A (softmax)');
  assert.equal(
    head.slice(1).join(' '),
    'Performer, up close · n = 96, d = 16, m = 48, φ: positive, s = 1, causal',
    'the parameter caption under the title',
  );
  log(`heatmap caption in ${head.length - 1} line(s): ${head.slice(1).join(' | ')}`);
  const hmPng = await download(page, exact.locator('[data-export="png"]'));
  assert.match(hmPng.name, /\.png$/);
  const size = pngSize(hmPng.bytes);
  assert.equal(size.width, 2 * hm.width, `PNG is drawn at 2× the figure (${size.width} vs SVG ${hm.width})`);
  const colours = await pngColours(page, hmPng.bytes);
  assert.ok(colours >= 30, `the heatmap is drawn in the PNG (${colours} distinct colours in its middle)`);
  const hmCsv = (await download(page, exact.locator('[data-export="csv"]'))).bytes.toString('utf8');
  await openTable(exact);
  const hmTable = await exact.locator('.data-table').evaluate((t) => ({
    head: [...t.querySelectorAll('th')].map((th) => th.textContent),
    rows: [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
  }));
  const hmLines = hmCsv.trim().split('\n');
  assert.equal(hmLines[0], hmTable.head.join(','), 'CSV header = table header');
  assert.equal(hmLines.length - 1, hmTable.rows.length, 'CSV has the table’s rows');
  assert.equal(hmLines[1].split(',').slice(0, 2).join(','), hmTable.rows[0].slice(0, 2).join(','));
  log(
    `heatmap: SVG ${hmSvg.bytes.length} B (${hm.images.length} images), PNG ${size.width}×${size.height} ${hmPng.bytes.length} B (${colours} colours mid-image), CSV ${hmLines.length - 1} rows`,
  );

  // ---- line chart (error vs m): SVG holds every series' path and the legend; CSV = table ----
  const sweep = page.locator('#panel-error .export-figure').first();
  const sweepTitle = await sweep.getAttribute('data-export-figure');
  const lineSvg = await download(page, sweep.locator('[data-export="svg"]'));
  assert.match(lineSvg.name, /^performer-error-vs-m-n96-d16-m48-positive-s1-causal\.svg$/);
  const line = await inspectSvg(page, lineSvg.bytes.toString('utf8'));
  assert.equal(line.error, null);
  const legend = await sweep.locator('.legend li').allTextContents();
  const pathsOnPage = await sweep.locator('.chart > svg path[stroke]:not([stroke="none"]):not(.domain)').count();
  assert.ok(
    line.strokedPaths >= pathsOnPage && pathsOnPage >= 4,
    `SVG has the series paths (${line.strokedPaths} ≥ ${pathsOnPage})`,
  );
  for (const l of legend) assert.ok(line.texts.includes(l.trim()), `legend label "${l}" in the SVG`);
  assert.ok(line.texts.includes(sweepTitle), 'title in the SVG');
  // a marker label keeps its halo in the file (a stroke in the panel's colour drawn under its fill), as on the page
  const marks = await sweep.locator('.marker-label').allTextContents();
  assert.ok(marks.length >= 1, 'the current m is marked');
  for (const mk of marks) {
    const st = line.textStyles[mk] ?? '';
    assert.match(st, /paint-order:\s*stroke/, `"${mk}" in the SVG: ${st}`);
    assert.match(st, /stroke:\s*rgb/, `"${mk}" in the SVG: ${st}`);
  }
  const linePng = await download(page, sweep.locator('[data-export="png"]'));
  assert.ok(pngSize(linePng.bytes).width === 2 * line.width && linePng.bytes.length > 2_000);
  const lineCsv = (await download(page, sweep.locator('[data-export="csv"]'))).bytes
    .toString('utf8')
    .trim()
    .split('\n');
  await openTable(sweep);
  const lineRows = await sweep.locator('.data-table tbody tr').count();
  const lineHead = await sweep.locator('.data-table th').allTextContents();
  assert.equal(lineCsv[0], lineHead.join(','));
  assert.equal(lineCsv.length - 1, lineRows, `CSV rows ${lineCsv.length - 1} = table rows ${lineRows}`);
  const firstCells = await sweep.locator('.data-table tbody tr').first().locator('td').allTextContents();
  assert.ok(
    lineCsv[1].startsWith(firstCells[0].includes(',') ? `"${firstCells[0]}"` : firstCells[0]),
    'first CSV row is the table’s first series',
  );
  log(
    `line chart: SVG ${lineSvg.bytes.length} B with ${line.strokedPaths} stroked paths, CSV ${lineCsv.length - 1} rows`,
  );

  // ---- histogram: SVG and CSV ----
  const hist = page.locator('#panel-sparsity .export-figure').first();
  const histSvg = await download(page, hist.locator('[data-export="svg"]'));
  assert.match(histSvg.name, /^performer-entropy-histogram-/);
  const h = await inspectSvg(page, histSvg.bytes.toString('utf8'));
  assert.equal(h.error, null);
  assert.ok(h.strokedPaths >= 3, `three histogram outlines (${h.strokedPaths})`);
  const histCsv = (await download(page, hist.locator('[data-export="csv"]'))).bytes.toString('utf8').trim().split('\n');
  await openTable(hist);
  assert.equal(histCsv.length - 1, await hist.locator('.data-table tbody tr').count());
});

test('state JSON: shapes consistent; exact A, its error and A·V recomputed from the file agree', async ({
  page,
  appUrl,
  log,
}) => {
  await page.goto(`${appUrl}/${QUERY}`);
  await page.waitForSelector('[data-metric="heatmap-exact"][data-result-id]:not([data-result-id=""])', {
    timeout: 60_000,
  });
  await page.waitForFunction(
    () => document.querySelector('.compute-status')?.getAttribute('data-status') !== 'computing',
  );
  const button = page.locator('[data-export="json"]');
  assert.equal(await button.isDisabled(), false);
  const t0 = Date.now();
  const file = await download(page, '[data-export="json"]');
  log(`JSON at n = ${PARAMS.n}: ${file.bytes.length} bytes, ${Date.now() - t0} ms from click to file`);
  assert.match(file.name, /^performer-state-n96-d16-m48-positive-s1-causal\.json$/);
  const s = JSON.parse(file.bytes.toString('utf8'));
  const { n, d, m } = PARAMS;

  assert.equal(s.version, 1);
  assert.equal(s.params.n, n);
  assert.equal(s.params.causal, true);
  assert.equal(s.backend.kind, 'cpu');
  assert.equal(s.inputs, 'generated');
  assert.deepEqual(s.shapes, {
    Q: [n, d],
    K: [n, d],
    V: [n, d],
    W: [m, d],
    A_exact: [n, n],
    A_approx: [n, n],
    out_exact: [n, d],
    out_approx: [n, d],
  });
  for (const [key, [r, c]] of Object.entries(s.shapes)) {
    assert.ok(Array.isArray(s[key]) && s[key].length === r * c, `${key} is a flat array of ${r}×${c}`);
    assert.ok(
      s[key].every((x) => typeof x === 'number' && Number.isFinite(x)),
      `${key} holds finite numbers`,
    );
  }

  // exact A from Q and K, here: softmax(Q Kᵀ / √d) with the causal mask
  const A = new Float64Array(n * n);
  let maxDiffA = 0;
  for (let i = 0; i < n; i++) {
    const last = s.params.causal ? i : n - 1;
    let mx = -Infinity;
    const row = new Float64Array(n);
    for (let j = 0; j <= last; j++) {
      let dot = 0;
      for (let c = 0; c < d; c++) dot += s.Q[i * d + c] * s.K[j * d + c];
      row[j] = dot / Math.sqrt(d);
      mx = Math.max(mx, row[j]);
    }
    let sum = 0;
    for (let j = 0; j <= last; j++) sum += row[j] = Math.exp(row[j] - mx);
    for (let j = 0; j < n; j++) {
      A[i * n + j] = j <= last ? row[j] / sum : 0;
      maxDiffA = Math.max(maxDiffA, Math.abs(A[i * n + j] - s.A_exact[i * n + j]));
    }
  }
  assert.ok(maxDiffA < 1e-6, `A_exact = softmax(QKᵀ/√d) (causal): max |Δ| ${maxDiffA}`);

  // ‖Â − A‖_F / ‖A‖_F from the file = the number on screen
  let num = 0;
  let den = 0;
  for (let k = 0; k < n * n; k++) {
    num += (s.A_approx[k] - s.A_exact[k]) ** 2;
    den += s.A_exact[k] ** 2;
  }
  const relA = Math.sqrt(num / den);
  const shownRelA = Number(await page.getAttribute('[data-metric="rel-error-A"]', 'data-value'));
  assert.ok(
    Math.abs(relA - s.metrics['rel-error-A']) <= 1e-5 * relA,
    `rel-error-A recomputed ${relA} vs file ${s.metrics['rel-error-A']}`,
  );
  assert.equal(s.metrics['rel-error-A'], shownRelA, 'metrics are the numbers on screen');
  const shown = await page.$$eval('#panel-main .metrics [data-metric]', (els) =>
    Object.fromEntries(els.map((e) => [e.getAttribute('data-metric'), e.getAttribute('data-value')])),
  );
  for (const [key, v] of Object.entries(shown))
    assert.equal(s.metrics[key], v === '' ? null : Number(v), `metric ${key}`);

  // Â rows of a causal map sum to 1 and vanish above the diagonal
  for (const i of [0, n >> 1, n - 1]) {
    let rs = 0;
    for (let j = 0; j < n; j++) rs += s.A_approx[i * n + j];
    assert.ok(Math.abs(rs - 1) < 1e-5, `Â row ${i} sums to 1 (${rs})`);
    assert.equal(s.A_approx[i * n + n - 1] === 0, i < n - 1);
  }

  // out_exact = A V; and the output error on screen from out_approx
  let maxDiffOut = 0;
  let on = 0;
  let od = 0;
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < d; c++) {
      let o = 0;
      for (let j = 0; j < n; j++) o += A[i * n + j] * s.V[j * d + c];
      maxDiffOut = Math.max(maxDiffOut, Math.abs(o - s.out_exact[i * d + c]));
      on += (s.out_approx[i * d + c] - s.out_exact[i * d + c]) ** 2;
      od += s.out_exact[i * d + c] ** 2;
    }
  }
  assert.ok(maxDiffOut < 1e-5, `out_exact = A V: max |Δ| ${maxDiffOut}`);
  const relOut = Math.sqrt(on / od);
  assert.ok(
    Math.abs(relOut - s.metrics['rel-error-out']) <= 1e-4 * relOut,
    `rel-error-out recomputed ${relOut} vs ${s.metrics['rel-error-out']}`,
  );
  log(
    `recomputed from the file: max |ΔA| ${maxDiffA.toExponential(1)}, rel-error-A ${relA.toFixed(6)} (shown ${shownRelA.toFixed(6)}), max |Δout| ${maxDiffOut.toExponential(1)}`,
  );

  // at the limit, n = 1024, the export still works (size and time logged); above it the button is disabled and says why
  const input = page.locator('[data-param-input="n"]');
  const setN = async (n) => {
    await input.fill(String(n));
    await input.press('Enter');
    await page.waitForFunction(
      (txt) =>
        (document.querySelector('[data-result-params]')?.textContent ?? '').replace(/,/g, '').includes(`n = ${txt}`) &&
        document.querySelector('.compute-status')?.getAttribute('data-status') !== 'computing',
      String(n),
      { timeout: 120_000 },
    );
  };
  await setN(1024);
  const t1 = Date.now();
  const big = await download(page, '[data-export="json"]');
  const bigMs = Date.now() - t1;
  const bs = JSON.parse(big.bytes.toString('utf8'));
  assert.deepEqual(bs.shapes.A_approx, [1024, 1024]);
  assert.equal(bs.A_exact.length, 1024 * 1024);
  log(
    `JSON at n = 1024, d = ${d}, m = ${m}: ${(big.bytes.length / 1e6).toFixed(1)} MB, ${bigMs} ms from click to file (CPU path, shared machine)`,
  );
  await setN(2048);
  assert.equal(await button.isDisabled(), true, 'JSON export disabled above n = 1024');
  const why = await page.textContent('.state-export .note');
  assert.match(why, /n ≤ 1,024/);
});

test('under a strict Content-Security-Policy (no eval, images only from data:) PNG, SVG and JSON still export', async ({
  page,
  appUrl,
  log,
}) => {
  await page.route(
    (url) => url.pathname === '/' || url.pathname.endsWith('/index.html'),
    async (route) => {
      const response = await route.fetch();
      // the build's own script hashes (its inline file:// notice), everything else stricter than the build's meta CSP
      const meta = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(await response.text());
      const scriptSrc =
        meta?.[1]
          .split(';')
          .map((d) => d.trim())
          .find((d) => d.startsWith('script-src ')) ?? "script-src 'self'";
      const csp = `default-src 'self'; ${scriptSrc}; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self'; connect-src 'self'`;
      await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': csp } });
    },
  );
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  await page.goto(`${appUrl}/${QUERY}`);
  await page.waitForSelector('[data-metric="heatmap-exact"][data-result-id]:not([data-result-id=""])', {
    timeout: 60_000,
  });
  const fig = page.locator('.export-figure', { has: page.locator('[data-metric="heatmap-approx"]') });
  const png = await download(page, fig.locator('[data-export="png"]'));
  assert.ok(pngSize(png.bytes).width > 400 && png.bytes.length > 2_000, 'PNG rendered through a data: image');
  const svg = await inspectSvg(page, (await download(page, fig.locator('[data-export="svg"]'))).bytes.toString('utf8'));
  assert.equal(svg.error, null);
  await page.waitForFunction(
    () => document.querySelector('.compute-status')?.getAttribute('data-status') !== 'computing',
  );
  const json = JSON.parse((await download(page, '[data-export="json"]')).bytes.toString('utf8'));
  assert.equal(json.A_approx.length, PARAMS.n * PARAMS.n);
  const violations = await page.evaluate(() => window.__violations);
  log(
    `CSP violations while exporting: ${violations.length ? violations.join('; ') : 'none'} (blob: images refused → data: fallback)`,
  );
  assert.deepEqual(
    violations.filter((v) => !v.startsWith('img-src blob')),
    [],
    'no other CSP violation',
  );
});

test('state JSON for every map × stabilizer × mask: the error of A recomputed from the file is the one on screen', async ({
  page,
  appUrl,
  artifacts,
  log,
}) => {
  // main panel only (no analyses to wait for); small sizes; scale 1.5 so that ε = 1e-6 of stab=ref moves Â visibly
  const hidden = 'error,sparsity,rank,feature-maps,beyond,speed';
  await page.goto(
    `${appUrl}/?backend=cpu&n=32&d=8&m=16&scale=1.5&seed=3&fseed=5&map=positive&stab=shift&hide=${hidden}`,
  );
  const idle = () => document.querySelector('.compute-status')?.getAttribute('data-status') !== 'computing';
  await page.waitForSelector('[data-metric="heatmap-exact"][data-result-id]:not([data-result-id=""])', {
    timeout: 60_000,
  });
  await page.waitForFunction(idle);
  // the app's own lists: the options of its selects (a new map or stabilizer is covered without editing this test)
  const options = (param) =>
    page.$$eval(`select[data-param="${param}"] option`, (os) => os.map((o) => o.getAttribute('value')));
  const maps = await options('featureMap');
  const stabs = await options('stabilizer');
  assert.ok(maps.length >= 11 && stabs.length >= 2, `maps ${maps}, stabilizers ${stabs}`);

  /** Applies `change` and waits for the result it causes (a new result id, compute idle). */
  const apply = async (change) => {
    const before = await page.getAttribute('[data-metric="heatmap-exact"]', 'data-result-id');
    if (!(await change())) return;
    await page.waitForFunction(
      (b) =>
        document.querySelector('[data-metric="heatmap-exact"]')?.getAttribute('data-result-id') !== b &&
        document.querySelector('.compute-status')?.getAttribute('data-status') !== 'computing',
      before,
      { timeout: 60_000 },
    );
  };
  const select = (param, value) => async () => {
    if ((await page.inputValue(`select[data-param="${param}"]`)) === value) return false;
    await page.selectOption(`select[data-param="${param}"]`, value);
    return true;
  };
  const causalBox = page.locator('input[data-param="causal"]').first();
  const setCausal = (on) => async () => {
    if ((await causalBox.isChecked()) === on) return false;
    await causalBox.setChecked(on);
    return true;
  };

  const rows = [];
  const bad = [];
  for (const stab of stabs) {
    // the stabilizer select is enabled for the maps that use it; set it on one of those
    await apply(select('featureMap', 'positive'));
    await apply(select('stabilizer', stab));
    for (const map of maps) {
      await apply(select('featureMap', map));
      for (const causal of [false, true]) {
        await apply(setCausal(causal));
        const s = JSON.parse((await download(page, '[data-export="json"]')).bytes.toString('utf8'));
        const what = `${map} stab=${stab} causal=${causal}`;
        assert.deepEqual(
          [s.params.featureMap, s.params.stabilizer, s.params.causal, s.params.n],
          [map, stab, causal, 32],
          `${what}: the file is the experiment asked for`,
        );
        let num = 0;
        let den = 0;
        for (let k = 0; k < s.A_exact.length; k++) {
          num += (s.A_approx[k] - s.A_exact[k]) ** 2;
          den += s.A_exact[k] ** 2;
        }
        const recomputed = Math.sqrt(num / den);
        const el = page.locator('[data-metric="rel-error-A"]');
        const value = Number(await el.getAttribute('data-value'));
        const text = (await el.locator('.metric-value').textContent()).trim();
        const rel = Math.abs(recomputed - value) / value;
        rows.push(
          `| ${map} | ${stab} | ${causal ? 1 : 0} | ${text} | ${value.toPrecision(7)} | ${recomputed.toPrecision(7)} | ${rel.toExponential(1)} |`,
        );
        // the entries are written as float32 (relative rounding ≤ 6e-8): 2e-6 leaves room for that and nothing else
        if (!(rel <= 2e-6))
          bad.push(
            `${what}: shown ${value} (${text}), from the file ${recomputed} (relative Δ ${rel.toExponential(1)})`,
          );
        // and to the precision on screen: the number shown is the recomputed one, rounded
        const shown = Number(text.replace('−', '-'));
        const digits = (text.split('.')[1] ?? '').length;
        if (Number.isFinite(shown) && !(Math.abs(recomputed - shown) <= 0.5 * 10 ** -digits * (1 + 1e-9)))
          bad.push(`${what}: shown ${text}, from the file ${recomputed}`);
      }
    }
  }
  const table = [
    '| map | stab | causal | shown | data-value | recomputed from the JSON | relative Δ |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  writeFileSync(join(artifacts, 'export-vs-screen.md'), table + '\n');
  log(
    `${rows.length} combinations (${maps.length} maps × ${stabs.length} stabilizers × causal on/off); table in artifacts/export-vs-screen.md`,
  );
  assert.equal(rows.length, maps.length * stabs.length * 2);
  assert.deepEqual(bad, [], 'the error of A from the file is the one on screen');
});

/**
 * `svg` drawn as an <img> on a canvas at `scale`, as a reference: drawn once (which starts loading its
 * embedded faces), then again half a second later; RGBA bytes as base64.
 */
async function renderSvg(page, svg, scale) {
  return page.evaluate(
    async ([src, k]) => {
      const img = new Image();
      img.src = URL.createObjectURL(new Blob([src], { type: 'image/svg+xml' }));
      await img.decode();
      const c = document.createElement('canvas');
      c.width = Math.round(img.naturalWidth * k);
      c.height = Math.round(img.naturalHeight * k);
      const ctx = c.getContext('2d');
      ctx.drawImage(img, 0, 0, c.width, c.height);
      await new Promise((r) => setTimeout(r, 500));
      ctx.clearRect(0, 0, c.width, c.height);
      ctx.drawImage(img, 0, 0, c.width, c.height);
      const px = ctx.getImageData(0, 0, c.width, c.height).data;
      let bin = '';
      for (let i = 0; i < px.length; i += 0x8000) bin += String.fromCharCode(...px.subarray(i, i + 0x8000));
      return { width: c.width, height: c.height, rgba: btoa(bin) };
    },
    [svg, scale],
  );
}

/** Pixels whose colour differs by more than 24 in a channel between two renders of one size. */
function differingPixels(a, b) {
  assert.deepEqual([a.width, a.height], [b.width, b.height], 'renders of one size');
  const x = Buffer.from(a.rgba, 'base64');
  const y = Buffer.from(b.rgba, 'base64');
  let n = 0;
  for (let i = 0; i < x.length; i += 4) if (Math.max(...[0, 1, 2].map((c) => Math.abs(x[i + c] - y[i + c]))) > 24) n++;
  return n;
}

test('an exported figure carries the page’s faces: outside the page its Latin, Greek and Chinese text is drawn in them, in the SVG and in the PNG from its first export', async ({
  page,
  appUrl,
  log,
}) => {
  // Chinese: the spectrum's title, legend and axis labels mix Han, Latin and Greek (σ₁); CI's machine
  // has no CJK font, so without the embedded face the Han characters would be drawn as empty boxes
  await page.goto(`${appUrl}/${QUERY}&lang=zh`);
  await page.waitForSelector('[data-analysis="spectra"][data-status="done"]', { timeout: 120_000 });
  const figure = page.locator('#panel-rank .export-figure').first();
  // the PNG first: no image of this page has loaded the faces yet (they load when an image is first
  // drawn, and an image drawn at once showed no text in them at all)
  const png = await download(page, figure.locator('[data-export="png"]'));
  const svg = (await download(page, figure.locator('[data-export="svg"]'))).bytes.toString('utf8');
  const info = await inspectSvg(page, svg);
  assert.equal(info.error, null, `SVG parses: ${info.error}`);
  assert.equal(info.external, false, 'SVG references nothing outside itself');
  const text = info.texts.join('');
  assert.match(text, /\p{Script=Han}/u, 'the Chinese figure has Han text');
  assert.match(text, /\p{Script=Greek}/u, 'and Greek text');
  assert.equal(
    headLines(svg).slice(1).join(''),
    '细看 Performer · n = 96，d = 16，m = 48，φ：正值，s = 1，因果',
    'the caption in Chinese',
  );
  const rules = [
    ...svg.matchAll(
      /@font-face\{font-family:"([^"]+)";src:url\(data:font\/woff2;base64,([A-Za-z0-9+/=]+)\)[^}]*unicode-range:([^}]+)\}/g,
    ),
  ];
  const faces = rules.map((r) => `${r[1]} ${r[3].slice(0, 11)}`);
  log(`embedded faces: ${faces.join('; ')} (${(svg.length / 1024).toFixed(0)} kB SVG)`);
  assert.ok(
    rules.some((r) => r[1] === 'Inter Variable' && r[3].startsWith('U+0000-00FF')),
    `Inter's Latin face embedded: ${faces}`,
  );
  assert.ok(
    rules.some((r) => r[1] === 'Inter Variable' && r[3].startsWith('U+0370')),
    `Inter's Greek face embedded: ${faces}`,
  );
  assert.ok(
    rules.some((r) => r[1] === 'Noto Sans SC UI'),
    `the bundled CJK face embedded: ${faces}`,
  );
  // a font file, not a stub: woff2's signature 'wOF2' in each
  for (const r of rules) assert.equal(Buffer.from(r[2].slice(0, 8), 'base64').subarray(0, 4).toString(), 'wOF2');

  // outside the page (an <img>, where the page's fonts do not reach) the faces are used: the render
  // differs from the same SVG without them — as a whole, and the Han title on its own
  const stripped = svg.replace(/<defs><style>[\s\S]*?<\/style><\/defs>/, '');
  assert.notEqual(stripped, svg);
  const withFaces = await renderSvg(page, svg, 2);
  const without = await renderSvg(page, stripped, 2);
  const diff = differingPixels(withFaces, without);
  const titleOnly = (s) =>
    s.replace(/(<\/title>(?:<defs>[\s\S]*?<\/defs>)?<rect[^>]*\/><text[^>]*>[^<]*<\/text>)[\s\S]*<\/svg>$/, '$1</svg>');
  const hanDiff = differingPixels(
    await renderSvg(page, titleOnly(svg), 2),
    await renderSvg(page, titleOnly(stripped), 2),
  );
  log(`pixels that change without the embedded faces: figure ${diff}, its Chinese title alone ${hanDiff}`);
  assert.ok(diff > 500, `the figure's text is drawn in the embedded faces (${diff} pixels differ)`);
  assert.ok(hanDiff > 100, `the Chinese title is drawn in the embedded CJK face (${hanDiff} pixels differ)`);

  // the first PNG is the figure drawn with its faces loaded
  const pngPx = await pngPixels(page, png.bytes);
  const fromPng = { with: differingPixels(pngPx, withFaces), without: differingPixels(pngPx, without) };
  log(`PNG vs the SVG drawn with / without the faces: ${fromPng.with} / ${fromPng.without} pixels differ`);
  assert.ok(fromPng.with * 20 < diff, 'the PNG is the figure drawn in the embedded faces');
});

test('a figure whose series run off the plot (clipped there) exports at its own height, not grown by the hidden geometry', async ({
  page,
  appUrl,
  log,
}) => {
  // causal, n = 256: the theory lines of error vs m lie far above the plotted range and are clipped
  await page.goto(`${appUrl}/?backend=cpu&causal=1`);
  await page.waitForSelector('[data-analysis="errorVsM"][data-status="done"]', { timeout: 120_000 });
  const figure = page.locator('#panel-error .export-figure').first();
  const onPage = await figure.evaluate((f) => {
    const body = f.querySelector(':scope > div:not(.export-toolbar)');
    const svg = body.querySelector('.chart svg');
    const plot = svg.getBoundingClientRect();
    const bb = svg.getBBox();
    return { body: body.getBoundingClientRect().height, svgTop: plot.top, geometryTop: plot.top + bb.y };
  });
  const file = await download(page, figure.locator('[data-export="svg"]'));
  const svg = file.bytes.toString('utf8');
  const height = Number(/<svg[^>]* height="(\d+)"/.exec(svg)[1]);
  const head = headLines(svg).length; // title and caption lines above the figure
  log(
    `figure on the page ${onPage.body.toFixed(0)} px tall; its series' geometry reaches ${(onPage.svgTop - onPage.geometryTop).toFixed(0)} px above the chart (clipped); SVG ${height} px with ${head} head line(s)`,
  );
  assert.ok(onPage.svgTop - onPage.geometryTop > 50, 'the case at hand: geometry clipped far above the plot');
  // the figure, its title and caption lines and the margins; nothing for the clipped geometry
  assert.ok(
    height <= onPage.body + 14 + 10 + head * 15 + 2 * 12 + 8,
    `SVG ${height} px for a ${onPage.body} px figure`,
  );
});

test('Chinese text that wraps on the page (no spaces to break at) is exported line by line, every line inside the image', async ({
  page,
  appUrl,
  log,
}) => {
  // the exact heatmap's figure is narrow; its colour bar's Chinese caption wraps onto several lines
  await page.goto(`${appUrl}/${QUERY}&lang=zh`);
  await page.waitForSelector('[data-metric="heatmap-exact"][data-result-id]:not([data-result-id=""])', {
    timeout: 60_000,
  });
  const figure = page.locator('.export-figure', { has: page.locator('[data-metric="heatmap-exact"]') });
  const svg = (await download(page, figure.locator('[data-export="svg"]'))).bytes.toString('utf8');
  const r = await page.evaluate((src) => {
    // laid out in the page (its own faces; the file's embedded ones left out: the page's CSP refuses a parsed <style>)
    const doc = new DOMParser().parseFromString(src.replace(/<style>[\s\S]*?<\/style>/g, ''), 'image/svg+xml');
    const root = document.importNode(doc.documentElement, true);
    document.body.append(root);
    const box = root.getBoundingClientRect();
    const texts = [...root.querySelectorAll('text')].map((t) => {
      const b = t.getBoundingClientRect();
      return { text: t.textContent, left: b.left - box.left, right: b.right - box.left };
    });
    root.remove();
    return { width: box.width, texts };
  }, svg);
  const outside = r.texts.filter((t) => t.right > r.width + 0.5 || t.left < -0.5).map((t) => t.text);
  const caption = (await page.locator('#panel-main .color-legend figcaption').first().textContent()).trim();
  const lines = r.texts.filter((t) => /[\u4e00-\u9fff]/.test(t.text) && caption.includes(t.text)).map((t) => t.text);
  log(
    `exported ${r.texts.length} texts in ${r.width} px; the colour bar's caption in ${lines.length} lines: ${lines.join(' | ')}`,
  );
  assert.deepEqual(outside, [], 'texts past the image edge');
  assert.ok(lines.length >= 2, `the wrapped caption exported as lines (${lines.length})`);
  assert.equal(
    lines.join('').replace(/\s/g, ''),
    caption.replace(/\s/g, ''),
    'the lines are the whole caption, in order',
  );
});
