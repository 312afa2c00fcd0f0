/**
 * "Download state (JSON)": the experiment on screen with every matrix dense (schema in README.md,
 * "Export"). The engine computes the matrices on request (they are never part of a normal result);
 * the page adds the headline numbers exactly as it shows them — read from the `data-metric` /
 * `data-value` attributes of the panel's metrics, so the file and the screen cannot disagree. Above
 * n = EXPORT_MAX_N the button is disabled and says why.
 */
import { useId, useRef, useState } from 'react';
import { useStrings } from '../ui/strings';
import { EXPORT_MAX_N } from '../engine/export-state';
import { downloadBlob } from '../export/download';
import { exportFileName } from '../export/filename';
import { fmtInt } from '../charts/format';
import { useController, useStore } from '../store/react';

/** The headline numbers of the panel around `el`, keyed by data-metric name ('' → null). */
function shownMetrics(el: Element | null): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  const panel = el?.closest('[data-panel]');
  for (const m of panel?.querySelectorAll('.metrics [data-metric]') ?? []) {
    const v = m.getAttribute('data-value');
    out[m.getAttribute('data-metric')!] = v === null || v === '' ? null : Number(v);
  }
  return out;
}

export function StateExport() {
  const s = useStrings().export;
  const controller = useController();
  const result = useStore((st) => st.compute.result);
  const ref = useRef<HTMLDivElement>(null);
  const noteId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const n = result?.params.n ?? 0;
  const why = !result ? s.jsonWaiting : n > EXPORT_MAX_N ? s.jsonLimit(fmtInt(EXPORT_MAX_N), fmtInt(n)) : null;

  const run = async () => {
    if (!result) return;
    setBusy(true);
    setError(null);
    try {
      const json = await controller.exportState(shownMetrics(ref.current));
      downloadBlob(new Blob([json], { type: 'application/json' }), exportFileName('state', result.params, 'json'));
    } catch (e) {
      setError(s.failed(e instanceof Error ? e.message : String(e)));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="state-export" ref={ref}>
      <button
        type="button"
        className="small"
        data-export="json"
        disabled={why !== null || busy}
        aria-describedby={noteId}
        onClick={() => void run()}
      >
        {busy ? s.jsonBusy : s.json}
      </button>
      <span id={noteId} className="note">
        {why ?? s.jsonHint}
      </span>
      {error && (
        <p className="note warn" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
