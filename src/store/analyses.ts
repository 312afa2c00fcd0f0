/**
 * The analyses the panels ask the worker for: id, op, payload and the dependency key — the
 * parameters the result actually depends on. Changing anything outside the key (m for the error-vs-m
 * sweep, n above a sweep's cap, …) does not re-run it; the panel just moves its markers.
 */
import type { AttentionParams, Matrix } from '../core/types';
import type { UploadedInputs } from './upload-state';
import { DENSE_ANALYSIS_MAX_N, ROW_STATS_MAX_N, type AnalysisOpName, type AnalysisPayloads } from '../engine/analysis';

export type {
  BeyondResult,
  BeyondSeries,
  EstimatorTimingResult,
  EntropyVsNResult,
  EntryErrorsResult,
  ErrorVsDResult,
  ErrorVsMResult,
  LocalTruncationResult,
  MapRowsResult,
  NormSweepResult,
  RowEntropiesResult,
  SpectraResult,
} from '../engine/analysis';

export { DENSE_ANALYSIS_MAX_N, ROW_STATS_MAX_N };

/**
 * A request for op `Op`: its payload, and the key its result is cached under (the store's entry is
 * named by the op). `coarse`, where the op has one, is the same request on smaller budgets (fewer
 * seeds, rows or grid points): it is shown first and replaced by the payload's value (the entry says
 * `refined` once it is). Both stages have the one key: the coarse value is of these parameters.
 */
export interface AnalysisRequest<Op extends AnalysisOpName = AnalysisOpName> {
  op: Op;
  payload: AnalysisPayloads[Op];
  key: string;
  coarse?: AnalysisPayloads[Op];
}

/** Keys used and query rows sampled by the error sweeps (the error does not depend on n). */
export const SWEEP_BUDGET = { nCap: 256, rows: 32, seeds: 8, normSeeds: 4 } as const;

const PARAM_KEYS: readonly (keyof AttentionParams)[] = [
  'n',
  'd',
  'm',
  'seed',
  'featureSeed',
  'featureMap',
  'projection',
  'input',
  'scale',
  'causal',
  'stabilizer',
];

/**
 * One request. Its key holds every parameter except those in `ignores` (the ones the analysis
 * sweeps itself, or does not use); sweeps that sample at most `nCap` keys see n only up to it.
 *
 * An analysis that ignores the selected map forms its own (the positive map, or every map), and its
 * payload says so. The worker validates the payload's parameters, and the map is the one ignored
 * parameter whose validity depends on others (Taylor features past d = 44): it failed sweeps that
 * never form that map, and since a panel asks again only when its key changes, the error stayed on
 * screen after the map changed back (a 300-change browser test found it). With the positive map, a
 * payload validates exactly when the parameters its key holds do.
 */
function request<Op extends AnalysisOpName>(
  op: Op,
  p: AttentionParams,
  payload: Omit<AnalysisPayloads[Op], 'params'>,
  ignores: readonly (keyof AttentionParams)[],
  options: { capN?: boolean; extra?: unknown[]; coarse?: Partial<Omit<AnalysisPayloads[Op], 'params'>> } = {},
): AnalysisRequest<Op> {
  const seen = { ...p, n: options.capN ? Math.min(p.n, SWEEP_BUDGET.nCap) : p.n };
  const parts = PARAM_KEYS.filter((k) => !ignores.includes(k)).map((k) => seen[k]);
  const params: AttentionParams = ignores.includes('featureMap') ? { ...p, featureMap: 'positive' } : p;
  const full = { params, ...payload } as AnalysisPayloads[Op];
  return {
    op,
    payload: full,
    key: [...parts, ...(options.extra ?? [])].map(String).join('|'),
    ...(options.coarse ? { coarse: { ...full, ...options.coarse } } : {}),
  };
}

/**
 * The coarse stages' budgets: 40–350 ms each on the CPU twins at the defaults (n = 256, d = 16,
 * m = 64; the norm sweep's cost is per scale, mostly the Lemma 2 predictions), against 0.7–4.4 s
 * for the full sweeps. Ops that take well under that in
 * full (entry errors, local truncation, spectra, map rows) have one stage.
 */
export const COARSE_BUDGET = {
  rows: 4,
  seeds: 1,
  /** errorVsM and beyondSweeps draw at least 2 seeds (a spread needs two) */
  pairSeeds: 2,
  mGrid: [4, 16, 64, 256],
  scales: [0.25, 1, 2],
  dGrid: [4, 16, 64],
  nGrid: [16, 64, 256, 1024, 4096],
  entropyRows: 4,
  maxRows: 32,
} as const;

