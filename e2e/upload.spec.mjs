// "Bring your own Q and K" end to end on the CPU path (the upload path does not depend on the
// backend): every generated bad file (e2e/upload-files.mjs, the same corpus the unit tests read) goes
// through the real file input and must be refused with a message naming its problem while the
// store's parameters, result and inputs stay exactly as they were; then good files (.npy float32,
// .npy float64, CSV dropped together) make every panel compute on them, and exact A is checked
// against a recomputation from the uploaded Q, K here in the test. One page. Run: node e2e/run.mjs upload
import assert from 'node:assert/strict';
import { PANEL_ANALYSES as ANALYSES } from './app-analyses.mjs';
import { test } from './harness.mjs';
import { badFiles, badPairs, csv, gaussian, npy } from './upload-files.mjs';

/** A phrase of the (English) message each problem must show. */
const PHRASE = {
  empty: /empty/,
  'file-too-large': /MiB, more than/,
  'bad-magic': /not an \.npy file/,
  'truncated-header': /header is cut off/,
  'bad-header': /header cannot be read/,
  'unsupported-version': /format version .* not supported/,
  'unsupported-dtype': /data type .* is not supported/,
  'big-endian': /big-endian/,
  'fortran-order': /Fortran \(column-major\) order/,
  unaligned: /not aligned/,
  'not-2d': /must be 2-D/,
  'zero-size': /must be at least 1/,
  'data-size-mismatch': /needs \S+ data bytes, but the file has/,
  'too-many-rows': /rows is more than/,
  'too-many-cols': /columns is more than/,
  'too-many-elements': /entries is more than/,
  'non-finite': /is (NaN|Infinity|-Infinity): every entry must be a finite number/,
  'float32-overflow': /too large for float32/,
  'not-text': /neither an \.npy file nor UTF-8 text/,
  'csv-ragged': /has \d+ values, but the rows before it have \d+/,
  'csv-non-numeric': /is not a number/,
  'qk-shape-mismatch': /same n and d/,
  'v-shape-mismatch': /must be n × d/,
};

/** What must not change when a file is refused (runs in the page). */
const SNAPSHOT = () => {
  const s = window.__performer.getState();
  return JSON.stringify({
    params: s.params,
    resultId: s.compute.result?.id ?? null,
    error: s.compute.error,
    active: s.upload.active?.id ?? null,
    url: location.search,
    analyses: Object.fromEntries(Object.entries(s.analyses).map(([id, a]) => [id, `${a.status} ${a.valueKey}`])),
  });
};
const snapshot = (page) => page.evaluate(SNAPSHOT);

async function idle(page, n) {
  await page.waitForFunction(
    (nn) => {
      const s = window.__performer.getState();
      return s.compute.status === 'ok' && s.compute.result?.params.n === nn;
    },
    n,
    { timeout: 60_000 },
  );
}

/** Feeds one file to a slot's file input; returns the refusal { code, text } or null if it was accepted. */
async function feed(page, slot, name, bytes) {
  await page.evaluate(() => {
    window.__uploadBefore = window.__performer.getState().upload;
  });
  await page.setInputFiles(`[data-upload-input="${slot}"]`, {
    name,
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(bytes),
  });
  // every outcome replaces the upload slice: a new error, a staged file, or new inputs in use
  await page.waitForFunction(() => window.__performer.getState().upload !== window.__uploadBefore, null, {
    timeout: 10_000,
  });
  return page.evaluate(async () => {
    const u = window.__performer.getState().upload;
    if (!u.error) return null;
    await new Promise((r) => requestAnimationFrame(() => r()));
    const el = document.querySelector(`[data-upload-error][data-upload-seq="${u.error.seq}"]`);
    return {
      code: el?.getAttribute('data-upload-error') ?? `(not shown: ${u.error.problem.code})`,
      text: el?.textContent ?? '',
    };
  });
}

/** Exact softmax attention (float64) of row-major float32 Q, K. */
function exactA(q, k, n, d) {
  const A = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    let mx = -Infinity;
    const s = new Float64Array(n);
    for (let j = 0; j < n; j++) {
      let dot = 0;
      for (let c = 0; c < d; c++) dot += q[i * d + c] * k[j * d + c];
      s[j] = dot / Math.sqrt(d);
      mx = Math.max(mx, s[j]);
    }
    let z = 0;
    for (let j = 0; j < n; j++) z += s[j] = Math.exp(s[j] - mx);
    for (let j = 0; j < n; j++) A[i * n + j] = s[j] / z;
  }
  return A;
}

