import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JS module shared with the browser test (no types)
import { csv, gaussian, npy } from '../../e2e/upload-files.mjs';
import { exactAttentionMatrix } from '../core/exact-attention';
import { compute } from '../engine/compute';
import { createCpuBackend } from '../engine/cpu-backend';
import { ANALYSIS_OPS, runAnalysisOp } from '../engine/analysis';
import {
  entropyVsNRequest,
  entryErrorsRequest,
  errorVsDRequest,
  errorVsMRequest,
  localTruncationRequest,
  mapRowsRequest,
  normSweepRequest,
  rowEntropiesRequest,
  spectraRequest,
  SWEEP_BUDGET,
  withUpload,
} from './analyses';
import { buildRequest } from './controller';
import { createActions, createAppStore } from './store';
import { createUploadActions } from './upload';
import { readUrl, writeUrl } from './url';

const bytes = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
const npyFile = (slot: 'q' | 'k' | 'v', n: number, d: number, seed: number, descr = '<f4') => ({
  slot,
  name: `${slot}.npy`,
  buffer: bytes(npy({ values: gaussian(n, d, seed), shape: [n, d], descr })),
});

function setup() {
  const store = createAppStore();
  return { store, actions: createActions(store), upload: createUploadActions(store) };
}

describe('upload actions', () => {
  it('stage Q alone, then K: n and d follow the files and the inputs are in use', () => {
    const { store, upload } = setup();
    const p0 = store.getState().params;
    expect(upload.addFiles([npyFile('q', 12, 5, 1)])).toEqual({ kind: 'staged', waitingFor: ['k'] });
    expect(store.getState().params).toBe(p0);
    const out = upload.addFiles([npyFile('k', 12, 5, 2, '<f8')]);
    expect(out.kind).toBe('applied');
    const s = store.getState();
    expect(s.upload.active?.n).toBe(12);
    expect(s.params.n).toBe(12);
    expect(s.params.d).toBe(5);
    expect(s.upload.staged).toEqual({});
    expect(s.upload.active?.v).toBeNull();
  });

  it('a bad file or a mismatched pair changes nothing but the error', () => {
    const { store, upload } = setup();
    upload.addFiles([npyFile('q', 12, 5, 1), npyFile('k', 12, 5, 2)]);
    const before = store.getState();
    const r = upload.addFiles([{ slot: 'k', name: 'k.csv', buffer: bytes(csv([[1, 2], [3]])) }]);
    expect(r.kind).toBe('rejected');
    const mid = store.getState();
    expect(mid.params).toBe(before.params);
    expect(mid.upload.active).toBe(before.upload.active);
    expect(mid.upload.error?.problem.code).toBe('csv-ragged');
    // a K of another shape starts a new set (the set in use stays); a Q that does not fit it is refused
    expect(upload.addFiles([npyFile('k', 13, 5, 2)])).toEqual({ kind: 'staged', waitingFor: ['q'] });
    upload.addFiles([npyFile('q', 12, 5, 2)]);
    expect(store.getState().upload.error?.problem.code).toBe('qk-shape-mismatch');
    upload.addFiles([npyFile('v', 12, 4, 2)]);
    expect(store.getState().upload.error?.problem.code).toBe('v-shape-mismatch');
    expect(store.getState().params).toBe(before.params);
    expect(store.getState().upload.active).toBe(before.upload.active);
    // the new set completes: it replaces the one in use
    expect(upload.addFiles([npyFile('q', 13, 5, 3)]).kind).toBe('applied');
    expect(store.getState().params.n).toBe(13);
  });

  it('replacing one file of the set in use keeps the others and gives a new upload id', () => {
    const { store, upload } = setup();
    upload.addFiles([npyFile('q', 8, 4, 1), npyFile('k', 8, 4, 2)]);
    const first = store.getState().upload.active!;
    upload.addFiles([npyFile('v', 8, 4, 3)]);
    const second = store.getState().upload.active!;
    expect(second.id).not.toBe(first.id);
    expect(second.q).toBe(first.q);
    expect(second.v?.matrix.rows).toBe(8);
  });

  it('n, d, scale and input are locked while uploaded (with a notice); other parameters still move; remove restores', () => {
    const { store, actions, upload } = setup();
    actions.setParams({ n: 100, d: 16, scale: 0.7, input: 'local' });
    upload.addFiles([npyFile('q', 8, 4, 1), npyFile('k', 8, 4, 2)]);
    expect(store.getState().params.input).toBe('gaussian'); // nothing structured is claimed of the data
    expect(actions.setParam('n', 64)).toBe(false);
    expect(actions.setParam('input', 'local')).toBe(false);
    expect(store.getState().notices.at(-1)).toMatchObject({ code: 'upload-locked', key: 'input' });
    expect(store.getState().notices.at(-1)).not.toHaveProperty('trained'); // uploaded files, not a trained head
    expect(actions.setParam('m', 32)).toBe(true);
    expect(actions.setParam('causal', true)).toBe(true);
    actions.resetParams();
    expect(store.getState().params.n).toBe(8);
    upload.remove();
    const s = store.getState();
    expect(s.upload.active).toBeNull();
    expect([s.params.n, s.params.d, s.params.scale, s.params.input]).toEqual([100, 16, 0.7, 'local']);
  });

  it('the scale shows the RMS of the uploaded entries', () => {
    const { store, upload } = setup();
    const q = {
      slot: 'q' as const,
      name: 'q.csv',
      buffer: bytes(
        csv([
          [2, 2],
          [2, 2],
        ]),
      ),
    };
    const k = {
      slot: 'k' as const,
      name: 'k.csv',
      buffer: bytes(
        csv([
          [2, -2],
          [-2, 2],
        ]),
      ),
    };
    upload.addFiles([q, k]);
    expect(store.getState().params.scale).toBe(2);
  });
});

