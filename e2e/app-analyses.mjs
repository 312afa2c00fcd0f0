// The analyses the page's panels request on the default path (ids of [data-analysis]), shared by the
// specs that wait for all of them (waitAnalysesCurrent) or check that they re-ran. The hedgehog fit and
// the beyond panel's estimator runs are not among them: they start on their own triggers.
export const PANEL_ANALYSES = [
  'errorVsM',
  'normSweep',
  'errorVsD',
  'entryErrors',
  'rowEntropies',
  'entropyVsN',
  'localTruncation',
  'spectra',
  'mapRows',
];

/** The analyses whose key ignores m (errorVsM sweeps m itself): what a step of m leaves 'same', the rest 'moved'. */
export const afterMStep = (id) => (id === 'errorVsM' ? 'same' : 'moved');

/** The key each analysis's panel wants now (data-analysis-key), by id. */
export function analysisKeys(page, ids = PANEL_ANALYSES) {
  return page.evaluate(
    (ids) =>
      Object.fromEntries(
        ids.map((id) => [id, document.querySelector(`[data-analysis="${id}"]`)?.getAttribute('data-analysis-key')]),
      ),
    ids,
  );
}

/**
 * Every analysis of `ids` done with the value of the key it wants now, not a coarse stage — with
 * `keys` (id → key), once each key is that one ('same') or another one ('moved'), as `want(id)` says.
 * The panels take new parameters at low priority, after the URL and the heatmaps: until a key has
 * moved, the old settled state would pass for the new one.
 */
export async function waitAnalysesCurrent(
  page,
  { ids = PANEL_ANALYSES, keys = null, want = () => 'same', timeout = 240_000 } = {},
) {
  const wants = keys ? Object.fromEntries(ids.map((id) => [id, want(id)])) : null;
  await page.waitForFunction(
    ([ids, keys, wants]) =>
      ids.every((id) => {
        const el = document.querySelector(`[data-analysis="${id}"]`);
        const key = el?.getAttribute('data-analysis-key');
        return (
          el &&
          el.getAttribute('data-status') === 'done' &&
          el.getAttribute('data-refining') !== 'true' &&
          el.getAttribute('data-analysis-version') === key &&
          (!keys || (wants[id] === 'same' ? key === keys[id] : key !== keys[id]))
        );
      }),
    [ids, keys, wants],
    { timeout, polling: 200 },
  );
}

/**
 * The analysis done with the value of the key its panel wants now: a bare "done" would pass on the
 * previous parameters' value in the moment before the panel takes the new ones (it takes them after the
 * URL and the heatmaps) or while a quick run's 'running' never reached the DOM.
 */
export function waitForAnalysis(page, id, timeout = 90_000) {
  return waitAnalysesCurrent(page, { ids: [id], timeout });
}

export async function waitForAllAnalyses(page, timeout = 120_000) {
  for (const id of PANEL_ANALYSES) {
    await waitForAnalysis(page, id, timeout);
  }
}