async function shownExactA(page) {
  return page.evaluate(() => {
    const r = window.__performer.getState().compute.result;
    return {
      cells: r.output.view.cells,
      block: r.output.view.block,
      exact: Array.from(r.output.view.exact),
      relErrorA: r.metrics.relErrorA,
    };
  });
}

function assertExactMatches(shown, q, k, n, d, label) {
  assert.equal(shown.cells, n, `${label}: full-resolution view`);
  assert.equal(shown.block, 1);
  const A = exactA(q.map(Math.fround), k.map(Math.fround), n, d);
  let worst = 0;
  for (let t = 0; t < n * n; t++) worst = Math.max(worst, Math.abs(A[t] - shown.exact[t]));
  assert.ok(worst < 2e-6, `${label}: exact A differs from the recomputation from the uploaded Q, K by ${worst}`);
  return worst;
}

/**
 * Waits until every analysis is done and refined on the upload (and, with `keyPart`, on keys that
 * contain it, e.g. '|true|' after the causal box is ticked): the state at rest, not a coarse stage.
 */
async function waitForAnalysesOn(page, uploadId, keyPart = '') {
  await page.waitForFunction(
    ([ids, up, part]) => {
      const a = window.__performer.getState().analyses;
      return ids.every(
        (id) =>
          a[id]?.status === 'done' &&
          a[id].refined !== false &&
          a[id].valueKey === a[id].key &&
          a[id].valueKey.includes(part) &&
          (id === 'errorVsD' || up === null || a[id].valueKey.includes(`upload:${up}`)),
      );
    },
    [ANALYSES, uploadId, keyPart],
    { timeout: 120_000 },
  );
}

