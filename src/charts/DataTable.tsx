import { useState } from 'react';
import { useExportTable } from './ExportFigure';
import { fmt } from './format';

/** The table's own words (passed in: charts are leaves and import no strings). */
export interface DataTableLabels {
  /** text of the <summary> that opens the table */
  tableSummary: (caption: string) => string;
  tableTruncated: (shown: number, total: number) => string;
}

export interface DataTableProps {
  /** what the table lists (also the summary text's subject) */
  caption: string;
  columns: string[];
  /** built only when the table is opened */
  rows: () => (string | number | null)[][];
  maxRows?: number;
  labels: DataTableLabels;
}

/**
 * The accessible alternative of every chart: a collapsed <details> with a real <table>. The rows
 * are only built when it is opened, so a hidden table costs nothing per update.
 */
export function DataTable({ caption, columns, rows, maxRows = 1_000, labels: t }: DataTableProps) {
  useExportTable({ columns, rows });
  const [open, setOpen] = useState(false);
  const data = open ? rows() : [];
  const shown = data.slice(0, maxRows);
  return (
    <details className="data-table" onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>{t.tableSummary(caption)}</summary>
      {open && (
        <div className="table-scroll">
          <table>
            <caption>{caption}</caption>
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.map((r, i) => (
                <tr key={i}>
                  {r.map((v, j) => (
                    <td key={j}>{typeof v === 'number' ? fmt(v) : (v ?? '—')}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {data.length > shown.length && <p className="note">{t.tableTruncated(shown.length, data.length)}</p>}
        </div>
      )}
    </details>
  );
}
