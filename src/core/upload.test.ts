import { describe, expect, it } from 'vitest';
// The same generated corpus the browser test feeds through the file input.
// @ts-expect-error plain JS module shared with the browser test (no types)
import { badFiles, badPairs, csv, gaussian, npy, text } from '../../e2e/upload-files.mjs';
import { LIMITS } from './limits';
import {
  assignSlots,
  checkSet,
  entryRms,
  readMatrixFile,
  slotFromName,
  UPLOAD_LIMITS,
  type UploadProblem,
} from './upload';

type Fixture = { name: string; bytes: Uint8Array; code: UploadProblem['code'] };

const buf = (b: Uint8Array): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
const read = (name: string, b: Uint8Array) => readMatrixFile(name, buf(b));

describe('readMatrixFile accepts well-formed files', () => {
  const vals: number[] = gaussian(5, 3, 1);
  it('reads a C-order float32 .npy into the same float32 matrix', () => {
    const r = read('q.npy', npy({ values: vals, shape: [5, 3] }));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.matrix.rows).toBe(5);
    expect(r.value.matrix.cols).toBe(3);
    expect(Array.from(r.value.matrix.data)).toEqual(vals.map(Math.fround));
    expect(r.value.dtype).toBe('float32');
  });
  it('reads a float64 .npy (format 2.0 and 3.0 headers too), rounding to float32', () => {
    for (const version of [
      [1, 0],
      [2, 0],
      [3, 0],
    ]) {
      const r = read('k.npy', npy({ values: vals, shape: [5, 3], descr: '<f8', version }));
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      expect(Array.from(r.value.matrix.data)).toEqual(vals.map(Math.fround));
      expect(r.value.notes).toContain('float64');
    }
  });
  it('reads comma, tab, semicolon and space separated text, skipping a BOM, comments and a header row', () => {
    const rows = [
      [1, 2.5, -3e-2],
      [4, 5, 6],
    ];
    const variants: [string, Uint8Array][] = [
      ['a.csv', csv(rows)],
      ['a.tsv', csv(rows, '\t')],
      ['a.csv', csv(rows, ';')],
      ['a.txt', text('# np.savetxt header\n1.000e+00 2.5 -3e-2\n  4 5   6\n')],
      ['a.csv', text('\uFEFFx,y,z\r\n1,2.5,-0.03\r\n4,5,6\r\n')],
      ['a.csv', text('"1","2.5","-0.03"\n4,5,6')],
    ];
    for (const [name, bytes] of variants) {
      const r = read(name, bytes);
      expect(r.ok, name).toBe(true);
      if (!r.ok) continue;
      expect(Array.from(r.value.matrix.data)).toEqual([1, 2.5, -0.03, 4, 5, 6].map(Math.fround));
    }
    const withBom = read('a.csv', text('\uFEFFx,y,z\n1,2,3\n'));
    expect(withBom.ok && withBom.value.notes).toEqual(['bom', 'header-row']);
  });
  it('accepts the largest allowed shape and rejects one row more', () => {
    const ok = read('big.npy', npy({ values: [], shape: [LIMITS.nMax, 64] }));
    // header fine, but no data: the size check (after the limits) names the missing bytes
    expect(!ok.ok && ok.problem.code).toBe('data-size-mismatch');
    const tooMany = read('big.npy', npy({ values: [], shape: [LIMITS.nMax + 1, 1] }));
    expect(!tooMany.ok && tooMany.problem.code).toBe('too-many-rows');
  });
  it('rejects a file over the byte cap before parsing it', () => {
    const r = readMatrixFile('huge.npy', new ArrayBuffer(UPLOAD_LIMITS.maxBytes + 1));
    expect(!r.ok && r.problem).toEqual({
      code: 'file-too-large',
      bytes: UPLOAD_LIMITS.maxBytes + 1,
      max: UPLOAD_LIMITS.maxBytes,
    });
  });
});

