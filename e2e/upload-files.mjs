// Generator of uploaded-file fixtures (good and bad .npy / CSV files) for "Bring your own Q and K".
// Shared by the unit tests (src/core/upload.test.ts) and the browser test (e2e/upload.spec.mjs), so
// both run the same corpus. Pure JS, deterministic (seeded), no files on disk.

/** Deterministic PRNG (mulberry32). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** n×d values (row-major, plain numbers) ~ N(0, scale²), seeded. */
export function gaussian(n, d, seed, scale = 1) {
  const r = rng(seed);
  const out = new Array(n * d);
  for (let t = 0; t < n * d; t++) {
    const u = Math.max(r(), 1e-12);
    out[t] = scale * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r());
  }
  return out;
}

const ITEM = { f4: 4, f8: 8, f2: 2, i1: 1, u1: 1, b1: 1, i2: 2, u2: 2, i4: 4, u4: 4, i8: 8, u8: 8, c8: 8, c16: 16 };

function shapeText(shape) {
  if (shape.length === 1) return `(${shape[0]},)`;
  return `(${shape.join(', ')})`;
}

/**
 * Bytes of an .npy file. `values` are written with `descr` (little-endian unless it starts with
 * '>'); every part can be overridden to make a malformed file: magic, version, header text, the
 * header length field, the shape written in the header, extra/missing data bytes.
 */
export function npy({
  values,
  shape,
  descr = '<f4',
  fortran = false,
  version = [1, 0],
  magic = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59],
  header,
  headerShape = shape,
  align = 64,
  headerLenDelta = 0,
}) {
  const dict =
    header ??
    `{'descr': '${descr}', 'fortran_order': ${fortran ? 'True' : 'False'}, 'shape': ${shapeText(headerShape)}, }`;
  const lenBytes = version[0] === 1 ? 2 : 4;
  const pre = 6 + 2 + lenBytes;
  let h = dict;
  const total = pre + h.length + 1;
  const padTo = align > 0 ? Math.ceil(total / align) * align : total;
  h = h + ' '.repeat(padTo - total) + '\n';
  const code = descr.replace(/^[<>|=]/, '');
  const size = ITEM[code] ?? 4;
  const big = descr.startsWith('>');
  const data = new Uint8Array((values?.length ?? 0) * size);
  const dv = new DataView(data.buffer);
  (values ?? []).forEach((v, i) => {
    const o = i * size;
    switch (code) {
      case 'f4':
        dv.setFloat32(o, v, !big);
        break;
      case 'f8':
        dv.setFloat64(o, v, !big);
        break;
      case 'c8':
        dv.setFloat32(o, v, !big);
        break;
      case 'c16':
        dv.setFloat64(o, v, !big);
        break;
      case 'i4':
        dv.setInt32(o, Math.round(v), !big);
        break;
      case 'i8':
        dv.setBigInt64(o, BigInt(Math.round(v)), !big);
        break;
      case 'u8':
        dv.setBigUint64(o, BigInt(Math.abs(Math.round(v))), !big);
        break;
      case 'i2':
        dv.setInt16(o, Math.round(v), !big);
        break;
      case 'u2':
      case 'f2':
        dv.setUint16(o, Math.abs(Math.round(v)) & 0xffff, !big);
        break;
      case 'u4':
        dv.setUint32(o, Math.abs(Math.round(v)), !big);
        break;
      default:
        dv.setUint8(o, Math.abs(Math.round(v)) & 0xff);
    }
  });
  const out = new Uint8Array(pre + h.length + data.length);
  out.set(magic.slice(0, 6), 0);
  out[6] = version[0];
  out[7] = version[1];
  const hv = new DataView(out.buffer);
  if (lenBytes === 2) hv.setUint16(8, h.length + headerLenDelta, true);
  else hv.setUint32(8, h.length + headerLenDelta, true);
  for (let i = 0; i < h.length; i++) out[pre + i] = h.charCodeAt(i) & 0xff;
  out.set(data, pre + h.length);
  return out;
}

export const csv = (rows, sep = ',') => new TextEncoder().encode(rows.map((r) => r.join(sep)).join('\n') + '\n');
export const text = (s) => new TextEncoder().encode(s);

