/**
 * "Embed" button and its dialog: pick a panel (or one of its figures alone), the controls shown with it and a frame id, and get
 * the <iframe> + sizing script for the current state (src/embed/snippet.ts), with a copy button
 * (navigator.clipboard, else the snippet is selected for Ctrl+C). A native modal <dialog>: focus
 * moves into it, Esc closes it, focus returns to the button.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { buildSnippet, embedSrc } from '../embed/snippet';
import {
  defaultEmbedControls,
  EMBED_CONTROL_IDS,
  embedFiguresOf,
  isEmbedId,
  panelOfFigure,
  type EmbedControlId,
  type EmbedFigureId,
} from '../store/embed';
import { useStore } from '../store/react';
import { PANEL_IDS, type PanelId } from '../store/store';
import { writeUrl } from '../store/url';
import { useStrings } from './strings';
import { useEmbedName, useFigureTitles } from './figure-focus';

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The frame id the dialog proposes: named for what it shows. */
const autoId = (panel: PanelId, figure: EmbedFigureId | null) => `performer-${figure ?? panel}`;

function EmbedDialog({
  initialPanel,
  initialFigure,
  onClose,
}: {
  initialPanel: PanelId;
  initialFigure: EmbedFigureId | null;
  onClose: () => void;
}) {
  const t = useStrings().embedding;
  const ref = useRef<HTMLDialogElement>(null);
  const area = useRef<HTMLTextAreaElement>(null);
  const uid = useId();
  const params = useStore((s) => s.params);
  const ui = useStore((s) => s.ui);
  const [panel, setPanel] = useState<PanelId>(initialPanel);
  /** one figure of the panel alone, or null: the whole panel */
  const [figure, setFigure] = useState<EmbedFigureId | null>(initialFigure);
  const figures = embedFiguresOf(panel);
  const titleOf = useFigureTitles();
  const [controls, setControls] = useState<readonly EmbedControlId[]>(
    defaultEmbedControls(initialPanel, initialFigure),
  );
  const [idText, setIdText] = useState(autoId(initialPanel, initialFigure));
  const [lastValidId, setLastValidId] = useState(idText);
  const [copyState, setCopyState] = useState<'' | 'copied' | 'selected'>('');

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);

  const idOk = isEmbedId(idText);
  useEffect(() => {
    if (idOk) setLastValidId(idText);
  }, [idOk, idText]);

  const spec = useMemo(
    () => ({
      pageHref: window.location.href,
      stateSearch: writeUrl({ params, ui }, window.location.search),
      panel,
      controls: sameList(controls, defaultEmbedControls(panel, figure)) ? null : controls,
      id: lastValidId,
      figure,
    }),
    [params, ui, panel, controls, lastValidId, figure],
  );
  const embedName = useEmbedName();
  const snippet = buildSnippet(spec, t.frameTitle(embedName(panel, figure)));
  useEffect(() => setCopyState(''), [snippet]);

  const choosePanel = (p: PanelId) => {
    setPanel(p);
    setFigure(null);
    setControls(defaultEmbedControls(p));
    if (idText === autoId(panel, figure)) setIdText(autoId(p, null));
  };
  // a figure with controls of its own brings them, unless the controls were already changed by hand
  const chooseFigure = (f: EmbedFigureId | null) => {
    if (sameList(controls, defaultEmbedControls(panel, figure))) setControls(defaultEmbedControls(panel, f));
    if (idText === autoId(panel, figure)) setIdText(autoId(panel, f));
    setFigure(f);
  };
  const toggle = (c: EmbedControlId, on: boolean) =>
    setControls((cur) => EMBED_CONTROL_IDS.filter((x) => (x === c ? on : cur.includes(x))));

  const selectAll = () => {
    area.current?.focus();
    area.current?.select();
    setCopyState('selected');
  };
  const copy = () => {
    if (!navigator.clipboard?.writeText) return selectAll();
    navigator.clipboard.writeText(snippet).then(() => setCopyState('copied'), selectAll);
  };

  return (
    <dialog ref={ref} className="embed-dialog" aria-labelledby={`${uid}-title`} onClose={onClose} data-embed-dialog="">
      <h2 id={`${uid}-title`}>{t.dialogTitle}</h2>
      <p className="note">{t.dialogLead}</p>
      <div className="embed-dialog-grid">
        <label htmlFor={`${uid}-panel`}>{t.panel}</label>
        <select
          id={`${uid}-panel`}
          value={panel}
          data-embed-panel=""
          onChange={(e) => choosePanel(e.target.value as PanelId)}
        >
          {PANEL_IDS.map((p) => (
            <option key={p} value={p}>
              {t.panelNames[p]}
            </option>
          ))}
        </select>
        {figures.length > 0 && (
          <>
            <label htmlFor={`${uid}-figure`}>{t.figure}</label>
            <div>
              <select
                id={`${uid}-figure`}
                value={figure ?? ''}
                // a long title is cut in the box: the whole of it on hover
                title={figure ? titleOf(figure) : t.wholePanel}
                aria-describedby={`${uid}-figure-help`}
                data-embed-figure-choice=""
                onChange={(e) => chooseFigure(figures.find((f) => f === e.target.value) ?? null)}
              >
                <option value="">{t.wholePanel}</option>
                {figures.map((f) => (
                  <option key={f} value={f}>
                    {titleOf(f)}
                  </option>
                ))}
              </select>
              <div id={`${uid}-figure-help`} className="note">
                {t.figureHint}
              </div>
            </div>
          </>
        )}
        <label htmlFor={`${uid}-id`}>{t.frameId}</label>
        <div>
          <input
            id={`${uid}-id`}
            type="text"
            value={idText}
            aria-invalid={!idOk}
            aria-describedby={`${uid}-id-help`}
            data-embed-frame-id=""
            onChange={(e) => setIdText(e.target.value)}
          />
          <div id={`${uid}-id-help`} className={idOk ? 'note' : 'note warn'} role={idOk ? undefined : 'alert'}>
            {idOk ? t.frameIdHint : t.frameIdInvalid}
          </div>
        </div>
      </div>
      <fieldset className="embed-dialog-controls">
        <legend>{t.controls}</legend>
        {EMBED_CONTROL_IDS.map((c) => (
          <label key={c} className="check">
            <input
              type="checkbox"
              checked={controls.includes(c)}
              data-embed-control={c}
              onChange={(e) => toggle(c, e.target.checked)}
            />{' '}
            {t.controlNames[c]}
          </label>
        ))}
        <span className="note">{t.controlsHint}</span>
      </fieldset>
      <label htmlFor={`${uid}-code`}>{t.snippet}</label>
      <textarea
        id={`${uid}-code`}
        ref={area}
        className="embed-snippet"
        readOnly
        rows={14}
        value={snippet}
        data-embed-snippet=""
        spellCheck={false}
      />
      <div className="embed-dialog-actions">
        <button type="button" onClick={copy} data-action="copy-snippet">
          {t.copy}
        </button>
        <span className="note" aria-live="polite" data-copy-state={copyState}>
          {copyState === 'copied' ? t.copied : copyState === 'selected' ? t.copyFallback : ''}
        </span>
        <a href={embedSrc(spec)} target="_blank" rel="noopener">
          {t.preview}
        </a>
        <button type="button" onClick={() => ref.current?.close()} data-action="close-dialog">
          {t.close}
        </button>
      </div>
    </dialog>
  );
}

