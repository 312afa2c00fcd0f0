// Bench (not a test): how the live page responds to a slider step. Builds the app in production
// mode, serves it, and opens it twice in headless Chromium at 1280×800 with every panel on the page:
// once on the CPU worker (?backend=cpu) and once on WebGPU (SwiftShader; the default URL, stepped
// only once a WebGPU-computed result is on screen). It then presses the m slider's arrow keys, one
// step at a time, alternating the two pages, and alternating → / ← so every step computes the same
// two m values. Each step waits until the page has settled from the previous one (the heatmaps
// redrawn and every analysis current, or --timeout) and records, from the keydown (page time):
//   - the exact heatmap of the main comparison redrawn (a new data-result-id), split by the store's
//     marks (window.__performer.subscribe): key → parameters in the store → result in the store (of
//     which the engine's elapsedMs, of which its passes: the result's own per-pass timings) → drawn;
//   - each analysis first shown (the value on its status element changes: data-analysis-version)
//     and refined (that value final: not data-refining="true", status not running; equal for the
//     analyses that have one stage);
//   - every analysis settled (each one's shown version equals the key it wants, data-analysis-key);
//   - main-thread long tasks ('longtask') and long animation frames ('long-animation-frame', where
//     the browser has it) overlapping the step: count, longest, total.
// Prints Markdown tables of min / median (/ p90 from 10 samples) per path; asserts nothing on time.
// Usage:
//   npm run bench:live                        (this checkout, 10 steps per path)
//   node e2e/bench-live.mjs --steps 5 --rounds 2 --timeout 60000 --json out.json
//   node e2e/bench-live.mjs --root DIR        (another checkout, e.g. an export of main, to compare)
//   node e2e/bench-live.mjs --base DIR        (A/B: every path of this checkout and of DIR, interleaved
//                                              step by step in one browser; DIR's paths are tagged @base.
//                                              DIR needs node_modules where Vite finds them, e.g.
//                                              git worktree add node_modules/.cache/base <commit>)
//   --query k=v&…: URL parameters for both paths (e.g. --query map=elu1; n=4096: no heatmaps above
//                  their limit, so "heatmap redrawn" is then the main result's line shown)
//   --rounds R: R fresh page loads per path, --steps steps on each; --warmup W: unrecorded steps
//   first; --paths cpu,webgpu: which paths; --attribution: an unminified build, and for every long
//   animation frame ≥ 50 ms in a step its scripts (invoker, function, source, duration) — what to
//   profile when a step shows a long task.
// A checkout without data-analysis-key / -version (before this bench) is measured by status alone:
// first = refined = the first "done" after the step's "running", settled = nothing running a while.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, preview } from 'vite';
import { launchBrowser } from './browser.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const root = resolve(opt('root', join(here, '..')));
const steps = Number(opt('steps', '10'));
const rounds = Number(opt('rounds', '1'));
const warmup = Number(opt('warmup', '0'));
const stepTimeoutMs = Number(opt('timeout', '60000'));
const loadTimeoutMs = Number(opt('load-timeout', '180000'));
const jsonFile = opt('json', null);
const wanted = opt('paths', 'cpu,webgpu').split(',');

const base = opt('base', null);

// --query k=v&…: parameters added to both paths' URLs (e.g. map=elu1: the steps at another feature map)
const extra = opt('query', '');
const ALL_PATHS = [
  { id: 'cpu', name: 'CPU worker (?backend=cpu)', query: `?backend=cpu${extra ? `&${extra}` : ''}`, gpu: false },
  { id: 'webgpu', name: 'WebGPU (SwiftShader)', query: extra ? `?${extra}` : '', gpu: true },
];
// with --base, each path once per checkout, all interleaved (an A/B in one browser, one machine state)
const roots = [{ dir: root, tag: '' }, ...(base ? [{ dir: resolve(base), tag: '@base' }] : [])];
const paths = roots.flatMap((r) =>
  ALL_PATHS.filter((p) => wanted.includes(p.id)).map((p) => ({
    ...p,
    id: p.id + r.tag,
    name: p.name + (r.tag ? ` — ${r.dir}` : ''),
    root: r.dir,
  })),
);

