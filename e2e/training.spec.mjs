// The training panel end to end (issue "Learning"): a link with a tiny `train=` setup and `run=1`
// starts training on load, the per-kind numbers (data-metric train-loss / train-accuracy, data-run,
// data-step) advance, Pause freezes them, Resume continues, Cancel ends the comparison; the
// `?embed=training` frame runs a short comparison to the end (results, "why" sentence, maps).
// CPU twins (backend=cpu) unless the WebGPU trainer is built in. Run: node e2e/run.mjs training
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { injectAxe } from './axe.mjs';
import { test } from './harness.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const TINY = 'task.mqar_pairs.2_L.16_kinds.softmax+elu1_d.16_h.1_layers.1_batch.4_seeds.1_m.8';
const OTHERS = 'hide=main,error,sparsity,rank,feature-maps,beyond,speed&n=64&d=8&m=16';

function shots(artifacts) {
  const dir = join(artifacts, 'screenshots');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The step shown by the softmax run's accuracy number (NaN before the first). */
const stepOf = (page, kind = 'softmax') =>
  page.evaluate(
    (k) => Number(document.querySelector(`[data-metric="train-accuracy"][data-run="${k}"]`)?.dataset.step ?? NaN),
    kind,
  );

async function stepAbove(page, min, timeout = 20_000) {
  await page.waitForFunction(
    (m) => Number(document.querySelector('[data-metric="train-accuracy"][data-run="softmax"]')?.dataset.step) > m,
    min,
    { timeout, polling: 100 },
  );
  return stepOf(page);
}

async function streamPauseCancel(page, appUrl, artifacts, backendQuery, name, withPause = true) {
  await page.goto(`${appUrl}/?train=${TINY}_steps.5000&run=1&${OTHERS}${backendQuery}`);
  // the first step waits for the trainer's pipelines (on SwiftShader tens of seconds when the machine is loaded)
  const s1 = await stepAbove(page, 0, 90_000);
  const s2 = await stepAbove(page, s1);
  assert.ok(s2 > s1, `data-step increases while training (${s1} → ${s2})`);
  for (const kind of ['softmax', 'elu1']) {
    const v = await page.getAttribute(`[data-metric="train-loss"][data-run="${kind}"]`, 'data-value');
    assert.ok(Number.isFinite(Number(v)) && Number(v) > 0, `${kind} shows a finite loss (${v})`);
  }
  await page.screenshot({ path: join(shots(artifacts), `training-${name}-running.png`), fullPage: true });

  // Pause / Resume (the CPU case; on SwiftShader every GPU step takes ~0.5 s, so the GPU case streams and cancels)
  if (withPause) {
    await page.click('[data-action="train-pause"]');
    await page.waitForSelector('[data-training-status="paused"]', { timeout: 5_000 });
    const p1 = await stepOf(page);
    await sleep(1_000);
    assert.equal(await stepOf(page), p1, 'paused: the numbers stay at their step');

    await page.click('[data-action="train-resume"]');
    const r1 = await stepAbove(page, p1, 10_000);
    assert.ok(r1 > p1, 'resumed: the steps continue');
  }

  await page.click('[data-action="train-cancel"]');
  await page.waitForSelector('[data-training-status="cancelled"]', { timeout: 15_000 });
  const c1 = await stepOf(page);
  await sleep(600);
  assert.equal(await stepOf(page), c1, 'cancelled: no more steps arrive');
  assert.ok(c1 < 5000, 'the comparison ended before its last step');
  return page.getAttribute('[data-train-backend]', 'data-train-backend');
}

test(
  'train=…&run=1 on the CPU twins: steps stream, data-step increases, Pause holds, Resume continues, Cancel ends',
  async ({ page, appUrl, artifacts }) => {
    const backend = await streamPauseCancel(page, appUrl, artifacts, '&backend=cpu', 'cpu');
    assert.equal(backend, 'cpu', 'the panel says the CPU twins trained');
  },
  { webgpu: false, timeout: 60_000 },
);

test(
  'embed=training runs a short comparison to the end: results per kind, the why sentence, attention maps; axe finds no violations (en, zh dark)',
  async ({ page, appUrl, artifacts }) => {
    await page.goto(`${appUrl}/?embed=training&train=${TINY}_steps.30&run=1&backend=cpu`);
    await page.waitForSelector('[data-embed="training"] [data-panel="training"]', { timeout: 15_000 });
    await page.waitForSelector('[data-training-status="done"]', { timeout: 30_000 });
    for (const kind of ['softmax', 'elu1']) {
      assert.equal(
        await page.getAttribute(`[data-metric="train-accuracy"][data-run="${kind}"]`, 'data-step'),
        '30',
        `${kind}'s numbers are at the last step`,
      );
      const acc = Number(
        await page.getAttribute(`[data-result-run="${kind}"] [data-final-accuracy]`, 'data-final-accuracy'),
      );
      assert.ok(acc >= 0 && acc <= 1, `${kind} has a held-out accuracy in [0, 1] (${acc})`);
    }
    assert.ok((await page.textContent('[data-training-why]')).length > 40, 'the why sentence is there');
    assert.equal(await page.getAttribute('[data-training-maps]', 'data-training-maps'), '2', 'one map per kind');
    await page.screenshot({ path: join(shots(artifacts), 'training-embed-done.png'), fullPage: true });
    for (const extra of ['', '&lang=zh&theme=dark']) {
      if (extra) {
        await page.goto(`${appUrl}/?embed=training&train=${TINY}_steps.10&run=1&backend=cpu${extra}`);
        await page.waitForSelector('[data-training-status="done"]', { timeout: 20_000 });
      }
      await injectAxe(page);
      const v = await page.evaluate(async () =>
        (await window.axe.run(document, { resultTypes: ['violations'] })).violations.map(
          (x) => `${x.id} (${x.nodes.length}): ${x.nodes[0]?.target}`,
        ),
      );
      assert.deepEqual(v, [], `axe on the finished training embed${extra}`);
    }
  },
  { webgpu: false, timeout: 45_000 },
);

test(
  'train=…&run=1&trainer=webgpu: steps stream on the GPU trainer, Cancel ends',
  async ({ page, appUrl, artifacts }) => {
    const backend = await streamPauseCancel(page, appUrl, artifacts, '&trainer=webgpu', 'webgpu', false);
    assert.equal(backend, 'webgpu', 'the panel says WebGPU trained');
  },
  { webgpu: true, timeout: 150_000 },
);
