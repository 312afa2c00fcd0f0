// The analyses the page's panels request on the default path (ids of [data-analysis]), shared by
// the specs that wait for all of them or check that they re-ran. The hedgehog fit and the beyond
// panel's estimator runs are not among them: they start on their own triggers.
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