/**
 * Installed before any page script: long-task / LoAF observers, and `__benchLive.arm()`, which
 * snapshots the figures before a step and then, on every DOM mutation (and every 50 ms, for the
 * quiet-time rule of checkouts without version attributes), records page times from the keydown.
 */
function probe() {
  const longtasks = [];
  const loafs = [];
  const observe = (type, into) => {
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries())
          into.push({
            start: e.startTime,
            duration: e.duration,
            blocking: e.blockingDuration ?? 0,
            // long animation frames: the scripts that ran in the frame, longest first
            scripts: (e.scripts ?? [])
              .map((x) => ({
                invoker: x.invoker,
                fn: x.sourceFunctionName,
                src: `${(x.sourceURL ?? '').split('/').pop()}:${x.sourceCharPosition}`,
                ms: Math.round(x.duration),
              }))
              .sort((a, b) => b.ms - a.ms)
              .slice(0, 4),
            render: Math.round(e.renderStart ? e.startTime + e.duration - e.renderStart : 0),
          });
      }).observe({ type, buffered: true });
      return true;
    } catch {
      return false;
    }
  };
  const hasLongtask = observe('longtask', longtasks);
  // layout shifts on screen (the keyboard step's own 500 ms count too: a figure arriving is no input)
  const shifts = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) shifts.push({ start: e.startTime, duration: 0, value: e.value });
    }).observe({ type: 'layout-shift', buffered: true });
  } catch {
    // no Layout Instability API: the row stays empty
  }
  const hasLoaf = observe('long-animation-frame', loafs);

  // above the heatmap limit (n > 1,024 on the CPU) there is no heatmap: the main result's line instead
  const heatmapId = () =>
    (
      document.querySelector('[data-metric="heatmap-exact"]') ?? document.querySelector('[data-result-params]')
    )?.getAttribute('data-result-id') ?? '';
  const computing = () => document.querySelector('.compute-status')?.getAttribute('data-status') === 'computing';
  /** op → what its (first) status element says */
  const analyses = () => {
    const out = {};
    for (const el of document.querySelectorAll('[data-analysis]')) {
      const op = el.getAttribute('data-analysis');
      if (op in out) continue;
      // the status line carries them today; a figure marked data-analysis-op may carry them too
      const fig = (attr) => document.querySelector(`[data-analysis-op="${op}"][${attr}]`)?.getAttribute(attr) ?? null;
      out[op] = {
        status: el.getAttribute('data-status') ?? '',
        key: el.getAttribute('data-analysis-key') ?? fig('data-analysis-key'),
        version: el.getAttribute('data-analysis-version') ?? fig('data-analysis-version'),
        refining:
          el.getAttribute('data-refining') === 'true' ||
          el.closest('[data-refining="true"]') !== null ||
          document.querySelector(`[data-analysis-op="${op}"][data-refining="true"]`) !== null,
      };
    }
    return out;
  };
  /** ops whose wanted key changed on an earlier step of this page (an m step changes the same ones) */
  const rerunOps = new Set();
  // the panel bodies have rendered the current parameters (until then a figure's wanted key is the
  // previous one: the bodies wait for the compute, and follow in a deferred render); a checkout
  // without panelsBehind: every op that re-ran on an earlier step has its new key (learnt, so its
  // first step may read early — use --warmup)
  const caughtUp = (s = null) => {
    const behind = window.__performer?.panelsBehind;
    if (behind) return behind() === 0;
    return !s || [...rerunOps].every((op) => s.ops[op]?.changed);
  };
  const current = (a) =>
    a.status !== 'running' && !a.refining && (a.key === null || a.version === null || a.version === a.key);

  let step = null;
  const check = () => {
    const s = step;
    if (!s || s.t0 === null || s.settled !== null) return;
    const now = performance.now() - s.t0;
    if (s.heatmap === null && heatmapId() !== s.before.heatmap && heatmapId() !== '') s.heatmap = now;
    const list = analyses();
    for (const [op, a] of Object.entries(list)) {
      const pre = s.before.ops[op];
      const m = (s.ops[op] ??= { changed: false, first: null, refined: null, sawRunning: false });
      if (a.key !== null && pre && a.key !== pre.key) {
        m.changed = true;
        rerunOps.add(op);
      }
      if (a.status === 'running') {
        m.sawRunning = true;
      }
      if (a.version !== null) {
        // the value on screen changed: first shown; final once not refining and not running
        const moved = a.version !== '' && a.version !== pre?.version;
        if (moved && m.first === null) m.first = now;
        if (moved && m.refined === null && !a.refining && a.status !== 'running') m.refined = now;
      } else if (m.sawRunning && a.status === 'done') {
        // no version attribute: the first "done" after this step's "running"
        m.first ??= now;
        m.refined ??= now;
      }
    }
    const versioned = Object.values(list).some((a) => a.key !== null);
    const allCurrent = Object.values(list).every(current) && caughtUp(s);
    const calm = s.heatmap !== null && !computing() && allCurrent;
    if (!calm) s.calmSince = null;
    else if (versioned) s.settled = now;
    else {
      // without keys nothing says which analyses will re-run: settled when calm since a while
      // (recorded as the moment the calm began)
      s.calmSince ??= now;
      if (now > 1000 && now - s.calmSince > 300) s.settled = s.calmSince;
    }
  };
  new MutationObserver(check).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
  setInterval(check, 50);

  window.__benchLive = {
    hasLongtask,
    hasLoaf,
    analyses,
    /** true when the page shows a result and every analysis on it is current and nothing computes */
    idle: () => heatmapId() !== '' && !computing() && caughtUp() && Object.values(analyses()).every(current),
    arm() {
      const ops = analyses();
      step = {
        t0: null,
        at: null,
        before: { heatmap: heatmapId(), ops },
        heatmap: null,
        settled: null,
        calmSince: null,
        ops: {},
      };
      const s = step;
      // the store's marks of the main comparison (where the page exposes subscribe): the parameters
      // changed, the result arrived (with the engine's own elapsed time), so that slider → heatmap
      // splits into input → request, engine round trip, and result → heatmap drawn
      const perf = window.__performer;
      if (perf?.subscribe && !window.__benchLiveSub) {
        window.__benchLiveSub = perf.subscribe((st, prev) => {
          const cur = step;
          if (!cur || cur.t0 === null) return;
          const now = performance.now() - cur.t0;
          if (st.params !== prev.params && cur.store.params === null) cur.store.params = now;
          if (st.compute.result !== prev.compute.result && st.compute.result && cur.store.result === null) {
            cur.store.result = now;
            cur.store.engineMs = st.compute.result.elapsedMs ?? null;
            // the backend's own per-pass times (GPU timestamps; the CPU twin's stages): what the
            // passes took inside this page, against bench:compute's page that does nothing else
            const timings = st.compute.result.output?.timings ?? [];
            cur.store.passesMs = timings.length ? timings.reduce((a, t) => a + t.ms, 0) : null;
          }
        });
      }
      s.store = { params: null, result: null, engineMs: null, passesMs: null };
      document.addEventListener(
        'keydown',
        () => {
          s.t0 = performance.now();
        },
        { once: true, capture: true },
      );
    },
    /** the step's marks plus the long tasks / frames that overlap [keydown, settled or now] */
    collect() {
      const s = step;
      if (!s || s.t0 === null) return null;
      const end = s.t0 + (s.settled ?? performance.now() - s.t0);
      const within = (xs) => xs.filter((e) => e.start + e.duration > s.t0 && e.start < end);
      const sum = (xs, k) => xs.reduce((a, e) => a + e[k], 0);
      const lt = within(longtasks);
      const lf = within(loafs);
      const ls = within(shifts);
      const ops = {};
      for (const [op, m] of Object.entries(s.ops))
        ops[op] = { changed: m.changed || m.first !== null, first: m.first, refined: m.refined };
      return {
        store: s.store ?? null,
        heatmap: s.heatmap,
        settled: s.settled,
        ops,
        longtask: { count: lt.length, longest: Math.max(0, ...lt.map((e) => e.duration)), total: sum(lt, 'duration') },
        shift: sum(ls, 'value'),
        loaf: {
          count: lf.length,
          longest: Math.max(0, ...lf.map((e) => e.duration)),
          total: sum(lf, 'duration'),
          blocking: sum(lf, 'blocking'),
          frames: lf
            .filter((e) => e.duration >= 50)
            .map((e) => ({ ms: Math.round(e.duration), render: e.render, scripts: e.scripts })),
        },
      };
    },
  };
}