/**
 * Opens the embed dialog for `panel` (the page header's button: the main comparison), or for one
 * figure alone (a figure's button beside its downloads: its panel, that figure chosen). Hidden inside embeds.
 */
export function EmbedButton({ panel: panelProp, figure }: { panel?: PanelId; figure?: EmbedFigureId }) {
  const t = useStrings().embedding;
  const inEmbed = useStore((s) => s.ui.embed !== null || s.ui.embedUnknown !== null);
  const titleOf = useFigureTitles();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  if (inEmbed) return null;
  const panel = figure ? panelOfFigure(figure) : panelProp;
  const hint = figure ? t.openHint(titleOf(figure)) : panel ? t.openHint(t.panelNames[panel] ?? panel) : t.openHintAll;
  return (
    <>
      <button
        ref={button}
        type="button"
        className={panel ? 'small embed-open' : 'embed-open'}
        aria-haspopup="dialog"
        title={hint}
        aria-label={panel ? hint : undefined}
        data-action="open-embed"
        // a panel's button (or the header's, ''); a figure's is named by data-embed-figure-for
        data-embed-for={figure ? undefined : (panel ?? '')}
        data-embed-figure-for={figure}
        onClick={() => setOpen(true)}
      >
        {t.open}
      </button>
      {open && (
        <EmbedDialog
          initialPanel={panel ?? 'main'}
          initialFigure={figure ?? null}
          onClose={() => {
            setOpen(false);
            button.current?.focus();
          }}
        />
      )}
    </>
  );
}
