// Trained heads (issue 15, part 1): (1) Q, K, V of every head of both bundled models from the GPU
// forward pass (GpuModel.encodeForward, src/gpu/train/trained-heads.ts) against the CPU twin
// (src/core/trained/heads.ts); (2) `?input=trained&model=mqar&layer=0&head=0` in the app: the
// comparison computes on the head, the head picker shows every head of the model, clicking another
// changes head= and the figures, the state JSON's Q is the twin's and its A_exact is
// softmax(QKᵀ/√d) (causal) of that head recomputed here, and every panel's analysis runs on the
// head. Screenshots: e2e/artifacts/screenshots/trained-head*.png. Driver: e2e/pages/trained-heads.ts.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PANEL_ANALYSES } from './app-analyses.mjs';
import { test } from './harness.mjs';

// f32 sums in another order than the twin's, through layer norm and three projections
const RTOL = 1e-4;

test('GPU forward pass: Q, K, V of every head of both bundled models match the CPU twin', async ({
  page,
  baseUrl,
  log,
}) => {
  await page.goto(`${baseUrl}/e2e/pages/trained-heads.html`);
  await page.waitForFunction(() => window.trainedHeads, null, { timeout: 60_000 });
  log(`adapter: ${(await page.evaluate(() => window.trainedHeads.info())).adapter}`);
  const bad = [];
  for (const [model, example] of [
    ['mqar', 0],
    ['grammar', 3],
  ]) {
    const r = await page.evaluate(([m, e]) => window.trainedHeads.compare(m, e), [model, example]);
    for (const row of r.rows) {
      for (const x of ['q', 'k', 'v']) {
        const { maxAbs, scale } = row[x];
        const ok = maxAbs <= RTOL * scale && scale > 0;
        log(
          `${ok ? '✓' : '✗'} ${model} #${example} layer ${row.layer} head ${row.head} ${x.toUpperCase()} ${row.shape.join('×')}: max |Δ| ${maxAbs.toExponential(1)} (max |x| ${scale.toFixed(3)})`,
        );
        if (!ok) bad.push({ model, ...row, x });
      }
      if (JSON.stringify(row.gotShape) !== JSON.stringify(row.shape)) bad.push({ model, shape: row });
    }
    log(`${model}: GPU forward + readback ${r.ms.toFixed(0)} ms`);
  }
  assert.deepEqual(bad, []);
});

function softmaxA(q, k, n, d) {
  const A = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    let mx = -Infinity;
    const s = new Float64Array(i + 1);
    for (let j = 0; j <= i; j++) {
      let dot = 0;
      for (let c = 0; c < d; c++) dot += q[i * d + c] * k[j * d + c];
      s[j] = dot / Math.sqrt(d);
      mx = Math.max(mx, s[j]);
    }
    let z = 0;
    for (let j = 0; j <= i; j++) z += s[j] = Math.exp(s[j] - mx);
    for (let j = 0; j <= i; j++) A[i * n + j] = s[j] / z;
  }
  return A;
}

async function settled(page, head) {
  await page.waitForFunction(
    (h) => {
      const s = window.__performer.getState();
      return (
        s.compute.status === 'ok' &&
        s.upload.active?.trained?.head === h &&
        s.compute.result?.params.n === s.upload.active.n &&
        document.querySelector('[data-metric="heatmap-exact"]')?.getAttribute('data-result-id') ===
          String(s.compute.result.id)
      );
    },
    head,
    { timeout: 60_000 },
  );
}

/** The head of `want` (model, typed text or none) in force and computed, its heatmap drawn. */
async function settledOn(page, want) {
  await page.waitForFunction(
    (w) => {
      const s = window.__performer.getState();
      const t = s.upload.active?.trained;
      return (
        t?.model === w.model &&
        t.text === w.text &&
        s.compute.status === 'ok' &&
        s.compute.result?.params.n === s.upload.active.n &&
        document.querySelector('[data-metric="heatmap-exact"]')?.getAttribute('data-result-id') ===
          String(s.compute.result.id)
      );
    },
    want,
    { timeout: 60_000 },
  );
}