const t0 = Date.now();
const attribution = args.includes('--attribution');
const log = (msg) => console.error(`[${((Date.now() - t0) / 1000).toFixed(0).padStart(4)} s] ${msg}`);
/** root directory → the URL its production build is served at */
const appUrls = new Map();
const servers = [];
for (const r of roots) {
  const outDir = mkdtempSync(join(tmpdir(), 'bench-live-'));
  await build({
    root: r.dir,
    mode: 'production',
    logLevel: 'error',
    build: { outDir, emptyOutDir: true, ...(attribution ? { minify: false } : {}) },
  });
  const server = await preview({
    root: r.dir,
    logLevel: 'warn',
    build: { outDir },
    preview: { port: 0, host: '127.0.0.1' },
  });
  servers.push(server);
  appUrls.set(r.dir, `http://localhost:${server.httpServer.address().port}`);
  log(`built ${r.dir} → ${appUrls.get(r.dir)}`);
}

const browser = await launchBrowser({ webgpu: true });

/** Opens one path's page and waits until it shows its path's result with every analysis current. */
async function open(path) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(probe);
  await page.goto(`${appUrls.get(path.root)}/${path.query}`);
  const ready = await page
    .waitForFunction(
      (gpu) => {
        const b = window.__benchLive;
        if (!b || !b.idle()) return false;
        if (!gpu) return true;
        // the WebGPU path computes: the shown result's backend where the app exposes it, else the badge
        const res = document.querySelector('[data-result-backend]')?.getAttribute('data-result-backend');
        const badge = document.querySelector('[data-metric="backend"]');
        return res ? res === 'webgpu' : badge?.getAttribute('data-value') === 'webgpu';
      },
      path.gpu,
      { timeout: loadTimeoutMs, polling: 200 },
    )
    .then(
      () => true,
      () => false,
    );
  const info = await page.evaluate(() => ({
    badge: (document.querySelector('[data-metric="backend"]')?.textContent ?? '').slice(0, 70),
    resultBackend: document.querySelector('[data-result-backend]')?.getAttribute('data-result-backend') ?? null,
    ops: Object.keys(window.__benchLive.analyses()),
    versioned: Object.values(window.__benchLive.analyses()).some((a) => a.key !== null),
    longtask: window.__benchLive.hasLongtask,
    loaf: window.__benchLive.hasLoaf,
  }));
  log(`${path.name}: ${ready ? 'ready' : `NOT settled after ${loadTimeoutMs} ms`}; badge "${info.badge}"`);
  return { path, context, page, info, dir: 0 };
}

