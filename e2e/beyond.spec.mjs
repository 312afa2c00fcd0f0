// "Beyond the Performer" on the CPU path (?backend=cpu): the embedded panel renders its three
// figures with one curve or point per estimator of the comparison, its headline numbers have values,
// and the error-vs-time table is logged (the times are the CPU twins' in the engine worker: each must
// be a measured, positive time; their size is never asserted). On WebGPU each estimator's error of A
// from the WGSL kernels is compared with the CPU twins' on the same inputs. Run: node e2e/run.mjs beyond
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from './harness.mjs';

const FIGURES = ['dim', 'scale', 'time'];
const N_GPU = 256;
/** WGSL (f32) vs the twins (f64 accumulation): relative difference of an estimator's error of A */
const ERR_TOL = 1e-5;

/** One RFC 4180 line: its cells, quotes removed. */
function csvCells(line) {
  const cells = [];
  const re = /("(?:[^"]|"")*"|[^,]*)(,|$)/g;
  for (let m = re.exec(line); m && m.index < line.length; m = re.exec(line)) {
    cells.push(m[1].startsWith('"') ? m[1].slice(1, -1).replace(/""/g, '"') : m[1]);
    if (m[2] === '') break;
  }
  return cells;
}

/** The time figure's CSV (full precision; columns series, time, error of A, …): per estimator, in the figure's order. */
async function timeCsv(page) {
  const [dl] = await Promise.all([
    page.waitForEvent('download', { timeout: 60_000 }),
    page.click('[data-beyond-figure="time"] [data-export="csv"]'),
  ]);
  const lines = readFileSync(await dl.path(), 'utf8')
    .trim()
    .split('\n')
    .slice(1);
  return lines.map((line) => {
    const [label, ms, err] = csvCells(line);
    return { label, ms: Number(ms), err: Number(err) };
  });
}

async function value(page, name) {
  const v = await page.getAttribute(`[data-metric="${name}"]`, 'data-value');
  assert.ok(v !== null && v !== '', `metric ${name} has no value`);
  return Number(v);
}

