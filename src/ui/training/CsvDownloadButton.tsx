import { downloadBlob } from '../../export/download';

/** A small button that downloads `csv()` (built on click) as a UTF-8 CSV file named `fileName`. */
export function CsvDownloadButton(props: { action: string; label: string; csv: () => string; fileName: string }) {
  return (
    <button
      type="button"
      className="small"
      data-action={props.action}
      onClick={() => downloadBlob(new Blob([props.csv()], { type: 'text/csv;charset=utf-8' }), props.fileName)}
    >
      {props.label}
    </button>
  );
}
