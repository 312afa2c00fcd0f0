/**
 * The page as an embedded figure (`?embed=<panel>`, or one of its figures alone with `&figure=<id>`):
 * one panel inside a <main> landmark with an h1,
 * a compact control strip, a status line and a credit linking to the full app with the same state.
 * It sizes its frame and listens to its parent through src/embed/bridge.ts, and computes only while
 * on screen (controller.setActive). `embed=<unknown>` names the valid panels instead of falling back;
 * `AllPanelsHidden` is the full page's counterpart for `hide=` listing every panel.
 */
import { useEffect, useLayoutEffect, useMemo, useState, type ReactNode } from 'react';
import { startEmbedBridge } from '../embed/bridge';
import { fullAppHref } from '../embed/snippet';
import { embedControlsFor, showsMainResult } from '../store/embed';
import { useActions, useController, useStore, useTrainingController } from '../store/react';
import { PANEL_IDS, type PanelId } from '../store/store';
import { writeUrl } from '../store/url';
import { EmbedControls } from './EmbedControls';
import { ComputeStatus } from '../panels/ComputeStatus';
import { useStrings } from '../ui/strings';
import { useComputeProgress } from '../ui/compute-progress';
import { figureAnchor, panelAnchor, useEmbedName, useFigureFocus } from '../ui/figure-focus';

function hrefWith(change: (q: URLSearchParams) => void): string {
  const url = new URL(window.location.href);
  change(url.searchParams);
  return url.toString();
}

/** Sizes the frame, takes validated messages from the parent, pauses the controller off screen. */
function useEmbedBridge(): boolean {
  const id = useStore((s) => s.ui.embedId);
  const actions = useActions();
  const controller = useController();
  const training = useTrainingController();
  const [visible, setVisible] = useState(true);
  useEffect(
    () =>
      startEmbedBridge({
        win: window,
        root: document.documentElement,
        id,
        onSet: (params) => actions.setParams(params),
        onVisible: (v) => {
          controller.setActive(v);
          training?.setVisible(v); // a training comparison pauses off screen too
          setVisible(v);
        },
      }),
    [id, actions, controller, training],
  );
  return visible;
}

function Credit({ badge }: { badge: ReactNode }) {
  const t = useStrings().embedding;
  const params = useStore((s) => s.params);
  const ui = useStore((s) => s.ui);
  // lands on what the frame showed: its figure, or its panel
  const anchor = ui.embed ? (ui.embedFigure ? figureAnchor(ui.embedFigure) : panelAnchor(ui.embed)) : undefined;
  const href = useMemo(
    () =>
      fullAppHref(new URL(writeUrl({ params, ui }, window.location.search), window.location.href).toString(), anchor),
    [params, ui, anchor],
  );
  return (
    <footer className="embed-credit note">
      <a href={href} target="_blank" rel="noopener" data-embed-credit="">
        {t.credit} — {t.openFull}
      </a>
      {badge}
    </footer>
  );
}

/**
 * Panels that quote the main comparison's result without showing its status themselves (the main
 * panel does): their embed shows the full compute status — a long run's Cancel, a held run's "Compute
 * anyway", what a cancel did — or a reader could neither start the run their numbers wait for nor stop it.
 */
const QUOTES_RESULT: readonly PanelId[] = ['error'];

function EmbedStatus({ visible, panel }: { visible: boolean; panel: PanelId }) {
  const t = useStrings();
  const c = useStore((s) => s.compute);
  const { showProgress } = useComputeProgress();
  // one figure alone quotes no headline number (its figure's own status line says what it runs)
  const figure = useFigureFocus();
  const quotes = QUOTES_RESULT.includes(panel) && figure === null;
  if (visible && quotes)
    return (
      <div className="embed-status">
        <ComputeStatus />
      </div>
    );
  const text = !visible ? t.embedding.paused : showProgress ? t.embedding.computing : '';
  return (
    <p className="embed-status note" aria-live="polite">
      {showProgress && visible && <span className="spinner" aria-hidden="true" />}
      {text}
      {c.error && (
        <span className="warn" role="alert" data-error-code={c.error.code}>
          {' '}
          {t.errors.title} {t.errors.codes[c.error.code] ?? t.errors.codes.internal}
        </span>
      )}
    </p>
  );
}

function UnknownPanel({ raw }: { raw: string }) {
  const t = useStrings().embedding;
  return (
    <section className="embed-unknown" aria-labelledby="embed-unknown-title" data-embed-unknown={raw}>
      <h2 id="embed-unknown-title">{t.unknownTitle}</h2>
      <p role="alert">{t.unknown(raw, PANEL_IDS.join(', '))}</p>
      <p>{t.unknownPick}</p>
      <ul>
        {PANEL_IDS.map((id) => (
          <li key={id}>
            <a href={hrefWith((q) => q.set('embed', id))}>
              {id} — {t.panelNames[id]}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function Embed({
  panels,
  notices,
  badge,
}: {
  panels: Record<PanelId, () => ReactNode>;
  notices: ReactNode;
  badge: ReactNode;
}) {
  const t = useStrings();
  const ui = useStore((s) => s.ui);
  const status = useStore((s) => s.compute.status);
  const hasResult = useStore((s) => s.compute.result !== null);
  const visible = useEmbedBridge();
  const panel = ui.embed;
  const figure = useFigureFocus();
  const embedName = useEmbedName();
  const heading = panel ? `${t.app.title}: ${embedName(panel, figure)}` : t.app.title;
  // the page around an embed: no margins, no scrollbars (styles.css html.embed-page)
  useLayoutEffect(() => {
    document.documentElement.classList.add('embed-page');
    return () => document.documentElement.classList.remove('embed-page');
  }, []);
  return (
    <div
      className={figure ? 'app embed embed-figure' : 'app embed'}
      data-embed={panel ?? ''}
      data-embed-figure={figure ?? ''}
    >
      <main
        className="embed-main"
        data-active={visible ? '1' : '0'}
        data-status={status}
        data-has-result={hasResult ? '1' : '0'}
        data-shows-result={showsMainResult(panel, figure) ? '1' : '0'}
      >
        <h1 className="sr-only">{heading}</h1>
        {notices}
        {panel ? (
          <>
            <EmbedControls ids={embedControlsFor(panel, ui.embedControls, figure)} />
            <EmbedStatus visible={visible} panel={panel} />
            {panels[panel]()}
          </>
        ) : (
          <UnknownPanel raw={ui.embedUnknown ?? ''} />
        )}
      </main>
      <Credit badge={badge} />
    </div>
  );
}

/** Shown in place of the panels when `hide=` lists every one of them. */
export function AllPanelsHidden() {
  const t = useStrings().embedding;
  const hidden = useStore((s) => s.ui.hidden);
  return (
    <section className="panel all-hidden" role="status" data-all-hidden="">
      <p>{t.allHidden(hidden.join(','))}</p>
      <a href={hrefWith((q) => q.delete('hide'))}>{t.showAll}</a>
    </section>
  );
}