/** One keyboard step of the m slider on `p`, returned with its marks (null marks: not reached in time). */
async function step(p, others) {
  const { page } = p;
  // every other page quiet first: a step's timings are this page's, not another's leftover work
  for (const o of others)
    await o.page
      .waitForFunction(() => window.__benchLive.idle(), null, { timeout: stepTimeoutMs, polling: 200 })
      .catch(() => log(`${o.path.id}: still busy after ${stepTimeoutMs} ms`));
  await page.bringToFront();
  const slider = page.locator('[data-param="m"]').first();
  await slider.focus();
  const mBefore = await page.inputValue('[data-param-input="m"]').catch(() => null);
  await page.evaluate(() => window.__benchLive.arm());
  await page.keyboard.press(p.dir++ % 2 === 0 ? 'ArrowRight' : 'ArrowLeft');
  const settled = await page
    .waitForFunction(() => window.__benchLive.collect()?.settled != null, null, {
      timeout: stepTimeoutMs,
      polling: 100,
    })
    .then(
      () => true,
      () => false,
    );
  // long-task entries are delivered after their task: give the observers a moment
  await page.waitForTimeout(150);
  const marks = await page.evaluate(() => window.__benchLive.collect());
  const mAfter = await page.inputValue('[data-param-input="m"]').catch(() => null);
  if (!settled) {
    // let the page finish before the next step (still bounded)
    await page
      .waitForFunction(() => window.__benchLive.idle(), null, { timeout: stepTimeoutMs, polling: 200 })
      .catch(() => {});
  }
  return { ...marks, timedOut: !settled, m: `${mBefore}→${mAfter}` };
}