test(
  'upload: ≥ 100 bad files refused by name with the state unchanged; .npy f32/f64 and CSV inputs drive every panel',
  async ({ page, appUrl, log }) => {
    const t0 = Date.now();
    const phases = [];
    const phase = (name) => phases.push(`${name} ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    await page.goto(`${appUrl}/?n=64&d=8`);
    await idle(page, 64);
    await page.waitForSelector('[data-upload-input="q"]', { state: 'attached' });
    const generatedErr = (await shownExactA(page)).relErrorA;
    await waitForAnalysesOn(page, null); // every panel's analyses finished: their state is part of what must not change

    phase('loaded and settled');
    // ---- bad files, one at a time, through the Q picker ----
    const corpus = [
      ...badFiles(),
      { name: 'huge.npy', bytes: new Uint8Array(40 * 1024 * 1024 + 1), code: 'file-too-large' },
    ];
    const before = await snapshot(page);
    const outcome = new Map();
    // One page.evaluate feeds the whole corpus, each file set on the real <input type=file> with the
    // change event the browser dispatches for a picked file (what setInputFiles does, without a
    // protocol round trip per step: 150 files took 42 s that way). The good files below still go
    // through Playwright's picker and the file chooser.
    await page.evaluate(`window.__uploadSnapshot = ${SNAPSHOT}`); // the same function, by source
    const results = await page.evaluate(
      async ({ files }) => {
        const snap = window.__uploadSnapshot;
        const input = document.querySelector('[data-upload-input="q"]');
        const out = [];
        for (const f of files) {
          const beforeSlice = window.__performer.getState().upload;
          const bytes = f.zeros ? new Uint8Array(f.zeros) : Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0));
          const dt = new DataTransfer();
          dt.items.add(new File([bytes], f.name, { type: 'application/octet-stream' }));
          input.files = dt.files;
          input.dispatchEvent(new Event('change', { bubbles: true }));
          const t0 = performance.now();
          // every outcome replaces the upload slice: a new error, a staged file, or new inputs in use
          while (window.__performer.getState().upload === beforeSlice) {
            if (performance.now() - t0 > 10_000) throw new Error(`${f.name}: the upload state never changed`);
            await new Promise((r) => setTimeout(r, 0));
          }
          const u = window.__performer.getState().upload;
          if (!u.error) {
            out.push({ name: f.name, accepted: true });
            continue;
          }
          await new Promise((r) => requestAnimationFrame(() => r()));
          const el = document.querySelector(`[data-upload-error][data-upload-seq="${u.error.seq}"]`);
          out.push({
            name: f.name,
            code: el?.getAttribute('data-upload-error') ?? `(not shown: ${u.error.problem.code})`,
            text: el?.textContent ?? '',
            state: snap(),
          });
        }
        return out;
      },
      {
        files: corpus.map((f) =>
          f.code === 'file-too-large'
            ? { name: f.name, zeros: f.bytes.length }
            : { name: f.name, b64: Buffer.from(f.bytes).toString('base64') },
        ),
      },
    );
    assert.equal(results.length, corpus.length);
    for (const [i, f] of corpus.entries()) {
      const r = results[i];
      assert.equal(r.name, f.name);
      assert.ok(!r.accepted, `${f.name} was accepted`);
      assert.equal(r.code, f.code, `${f.name}: problem`);
      assert.match(r.text, PHRASE[f.code], `${f.name}: message “${r.text}”`);
      assert.ok(r.text.includes(f.name), `${f.name}: the message names the file`);
      assert.equal(r.state, before, `${f.name}: state changed`);
      outcome.set(f.code, (outcome.get(f.code) ?? 0) + 1);
    }
    phase('single bad files');
    // ---- files that are fine alone but do not fit together ----
    let pairs = 0;
    for (const p of badPairs()) {
      assert.equal(await feed(page, p.staged[0], p.staged[1], p.staged[2]), null, `${p.staged[1]} staged`);
      const r = await feed(page, p.bad[0], p.bad[1], p.bad[2]);
      assert.equal(r?.code, p.code, `${p.bad[1]}: problem`);
      assert.match(r.text, PHRASE[p.code]);
      assert.equal(await snapshot(page), before, `${p.bad[1]}: state changed`);
      pairs++;
    }
    await page.click('[data-action="remove-upload"]'); // drops the staged K
    assert.equal(await snapshot(page), before);
    const total = corpus.length + pairs;
    log(
      `bad files: ${total} refused (${corpus.length} single files + ${pairs} mismatched pairs), each with its problem named; params, result, every analysis, inputs and URL unchanged after every one`,
    );
    log(`  by problem: ${[...outcome].map(([c, k]) => `${c} ${k}`).join(', ')}`);
    assert.ok(total >= 100);

    phase('bad pairs');
    // ---- good: Q as float32 .npy, then K as float64 .npy, through the pickers ----
    const n1 = 40;
    const d1 = 6;
    const q1 = gaussian(n1, d1, 11, 1.3);
    const k1 = gaussian(n1, d1, 12, 1.3);
    // Q through the keyboard: Enter on the slot's button opens the file chooser. locator.press
    // focuses and presses in one step: a separate focus() could lose focus to the last bad file's
    // message before Enter (one full run timed out here waiting for the chooser).
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser', { timeout: 60_000 }),
      page.locator('[data-upload-slot="q"] button').press('Enter'),
    ]);
    await chooser.setFiles({
      name: 'q.npy',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(npy({ values: q1, shape: [n1, d1] })),
    });
    await page.waitForSelector('[data-upload-waiting="k"]');
    assert.equal(await snapshot(page), before, 'Q alone changes nothing yet');
    assert.equal(await feed(page, 'k', 'k.npy', npy({ values: k1, shape: [n1, d1], descr: '<f8' })), null);
    await idle(page, n1);
    const up1 = await page.getAttribute('[data-upload-active]', 'data-upload-active');
    const shown1 = await shownExactA(page);
    const worst1 = assertExactMatches(shown1, q1, k1, n1, d1, '.npy');
    assert.notEqual(shown1.relErrorA, generatedErr, 'the error metric responds to the uploaded inputs');
    await page.waitForFunction(() => /input=uploaded/.test(location.search) && /n=40&d=6/.test(location.search), null, {
      timeout: 5_000,
    });
    assert.ok(await page.isDisabled('[data-param="n"]'), 'n is locked while uploaded');
    assert.ok(await page.isDisabled('[data-param-input="d"]'), 'd is locked while uploaded');
    assert.ok(!(await page.isDisabled('[data-param="m"]')), 'm still works');
    phase('npy upload computed');
    await waitForAnalysesOn(page, up1);
    phase('npy analyses settled');
    const panelNs = await page.evaluate(() => {
      const a = window.__performer.getState().analyses;
      return {
        spectra: a.spectra.value.n,
        rows: a.rowEntropies.value.n,
        map: a.mapRows.value.n,
        local: a.localTruncation.value.n,
        nGrid: a.entropyVsN.value.nGrid.at(-1),
      };
    });
    assert.deepEqual(panelNs, { spectra: n1, rows: n1, map: n1, local: n1, nGrid: n1 });

    // causal and m still act on the uploaded inputs
    await page.check('[data-param="causal"]');
    await page.waitForFunction(
      () =>
        window.__performer.getState().compute.result?.params.causal === true &&
        window.__performer.getState().compute.status === 'ok',
    );
    await page.waitForFunction(() => location.search.includes('causal=1')); // the URL is written 150 ms after a change
    await waitForAnalysesOn(page, up1, '|true|'); // every analysis re-run on the causal mask, at rest

    phase('causal analyses settled');
    // a bad file while uploaded inputs are in use leaves them in use
    const during = await snapshot(page);
    const r = await feed(page, 'k', 'k-bad.npy', npy({ values: k1, shape: [n1, d1], fortran: true }));
    assert.equal(r?.code, 'fortran-order');
    assert.equal(await snapshot(page), during);
    await page.uncheck('[data-param="causal"]');

    // ---- good: CSV Q and K dropped together on the drop zone (slots from the names) ----
    const n2 = 24;
    const d2 = 4;
    const q2 = gaussian(n2, d2, 21, 0.9);
    const k2 = gaussian(n2, d2, 22, 0.9);
    const rows = (v, n, d) =>
      Array.from({ length: n }, (_, i) => v.slice(i * d, (i + 1) * d).map((x) => x.toPrecision(9)));
    const files = [
      { name: 'keys.csv', text: new TextDecoder().decode(csv([['k0', 'k1', 'k2', 'k3'], ...rows(k2, n2, d2)])) },
      { name: 'queries.csv', text: new TextDecoder().decode(csv(rows(q2, n2, d2))) },
    ];
    await page.evaluate((fs) => {
      const dt = new DataTransfer();
      for (const f of fs) dt.items.add(new File([f.text], f.name, { type: 'text/csv' }));
      document
        .querySelector('[data-drop-zone]')
        .dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, files);
    await idle(page, n2);
    const shown2 = await shownExactA(page);
    const worst2 = assertExactMatches(
      shown2,
      q2.map((x) => Number(x.toPrecision(9))),
      k2.map((x) => Number(x.toPrecision(9))),
      n2,
      d2,
      'CSV',
    );
    assert.notEqual(shown2.relErrorA, shown1.relErrorA);
    const up2 = await page.getAttribute('[data-upload-active]', 'data-upload-active');
    assert.notEqual(up2, up1);
    await waitForAnalysesOn(page, up2);
    phase('csv analyses settled');
    log(
      `good files: .npy f32 Q + f64 K (n = ${n1}, d = ${d1}) and CSV Q + K with a header row, dropped together (n = ${n2}, d = ${d2}): exact A = recomputation within ${Math.max(worst1, worst2).toExponential(1)}; rel. error of A ${generatedErr.toFixed(3)} (generated) → ${shown1.relErrorA.toFixed(3)} → ${shown2.relErrorA.toFixed(3)}; all ${ANALYSES.length} analyses re-ran on the uploads`,
    );

    // ---- remove: back to the generated inputs of before ----
    await page.click('[data-action="remove-upload"]');
    await idle(page, 64);
    await page.waitForFunction(() => !/input=uploaded/.test(location.search), null, { timeout: 5_000 });
    assert.equal((await shownExactA(page)).relErrorA, generatedErr, 'the generated inputs are back');

    // ---- a link made while uploaded: explained, generated inputs shown ----
    await page.goto(`${appUrl}/?n=${n1}&d=${d1}&input=uploaded`);
    await page.waitForSelector('[data-notice="upload-not-in-link"]');
    await idle(page, n1);
    const st = await page.evaluate(() => ({
      input: window.__performer.getState().params.input,
      active: window.__performer.getState().upload.active,
    }));
    assert.equal(st.active, null);
    assert.ok(['gaussian', 'clustered', 'local'].includes(st.input));
    phase('link reloaded');
    log(`phases: ${phases.join(', ')}`);
  },
  { timeout: 300_000, webgpu: false },
);
