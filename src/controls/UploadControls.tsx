/**
 * "Your own Q and K": a drop zone with one keyboard-accessible picker per slot (Q, K, V), the files
 * in use, the reason a file was refused (right beside the zone, announced), and "Remove uploaded
 * data". Files dropped anywhere on the page land here too. Reading bytes is the only thing done in
 * the component; validation and state live in src/core/upload.ts and src/store/upload.ts.
 */
import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react';
import { useStrings } from '../ui/strings';
import { fmt } from '../charts/format';
import { assignSlots, UPLOAD_SLOTS, type UploadSlot } from '../core/upload';
import { useAppStore, useStore } from '../store/react';
import { createUploadActions, type UploadFileInput } from '../store/upload';
import { isUploadLocked, type StagedMatrix } from '../store/upload-state';

async function readAll(
  files: { slot: UploadSlot; file: File }[],
): Promise<UploadFileInput[] | { slot: UploadSlot; name: string; detail: string }> {
  const out: UploadFileInput[] = [];
  for (const { slot, file } of files) {
    try {
      out.push({ slot, name: file.name, buffer: await file.arrayBuffer() });
    } catch (e) {
      return { slot, name: file.name, detail: e instanceof Error ? e.message : String(e) };
    }
  }
  return out;
}

function FileLine({ staged }: { staged: StagedMatrix | undefined }) {
  const t = useStrings().upload;
  if (!staged) return <span className="note">{t.empty}</span>;
  const f = staged.file;
  return (
    <span className="upload-file" title={f.notes.map((n) => t.notes[n]).join('; ') || undefined}>
      {t.fileInfo(f.name, f.rows, f.cols, t.kinds[f.dtype])}
      {f.notes
        .filter((n) => n !== 'float64')
        .map((n) => (
          <span key={n} className="note">
            {' '}
            · {t.notes[n]}
          </span>
        ))}
    </span>
  );
}