describe('readMatrixFile rejects every generated bad file with the problem it has', () => {
  const corpus = badFiles() as Fixture[];
  it('the corpus has at least 100 files', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(100);
  });
  it.each(corpus.map((f) => [f.name, f] as const))('%s', (_name, f) => {
    const r = read(f.name, f.bytes);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.problem.code).toBe(f.code);
  });
  it('names the place of a NaN (0-based row, column) and of a non-numeric CSV cell (1-based line, column)', () => {
    const v = gaussian(4, 3, 3);
    v[7] = NaN;
    const r = read('q.npy', npy({ values: v, shape: [4, 3] }));
    expect(!r.ok && r.problem).toEqual({ code: 'non-finite', row: 2, col: 1, value: 'NaN' });
    const c = read('q.csv', text('1,2\n3,abc\n'));
    expect(!c.ok && c.problem).toEqual({ code: 'csv-non-numeric', line: 2, col: 2, cell: 'abc' });
  });
  it('reports the header shape, expected and actual data bytes when the shape lies', () => {
    const r = read('q.npy', npy({ values: gaussian(4, 3, 1), shape: [4, 3], headerShape: [5, 3] }));
    expect(!r.ok && r.problem).toEqual({
      code: 'data-size-mismatch',
      shape: [5, 3],
      expectedBytes: 60,
      actualBytes: 48,
    });
  });
});

describe('checkSet', () => {
  const m = (rows: number, cols: number) => ({ rows, cols, data: new Float32Array(rows * cols) });
  it('accepts Q, K (and V) of one shape and partial sets', () => {
    expect(checkSet({ q: m(4, 3), k: m(4, 3), v: m(4, 3) })).toBeNull();
    expect(checkSet({ q: m(4, 3) })).toBeNull();
    expect(checkSet({ k: m(4, 3), v: m(4, 3) })).toBeNull();
  });
  it('rejects Q/K of different n or d and V that is not n×d', () => {
    expect(checkSet({ q: m(5, 3), k: m(4, 3) })).toEqual({ code: 'qk-shape-mismatch', q: [5, 3], k: [4, 3] });
    expect(checkSet({ q: m(4, 3), k: m(4, 2) })?.code).toBe('qk-shape-mismatch');
    expect(checkSet({ q: m(4, 3), k: m(4, 3), v: m(4, 2) })).toEqual({
      code: 'v-shape-mismatch',
      v: [4, 2],
      expected: [4, 3],
    });
  });
  it('every generated bad pair is refused with its problem', () => {
    for (const p of badPairs() as {
      staged: [string, string, Uint8Array];
      bad: [string, string, Uint8Array];
      code: string;
    }[]) {
      const a = read(p.staged[1], p.staged[2]);
      const b = read(p.bad[1], p.bad[2]);
      expect(a.ok && b.ok).toBe(true);
      if (!a.ok || !b.ok) continue;
      const set = { [p.staged[0]]: a.value.matrix, [p.bad[0]]: b.value.matrix };
      expect(checkSet(set)?.code).toBe(p.code);
    }
  });
});

describe('slots and scale', () => {
  it('assigns dropped files to Q, K, V by name, else in order', () => {
    expect(slotFromName('layer3_query.npy')).toBe('q');
    expect(slotFromName('K.csv')).toBe('k');
    expect(slotFromName('values-head2.npy')).toBe('v');
    expect(slotFromName('data.npy')).toBeNull();
    expect(assignSlots(['v.npy', 'k.npy', 'q.npy'])).toEqual(['v', 'k', 'q']);
    expect(assignSlots(['a.npy', 'b.npy'])).toEqual(['q', 'k']);
    expect(assignSlots(['k.npy', 'other.npy'])).toEqual(['k', 'q']);
    expect(assignSlots(['q1.npy', 'q.npy'])).toEqual(['q', 'k']);
    expect(assignSlots(['a', 'b', 'c', 'd'])).toBeNull();
  });
  it('entryRms is the root mean square over Q and K entries', () => {
    const q = { rows: 1, cols: 2, data: Float32Array.from([3, 4]) };
    const k = { rows: 1, cols: 2, data: Float32Array.from([0, 0]) };
    expect(entryRms(q, k)).toBeCloseTo(Math.sqrt(25 / 4), 6);
  });
});