function matrixRows(values, n, d) {
  return Array.from({ length: n }, (_, i) => values.slice(i * d, (i + 1) * d).map((x) => x.toPrecision(9)));
}

/**
 * Bad single files: { name, bytes, code } where `code` is the UploadProblem code the app must
 * report. (Two files that are each fine but do not fit together are in `badPairs`.)
 */
export function badFiles() {
  const out = [];
  const add = (name, bytes, code) => out.push({ name, bytes, code });
  const n = 4;
  const d = 3;
  const vals = gaussian(n, d, 7);
  const good4 = npy({ values: vals, shape: [n, d] });
  const good8 = npy({ values: vals, shape: [n, d], descr: '<f8' });

  add('empty.npy', new Uint8Array(0), 'empty');
  // truncated at many offsets: inside the magic/version/length prefix and the header → header
  // problems; inside the data → the data no longer matches the header's shape
  const off4 = good4.length - n * d * 4;
  const off8 = good8.length - n * d * 8;
  const cuts4 = [
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
    12,
    16,
    24,
    32,
    48,
    off4 - 2,
    off4 - 1,
    off4,
    off4 + 1,
    off4 + 2,
    off4 + 3,
    off4 + 4,
    off4 + 7,
    off4 + 12,
    off4 + 20,
    off4 + 33,
    off4 + 40,
    off4 + 44,
    off4 + 46,
    off4 + 47,
  ];
  for (const c of new Set(cuts4)) {
    add(`truncated-f4-at-${c}.npy`, good4.slice(0, c), c < off4 ? 'truncated-header' : 'data-size-mismatch');
  }
  for (const c of [9, 30, off8 - 1, off8, off8 + 1, off8 + 8, off8 + 40, off8 + 88, off8 + 95]) {
    add(`truncated-f8-at-${c}.npy`, good8.slice(0, c), c < off8 ? 'truncated-header' : 'data-size-mismatch');
  }
  // wrong magic
  const magics = [
    [0x94, 0x4e, 0x55, 0x4d, 0x50, 0x59],
    [0x93, 0x6e, 0x75, 0x6d, 0x70, 0x79],
    [0x4e, 0x55, 0x4d, 0x50, 0x59, 0x93],
    [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x5a],
    [0x50, 0x4b, 0x03, 0x04, 0x14, 0x00], // a zip (.npz) archive
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a], // PNG
    [0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00], // gzip
    [0x00, 0x00, 0x00, 0x00, 0x00, 0x00],
  ];
  magics.forEach((m, i) => add(`bad-magic-${i}.npy`, npy({ values: vals, shape: [n, d], magic: m }), 'bad-magic'));
  add('archive.npz', npy({ values: vals, shape: [n, d], magic: magics[4] }), 'bad-magic');
  add(
    'random-bytes.npy',
    Uint8Array.from({ length: 200 }, (_, i) => (i * 37 + 11) & 0xff),
    'bad-magic',
  );
  // versions
  for (const v of [
    [0, 0],
    [4, 0],
    [1, 1],
    [255, 0],
  ]) {
    add(`version-${v.join('.')}.npy`, npy({ values: vals, shape: [n, d], version: v }), 'unsupported-version');
  }
  // every unsupported dtype
  for (const descr of [
    '<i1',
    '|i1',
    '|u1',
    '|b1',
    '<i2',
    '<u2',
    '<i4',
    '<u4',
    '<i8',
    '<u8',
    '<f2',
    '<c8',
    '<c16',
    '|O',
    '<U8',
    '|S4',
    '<f16',
    '<V8',
  ]) {
    add(`dtype-${descr.replace(/[<>|]/g, '')}.npy`, npy({ values: vals, shape: [n, d], descr }), 'unsupported-dtype');
  }
  add(
    'dtype-structured.npy',
    npy({
      values: vals,
      shape: [n, d],
      header: "{'descr': [('a', '<f4'), ('b', '<f4')], 'fortran_order': False, 'shape': (4, 3), }",
    }),
    'unsupported-dtype',
  );
  add('dtype-big-f4.npy', npy({ values: vals, shape: [n, d], descr: '>f4' }), 'big-endian');
  add('dtype-big-f8.npy', npy({ values: vals, shape: [n, d], descr: '>f8' }), 'big-endian');
  add('dtype-big-i4.npy', npy({ values: vals, shape: [n, d], descr: '>i4' }), 'unsupported-dtype');
  // Fortran order
  add('fortran-f4.npy', npy({ values: vals, shape: [n, d], fortran: true }), 'fortran-order');
  add('fortran-f8.npy', npy({ values: vals, shape: [n, d], fortran: true, descr: '<f8' }), 'fortran-order');
  // the header's shape lies about the data
  for (const hs of [
    [5, 3],
    [3, 3],
    [4, 4],
    [4, 2],
    [2, 3],
    [12, 3],
    [1, 1],
  ]) {
    add(`shape-lie-${hs.join('x')}.npy`, npy({ values: vals, shape: [n, d], headerShape: hs }), 'data-size-mismatch');
  }
  add(
    'shape-lie-f8-as-f4.npy',
    npy({
      values: vals,
      shape: [n, d],
      descr: '<f8',
      header: "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 3), }",
    }),
    'data-size-mismatch',
  );
  add('trailing-bytes.npy', new Uint8Array([...good4, 1, 2, 3, 4]), 'data-size-mismatch');
  // not 2-D, zero size
  for (const hs of [[12], [], [2, 2, 3], [1, 4, 3], [1, 1, 1, 12]]) {
    add(`not-2d-${hs.length}d-${hs.join('x') || 'scalar'}.npy`, npy({ values: vals, shape: hs }), 'not-2d');
  }
  add('zero-rows.npy', npy({ values: [], shape: [0, 3] }), 'zero-size');
  add('zero-cols.npy', npy({ values: [], shape: [4, 0] }), 'zero-size');
  // too large (the header is read first: no need for the data to be there)
  add('too-many-rows.npy', npy({ values: [], shape: [70_000, 2] }), 'too-many-rows');
  add('too-many-cols.npy', npy({ values: [], shape: [4, 300] }), 'too-many-cols');
  add('too-many-elements.npy', npy({ values: [], shape: [20_000, 256] }), 'too-many-elements');
  // malformed headers
  add('header-not-dict.npy', npy({ values: vals, shape: [n, d], header: 'hello world' }), 'bad-header');
  add(
    'header-no-descr.npy',
    npy({ values: vals, shape: [n, d], header: "{'fortran_order': False, 'shape': (4, 3), }" }),
    'bad-header',
  );
  add(
    'header-no-shape.npy',
    npy({ values: vals, shape: [n, d], header: "{'descr': '<f4', 'fortran_order': False, }" }),
    'bad-header',
  );
  add(
    'header-no-fortran.npy',
    npy({ values: vals, shape: [n, d], header: "{'descr': '<f4', 'shape': (4, 3), }" }),
    'bad-header',
  );
  add(
    'header-shape-words.npy',
    npy({ values: vals, shape: [n, d], header: "{'descr': '<f4', 'fortran_order': False, 'shape': (four, 3), }" }),
    'bad-header',
  );
  add('header-length-beyond-file.npy', npy({ values: vals, shape: [n, d], headerLenDelta: 4000 }), 'truncated-header');
  add('header-unaligned.npy', npy({ values: vals, shape: [n, d], align: 0 }), 'unaligned');
  // NaN / ±Inf at random places, float32 and float64; float64 values beyond float32's range
  const r = rng(42);
  for (let t = 0; t < 18; t++) {
    const bad = [NaN, Infinity, -Infinity][t % 3];
    const descr = t % 2 ? '<f8' : '<f4';
    const nn = 3 + Math.floor(r() * 20);
    const dd = 1 + Math.floor(r() * 9);
    const v = gaussian(nn, dd, 100 + t);
    v[Math.floor(r() * nn * dd)] = bad;
    add(`non-finite-${t}-${String(bad)}.npy`, npy({ values: v, shape: [nn, dd], descr }), 'non-finite');
  }
  const over = gaussian(n, d, 9);
  over[5] = 1e39;
  add('float32-overflow.npy', npy({ values: over, shape: [n, d], descr: '<f8' }), 'float32-overflow');
  over[5] = -3e300;
  add('float32-overflow-neg.npy', npy({ values: over, shape: [n, d], descr: '<f8' }), 'float32-overflow');

  // CSV
  const rows = matrixRows(vals, n, d);
  add('empty.csv', new Uint8Array(0), 'empty');
  add('blank.csv', text('\n\n  \n'), 'empty');
  add('comments-only.csv', text('# q matrix\n# nothing else\n'), 'empty');
  add('header-only.csv', text('a,b,c\n'), 'empty');
  add('ragged-short.csv', csv([rows[0], rows[1], rows[2].slice(0, 2), rows[3]]), 'csv-ragged');
  add('ragged-long.csv', csv([rows[0], [...rows[1], '1.0'], rows[2], rows[3]]), 'csv-ragged');
  add('ragged-last.csv', csv([rows[0], rows[1], rows[2], ['1']]), 'csv-ragged');
  add('ragged-tabs.tsv', csv([rows[0], rows[1].slice(0, 1)], '\t'), 'csv-ragged');
  add('non-numeric.csv', csv([rows[0], [rows[1][0], 'x', rows[1][2]], rows[2]]), 'csv-non-numeric');
  add('non-numeric-empty-cell.csv', text('1,2,3\n4,,6\n'), 'csv-non-numeric');
  add('non-numeric-units.csv', text('1,2,3\n4 m,5,6\n'), 'csv-non-numeric');
  add('non-numeric-hex.csv', text('1,2,3\n0x1F,5,6\n'), 'csv-non-numeric');
  add('non-numeric-decimal-comma.csv', text('1;2,5;3\n4;5;6\n'), 'csv-non-numeric');
  add('second-header.csv', text('a,b,c\n1,2,3\nx,y,z\n'), 'csv-non-numeric');
  add('pandas-index.csv', text(',0,1,2\n0,1,2,3\n1,4,5,6\n'), 'csv-non-numeric');
  add('nan.csv', text('1,2,3\n4,nan,6\n'), 'non-finite');
  add('inf.csv', text('1,2,3\n4,5,inf\n'), 'non-finite');
  add('neg-inf.csv', text('1,2,3\n-Infinity,5,6\n'), 'non-finite');
  add('NaN-first-row.csv', text('NaN,NaN,NaN\n1,2,3\n'), 'non-finite');
  add('overflow.csv', text('1,2,3\n4,5,1e40\n'), 'float32-overflow');
  add(
    'binary.csv',
    Uint8Array.from({ length: 64 }, (_, i) => (i * 7) & 0xff),
    'not-text',
  );
  add('latin1.csv', Uint8Array.from([0x31, 0x2c, 0xe9, 0x0a]), 'not-text');
  add('nul.csv', text('1,2\u0000,3\n'), 'not-text');
  add('too-many-cols.csv', text(Array.from({ length: 300 }, () => '1').join(',') + '\n'), 'too-many-cols');
  return out;
}

/** Pairs of individually valid files that do not fit together: [slot, name, bytes] staged in order, and the expected problem. */
export function badPairs() {
  const m = (nn, dd, seed) => npy({ values: gaussian(nn, dd, seed), shape: [nn, dd] });
  return [
    { staged: ['k', 'k.npy', m(4, 3, 1)], bad: ['q', 'q-more-rows.npy', m(5, 3, 2)], code: 'qk-shape-mismatch' },
    { staged: ['k', 'k.npy', m(4, 3, 1)], bad: ['q', 'q-fewer-cols.npy', m(4, 2, 2)], code: 'qk-shape-mismatch' },
    { staged: ['k', 'k.npy', m(4, 3, 1)], bad: ['q', 'q-transposed.npy', m(3, 4, 2)], code: 'qk-shape-mismatch' },
    { staged: ['k', 'k.npy', m(4, 3, 1)], bad: ['v', 'v-wrong-d.npy', m(4, 2, 3)], code: 'v-shape-mismatch' },
    { staged: ['k', 'k.npy', m(4, 3, 1)], bad: ['v', 'v-wrong-n.npy', m(3, 3, 3)], code: 'v-shape-mismatch' },
  ];
}