export function UploadControls() {
  const t = useStrings().upload;
  const store = useAppStore();
  const actions = useMemo(() => createUploadActions(store), [store]);
  const upload = useStore((s) => s.upload);
  const inputs = useRef<Partial<Record<UploadSlot, HTMLInputElement | null>>>({});
  const box = useRef<HTMLDivElement>(null);
  const [over, setOver] = useState(false);
  const [tooMany, setTooMany] = useState(false);

  const load = async (files: { slot: UploadSlot; file: File }[]) => {
    setTooMany(false);
    const read = await readAll(files);
    if (!Array.isArray(read)) actions.rejectUnreadable(read.slot, read.name, read.detail);
    else actions.addFiles(read);
  };

  const dropFiles = (list: FileList | null | undefined, slot?: UploadSlot) => {
    const files = Array.from(list ?? []);
    if (!files.length) return;
    if (slot && files.length === 1) return void load([{ slot, file: files[0]! }]);
    const slots = assignSlots(files.map((f) => f.name));
    if (!slots) return setTooMany(true);
    void load(files.map((file, i) => ({ slot: slots[i]!, file })));
  };

  // files dropped anywhere on the page are loaded as well (and the message is brought into view)
  useEffect(() => {
    const onOver = (e: globalThis.DragEvent) => {
      if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
    };
    const onDrop = (e: globalThis.DragEvent) => {
      if (!e.dataTransfer?.files.length || e.defaultPrevented) return;
      e.preventDefault();
      box.current?.scrollIntoView({ block: 'nearest' });
      dropFiles(e.dataTransfer.files);
    };
    window.addEventListener('dragover', onOver);
    window.addEventListener('drop', onDrop);
    return () => {
      window.removeEventListener('dragover', onOver);
      window.removeEventListener('drop', onDrop);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [actions]);

  const onZoneDrop = (e: DragEvent, slot?: UploadSlot) => {
    e.preventDefault();
    e.stopPropagation();
    setOver(false);
    dropFiles(e.dataTransfer.files, slot);
  };

  // a trained head (input=trained) travels as upload.active too, but is no file: the head picker shows it
  const active = upload.active?.trained ? null : upload.active;
  const shown: Partial<Record<UploadSlot, StagedMatrix>> = Object.keys(upload.staged).length
    ? upload.staged
    : active
      ? { q: active.q, k: active.k, ...(active.v ? { v: active.v } : {}) }
      : {};
  const waiting = (['q', 'k'] as const).filter((s) => !shown[s]);
  const err = upload.error;

  return (
    <section
      className="upload"
      aria-labelledby="upload-heading"
      data-upload-state={active ? 'active' : Object.keys(upload.staged).length ? 'staged' : 'none'}
    >
      <h2 id="upload-heading" className="controls-title">
        {t.heading}
      </h2>
      <p className="help">{t.intro}</p>
      <div
        ref={box}
        className={`drop-zone${over ? ' over' : ''}`}
        data-drop-zone=""
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => onZoneDrop(e)}
      >
        <p className="note">{over ? t.dropActive : t.drop}</p>
        <ul className="upload-slots">
          {UPLOAD_SLOTS.map((slot) => (
            <li
              key={slot}
              data-upload-slot={slot}
              onDragOver={(e) => e.preventDefault()}
              onDrop={(e) => onZoneDrop(e, slot)}
            >
              <strong>{t.slotNames[slot]}</strong>{' '}
              <button
                type="button"
                className="small"
                // the accessible name starts with the visible text (WCAG 2.5.3, label in name)
                aria-label={`${t.choose(slot.toUpperCase())} ${t.chooseAria(t.slotNames[slot])}`}
                onClick={() => inputs.current[slot]?.click()}
              >
                {t.choose(slot.toUpperCase())}
              </button>
              <input
                ref={(el) => {
                  inputs.current[slot] = el;
                }}
                type="file"
                className="sr-only"
                tabIndex={-1}
                aria-hidden="true"
                accept=".npy,.csv,.tsv,.txt,text/csv,text/plain,application/octet-stream"
                data-upload-input={slot}
                onChange={(e) => {
                  dropFiles(e.target.files, slot);
                  e.target.value = ''; // the same file again is a new choice
                }}
              />
              <div className="upload-file-line">
                {slot === 'v' && !shown.v && (active || shown.q || shown.k) ? (
                  <span className="note">{t.vDefault}</span>
                ) : (
                  <FileLine staged={shown[slot]} />
                )}
              </div>
            </li>
          ))}
        </ul>
      </div>
      <div aria-live="assertive" role="alert" className="upload-messages">
        {err && (
          <div className="notice notice-error" data-upload-error={err.problem.code} data-upload-seq={err.seq}>
            <span>{t.rejected(err.file, t.problem(err.problem))}</span>
            <button type="button" className="small" aria-label={t.dismiss} onClick={() => actions.dismissError()}>
              ×
            </button>
          </div>
        )}
        {tooMany && (
          <div className="notice notice-error" data-upload-error="too-many-files">
            {t.tooMany}
          </div>
        )}
      </div>
      {Object.keys(upload.staged).length > 0 && waiting.length > 0 && (
        <p className="note" data-upload-waiting={waiting.join(',')}>
          {t.waiting(waiting.map((s) => t.slotNames[s]).join(', '))}
        </p>
      )}
      {active && (
        <p className="note" data-upload-active={active.id}>
          {t.active(active.n, active.d, fmt(active.rms))}
        </p>
      )}
      {(active || Object.keys(upload.staged).length > 0) && (
        <button type="button" data-action="remove-upload" onClick={() => actions.remove()}>
          {t.remove}
        </button>
      )}
    </section>
  );
}

/** Whether `param` follows uploaded files right now (the controls disable it and say why). */
export function useUploadLocked(param: string): boolean {
  const active = useStore((s) => s.upload.active !== null);
  return active && isUploadLocked(param);
}
