/**
 * Download buttons for one figure: PNG (2×) and SVG of whatever chart is inside, and CSV of its data
 * table. The chart needs no export code of its own: the SVG is composed from the rendered layers
 * (src/export/svg.ts), and the chart's DataTable hands its columns and row builder to the nearest
 * `ExportFigure` through context (`useExportTable`). Labels come in as props (charts hold no text).
 */
import { createContext, useContext, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { tableCsv, type Cell } from '../export/csv';
import { downloadBlob } from '../export/download';
import { composeFigureSvg, withEmbeddedFonts } from '../export/svg';
import { svgToPng } from '../export/png';

export interface ExportLabels {
  png: string;
  svg: string;
  csv: string;
  /** label of the button group */
  toolbar: (title: string) => string;
  pngAria: (title: string) => string;
  svgAria: (title: string) => string;
  csvAria: (title: string) => string;
  failed: (message: string) => string;
}

export interface ExportTable {
  columns: string[];
  rows: () => Cell[][];
}

const TableSlot = createContext<RefObject<ExportTable | null> | null>(null);

/** A DataTable registers its data with the enclosing ExportFigure (no-op outside one). */
export function useExportTable(table: ExportTable): void {
  const slot = useContext(TableSlot);
  useEffect(() => {
    if (slot) slot.current = table;
  });
}

export type ExportKind = 'png' | 'svg' | 'csv';

export interface ExportFigureProps {
  title: string;
  /** file name for an extension: (ext) => 'performer-…-n256….png' */
  fileName: (ext: ExportKind) => string;
  labels: ExportLabels;
  /** more elements drawn below the figure in PNG / SVG (e.g. a colour bar shared by several heatmaps) */
  extras?: () => (Element | null)[];
  /** a line under the title in PNG / SVG (the parameters the figure shows), read when a file is saved */
  caption?: () => string;
  /** the figure has a data table (CSV button) */
  table?: boolean;
  /** more actions on the figure, beside the downloads (outside their group: e.g. embedding it) */
  actions?: ReactNode;
  children: ReactNode;
}

export function ExportFigure({
  title,
  fileName,
  labels,
  extras,
  caption,
  table = true,
  actions,
  children,
}: ExportFigureProps) {
  const body = useRef<HTMLDivElement>(null);
  const tableRef = useRef<ExportTable | null>(null);
  const [busy, setBusy] = useState<ExportKind | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = async (kind: ExportKind) => {
    setBusy(kind);
    setError(null);
    try {
      if (kind === 'csv') {
        const t = tableRef.current;
        if (!t) throw new Error('no data table');
        downloadBlob(new Blob([tableCsv(t.columns, t.rows())], { type: 'text/csv;charset=utf-8' }), fileName('csv'));
        return;
      }
      if (!body.current) throw new Error('the figure is not on the page');
      const composed = await withEmbeddedFonts(
        composeFigureSvg(
          body.current,
          title,
          (extras?.() ?? []).filter((e): e is Element => e !== null),
          caption?.(),
        ),
      );
      const blob =
        kind === 'svg'
          ? new Blob([`<?xml version="1.0" encoding="UTF-8"?>\n${composed.svg}`], { type: 'image/svg+xml' })
          : await svgToPng(composed, 2);
      downloadBlob(blob, fileName(kind));
    } catch (e) {
      setError(labels.failed(e instanceof Error ? e.message : String(e)));
    } finally {
      setBusy(null);
    }
  };

  const kinds: ExportKind[] = table ? ['png', 'svg', 'csv'] : ['png', 'svg'];
  const aria = { png: labels.pngAria, svg: labels.svgAria, csv: labels.csvAria };
  return (
    <div className="export-figure" data-export-figure={title}>
      {/* the row over the figure: its downloads (one labelled group) and, outside that group, other actions */}
      <div className="export-toolbar">
        <div className="export-downloads" role="group" aria-label={labels.toolbar(title)}>
          {kinds.map((k) => (
            <button
              key={k}
              type="button"
              className="small"
              data-export={k}
              aria-label={aria[k](title)}
              title={aria[k](title)}
              disabled={busy !== null}
              onClick={() => void run(k)}
            >
              {labels[k]}
            </button>
          ))}
        </div>
        {actions}
      </div>
      <TableSlot.Provider value={tableRef}>
        <div ref={body}>{children}</div>
      </TableSlot.Provider>
      {error && (
        <p className="note warn" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