const C = COARSE_BUDGET;

const SWEEP = { rows: SWEEP_BUDGET.rows, nCap: SWEEP_BUDGET.nCap };

export const errorVsMRequest = (p: AttentionParams) =>
  request('errorVsM', p, { ...SWEEP, seeds: SWEEP_BUDGET.seeds }, ['m', 'featureMap', 'projection'], {
    capN: true,
    coarse: { rows: C.rows, seeds: C.pairSeeds, mGrid: [...C.mGrid] },
  });

export const normSweepRequest = (p: AttentionParams) =>
  request('normSweep', p, { ...SWEEP, seeds: SWEEP_BUDGET.normSeeds }, ['scale', 'featureMap'], {
    capN: true,
    coarse: { rows: C.rows, seeds: C.seeds, scales: [...C.scales] },
  });

export const errorVsDRequest = (p: AttentionParams) =>
  request('errorVsD', p, { ...SWEEP, seeds: SWEEP_BUDGET.normSeeds }, ['d', 'featureMap'], {
    capN: true,
    coarse: { rows: C.rows, seeds: C.seeds, dGrid: [...C.dGrid] },
  });

export const entryErrorsRequest = (p: AttentionParams) =>
  request('entryErrors', p, SWEEP, ['featureMap'], { capN: true });

export const rowEntropiesRequest = (p: AttentionParams) =>
  request('rowEntropies', p, {}, [], { coarse: { maxRows: C.maxRows } });

export const entropyVsNRequest = (p: AttentionParams) =>
  request('entropyVsN', p, { rows: SWEEP_BUDGET.rows }, ['n'], {
    coarse: { rows: C.entropyRows, nGrid: [...C.nGrid] },
  });

export const localTruncationRequest = (p: AttentionParams) =>
  request('localTruncation', p, { nMax: DENSE_ANALYSIS_MAX_N }, []);

export const spectraRequest = (p: AttentionParams) => request('spectra', p, { nMax: DENSE_ANALYSIS_MAX_N }, []);

export const mapRowsRequest = (p: AttentionParams, row: number) =>
  request('mapRows', p, { row }, ['featureMap'], { extra: [row] });

/** Every estimator vs m' and vs s (CPU twins, analysis worker); the map select does not matter, the projection does. */
export const beyondSweepsRequest = (p: AttentionParams) =>
  request(
    'beyondSweeps',
    p,
    { ...SWEEP, seeds: SWEEP_BUDGET.seeds, normSeeds: SWEEP_BUDGET.normSeeds },
    ['featureMap'],
    { capN: true, coarse: { rows: C.rows, seeds: C.pairSeeds, normSeeds: C.seeds } },
  );

/** Timed runs per estimator on the live backend (engine worker), after one warm-up run. */
export const TIMING_REPEATS = 5;

/** Every estimator timed on the live backend at the full n; `backend` names it in the key, so a changed backend re-times. */
export const estimatorTimingRequest = (p: AttentionParams, backend: string) =>
  request('estimatorTiming', p, { repeats: TIMING_REPEATS }, ['featureMap'], { extra: [backend] });

/**
 * The same request on uploaded Q, K (V): the payload carries the matrices (only the first nCap
 * positions for sweeps that use no more, so less crosses to the worker) and the key names the upload,
 * so every analysis re-runs when the data changes. `errorVsD` sweeps d itself, which uploaded data
 * cannot do: it stays on generated inputs at the data's norm scale (params.scale follows the upload).
 */
export function withUpload<Op extends AnalysisOpName>(
  req: AnalysisRequest<Op>,
  up: UploadedInputs | null,
): AnalysisRequest<Op> {
  if (!up || req.op === 'errorVsD') return req;
  const payload = req.payload;
  const cap = 'nCap' in payload && typeof payload.nCap === 'number' ? Math.min(up.n, Math.max(1, payload.nCap)) : up.n;
  const head = (m: Matrix): Matrix =>
    cap >= m.rows ? m : { rows: cap, cols: m.cols, data: m.data.slice(0, cap * m.cols) };
  const external = { q: head(up.q.matrix), k: head(up.k.matrix), ...(up.v ? { v: head(up.v.matrix) } : {}) };
  return {
    ...req,
    payload: { ...payload, external },
    key: `${req.key}|upload:${up.id}`,
    ...(req.coarse ? { coarse: { ...req.coarse, external } } : {}),
  };
}
