// Trained heads (issue 15, part 1): (1) Q, K, V of every head of both bundled models from the GPU
// forward pass (GpuModel.encodeForward, src/gpu/train/trained-heads.ts) against the CPU twin
// (src/core/trained/heads.ts); (2) `?input=trained&model=mqar&layer=0&head=0` in the app: the
// comparison computes on the head, the head picker shows every head of the model, clicking another
// changes head= and the figures, the state JSON's Q is the twin's and its A_exact is
// softmax(QKᵀ/√d) (causal) of that head recomputed here, and every panel's analysis runs on the
// head, with every panel’s numbers recomputed from the JSON. Screenshots: e2e/artifacts/screenshots/trained-head*.png. Driver: e2e/pages/trained-heads.ts.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PANEL_ANALYSES } from './app-analyses.mjs';
import { test } from './harness.mjs';

// f32 sums in another order than the twin's, through layer norm and three projections
const RTOL = 1e-4;
// the app's heads (the same WGSL forward pass, in the engine worker): measured max |Δ| / max |x| 3.3e-7 on SwiftShader
const APP_RTOL = 1e-5;

test('GPU forward pass: Q, K, V of every head of both bundled models match the CPU twin; the app on WebGPU computes its head with WGSL, equal to the twin within 1e-5', async ({
  page,
  baseUrl,
  appUrl,
  loadModule,
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

  // the app on WebGPU: the head in force comes from the engine's WGSL forward pass (the engine
  // worker's `heads` request), and every head of that pass is the CPU twin's within APP_RTOL
  const { bundledHeads } = await loadModule('/src/core/trained/bundle-weights.ts');
  const t0 = Date.now();
  await page.goto(
    `${appUrl}/?input=trained&model=grammar&layer=1&head=1&example=3&m=32&hide=error,sparsity,rank,feature-maps,beyond,speed,training`,
  );
  await page.waitForFunction(() => window.__performer.getState().upload.active?.heads, null, { timeout: 60_000 });
  const t1 = Date.now();
  const app = await page.evaluate(() => {
    const a = window.__performer.getState().upload.active;
    const arr = (m) => Array.from(m.data);
    return {
      trained: a.trained,
      backend: a.heads.backend,
      adapter: a.heads.adapter,
      ms: a.heads.ms,
      q: arr(a.q.matrix),
      heads: a.heads.heads.map((row) => row.map((h) => ({ q: arr(h.q), k: arr(h.k), v: arr(h.v) }))),
      url: location.search,
      // the head came before the warm-up of the attention pipelines was over (that it need not wait for)
      warming: window.__performer.getState().backend.info?.kind !== 'webgpu',
    };
  });
  assert.deepEqual(app.trained, { model: 'grammar', layer: 1, head: 1, example: 3 });
  assert.equal(app.backend, 'webgpu', 'the app computed the head with WGSL');
  assert.equal(await page.getAttribute('[data-trained-backend]', 'data-trained-backend'), 'webgpu');
  const twin = bundledHeads('grammar', 3);
  let worst = 0;
  for (let l = 0; l < twin.length; l++)
    for (let h = 0; h < twin[l].length; h++)
      for (const x of ['q', 'k', 'v']) {
        const want = twin[l][h][x].data;
        const got = app.heads[l]?.[h]?.[x] ?? [];
        assert.equal(got.length, want.length, `layer ${l} head ${h} ${x}: size`);
        let scale = 0;
        let dmax = 0;
        for (let i = 0; i < want.length; i++) {
          scale = Math.max(scale, Math.abs(want[i]));
          dmax = Math.max(dmax, Math.abs(got[i] - want[i]));
        }
        worst = Math.max(worst, dmax / scale);
      }
  assert.deepEqual(app.q, Array.from(app.heads[1][1].q), 'the head in force is layer 1, head 1 of that pass');
  log(
    `app on ${app.adapter}: forward pass ${app.ms.toFixed(0)} ms in the worker; max |Δ| / max |x| vs the twin ${worst.toExponential(1)} (page load to head ${t1 - t0} ms${app.warming ? ', before the warm-up ended' : ''})`,
  );
  assert.ok(worst <= APP_RTOL, `the app's WebGPU heads equal the twin's within ${APP_RTOL} of max |x| (${worst})`);
  assert.match(app.url, /input=trained&.*model=grammar/, 'the URL keeps the selection');
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

const metricOf = async (page, name) => Number(await page.getAttribute(`[data-metric="${name}"]`, 'data-value'));

/**
 * Every panel's numbers on the head, recomputed here from the exported JSON's A_exact, A_approx (and
 * the twin's V): the comparison's mean KL and entropies, the sparsity panel's row entropies, the
 * rank panel's ranks (SVD of A and Â) and Su's local truncation curve, the feature-map panel's row.
 */
async function checkPanelsFromJson(page, json, v, { n, d }, loadModule, log) {
  const { klDivergence, normalizedEntropy, rowEntropy } = await loadModule('/src/core/metrics.ts');
  const { singularValues } = await loadModule('/src/core/svd.ts');
  const { effectiveRank, numericalRank } = await loadModule('/src/core/rank.ts');
  const { localTruncationCurve, windowGrid } = await loadModule('/src/core/local-window.ts');
  const A = Float32Array.from(json.A_exact);
  const B = Float32Array.from(json.A_approx);
  const row = (M, i) => M.subarray(i * n, (i + 1) * n);
  let kl = 0;
  const hA = [];
  const hB = [];
  for (let i = 0; i < n; i++) {
    kl += klDivergence(row(A, i), row(B, i));
    hA.push(normalizedEntropy(rowEntropy(row(A, i)), i + 1));
    hB.push(normalizedEntropy(rowEntropy(row(B, i)), i + 1));
  }
  const avg = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length;
  // floor: the scale below which a difference is f32 rounding (a relative error whose true value is 0)
  const close = (got, want, rel, what, floor = 1e-12) =>
    assert.ok(
      Math.abs(got - want) <= rel * Math.max(Math.abs(want), floor),
      `${what}: shown ${got} vs recomputed from the JSON ${want}`,
    );
  let num = 0;
  let den = 0;
  for (let t = 0; t < n * n; t++) {
    num += (B[t] - A[t]) ** 2;
    den += A[t] ** 2;
  }
  const rows = [];
  for (const [name, want, rel] of [
    ['err-rel-error-A', Math.sqrt(num / den), 1e-5],
    ['err-mean-kl', kl / n, 1e-3],
    ['mean-kl', kl / n, 1e-3],
    ['entropy-exact', avg(hA), 1e-4],
    ['entropy-performer', avg(hB), 1e-4],
    ['sparsity-entropy-exact', avg(hA), 1e-4],
    ['sparsity-entropy-performer', avg(hB), 1e-4],
  ]) {
    const got = await metricOf(page, name);
    rows.push(`${name} ${got.toFixed(5)}/${want.toFixed(5)}`);
    close(got, want, rel, name);
  }
  // rank panel: f64 SVD of the f32 matrices; the numerical rank is only pinned where it is not at the cut
  const tol = Number(await page.getAttribute('#panel-rank .metrics', 'data-rank-tol'));
  for (const [tag, M] of [
    ['exact', A],
    ['performer', B],
  ]) {
    const sigma = singularValues({ rows: n, cols: n, data: Float64Array.from(M) });
    const eff = effectiveRank(sigma);
    const gotEff = await metricOf(page, `eff-rank-${tag}`);
    close(gotEff, eff, 1e-3, `eff-rank-${tag}`);
    const gotRank = await metricOf(page, `rank-${tag}`);
    const lo = numericalRank(sigma, tol * 4);
    const hi = numericalRank(sigma, tol / 4);
    assert.ok(
      lo <= gotRank && gotRank <= hi,
      `rank-${tag} ${gotRank} within [${lo}, ${hi}] (tolerance ${tol} ×4 / ÷4)`,
    );
    rows.push(`eff-rank-${tag} ${gotEff.toFixed(3)}/${eff.toFixed(3)}, rank-${tag} ${gotRank} ∈ [${lo}, ${hi}]`);
  }
  // Su's local truncation: the curve the sparsity panel draws
  const lt = await page.evaluate(() => window.__performer.getState().analyses.localTruncation.value);
  const want = localTruncationCurve({ rows: n, cols: n, data: A }, { rows: n, cols: n, data: B }, windowGrid(n, true), {
    rows: n,
    cols: d,
    data: v.data,
  });
  assert.deepEqual(
    lt.windows,
    want.map((c) => c.w),
    'the same windows',
  );
  for (const [t, c] of want.entries()) {
    // at the full window T_w(A) = A: both curves say 0 exactly (local-window.ts keepsEveryKey)
    close(lt.errorApprox[t], c.errorApprox, 1e-4, `local truncation w ${c.w}: Â`, 1e-3);
    close(lt.errorExact[t], c.errorExact, 1e-4, `local truncation w ${c.w}: A`, 1e-3);
    close(lt.errorOut[t], c.errorOutApprox, 1e-4, `local truncation w ${c.w}: output`, 1e-3);
  }
  rows.push(`local truncation ${want.length} windows`);
  // feature-map panel: its softmax row is the JSON's A row, its row under the experiment's map Â's
  const mr = await page.evaluate(() => window.__performer.getState().analyses.mapRows.value);
  const r = mr.row;
  let dRow = 0;
  for (let j = 0; j < n; j++) dRow = Math.max(dRow, Math.abs(mr.exact[j] - A[r * n + j]));
  assert.ok(dRow < 1e-6, `feature-map panel: exact row ${r} is A_exact's (max |Δ| ${dRow})`);
  const mine = mr.maps.find((m) => m.map === json.params.featureMap);
  let dHat = 0;
  for (let j = 0; j < n; j++) dHat = Math.max(dHat, Math.abs(mine.values[j] - B[r * n + j]));
  assert.ok(dHat < 1e-5, `feature-map panel: the ${json.params.featureMap} row ${r} is A_approx's (max |Δ| ${dHat})`);
  rows.push(`map row ${r}: |Δ| ${dRow.toExponential(1)} / ${dHat.toExponential(1)}`);
  log(`panels from the JSON: ${rows.join('; ')}`);
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
  'input=trained: the comparison computes on the head, the picker shows every head, a click changes head= and the figures, the JSON’s A_exact is softmax(QKᵀ/√d) of the twin’s head and its errors of A and of the output are the shown ones, every panel analysis (the beyond panel’s sweep included) runs on it, each panel’s numbers (errors, KL, entropies, ranks, local truncation, the feature-map row) recomputed from the JSON are the shown ones, and typed grammar text puts the twin’s head on those tokens in force (a bad word: refused at the box, head kept)',
  async ({ page, appUrl, artifacts, loadModule, log }) => {
    const { bundleShape } = await loadModule('/src/core/trained/bundles.ts');
    const { bundledHeads, selectionHeads } = await loadModule('/src/core/trained/bundle-weights.ts');
    const shape = bundleShape('mqar');
    await page.goto(`${appUrl}/?backend=cpu&input=trained&model=mqar&layer=0&head=0&m=32`);
    await settled(page, 0);
    const s0 = await page.evaluate(() => {
      const s = window.__performer.getState();
      return { n: s.params.n, d: s.params.d, causal: s.params.causal, id: s.compute.result.id, notices: s.notices };
    });
    assert.deepEqual([s0.n, s0.d, s0.causal], [shape.n, shape.d, true], 'n, d follow the model; causal');
    assert.deepEqual(s0.notices, []);
    assert.equal(
      await page.getAttribute('[data-trained-backend]', 'data-trained-backend'),
      'cpu',
      'backend=cpu: the forward pass ran on the CPU twin (in the engine worker)',
    );
    assert.equal(await page.evaluate(() => window.__performer.getState().upload.active.heads.backend), 'cpu');
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
    const { selectionTokens } = await loadModule('/src/core/trained/sequence.ts');
    assert.equal(json.inputs, 'trained');
    assert.deepEqual(
      json.trained,
      {
        model: 'mqar',
        layer: 0,
        head: 1,
        example: 0,
        text: null,
        tokens: Array.from(selectionTokens({ model: 'mqar', example: 0 })),
        forward: 'cpu',
      },
      'the JSON names the head, its sequence and the tokens the model ran on',
    );
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
    await checkPanelsFromJson(page, json, head.v, { n, d }, loadModule, log);
    for (const id of ['sparsity', 'rank'])
      await page.locator(`#panel-${id}`).screenshot({ path: join(shots, `trained-head-${id}.png`) });
    log(`every panel analysis (${PANEL_ANALYSES.join(', ')}) done on ${upId} within ${Date.now() - t0} ms more`);
    // the beyond panel's sweep starts once its figures are seen: scrolled to, it runs on the head too
    await page.locator('#panel-beyond').scrollIntoViewIfNeeded();
    await page.waitForFunction(
      (up) => {
        const e = window.__performer.getState().analyses.beyondSweeps;
        return e?.status === 'done' && e.refined !== false && e.valueKey === e.key && e.key.includes(`upload:${up}`);
      },
      upId,
      { timeout: 90_000 },
    );
    const bs = await page.evaluate(() => window.__performer.getState().analyses.beyondSweeps.value);
    assert.equal(bs.n, n, 'the beyond sweep ran at the head’s n');
    log(`beyond panel: sweep done on ${upId} (n ${bs.n})`);

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
    const th = selectionHeads({ model: 'grammar', example: 0, text: canonical })[0][0];
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
    // the chip line is one tab stop, the pinned chip; the arrows walk it, hovering as they go, Enter pins
    const stops = await page.$$eval('[data-token-pos]', (bs) =>
      bs.filter((b) => b.tabIndex === 0).map((b) => b.dataset.tokenPos),
    );
    assert.deepEqual(stops, ['5'], 'one tab stop in the chip line: the pinned chip');
    await page.focus('[data-token-pos="5"]');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const walked = await page.evaluate(() => ({
      focus: document.activeElement?.getAttribute('data-token-pos'),
      hovered: window.__performer.getState().ui.hoveredRow,
    }));
    assert.deepEqual(walked, { focus: '7', hovered: 7 }, 'two arrow steps focus and preview chip 7');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.__performer.getState().ui.pinnedRow === 7);
    await page.keyboard.press('End');
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute('data-token-pos')),
      '14',
      'End: the last chip',
    );
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