test(
  'input=trained: the comparison computes on the head, the picker shows every head, a click changes head= and the figures, the JSON’s A_exact is softmax(QKᵀ/√d) of the twin’s head and its errors of A and of the output are the shown ones, every panel analysis runs on it, and typed grammar text puts the twin’s head on those tokens in force (a bad word: refused at the box, head kept)',
  async ({ page, appUrl, artifacts, loadModule, log }) => {
    const { bundledHeads, bundleShape } = await loadModule('/src/core/trained/bundles.ts');
    const shape = bundleShape('mqar');
    await page.goto(`${appUrl}/?backend=cpu&input=trained&model=mqar&layer=0&head=0&m=32`);
    await settled(page, 0);
    const s0 = await page.evaluate(() => {
      const s = window.__performer.getState();
      return { n: s.params.n, d: s.params.d, causal: s.params.causal, id: s.compute.result.id, notices: s.notices };
    });
    assert.deepEqual([s0.n, s0.d, s0.causal], [shape.n, shape.d, true], 'n, d follow the model; causal');
    assert.deepEqual(s0.notices, []);
    const picks = page.locator('[data-head-pick]');
    assert.equal(await picks.count(), shape.layers * shape.heads, 'one small multiple per (layer, head)');
    assert.equal(await page.locator('[data-head-pick="0-0"]').getAttribute('data-selected'), 'true');
    const line = await page.locator('[data-head-pick="0-0"] .note').textContent();
    log(`head 0-0: ${line}`);
    const exact0 = await page.evaluate(() =>
      Array.from(window.__performer.getState().compute.result.output.view.exact),
    );

    await page.locator('[data-head-pick="0-1"] [data-action="pick-head"]').click();
    await settled(page, 1);
    await page.waitForFunction(() => new URLSearchParams(location.search).get('head') === '1');
    assert.equal(await page.locator('[data-head-pick="0-1"]').getAttribute('data-selected'), 'true');
    const shots = join(artifacts, 'screenshots');
    mkdirSync(shots, { recursive: true });
    await page.locator('.trained-heads').screenshot({ path: join(shots, 'trained-heads-mqar.png') });
    await page.screenshot({ path: join(shots, 'trained-head-page.png'), fullPage: false });
    const exact1 = await page.evaluate(() =>
      Array.from(window.__performer.getState().compute.result.output.view.exact),
    );
    let change = 0;
    for (let i = 0; i < exact1.length; i++) change = Math.max(change, Math.abs(exact1[i] - exact0[i]));
    assert.ok(change > 0.05, `the exact A shown changed with the head (max |Δ| ${change.toFixed(3)})`);

    // the state JSON of head 1 against the twin
    await page.waitForFunction(() => !document.querySelector('[data-export="json"]')?.disabled);
    const [dl] = await Promise.all([
      page.waitForEvent('download', { timeout: 60_000 }),
      page.click('[data-export="json"]'),
    ]);
    const json = JSON.parse(readFileSync(await dl.path(), 'utf8'));
    const head = bundledHeads('mqar', 0)[0][1];
    const { n, d } = shape;
    // the JSON writes each f32 with the fewest digits that read back to it
    let differ = 0;
    for (let i = 0; i < n * d; i++)
      if (Math.fround(json.Q[i]) !== head.q.data[i] || Math.fround(json.K[i]) !== head.k.data[i]) differ++;
    assert.equal(differ, 0, 'the JSON’s Q, K are the twin’s head exactly (as f32)');
    const A = softmaxA(head.q.data, head.k.data, n, d);
    let da = 0;
    for (let t = 0; t < n * n; t++) da = Math.max(da, Math.abs(A[t] - json.A_exact[t]));
    log(`JSON: A_exact vs softmax(QKᵀ/√d) of the twin's head: max |Δ| ${da.toExponential(1)}`);
    assert.ok(da < 1e-6, `A_exact = softmax(QKᵀ/√d) (causal): max |Δ| ${da}`);
    // the main panel's numbers, recomputed from the file: ‖Â − A‖/‖A‖, and A·V with the twin's V
    let num = 0;
    let den = 0;
    for (let t = 0; t < n * n; t++) {
      num += (json.A_approx[t] - json.A_exact[t]) ** 2;
      den += json.A_exact[t] ** 2;
    }
    const relA = Math.sqrt(num / den);
    const shownRelA = Number(await page.getAttribute('[data-metric="rel-error-A"]', 'data-value'));
    assert.ok(Math.abs(relA - shownRelA) <= 1e-5 * relA, `rel-error-A from the file ${relA} vs shown ${shownRelA}`);
    let dOut = 0;
    let on = 0;
    let od = 0;
    for (let i = 0; i < n; i++)
      for (let c = 0; c < d; c++) {
        let o = 0;
        for (let j = 0; j < n; j++) o += json.A_exact[i * n + j] * head.v.data[j * d + c];
        dOut = Math.max(dOut, Math.abs(o - json.out_exact[i * d + c]));
        on += (json.out_approx[i * d + c] - json.out_exact[i * d + c]) ** 2;
        od += json.out_exact[i * d + c] ** 2;
      }
    assert.ok(dOut < 1e-5, `out_exact = A·V of the twin's head: max |Δ| ${dOut}`);
    const relOut = Math.sqrt(on / od);
    const shownRelOut = Number(await page.getAttribute('[data-metric="rel-error-out"]', 'data-value'));
    assert.ok(
      Math.abs(relOut - shownRelOut) <= 1e-4 * relOut,
      `rel-error-out from the file ${relOut} vs shown ${shownRelOut}`,
    );
    log(
      `JSON: rel-error-A ${relA.toFixed(5)} (shown ${shownRelA.toFixed(5)}), out = A·V max |Δ| ${dOut.toExponential(1)}`,
    );

    // every panel's analysis ran on the head (its key names the head's upload id), at rest
    const t0 = Date.now();
    const upId = await page.evaluate(() => window.__performer.getState().upload.active.id);
    await page.waitForFunction(
      ([ids, up]) => {
        const a = window.__performer.getState().analyses;
        return ids.every(
          (id) =>
            a[id]?.status === 'done' &&
            a[id].refined !== false &&
            a[id].valueKey === a[id].key &&
            (id === 'errorVsD' || a[id].valueKey.includes(`upload:${up}`)),
        );
      },
      [PANEL_ANALYSES, upId],
      { timeout: 60_000 },
    );
    for (const id of ['sparsity', 'rank'])
      await page.locator(`#panel-${id}`).screenshot({ path: join(shots, `trained-head-${id}.png`) });
    log(`every panel analysis (${PANEL_ANALYSES.join(', ')}) done on ${upId} within ${Date.now() - t0} ms more`);

    // typed text (grammar model): the box starts from the example's words; Enter puts the head on the
    // typed tokens in force (A = the twin's softmax on them, the chips and text= follow); a word the
    // model does not know is refused at the box and the head stays
    const seq = await loadModule('/src/core/trained/sequence.ts');
    await page.selectOption('[data-trained-key="model"]', 'grammar');
    const box = page.locator('[data-trained-key="text"]');
    await box.waitFor();
    assert.equal(await box.inputValue(), seq.selectionText({ model: 'grammar', example: 0 }), 'prefilled: example 1');
    await settledOn(page, { model: 'grammar', text: undefined });
    const exampleA = await page.evaluate(() =>
      Array.from(window.__performer.getState().compute.result.output.view.exact),
    );
    const typed = 'The big dogs (a cat sees) chase some mice. The king follows';
    const canonical = 'the big dogs (a cat sees) chase some mice. the king follows';
    await box.fill(typed);
    await box.press('Enter');
    await settledOn(page, { model: 'grammar', text: canonical });
    await page.waitForFunction((t) => new URLSearchParams(location.search).get('text') === t, canonical);
    const tokens = seq.selectionTokens({ model: 'grammar', example: 0, text: canonical });
    const tn = tokens.length;
    const th = seq.selectionHeads({ model: 'grammar', example: 0, text: canonical })[0][0];
    const typedA = await page.evaluate(() => {
      const s = window.__performer.getState();
      return {
        n: s.params.n,
        cells: s.compute.result.output.view.cells,
        exact: Array.from(s.compute.result.output.view.exact),
      };
    });
    assert.deepEqual([typedA.n, typedA.cells], [tn, tn], `n = the ${tn} typed tokens, A shown in full`);
    const twinA = softmaxA(th.q.data, th.k.data, tn, th.q.cols);
    let dt = 0;
    for (let t = 0; t < tn * tn; t++) dt = Math.max(dt, Math.abs(twinA[t] - typedA.exact[t]));
    assert.ok(dt < 1e-6, `A on the typed tokens = softmax(QKᵀ/√d) of the twin's head on them: max |Δ| ${dt}`);
    // against the example's A on the same positions (the first tn rows and columns: causal, so a prefix)
    const en = Math.round(Math.sqrt(exampleA.length));
    let moved = 0;
    for (let i = 0; i < tn; i++)
      for (let j = 0; j <= i; j++) moved = Math.max(moved, Math.abs(typedA.exact[i * tn + j] - exampleA[i * en + j]));
    assert.ok(moved > 0.05, `A changed with the sequence (max |Δ| ${moved.toFixed(3)} over the first ${tn} rows)`);
    const chips = await page.getAttribute('[data-trained-tokens]', 'data-trained-tokens');
    assert.equal(chips, 'the big dogs ( a cat sees ) chase some mice . the king follows', 'one chip per token');
    await page.click('[data-token-pos="5"]');
    await page.waitForFunction(() => window.__performer.getState().ui.pinnedRow === 5);
    assert.equal(await page.getAttribute('[data-token-pos="5"]', 'aria-pressed'), 'true', 'a chip pins its row');
    const typedId = await page.evaluate(() => window.__performer.getState().upload.active.id);
    await box.fill('the cat eats a dog');
    await page.click('[data-action="load-text"]');
    const err = page.locator('[data-trained-text-error]');
    await err.waitFor();
    const errText = await err.locator('span').textContent();
    assert.ok(/“eats” \(token 2/.test(errText), `the refusal at the box names the word and its token: ${errText}`);
    assert.equal(await box.getAttribute('aria-invalid'), 'true');
    assert.equal(await page.locator('.notices [data-notice="trained-text-rejected"]').count(), 0, 'at the box only');
    const after = await page.evaluate(() => {
      const s = window.__performer.getState();
      return { id: s.upload.active.id, text: s.upload.active.trained.text };
    });
    assert.deepEqual(after, { id: typedId, text: canonical }, 'the typed head stays in force');
    assert.equal(new URL(page.url()).searchParams.get('text'), canonical);
    await page.locator('.trained-heads').screenshot({ path: join(shots, 'trained-heads-text.png') });
    log(`typed text: ${tn} tokens, A vs twin max |Δ| ${dt.toExponential(1)}; refusal: ${errText}`);
  },
  { webgpu: false, timeout: 90_000 },
);