const samples = Object.fromEntries(paths.map((p) => [p.id, []]));
const infos = {};
for (let r = 0; r < rounds; r++) {
  const pages = [];
  for (const path of paths) pages.push(await open(path));
  for (const p of pages) infos[p.path.id] = p.info;
  for (let k = 0; k < warmup + steps; k++) {
    for (const p of pages) {
      const s = await step(
        p,
        pages.filter((o) => o !== p),
      );
      const tag = k < warmup ? 'warm-up' : `round ${r + 1} step ${k - warmup + 1}`;
      log(
        `${p.path.id.padEnd(6)} ${tag}: m ${s.m}, heatmap ${fmt(s.heatmap)}, settled ${fmt(s.settled)}` +
          `, long tasks ${s.longtask.count} (${fmt(s.longtask.total)})${s.timedOut ? ', TIMED OUT' : ''}`,
      );
      if (attribution)
        for (const f of s.loaf.frames ?? [])
          log(
            `    long frame ${f.ms} ms (style/layout/paint ${f.render} ms): ${f.scripts.map((x) => `${x.invoker} → ${x.fn || '?'} @ ${x.src} ${x.ms} ms`).join('; ') || 'no script'}`,
          );
      if (k >= warmup) samples[p.path.id].push(s);
    }
  }
  for (const p of pages) await p.context.close();
}
await browser.close();
for (const server of servers) await new Promise((r) => server.httpServer.close(r));

// ---- statistics and tables ----

