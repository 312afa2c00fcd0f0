/**
 * Delimited text (CSV, TSV, `;`-separated, or whitespace-separated as `np.savetxt` writes by
 * default): one row per line, one number per cell, every row the same length. Cells are split by
 * d3's DSV parser (quoted cells work); the rules around it:
 * - UTF-8 only (anything else, or binary, is refused); a leading byte-order mark is dropped;
 * - blank lines and `#` comment lines (np.savetxt's header) are skipped;
 * - a first row with no number in it (column names) is skipped as a header; after it, every cell
 *   must be a number: an empty or non-numeric cell, and NaN/Inf, are refused naming line and column;
 * - the delimiter is the first of tab, `;`, `,` found in the first data line (so `1;2,5` is read as
 *   semicolon-separated with a decimal comma, and refused by name), else runs of spaces.
 * Line and column numbers in problems are 1-based, as an editor shows them.
 */
import { dsvFormat } from 'd3';
import { checkShape, toFiniteMatrix, type FileResult, type UploadNote, type UploadProblem } from './upload-check';

const NUMBER_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const NON_FINITE_RE = /^[+-]?(nan|inf|infinity)$/i;

const fail = (problem: UploadProblem): FileResult => ({ ok: false, problem });

type Cell =
  | { kind: 'number'; value: number }
  | { kind: 'non-finite'; value: 'NaN' | 'Infinity' | '-Infinity' }
  | { kind: 'text' };

export function parseCell(raw: string): Cell {
  const s = raw.trim();
  if (NUMBER_RE.test(s)) return { kind: 'number', value: Number(s) };
  if (NON_FINITE_RE.test(s)) {
    const lower = s.toLowerCase();
    return {
      kind: 'non-finite',
      value: lower.includes('nan') ? 'NaN' : lower.startsWith('-') ? '-Infinity' : 'Infinity',
    };
  }
  return { kind: 'text' };
}

export function detectDelimiter(line: string): ',' | '\t' | ';' | 'whitespace' {
  for (const c of ['\t', ';', ','] as const) if (line.includes(c)) return c;
  return 'whitespace';
}

export function parseDelimited(bytes: Uint8Array): FileResult {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return fail({ code: 'not-text' });
  }
  if (text.includes('\0')) return fail({ code: 'not-text' });
  const notes: UploadNote[] = [];
  if (text.charCodeAt(0) === 0xfeff) {
    text = text.slice(1);
    notes.push('bom');
  }
  const lines = text.split(/\r\n|\n|\r/);
  const data: { line: number; text: string }[] = [];
  let comments = false;
  lines.forEach((t, i) => {
    if (t.trim() === '') return;
    if (t.trimStart().startsWith('#')) {
      comments = true;
      return;
    }
    data.push({ line: i + 1, text: t });
  });
  if (comments) notes.push('comments');
  if (!data.length) return fail({ code: 'empty' });

  const delimiter = detectDelimiter(data[0]!.text);
  const dsv = delimiter === 'whitespace' ? null : dsvFormat(delimiter);
  const split = (t: string): string[] => (dsv ? (dsv.parseRows(t)[0] ?? []) : t.trim().split(/\s+/));

  let start = 0;
  const first = split(data[0]!.text);
  if (first.every((c) => parseCell(c).kind === 'text')) {
    notes.push('header-row');
    start = 1;
  }
  if (start >= data.length) return fail({ code: 'empty' });
  const d = split(data[start]!.text).length;
  const n = data.length - start;
  const shapeProblem = checkShape([n, d]);
  if (shapeProblem) return fail(shapeProblem);
  const values = new Float64Array(n * d);
  for (let r = 0; r < n; r++) {
    const { line, text: t } = data[start + r]!;
    const cells = split(t);
    if (cells.length !== d) return fail({ code: 'csv-ragged', line, expected: d, got: cells.length });
    for (let c = 0; c < d; c++) {
      const cell = parseCell(cells[c]!);
      if (cell.kind === 'text')
        return fail({ code: 'csv-non-numeric', line, col: c + 1, cell: cells[c]!.trim().slice(0, 24) });
      if (cell.kind === 'non-finite') return fail({ code: 'non-finite', row: r, col: c, value: cell.value });
      values[r * d + c] = cell.value;
    }
  }
  const m = toFiniteMatrix(values, n, d);
  if (!m.ok) return m;
  return { ok: true, value: { matrix: m.matrix, format: 'csv', dtype: 'text', notes } };
}