test(
  'embed=beyond (CPU path, n = 1024): the estimator table, three figures with a curve or point per estimator, headline numbers, default controls',
  async ({ page, appUrl, artifacts, log }) => {
    await page.setViewportSize({ width: 1100, height: 900 });
    await page.goto(`${appUrl}/?embed=beyond&backend=cpu&n=1024&input=gaussian&scale=0.8`);
    await page.waitForSelector('[data-embed="beyond"] [data-panel="beyond"]', { timeout: 60_000 });
    assert.equal(
      await page.getAttribute('[data-embed-controls]', 'data-embed-controls'),
      'n,m,scale,proj',
      'the panel’s default controls',
    );

    const count = Number(await page.getAttribute('table[data-estimators]', 'data-estimators'));
    const ids = await page.$$eval('tr[data-estimator]', (rows) => rows.map((r) => r.getAttribute('data-estimator')));
    assert.equal(ids.length, count);
    assert.ok(count >= 9, `7 maps + 2 projection variants at least, got ${count}`);
    // every estimator's row renders its formula (KaTeX) or names its projection, and cites a source that is listed
    const cited = await page.$$eval('tr[data-estimator] a[href^="#beyond-ref-"]', (as) =>
      as.map((a) => a.getAttribute('href').slice('#beyond-ref-'.length)),
    );
    assert.equal(cited.length, count);
    for (const k of new Set(cited))
      assert.equal(
        await page.locator(`[data-beyond-refs] li[data-cite="${k}"] a[href^="https://"]`).count(),
        1,
        `reference ${k}`,
      );
    assert.ok((await page.locator('tr[data-estimator] .katex').count()) >= 7, 'KaTeX for each map');

    await page.waitForSelector('[data-analysis="beyondSweeps"][data-status="done"]', { timeout: 180_000 });
    await page.waitForSelector('[data-analysis="estimatorTiming"][data-status="done"]', { timeout: 180_000 });
    for (const f of FIGURES) {
      const fig = page.locator(`[data-beyond-figure="${f}"]`);
      // each estimator's points carry its symbol: no two legend keys (colour and symbol) alike, even
      // where two maps share a colour (positive and FAVOR++, 1 + elu and Taylor-2) and a point has no line
      const key = (els) =>
        els.map((e) => `${e.getAttribute('data-symbol')} ${e.getAttribute('fill')}/${e.getAttribute('stroke')}`);
      const plotted = new Set(await fig.locator('svg g[clip-path] path[data-symbol]').evaluateAll(key));
      const keys = await fig.locator('.legend li path[data-symbol]').evaluateAll(key);
      assert.equal(new Set(keys).size, count, `figure ${f}: ${count} distinct legend keys (${keys.join(' | ')})`);
      assert.deepEqual(
        [...plotted].sort(),
        [...keys].sort(),
        `figure ${f}: the points are drawn with the legend's keys`,
      );
      if (f === 'time')
        assert.equal(await fig.locator('svg g[clip-path] path[data-symbol]').count(), count, 'one point per estimator');
      const legend = await fig.locator('.legend li').allTextContents();
      assert.equal(legend.length, count, `figure ${f}: one legend entry per estimator (${legend.join(' | ')})`);
      assert.equal(
        (await fig.locator('.export-toolbar').count()) > 0,
        true,
        `figure ${f} is wrapped in <Figure> (export buttons)`,
      );
    }

    const best = await value(page, 'beyond-best-error');
    assert.ok(best > 0 && best < 10, `best error ${best}`);
    const rows = [];
    for (const id of ids) {
      const err = await value(page, `beyond-error-${id}`);
      const ms = await value(page, `beyond-time-${id}`);
      assert.ok(err >= best, `${id}: ${err} ≥ best ${best}`);
      assert.ok(ms > 0, `${id}: a measured time (${ms} ms)`);
      rows.push({ id, err, ms });
    }
    // the time figure's data table holds each estimator's error of A at the full n (one draw)
    await page.click('[data-beyond-figure="time"] details.data-table summary');
    // the table's rows are built when it opens (the toggle event arrives a task later)
    await page.waitForSelector('[data-beyond-figure="time"] details.data-table tbody tr');
    const table = await page.$$eval('[data-beyond-figure="time"] details.data-table tbody tr', (trs) =>
      trs.map((tr) => [...tr.children].map((c) => c.textContent)),
    );
    assert.equal(table.length, count, 'one row per estimator in the time table');
    const exact = await page.textContent('[data-beyond-figure="time"] .marker-label');
    log(
      `error vs time at n = 1024, d = 16, m = 64, gaussian inputs, s = 0.8, on the CPU twins (median of 5 runs of features + linear attention; ${exact}):`,
    );
    log(
      '  estimator | time ms | rel. error of A at full n (one draw) | rel. error of A at m = 64 (mean over 8 seeds, 256 keys)',
    );
    rows.forEach((r, k) => log(`  ${r.id} | ${r.ms.toFixed(2)} | ${table[k][2]} | ${r.err.toFixed(4)}`));
    const dir = join(artifacts, 'screenshots');
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: join(dir, 'beyond-embed-cpu-n1024.png'), fullPage: true });
  },
  { timeout: 400_000, webgpu: false },
);