function fmt(ms) {
  return ms === null || ms === undefined ? '—' : ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`;
}
const sorted = (xs) => xs.filter((x) => x !== null && x !== undefined).sort((a, b) => a - b);
const quantile = (s, q) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
function stats(xs) {
  const s = sorted(xs);
  if (!s.length) return { n: 0, missing: xs.length, min: null, median: null, p90: null, max: null };
  const k = Math.floor(s.length / 2);
  return {
    n: s.length,
    missing: xs.length - s.length,
    min: s[0],
    median: s.length % 2 ? s[k] : (s[k - 1] + s[k]) / 2,
    p90: s.length >= 10 ? quantile(s, 0.9) : null,
    max: s[s.length - 1],
  };
}

const ops = [...new Set(paths.flatMap((p) => infos[p.id]?.ops ?? []))];
/** metric rows: label, how to read a sample, and whether it is a count (not a time) */
const metrics = [
  { label: 'slider → exact heatmap redrawn', get: (s) => s.heatmap },
  // the heatmap's latency split by the store's marks (null where the page has no subscribe)
  { label: '  of which key → parameters in the store', get: (s) => s.store?.params ?? null },
  {
    label: '  of which parameters → result in the store',
    get: (s) => (s.store?.result != null && s.store.params != null ? s.store.result - s.store.params : null),
  },
  { label: '    of which the engine (its elapsedMs)', get: (s) => s.store?.engineMs ?? null },
  { label: '      of which its passes (summed)', get: (s) => s.store?.passesMs ?? null },
  {
    label: '  of which result → heatmap redrawn',
    get: (s) => (s.store?.result != null && s.heatmap != null ? s.heatmap - s.store.result : null),
  },
  { label: 'slider → every analysis settled', get: (s) => s.settled },
  ...ops.flatMap((op) => [
    { label: `${op}: first shown`, get: (s) => (s.ops[op]?.changed ? s.ops[op].first : undefined), op },
    { label: `${op}: refined`, get: (s) => (s.ops[op]?.changed ? s.ops[op].refined : undefined), op },
  ]),
  { label: 'long tasks: count', get: (s) => s.longtask.count, count: true },
  { label: 'long tasks: longest', get: (s) => s.longtask.longest },
  { label: 'long tasks: total', get: (s) => s.longtask.total },
  // older checkouts' probes have no shift field: no sample
  { label: 'layout-shift score on screen', get: (s) => s.shift, format: (x) => x.toFixed(4) },
  ...(paths.some((p) => infos[p.id]?.loaf)
    ? [
        { label: 'long animation frames: count', get: (s) => s.loaf.count, count: true },
        { label: 'long animation frames: longest', get: (s) => s.loaf.longest },
        { label: 'long animation frames: total', get: (s) => s.loaf.total },
        { label: 'long animation frames: blocking', get: (s) => s.loaf.blocking },
      ]
    : []),
];

const table = {};
for (const path of paths) {
  table[path.id] = {};
  for (const m of metrics) {
    // undefined: the analysis did not re-run on this step (its key ignores m) — not a sample
    const xs = samples[path.id].map(m.get).filter((x) => x !== undefined);
    table[path.id][m.label] = stats(xs);
  }
}

const withP90 = paths.some((p) => samples[p.id].length >= 10);
const countFormat = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(1));
const cell = (st, k, m) => (st[k] === null ? '—' : (m.format ?? (m.count ? countFormat : fmt))(st[k]));
const header = [
  'metric',
  ...paths.flatMap((p) => [`${p.id} n`, `${p.id} min`, `${p.id} median`, ...(withP90 ? [`${p.id} p90`] : [])]),
];
const rows = metrics
  .filter((m) => paths.some((p) => table[p.id][m.label].n + table[p.id][m.label].missing > 0))
  .map((m) => [
    m.label,
    ...paths.flatMap((p) => {
      const st = table[p.id][m.label];
      const n = st.missing ? `${st.n} (+${st.missing} —)` : String(st.n);
      const c = (k) => cell(st, k, m);
      return [n, c('min'), c('median'), ...(withP90 ? [c('p90')] : [])];
    }),
  ]);
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
const line = (cells) => `| ${cells.map((c, i) => (i ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join(' | ')} |`;

console.log(
  `\nlive response to a keyboard step of the m slider (${steps} steps × ${rounds} round(s) per path, interleaved,` +
    ` 1280×800, default parameters; root ${root}${base ? `, base ${resolve(base)}` : ''})\n`,
);
for (const p of paths) {
  const i = infos[p.id];
  console.log(
    `- ${p.name}: badge "${i.badge}", result backend ${i.resultBackend ?? 'n/a'}; analyses ${i.ops.join(', ')}` +
      `${i.versioned ? '' : ' (no data-analysis-version: status only)'}; longtask ${i.longtask ? 'yes' : 'no'}, LoAF ${i.loaf ? 'yes' : 'no'}`,
  );
}
const idle = ops.filter((op) => paths.every((p) => samples[p.id].every((s) => !s.ops[op]?.changed)));
if (idle.length) console.log(`- not re-run by an m step (their key ignores m), no rows: ${idle.join(', ')}`);
console.log('');
console.log(line(header));
console.log(`|${widths.map((w, i) => (i ? '-'.repeat(w + 1) + ':' : '-'.repeat(w + 2))).join('|')}|`);
for (const row of rows) console.log(line(row));
console.log('');
console.log('times from the keydown (page time); "—": not reached within --timeout; an analysis whose key ignores m');
console.log('does not re-run and has no samples; first shown == refined for the analyses with a single stage.\n');
for (const p of paths) {
  const st = table[p.id]['slider → every analysis settled'];
  const timedOut = samples[p.id].filter((s) => s.timedOut).length;
  console.log(
    `every analysis settled (${p.id}): median ${fmt(st.median)}, max ${fmt(st.max)}` +
      ` over ${st.n} step(s)${timedOut ? `, ${timedOut} timed out after ${fmt(stepTimeoutMs)}` : ''}`,
  );
}

if (jsonFile) {
  writeFileSync(
    jsonFile,
    JSON.stringify(
      {
        root,
        date: new Date().toISOString(),
        options: { steps, rounds, warmup, stepTimeoutMs, paths: wanted },
        viewport: { width: 1280, height: 800 },
        paths: Object.fromEntries(
          paths.map((p) => [p.id, { name: p.name, info: infos[p.id], stats: table[p.id], samples: samples[p.id] }]),
        ),
      },
      null,
      2,
    ),
  );
  console.log(`\nwrote ${jsonFile}`);
}