describe('URL and requests with uploaded inputs', () => {
  it('the URL says input=uploaded and carries no data; reading it back explains and keeps generated inputs', () => {
    const { store, upload } = setup();
    upload.addFiles([npyFile('q', 8, 4, 1), npyFile('k', 8, 4, 2)]);
    const url = writeUrl(store.getState());
    expect(url).toContain('input=uploaded');
    expect(url.length).toBeLessThan(300);
    const back = readUrl(url);
    expect(back.params.input).toBeUndefined();
    expect(back.params.n).toBe(8);
    expect(back.notices).toEqual([{ level: 'warning', code: 'upload-not-in-link' }]);
  });

  it('the compute request carries the uploaded matrices, and the engine computes exact A on them', async () => {
    const { store, upload } = setup();
    upload.addFiles([npyFile('q', 8, 4, 1), npyFile('k', 8, 4, 2)]);
    const s = store.getState();
    const req = buildRequest(s);
    expect(req.external?.q).toBe(s.upload.active!.q.matrix);
    const result = await compute(1, req, createCpuBackend('test'));
    const A = exactAttentionMatrix(s.upload.active!.q.matrix, s.upload.active!.k.matrix, false);
    const view = result.output.view!;
    expect(view.cells).toBe(8);
    for (let t = 0; t < 64; t++) expect(view.exact[t]).toBeCloseTo(A.data[t]!, 5);
  });

  it('analysis requests carry the upload (first nCap rows for sweeps) and name it in the key; errorVsD does not', () => {
    const { store, upload } = setup();
    upload.addFiles([npyFile('q', 300, 4, 1), npyFile('k', 300, 4, 2)]);
    const s = store.getState();
    const up = s.upload.active!;
    const sweep = withUpload(errorVsMRequest(s.params), up);
    expect(sweep.key).toContain(`upload:${up.id}`);
    const ext = (sweep.payload as { external: { q: { rows: number } } }).external;
    expect(ext.q.rows).toBe(SWEEP_BUDGET.nCap);
    const rows = withUpload(rowEntropiesRequest(s.params), up);
    expect((rows.payload as { external: { q: { rows: number } } }).external.q.rows).toBe(300);
    const dReq = errorVsDRequest(s.params);
    expect(withUpload(dReq, up)).toBe(dReq);
    expect(withUpload(dReq, null)).toBe(dReq);
  });

  it('an analysis op computes on the uploaded Q, K, not on generated inputs', async () => {
    const { store, upload } = setup();
    upload.addFiles([npyFile('q', 16, 4, 5), npyFile('k', 16, 4, 6)]);
    const s = store.getState();
    const ctx = { progress() {}, cancelled: () => false };
    const onUpload = withUpload(rowEntropiesRequest(s.params), s.upload.active!);
    const generated = rowEntropiesRequest(s.params);
    const a = await ANALYSIS_OPS.rowEntropies(onUpload.payload, ctx);
    const b = await ANALYSIS_OPS.rowEntropies(generated.payload, ctx);
    expect(a.exact).not.toEqual(b.exact);
    // entropy of row 0 from the uploaded matrices directly
    const A = exactAttentionMatrix(s.upload.active!.q.matrix, s.upload.active!.k.matrix, false);
    let h = 0;
    for (let j = 0; j < 16; j++) {
      const p = A.data[j]!;
      if (p > 0) h -= p * Math.log(p);
    }
    expect(a.exact[0]).toBeCloseTo(h / Math.log(16), 4);
  });
});

describe('every analysis runs on uploaded inputs', () => {
  it.each([
    [1, 1],
    [3, 2],
    [40, 7],
  ])(
    'n = %i, d = %i: all ops finish and report the uploaded n',
    async (n, d) => {
      const { store, upload } = setup();
      upload.addFiles([npyFile('q', n, d, 1), npyFile('k', n, d, 2)]);
      const s = store.getState();
      const ctx = { progress() {}, cancelled: () => false };
      const requests = [
        errorVsMRequest,
        rowEntropiesRequest,
        normSweepRequest,
        entryErrorsRequest,
        entropyVsNRequest,
        spectraRequest,
        localTruncationRequest,
      ];
      for (const make of requests) {
        const req = withUpload(make(s.params), s.upload.active!);
        const value = (await runAnalysisOp(req.op, req.payload, ctx)) as { n?: number; nGrid?: number[] };
        if (value.n !== undefined) expect(value.n, req.op).toBe(n);
        if (value.nGrid) expect(value.nGrid.at(-1), req.op).toBe(n);
      }
      const rows = withUpload(mapRowsRequest(s.params, n - 1), s.upload.active!);
      expect((await ANALYSIS_OPS.mapRows(rows.payload, ctx)).n).toBe(n);
    },
    30_000,
  ); // eight full analyses: ~2 s on an idle core, past vitest's 5 s on a loaded machine
});
