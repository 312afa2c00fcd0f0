/** A data table as CSV (RFC 4180 quoting by d3-dsv): numbers at full precision, missing values empty. */
import { csvFormatRows } from 'd3';

export type Cell = string | number | null | undefined;

export function tableCsv(columns: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const cell = (v: Cell): string =>
    v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v)) ? '' : String(v);
  return `${csvFormatRows([columns.map(String), ...rows.map((r) => r.map(cell))])}\n`;
}
