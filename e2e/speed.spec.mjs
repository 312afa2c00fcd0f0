// The speed panel end to end (?embed=speed): on the CPU path a tiny-budget run shows points for every
// method, the headline metrics get values, the CSV holds every point and Cancel stops a run while the
// previous result stays; one short WebGPU run checks the GPU path (GPU timing, every method measured).
// Correctness only — times are never asserted. Screenshots: e2e/artifacts/screenshots/speed-*.png.
// Run: node e2e/run.mjs speed
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from './harness.mjs';

const ATTENTION = ['exact', 'performer-bidirectional', 'performer-causal', 'dummy'];
const LAYER = ['layer-exact', 'layer-performer', 'layer-dummy'];

function shots(artifacts) {
  const dir = join(artifacts, 'screenshots');
  mkdirSync(dir, { recursive: true });
  return dir;
}

async function metric(page, name) {
  return page.getAttribute(`[data-metric="${name}"]`, 'data-value');
}

async function pointCounts(page) {
  const raw = await page.getAttribute('[data-speed-result]', 'data-speed-points');
  return Object.fromEntries(
    raw
      .split(',')
      .map((kv) => kv.split(':'))
      .map(([k, v]) => [k, Number(v)]),
  );
}

async function runOnce(page, budgetS, timeout) {
  await page.selectOption('[data-ui="speedBudget"]', String(budgetS));
  await page.waitForSelector('[data-action="speed-run"]:not([disabled])', { timeout: 90_000 });
  await page.locator('[data-action="speed-run"]').click({ timeout: 90_000 });
  await page.waitForSelector('[data-speed-state="running"]', { timeout: 10_000 });
  await page.waitForSelector('[data-speed-state="done"]', { timeout });
}

async function open(page, appUrl, extra) {
  await page.goto(`${appUrl}/?embed=speed&d=16&m=32${extra}`);
  await page.waitForSelector('[data-panel="speed"] [data-speed-empty]', { timeout: 30_000 });
  await page.waitForSelector('[data-action="speed-run"]:not([disabled])', { timeout: 90_000 });
}