test(
  'the full page lists "beyond" among the panels, and the Chinese page titles it in Chinese; its estimator table shows every row (no scroll inside the page)',
  async ({ page, appUrl, artifacts }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${appUrl}/?backend=cpu&lang=zh&hide=main,error,sparsity,rank,feature-maps&n=256`);
    await page.waitForSelector('[data-panel="beyond"]', { timeout: 60_000 });
    assert.equal(await page.textContent('#h-beyond'), '超越 Performer');
    const box = await page.locator('table[data-estimators]').evaluate((t) => {
      const w = t.parentElement;
      return { rows: t.querySelectorAll('tbody tr').length, scroll: w.scrollHeight, client: w.clientHeight };
    });
    assert.ok(
      box.rows >= 9 && box.scroll <= box.client + 1,
      `all ${box.rows} rows shown: ${box.scroll} px in ${box.client}`,
    );
    await page.waitForSelector('[data-analysis="beyondSweeps"][data-status="done"]', { timeout: 180_000 });
    await page.waitForSelector('[data-analysis="estimatorTiming"][data-status="done"]', { timeout: 180_000 });
    const dir = join(artifacts, 'screenshots');
    mkdirSync(dir, { recursive: true });
    await page.locator('[data-panel="beyond"]').screenshot({ path: join(dir, 'beyond-zh-n256.png') });
  },
  { timeout: 400_000, webgpu: false },
);

/** The estimator table's layout: per row, where its cells are (page px), and how the table scrolls. */
async function tableLayout(page) {
  return page.locator('table[data-estimators]').evaluate((t) => {
    const box = (el) => {
      const r = el.getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width };
    };
    const wrap = t.parentElement;
    return {
      display: getComputedStyle(t).display,
      sideways: wrap.scrollWidth - wrap.clientWidth,
      width: wrap.clientWidth,
      headerShown: t.querySelector('thead').getBoundingClientRect().height > 2,
      rows: [...t.querySelectorAll('tbody tr')].map((tr) => ({
        id: tr.getAttribute('data-estimator'),
        row: box(tr),
        name: box(tr.querySelector('th')),
        kind: box(tr.querySelector('.est-kind')),
        formula: box(tr.querySelector('.est-formula')),
        source: box(tr.querySelector('.est-source')),
        dimLabel: getComputedStyle(tr.querySelector('.est-dim'), '::before').content,
      })),
    };
  });
}

/**
 * How the estimator table's formulas are broken into lines: per formula, its parts (an inline block per
 * equation, or the whole formula) and whether each wraps inside (a KaTeX break unit starting left of
 * the one before it), and on how many lines the parts lie.
 */
async function formulaLines(page) {
  return page.locator('table[data-estimators] .est-formula').evaluateAll((cells) =>
    cells
      .filter((c) => c.querySelector('.katex'))
      .map((c) => {
        const parts = [...c.querySelectorAll('.formula-inline-part')];
        const units = parts.length ? parts : [c.querySelector('.formula-inline')];
        const startsLeftOfPrevious = (els) =>
          els.some((el, i) => i > 0 && el.getBoundingClientRect().left < els[i - 1].getBoundingClientRect().left - 0.5);
        return {
          id: c.closest('tr').getAttribute('data-estimator'),
          parts: units.length,
          wrapped: units.map((u) => startsLeftOfPrevious([...u.querySelectorAll('.katex-html > .katex-base')])),
          lines: 1 + units.filter((u, i) => i > 0 && startsLeftOfPrevious([units[i - 1], u])).length,
        };
      }),
  );
}

test(
  'the estimator table on a phone (embed, 340 px) stacks each row — name and source, then kind and m′, then the formula at full width — with no sideways scroll, and stays a table with its headers to assistive technology; on a wide page it is a table whose formulas break lines between equations, never inside one',
  async ({ page, appUrl, log }) => {
    await page.setViewportSize({ width: 340, height: 700 });
    await page.goto(`${appUrl}/?embed=beyond&backend=cpu`);
    await page.waitForSelector('table[data-estimators] .est-formula .katex', { timeout: 60_000 });
    const narrow = await tableLayout(page);
    assert.ok(narrow.rows.length >= 9, `${narrow.rows.length} estimators`);
    assert.ok(
      narrow.sideways <= 1,
      `the table does not scroll sideways (${narrow.sideways} px more than its ${narrow.width})`,
    );
    assert.equal(narrow.headerShown, false, 'the header row is not drawn above stacked rows');
    for (const r of narrow.rows) {
      assert.ok(Math.abs(r.source.top - r.name.top) < 4, `${r.id}: the source beside the name`);
      assert.ok(r.kind.top >= r.name.bottom - 1, `${r.id}: kind under the name`);
      assert.ok(r.formula.top >= r.kind.bottom - 1, `${r.id}: the formula under kind and m′`);
      assert.ok(
        r.formula.width >= r.row.width - 1,
        `${r.id}: the formula at the row's full width (${r.formula.width} of ${r.row.width})`,
      );
      assert.match(r.dimLabel, /m′ = /, `${r.id}: m′ labelled in the stacked row`);
    }
    // the accessibility tree still holds a table: 5 column headers, a row header per estimator
    const cdp = await page.context().newCDPSession(page);
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const roles = (role) => nodes.filter((n) => !n.ignored && n.role?.value === role).length;
    const ax = { table: roles('table'), columnheader: roles('columnheader'), rowheader: roles('rowheader') };
    log(
      `340 px: ${narrow.rows.length} stacked rows in ${narrow.width} px, no sideways scroll; accessibility tree ${JSON.stringify(ax)}`,
    );
    assert.ok(ax.table >= 1, 'a table in the accessibility tree');
    assert.equal(ax.columnheader, 5, 'its five column headers');
    assert.equal(ax.rowheader, narrow.rows.length, 'a row header per estimator');

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.waitForFunction(
      () => getComputedStyle(document.querySelector('table[data-estimators]')).display === 'table',
    );
    const wide = await tableLayout(page);
    assert.equal(wide.headerShown, true, 'the header row drawn');
    for (const r of wide.rows)
      assert.ok(
        r.formula.left >= r.kind.right - 1 && r.formula.top < r.name.bottom,
        `${r.id}: on a wide page the formula is a column beside the kind`,
      );

    // where a formula needs two lines, they break between its equations (FAVOR++'s φ, A and ρ), not
    // inside one (not after the `=` of ρ = …, KaTeX's own break)
    for (const width of [1280, 1000]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(100);
      const lines = await formulaLines(page);
      log(`${width} px: ${lines.map((f) => `${f.id} ${f.parts} parts on ${f.lines} line(s)`).join(', ')}`);
      for (const f of lines)
        assert.deepEqual(f.wrapped, Array(f.parts).fill(false), `${width} px, ${f.id}: no equation broken inside`);
      const oprf = lines.find((f) => f.id === 'oprf');
      assert.equal(oprf.parts, 4, "FAVOR++'s formula set as its 3 equations and the causal remark");
      if (width === 1000) assert.ok(oprf.lines >= 2, `at ${width} px FAVOR++'s formula takes ${oprf.lines} lines`);
    }
  },
  { timeout: 120_000, webgpu: false },
);

