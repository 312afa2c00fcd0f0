/**
 * `.npy` files: the `npyjs` parser (pinned in package.json) reads the header dictionary and views
 * the data; around it we check what it leaves to the caller, so that every malformed file gets a
 * specific problem instead of a RangeError or a silently wrong matrix:
 * - before it: magic string, format version, header length within the file, data alignment, the
 *   dtype (only little-endian float32 / float64: `<f4`, `<f8`; big-endian, integers, float16,
 *   complex, strings, objects and structured dtypes are refused by name);
 * - after it: a 2-D shape of whole numbers within the limits, C order (`fortran_order: False`),
 *   exactly n·d·itemsize data bytes (a truncated file or a header whose shape lies is caught here),
 *   and finite values that fit float32.
 * Format reference: numpy's `numpy/lib/format.py` (NEP 1).
 */
import { parse as parseNpyBuffer } from 'npyjs';
import {
  checkShape,
  describeBytes,
  NPY_MAGIC,
  toFiniteMatrix,
  type FileResult,
  type UploadProblem,
} from './upload-check';

const fail = (problem: UploadProblem): FileResult => ({ ok: false, problem });

/** The header's `descr` (e.g. `<f4`), read for diagnostics before the parser sees the file. */
export function headerDescr(header: string): string | null {
  const m = /['"]descr['"]\s*:\s*['"]([^'"]*)['"]/.exec(header);
  if (m) return m[1]!;
  return /['"]descr['"]\s*:\s*\[/.test(header) ? 'structured' : null;
}

/** Problem with a dtype descriptor, or null for the two we accept (`<f4`, `<f8`). */
export function dtypeProblem(descr: string): UploadProblem | null {
  if (descr === '<f4' || descr === '<f8') return null;
  const order = descr[0];
  const code = /^[<>|=]/.test(descr) ? descr.slice(1) : descr;
  if (order === '>' && (code === 'f4' || code === 'f8')) return { code: 'big-endian', dtype: descr };
  return { code: 'unsupported-dtype', dtype: descr };
}

export function parseNpy(buffer: ArrayBuffer): FileResult {
  const bytes = new Uint8Array(buffer);
  for (let i = 0; i < NPY_MAGIC.length; i++) {
    if (i >= bytes.length) return fail({ code: 'truncated-header', bytes: bytes.length, needed: 10 });
    if (bytes[i] !== NPY_MAGIC[i]) return fail({ code: 'bad-magic', found: describeBytes(bytes) });
  }
  if (bytes.length < 10) return fail({ code: 'truncated-header', bytes: bytes.length, needed: 10 });
  const major = bytes[6]!;
  const minor = bytes[7]!;
  if (major < 1 || major > 3 || minor !== 0) return fail({ code: 'unsupported-version', version: `${major}.${minor}` });
  const view = new DataView(buffer);
  const lenBytes = major === 1 ? 2 : 4;
  if (bytes.length < 8 + lenBytes) return fail({ code: 'truncated-header', bytes: bytes.length, needed: 8 + lenBytes });
  const headerLen = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const dataOffset = 8 + lenBytes + headerLen;
  if (dataOffset > bytes.length) return fail({ code: 'truncated-header', bytes: bytes.length, needed: dataOffset });
  const header = new TextDecoder(major === 3 ? 'utf-8' : 'latin1').decode(bytes.subarray(8 + lenBytes, dataOffset));
  if (!/^\s*\{[\s\S]*\}\s*$/.test(header))
    return fail({ code: 'bad-header', detail: 'the header is not a {…} dictionary' });
  const descr = headerDescr(header);
  if (descr === null) return fail({ code: 'bad-header', detail: "the header has no 'descr'" });
  const dtype = dtypeProblem(descr);
  if (dtype) return fail(dtype);
  const itemSize = descr === '<f8' ? 8 : 4;
  if (dataOffset % itemSize !== 0) return fail({ code: 'unaligned', offset: dataOffset });

  const dataBytes = bytes.length - dataOffset;
  // The parser views every remaining byte as data, so hand it whole elements only and compare
  // the count with the shape below (a ragged tail is a truncated or padded file).
  const whole = dataOffset + dataBytes - (dataBytes % itemSize);
  let parsed: ReturnType<typeof parseNpyBuffer>;
  try {
    parsed = parseNpyBuffer(whole === bytes.length ? buffer : buffer.slice(0, whole));
  } catch (e) {
    return fail({ code: 'bad-header', detail: e instanceof Error ? e.message : String(e) });
  }
  if (!/['"]fortran_order['"]\s*:\s*(True|False)/.test(header))
    return fail({ code: 'bad-header', detail: "the header has no 'fortran_order'" });
  if (!/['"]shape['"]\s*:\s*\(/.test(header))
    return fail({ code: 'bad-header', detail: "the header has no 'shape' tuple" });
  const shape = parsed.shape;
  if (!shape.every((s) => Number.isSafeInteger(s) && s >= 0))
    return fail({ code: 'bad-header', detail: 'the shape is not a tuple of whole numbers' });
  if (parsed.fortranOrder) return fail({ code: 'fortran-order' });
  const shapeProblem = checkShape(shape);
  if (shapeProblem) return fail(shapeProblem);
  const [n, d] = shape as [number, number];
  const expectedBytes = n * d * itemSize;
  if (dataBytes !== expectedBytes)
    return fail({ code: 'data-size-mismatch', shape: [n, d], expectedBytes, actualBytes: dataBytes });
  const values = parsed.data as Float32Array | Float64Array;
  const r = toFiniteMatrix(values, n, d);
  if (!r.ok) return r;
  return {
    ok: true,
    value: {
      matrix: r.matrix,
      format: 'npy',
      dtype: itemSize === 8 ? 'float64' : 'float32',
      notes: itemSize === 8 ? ['float64'] : [],
    },
  };
}
