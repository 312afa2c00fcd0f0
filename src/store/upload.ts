/**
 * Bring-your-own Q, K (and V): actions on the store's `upload` slice. Files arrive as (slot, name,
 * bytes); each is validated on its own (src/core/upload.ts), then against the files it joins.
 * Anything wrong sets `upload.error` and changes nothing else — parameters, result, analyses and
 * the inputs in use stay as they were. Once Q and K are there and fit, they become the inputs of
 * every panel at once: n and d follow the files, the norm scale shows their RMS, and a new upload id
 * re-keys the analyses.
 */
import { checkSet, entryRms, readMatrixFile, type UploadProblem, type UploadSlot } from '../core/upload';
import { SCALE_RANGE } from './params';
import type { AppStore } from './store';
import { EMPTY_UPLOAD, type StagedMatrix, type UploadedInputs, type UploadState } from './upload-state';

export interface UploadFileInput {
  slot: UploadSlot;
  name: string;
  buffer: ArrayBuffer;
}

export type UploadOutcome =
  | { kind: 'rejected'; problem: UploadProblem }
  | { kind: 'staged'; waitingFor: UploadSlot[] }
  | { kind: 'applied'; id: string };

export interface UploadActions {
  /** Validates and stages the files (all or none); applies Q and K (V) once both are there. */
  addFiles(files: UploadFileInput[]): UploadOutcome;
  /** A file that could not even be read (File.arrayBuffer failed). */
  rejectUnreadable(slot: UploadSlot | null, name: string, detail: string): void;
  /** Back to generated inputs (restoring the n, d and scale of before the upload). */
  remove(): void;
  dismissError(): void;
}

let uploadCounter = 0;
let errorSeq = 0;

function patchUpload(store: AppStore, f: (u: UploadState) => UploadState): void {
  store.setState((s) => ({ upload: f(s.upload) }));
}

export function createUploadActions(store: AppStore): UploadActions {
  const reject = (slot: UploadSlot | null, file: string, problem: UploadProblem): UploadOutcome => {
    patchUpload(store, (u) => ({ ...u, error: { seq: ++errorSeq, slot, file, problem } }));
    return { kind: 'rejected', problem };
  };

  return {
    addFiles(files) {
      if (!files.length) return { kind: 'staged', waitingFor: ['q', 'k'] };
      const { upload } = store.getState();
      // what the new files join: the staged files, else the set in use
      const base: Partial<Record<UploadSlot, StagedMatrix>> = Object.keys(upload.staged).length
        ? { ...upload.staged }
        : upload.active && !upload.active.trained // a trained head is no file set to join
          ? { q: upload.active.q, k: upload.active.k, ...(upload.active.v ? { v: upload.active.v } : {}) }
          : {};
      const added: Partial<Record<UploadSlot, StagedMatrix>> = {};
      for (const f of files) {
        const r = readMatrixFile(f.name, f.buffer);
        if (!r.ok) return reject(f.slot, f.name, r.problem);
        const { matrix, format, dtype, notes } = r.value;
        added[f.slot] = {
          matrix,
          file: {
            name: f.name,
            bytes: f.buffer.byteLength,
            format,
            dtype,
            notes,
            rows: matrix.rows,
            cols: matrix.cols,
          },
        };
      }
      const fits = (set: Partial<Record<UploadSlot, StagedMatrix>>) =>
        checkSet({ q: set.q?.matrix, k: set.k?.matrix, v: set.v?.matrix });
      let next = { ...base, ...added };
      let problem = fits(next);
      // Files of another shape than the set in use start a new set (the one in use stays until the
      // new one is complete), so a different data set can be loaded one file at a time.
      if (problem && !Object.keys(upload.staged).length && upload.active && !fits(added)) {
        next = added;
        problem = null;
      }
      if (problem) return reject(files.at(-1)!.slot, files.map((f) => f.name).join(', '), problem);
      if (!next.q || !next.k) {
        patchUpload(store, (u) => ({ ...u, staged: next, error: null }));
        return { kind: 'staged', waitingFor: (['q', 'k'] as const).filter((s) => !next[s]) };
      }
      const s = store.getState();
      const n = next.q.matrix.rows;
      const d = next.q.matrix.cols;
      const rms = entryRms(next.q.matrix, next.k.matrix);
      const active: UploadedInputs = {
        id: `u${++uploadCounter}-${n}x${d}`,
        n,
        d,
        q: next.q,
        k: next.k,
        v: next.v ?? null,
        rms,
        before: s.upload.active?.before ?? {
          n: s.params.n,
          d: s.params.d,
          scale: s.params.scale,
          input: s.params.input,
        },
      };
      const scale = Math.min(SCALE_RANGE.max, Math.max(SCALE_RANGE.min, Number(rms.toPrecision(3))));
      const pinned = s.ui.pinnedRow !== null && s.ui.pinnedRow >= n ? null : s.ui.pinnedRow;
      const hovered = s.ui.hoveredRow !== null && s.ui.hoveredRow >= n ? null : s.ui.hoveredRow;
      store.setState({
        upload: { active, staged: {}, error: null },
        // input kind 'gaussian': nothing structured (cluster labels, a positional band) is claimed of
        // the data, and the one sweep that cannot use it (error vs d) runs on Gaussians at its RMS
        params: { ...s.params, n, d, scale, input: 'gaussian' },
        ui:
          pinned === s.ui.pinnedRow && hovered === s.ui.hoveredRow
            ? s.ui
            : { ...s.ui, pinnedRow: pinned, hoveredRow: hovered },
      });
      return { kind: 'applied', id: active.id };
    },
    rejectUnreadable(slot, name, detail) {
      reject(slot, name, { code: 'read-failed', detail });
    },
    remove() {
      const s = store.getState();
      const before = s.upload.active?.before;
      store.setState({
        upload: EMPTY_UPLOAD,
        ...(before ? { params: { ...s.params, ...before } } : {}),
        ...(before && s.ui.pinnedRow !== null && s.ui.pinnedRow >= before.n
          ? { ui: { ...s.ui, pinnedRow: null } }
          : {}),
      });
    },
    dismissError() {
      patchUpload(store, (u) => (u.error ? { ...u, error: null } : u));
    },
  };
}