test(
  'WebGPU path (SwiftShader): the estimators are timed through the engine worker on the WGSL kernels; every estimator gets a time and an error of A',
  async ({ page, appUrl, newPage, log }) => {
    // n = 256 keeps SwiftShader's runs short (n = 1024 takes ~140 s); change N_GPU to measure larger n
    const query = `?embed=beyond&n=${N_GPU}&input=gaussian&scale=0.8`;
    await page.goto(`${appUrl}/${query}`);
    await page.waitForSelector('[data-embed="beyond"] [data-panel="beyond"]', { timeout: 60_000 });
    // the CPU twins on the same experiment, in a second page, for the reference errors
    const cpu = await newPage();
    await cpu.goto(`${appUrl}/${query}&backend=cpu`);
    await page.waitForSelector('[data-analysis="estimatorTiming"][data-status="done"]', { timeout: 300_000 });
    const notes = await page.$$eval('[data-beyond-figure="time"] p.note', (ps) =>
      ps.map((p) => p.textContent).join(' '),
    );
    assert.match(notes, /WebGPU \(/, `the time figure says the WGSL kernels were timed: ${notes}`);
    const ids = await page.$$eval('tr[data-estimator]', (rows) => rows.map((r) => r.getAttribute('data-estimator')));
    const gpu = await timeCsv(page);
    await cpu.waitForSelector('[data-analysis="estimatorTiming"][data-status="done"]', { timeout: 300_000 });
    const cpuNotes = await cpu.$$eval('[data-beyond-figure="time"] p.note', (ps) =>
      ps.map((p) => p.textContent).join(' '),
    );
    assert.ok(!/WebGPU \(/.test(cpuNotes), `the reference page ran on the CPU twins: ${cpuNotes}`);
    const twin = await timeCsv(cpu);
    assert.equal(gpu.length, ids.length, 'one CSV row per estimator');
    assert.deepEqual(
      twin.map((r) => r.label),
      gpu.map((r) => r.label),
      'the same estimators in the same order',
    );
    const exact = await page.textContent('[data-beyond-figure="time"] .marker-label');
    log(
      `error vs time at n = ${N_GPU}, d = 16, m = 64, gaussian inputs, s = 0.8, on WebGPU (SwiftShader, a CPU rasterizer: not a GPU's times; ${exact}):`,
    );
    log('  estimator | time ms | rel. error of A at full n (one draw), WGSL | CPU twin | relative Δ');
    const bad = [];
    for (const [k, id] of ids.entries()) {
      const ms = await value(page, `beyond-time-${id}`);
      assert.ok(ms > 0, `${id}: a measured time (${ms} ms)`);
      assert.equal(gpu[k].ms, ms, `${id}: the CSV holds the time on screen`);
      const rel = Math.abs(gpu[k].err - twin[k].err) / twin[k].err;
      if (!(Number.isFinite(gpu[k].err) && rel <= ERR_TOL)) bad.push(`${id}: WGSL ${gpu[k].err}, twin ${twin[k].err}`);
      log(`  ${id} | ${ms.toFixed(2)} | ${gpu[k].err} | ${twin[k].err} | ${rel.toExponential(1)}`);
    }
    assert.deepEqual(bad, [], `the WGSL error of A is the twin's within ${ERR_TOL} (relative)`);
  },
  { timeout: 500_000, webgpu: true },
);