test(
  'speed panel on the CPU path: before a run the FLOP model (4n²d vs 8nm′d, equal at 2m′); then every method measured, metrics set, CSV complete, Cancel does not move as the status text changes and keeps the previous result',
  async ({ page, appUrl, artifacts, log }) => {
    await open(page, appUrl, '&backend=cpu');
    // before anything is timed: the FLOP counts at d = 16, m′ = 32, and their crossover n = 2m′ = 64
    const empty = page.locator('[data-speed-empty]');
    assert.deepEqual(await empty.locator('.legend li').allTextContents(), ['exact, 4n²d', 'Performer, 8nm′d']);
    assert.equal((await empty.locator('.marker-label').textContent()).trim(), 'equal FLOPs: n = 2m′ = 64');
    await empty.locator('.data-table summary').click();
    await empty.locator('.data-table tbody tr').first().waitFor();
    const flops = Object.fromEntries(
      (
        await empty
          .locator('.data-table tbody tr')
          .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)))
      ).map(([series, n, y]) => [`${series} @ ${n}`, Number(y.replace(/,/g, ''))]),
    );
    assert.equal(flops['exact, 4n²d @ 64'], 4 * 64 * 64 * 16);
    assert.equal(flops['Performer, 8nm′d @ 64'], 8 * 64 * 32 * 16);
    // (the table shows 3 significant digits)
    const ratio = flops['exact, 4n²d @ 1,024'] / flops['Performer, 8nm′d @ 1,024'];
    assert.ok(Math.abs(ratio / (1024 / 64) - 1) < 0.005, `exact / Performer at n = 1,024 is n / 2m′ = 16 (${ratio})`);
    await runOnce(page, 2, 120_000);
    assert.equal(
      await page.getAttribute('[data-speed-timing]', 'data-speed-timing'),
      'cpu',
      'the panel says the CPU twins were timed',
    );
    const counts = await pointCounts(page);
    log(`points per method: ${JSON.stringify(counts)}`);
    for (const m of [...ATTENTION, ...LAYER]) assert.ok(counts[m] >= 1, `${m} has at least one point`);
    for (const name of ['speed-crossover', 'speed-gflops-exact', 'speed-gflops-performer']) {
      const v = await metric(page, name);
      assert.ok(v !== null && v !== '' && Number(v) > 0, `${name} has a positive value (got ${v})`);
    }
    const before = {
      gflops: await metric(page, 'speed-gflops-exact'),
      cross: await metric(page, 'speed-crossover'),
      points: JSON.stringify(counts),
    };

    // the time figure's CSV: one row per measured attention point (header + Σ counts)
    const fig = page.locator('[data-export-figure]').first();
    const [dl] = await Promise.all([
      page.waitForEvent('download', { timeout: 30_000 }),
      fig.locator('[data-export="csv"]').click(),
    ]);
    const csv = readFileSync(await dl.path(), 'utf8')
      .trim()
      .split('\n');
    const attentionPoints = ATTENTION.reduce((s, m) => s + counts[m], 0);
    assert.equal(csv.length, 1 + attentionPoints, 'the time CSV holds every measured point');
    // the full-results CSV: every point of every method with all columns
    const [dl2] = await Promise.all([
      page.waitForEvent('download', { timeout: 30_000 }),
      page.click('[data-action="speed-csv"]'),
    ]);
    const all = readFileSync(await dl2.path(), 'utf8')
      .trim()
      .split('\n');
    assert.equal(
      all.length,
      1 + attentionPoints + LAYER.reduce((s, m) => s + counts[m], 0),
      'the results CSV holds every point',
    );
    assert.match(all[0], /^method,n,median_ms,min_ms,runs,bytes,gflops/);

    const dir = shots(artifacts);
    await page.locator('[data-panel="speed"]').screenshot({ path: join(dir, 'speed-cpu-1280.png') });
    await page.locator('[data-speed-layer]').screenshot({ path: join(dir, 'speed-layer-cpu-1280.png') });

    // Cancel: a long run is stopped; the previous result and metrics stay
    await page.selectOption('[data-ui="speedBudget"]', '120');
    await page.click('[data-action="speed-run"]');
    // Cancel stays under the pointer while the status text (method, elapsed time, estimate) changes
    // width: a button that moves takes the click meant for it elsewhere
    const cancel = page.locator('[data-action="speed-cancel"]');
    await cancel.waitFor({ timeout: 10_000 });
    const status = page.locator('[data-speed-status="running"]');
    const text0 = await status.textContent();
    const box0 = await cancel.boundingBox();
    await page.waitForFunction(
      (t) => {
        const el = document.querySelector('[data-speed-status="running"]');
        return el !== null && el.textContent !== t;
      },
      text0,
      { timeout: 30_000 },
    );
    const text1 = await status.textContent();
    const box1 = await cancel.boundingBox();
    log(`status text "${text0}" → "${text1}"; Cancel at ${JSON.stringify(box0)} → ${JSON.stringify(box1)}`);
    assert.deepEqual(box1, box0, 'Cancel has not moved while the status text changed');
    await cancel.click();
    await page.waitForSelector('[data-speed-state="cancelled"]', { timeout: 30_000 });
    assert.equal(
      await page.getAttribute('[data-speed-result]', 'data-speed-result'),
      'done',
      'the previous complete result is shown',
    );
    assert.equal(await metric(page, 'speed-gflops-exact'), before.gflops);
    assert.equal(await metric(page, 'speed-crossover'), before.cross);
    assert.equal(JSON.stringify(await pointCounts(page)), before.points);
  },
  { webgpu: false, timeout: 240_000 },
);

test(
  'speed panel on WebGPU: a short run times every method on the GPU',
  async ({ page, appUrl, artifacts, log }) => {
    await open(page, appUrl, '');
    // the CPU stand-in answers while WebGPU compiles; the timing run belongs to the settled backend
    await page.waitForSelector('[data-metric="backend"][data-value="webgpu"]', { timeout: 120_000 });
    await runOnce(page, 2, 240_000);
    const timing = await page.getAttribute('[data-speed-timing]', 'data-speed-timing');
    assert.ok(timing === 'timestamp' || timing === 'wall', `GPU timing (got ${timing})`);
    const counts = await pointCounts(page);
    log(`timing: ${timing}; points per method: ${JSON.stringify(counts)}`);
    for (const m of [...ATTENTION, ...LAYER]) assert.ok(counts[m] >= 1, `${m} has at least one point`);
    for (const name of ['speed-gflops-exact', 'speed-gflops-performer']) {
      const v = Number(await metric(page, name));
      assert.ok(Number.isFinite(v) && v > 0, `${name} is positive`);
    }
    assert.equal(await page.locator('[data-stop-kind="error"]').count(), 0, 'no method failed');
    const dir = shots(artifacts);
    await page.locator('[data-panel="speed"]').screenshot({ path: join(dir, 'speed-webgpu-1280.png') });
    await page.locator('[data-speed-layer]').screenshot({ path: join(dir, 'speed-layer-webgpu-1280.png') });
  },
  { timeout: 360_000 },
);
