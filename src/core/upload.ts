/**
 * Bring-your-own Q, K (and V): the checks every uploaded matrix passes before it can reach the
 * engine. Pure functions on bytes and text — no DOM, no English. A problem comes back as a
 * structured `UploadProblem` (src/i18n words it), never as an exception, so a bad file can only
 * ever produce a message; the caller keeps its previous state.
 *
 * Formats: `.npy` (read by the `npyjs` parser, see upload-npy.ts) and delimited text
 * (upload-csv.ts). The format is recognised from the content (the `\x93NUMPY` magic) and the name.
 */
import type { Matrix } from './types';
import { parseNpy } from './upload-npy';
import { parseDelimited } from './upload-csv';
import {
  fileExtension,
  looksLikeNpy,
  UPLOAD_LIMITS,
  UPLOAD_SLOTS,
  type FileResult,
  type UploadProblem,
  type UploadSlot,
} from './upload-check';

export * from './upload-check';

/** Reads one uploaded file (its name and bytes) into a validated float32 n×d matrix. */
export function readMatrixFile(name: string, buffer: ArrayBuffer): FileResult {
  if (buffer.byteLength === 0) return { ok: false, problem: { code: 'empty' } };
  if (buffer.byteLength > UPLOAD_LIMITS.maxBytes) {
    return { ok: false, problem: { code: 'file-too-large', bytes: buffer.byteLength, max: UPLOAD_LIMITS.maxBytes } };
  }
  const bytes = new Uint8Array(buffer);
  const ext = fileExtension(name);
  if (looksLikeNpy(bytes) || ext === 'npy' || ext === 'npz') return parseNpy(buffer);
  return parseDelimited(bytes);
}

export interface UploadSet {
  q: Matrix;
  k: Matrix;
  v?: Matrix | null;
}

/** Cross-file checks: Q and K of one shape n×d, V (if given) n×d as well. */
export function checkSet(set: { q?: Matrix | null; k?: Matrix | null; v?: Matrix | null }): UploadProblem | null {
  const { q, k, v } = set;
  if (q && k && (q.rows !== k.rows || q.cols !== k.cols)) {
    return { code: 'qk-shape-mismatch', q: [q.rows, q.cols], k: [k.rows, k.cols] };
  }
  const ref = q ?? k;
  if (ref && v && (v.rows !== ref.rows || v.cols !== ref.cols)) {
    return { code: 'v-shape-mismatch', v: [v.rows, v.cols], expected: [ref.rows, ref.cols] };
  }
  return null;
}

/** Which slot a file dropped together with others belongs to, from its name (q.npy, keys.csv, V_layer3.npy …). */
export function slotFromName(name: string): UploadSlot | null {
  const stem = name.replace(/\.[^.]*$/, '').toLowerCase();
  const words = stem.split(/[^a-z]+/).filter(Boolean);
  for (const w of words) {
    if (w === 'q' || w === 'query' || w === 'queries') return 'q';
    if (w === 'k' || w === 'key' || w === 'keys') return 'k';
    if (w === 'v' || w === 'value' || w === 'values') return 'v';
  }
  return null;
}

/**
 * Slot of each of several files dropped at once: by name where the name says (q / k / v, query,
 * keys, …), the rest in order into the free slots Q, K, V. Returns null for more than three files.
 */
export function assignSlots(names: readonly string[]): UploadSlot[] | null {
  if (names.length > 3) return null;
  const out: (UploadSlot | null)[] = names.map(slotFromName);
  const used = new Set(out.filter((s): s is UploadSlot => s !== null));
  if (used.size !== out.filter((s) => s !== null).length) out.fill(null); // two files claim one slot: fall back to order
  const free = UPLOAD_SLOTS.filter((s) => !out.includes(s));
  return out.map((s) => s ?? free.shift()!);
}
